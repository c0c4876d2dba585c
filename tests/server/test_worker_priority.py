"""Worker processes yield the CPU to the server: under Linux the idle policy, elsewhere ``nice``.

Niced by 5, two busy bot workers on two cores still kept the server's event loop waiting on the run
queue longer than it ran (issue 35); under ``SCHED_IDLE`` a waking server preempts them at once.
"""

from __future__ import annotations

import asyncio
import os

import pytest

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
def test_a_worker_runs_under_the_idle_policy_and_the_server_does_not() -> None:
    policy, _nice = _in_a_worker()
    assert policy == os.SCHED_IDLE
    assert os.sched_getscheduler(0) != os.SCHED_IDLE  # the server (here: the test) keeps its own


@pytest.mark.skipif(hasattr(os, "SCHED_IDLE"), reason="where the idle policy exists, it is used instead")
def test_without_the_idle_policy_a_worker_is_niced() -> None:
    _policy, nice = _in_a_worker()
    assert nice == min(19, os.nice(0) + WORKER_NICENESS)
