"""The Ray backend gives the local backend's results, byte for byte; errors are clear."""

from __future__ import annotations

import multiprocessing
import os
import signal

import pytest

from freetrader.cli import main
from freetrader.core.errors import BadOption
from freetrader.sim import SimulationError, simulate
from freetrader.sim.backends import run_tasks

SEATS = "heuristic,random,random,heuristic"


def test_ray_and_local_write_identical_files(capsys, tmp_path):
    pytest.importorskip("ray", reason="the analysis extra (ray) is not installed")  # CI installs it
    outs = {}
    for backend in ("local", "ray"):
        out = tmp_path / f"{backend}.jsonl"
        argv = ["simulate", "contraband", "-n", "8", "--seats", SEATS, "--seed", "5", "--out", str(out),
                "--workers", "2", "--backend", backend, "--no-progress"]
        assert main(argv) == 0, capsys.readouterr().err
        outs[backend] = out.read_bytes()
    assert outs["ray"] == outs["local"]
    assert len(outs["ray"].splitlines()) == 8
    # Resuming a run on the other backend continues it exactly.
    part = tmp_path / "part.jsonl"
    part.write_bytes(b"".join(outs["local"].splitlines(keepends=True)[:5]))
    assert main(["simulate", "contraband", "-n", "8", "--seats", SEATS, "--seed", "5", "--out", str(part),
                 "--backend", "ray", "--no-progress"]) == 0
    assert part.read_bytes() == outs["local"]


def test_backend_errors():
    with pytest.raises(SimulationError, match="unknown backend"):
        list(simulate("contraband", ["random"] * 3, 2, backend="spark"))
    with pytest.raises(SimulationError, match="for --backend ray"):
        list(run_tasks(iter([]), 1, backend="local", address="10.0.0.1:6379"))


def _tasks(n: int, seats: list[str] | None = None) -> list:
    return [("contraband", seats or ["random"] * 3, seed, {}, 100_000) for seed in range(n)]


def test_local_workers_give_the_serial_results_in_order():
    assert list(run_tasks(_tasks(9), 9, workers=3, chunksize=2)) == list(run_tasks(_tasks(9), 9, workers=1))


def test_closing_a_local_run_early_leaves_no_worker_behind():
    results = run_tasks(_tasks(400), 400, workers=2, chunksize=1)
    assert [next(results)["seed"] for _ in range(3)] == [0, 1, 2]
    results.close()
    assert multiprocessing.active_children() == []


def test_an_error_in_a_worker_is_raised_here_with_its_message():
    with pytest.raises(BadOption, match="unknown bot 'nope'"):
        list(run_tasks(_tasks(6, ["random", "nope", "random"]), 6, workers=2))
    assert multiprocessing.active_children() == []


def test_a_worker_killed_mid_run_is_a_clear_error_not_a_hang():
    results = run_tasks(_tasks(400), 400, workers=2, chunksize=1)
    next(results)
    os.kill(multiprocessing.active_children()[0].pid, signal.SIGKILL)
    with pytest.raises(SimulationError, match="a worker process stopped"):
        list(results)
    assert multiprocessing.active_children() == []
