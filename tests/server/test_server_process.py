"""What keeps the server's event loop on time beside busy workers and many live objects (issue 35).

Worker processes yield the CPU to the server: those of ``freetrader serve`` under Linux's idle policy,
otherwise (a test's app, another system) ``nice``.
Niced by 5, two busy bot workers on two cores still kept the server's event loop waiting on the run
queue longer than it ran; under ``SCHED_IDLE`` a waking server preempts them at once.

``freetrader serve`` freezes what exists before it serves (modules, the games' caches) out of the
cyclic collector's sight: each full collection had walked them all, pausing the loop.
"""

from __future__ import annotations

import asyncio
import os
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from freetrader.server import workers
from freetrader.server.workers import WORKER_NICENESS, WorkerPool


def _priority() -> tuple[int | None, int]:
    policy = os.sched_getscheduler(0) if hasattr(os, "sched_getscheduler") else None
    return policy, os.nice(0)


def _in_a_worker() -> tuple[int | None, int]:
    async def main() -> tuple[int | None, int]:
        pool = WorkerPool(1, "test")
        try:
            return await pool.run(_priority, timeout=60)
        finally:
            pool.close()

    return asyncio.run(main())


@pytest.mark.skipif(not hasattr(os, "SCHED_IDLE"), reason="the idle policy is Linux's")
def test_a_serving_process_s_workers_run_under_the_idle_policy(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(workers, "_idle_policy", False)  # restored after the test: other tests keep nice
    workers.prefer_idle_workers()
    policy, _nice = _in_a_worker()
    assert policy == os.SCHED_IDLE
    assert os.sched_getscheduler(0) != os.SCHED_IDLE  # the server (here: the test) keeps its own


def test_otherwise_a_worker_is_niced_below_the_server(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(workers, "_idle_policy", False)
    policy, nice = _in_a_worker()
    assert nice == min(19, os.nice(0) + WORKER_NICENESS)
    if hasattr(os, "SCHED_IDLE"):
        assert policy != os.SCHED_IDLE


def _python(code: str, cwd: Path) -> str:
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300, cwd=cwd)
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_settling_fills_the_games_caches_and_freezes_what_exists(tmp_path: Path) -> None:
    out = _python(
        "import gc\n"
        "from freetrader.server.context import settle_server_process\n"
        "from freetrader.games.cornish_smuggler.packing import _placements\n"
        "assert gc.get_freeze_count() == 0 and _placements.cache_info().currsize == 0\n"
        "import sys\n"
        "from freetrader.server import workers\n"
        "assert gc.get_threshold() == (700, 10, 10) and sys.getswitchinterval() == 0.005\n"
        "settle_server_process()\n"
        "print(gc.get_freeze_count(), len(gc.get_objects()), _placements.cache_info().currsize, "
        "int(workers._idle_policy), gc.get_threshold()[0], int(sys.getswitchinterval() * 1e6))\n", tmp_path)
    frozen, tracked, placements, idle, young, switch = map(int, out.split())
    assert young == 10_000  # play's short-lived objects die before the collector looks (context.GC_THRESHOLDS)
    assert switch == 500  # the database thread waits at most 0.5 ms for the lock (context.SWITCH_INTERVAL)
    assert idle == 1  # the workers it forks from now on run under the idle policy
    assert placements > 0  # Cornish Smuggler's hold packings, warmed
    assert frozen > 10_000  # the modules alone make tens of thousands
    assert tracked < frozen / 10  # a full collection now walks only what comes after


def _serve_reports(tmp_path: Path, report: str, args: tuple[str, ...] = ()) -> str:
    """What ``report`` (an expression, run where uvicorn would start serving) prints in a ``serve`` process."""
    pytest.importorskip("uvicorn")
    with socket.socket() as probe:  # a free port: serve checks that it can listen there
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    # uvicorn's run replaced by the report: nothing is served
    out = _python(
        "import gc, sys, uvicorn\n"
        "from freetrader.server import workers\n"
        f"uvicorn.Server.run = lambda self: print('report', {report})\n"
        "from freetrader.cli import main\n"
        f"sys.exit(main(['serve', '--db', 'sqlite:///{tmp_path}/t.db', '--host', '127.0.0.1', '--port', '{port}', "
        f"*{list(args)!r}]))\n", tmp_path)
    return out.split("report ")[1].split()[0]


def test_serve_settles_the_process_before_uvicorn_runs(tmp_path: Path) -> None:
    assert int(_serve_reports(tmp_path, "gc.get_freeze_count()")) > 10_000


@pytest.mark.parametrize("how, idle", [((), 1), (("--worker-cpu", "nice"), 0), (("--worker-cpu", "idle"), 1)])
def test_serve_s_worker_cpu_setting_says_whether_workers_run_idle(tmp_path: Path, how: tuple[str, ...],
                                                                  idle: int) -> None:
    assert int(_serve_reports(tmp_path, "int(workers._idle_policy)", how)) == idle


def test_a_worker_cpu_value_serve_does_not_know_is_one_line_naming_the_choices(tmp_path: Path) -> None:
    pytest.importorskip("uvicorn")
    env = {**os.environ, "FREETRADER_WORKER_CPU": "fast"}
    done = subprocess.run([sys.executable, "-m", "freetrader.server", "--db", f"sqlite:///{tmp_path}/t.db"],
                          capture_output=True, text=True, timeout=300, cwd=tmp_path, env=env)
    assert done.returncode != 0
    assert done.stderr.strip().splitlines()[-1].endswith("FREETRADER_WORKER_CPU must be one of idle, nice, got 'fast'")
    assert "Traceback" not in done.stderr
