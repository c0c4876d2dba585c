"""Fair bot scheduling (issue 35, item 2): the worker pool's queue, deadlines and replacements.

Twelve slow tables from one address used to push every table's decisions past the deadline, which counted
the wait in the queue, and the pool replaced at a missed deadline killed the decisions of other tables.
These tests check orders and outcomes, not durations: each sleep is far from the deadline it is held to.
"""

from __future__ import annotations

import asyncio
import os
import time

import pytest

from freetrader.server.workers import Deadline, WorkerPool


def _nap(seconds: float, tag: str) -> tuple[str, float, int]:
    started = time.monotonic()  # CLOCK_MONOTONIC: one clock for every process of the machine
    time.sleep(seconds)
    return tag, started, os.getpid()


def test_the_deadline_counts_thinking_not_the_wait_in_the_queue() -> None:
    async def run() -> list[str]:
        pool = WorkerPool(1, "test")
        try:
            # twelve calls of 0.3 s on one worker: the last waits about 3.3 s, beyond its 3 s deadline,
            # but each thinks for a tenth of it
            out = await asyncio.gather(*(pool.run(_nap, 0.3, f"c{i}", timeout=3.0, who="hog", table=f"t{i}")
                                         for i in range(12)))
            assert pool.replaced == 0
            return [tag for tag, _, _ in out]
        finally:
            pool.close()

    assert asyncio.run(run()) == [f"c{i}" for i in range(12)]


def test_one_address_with_many_tables_does_not_keep_another_waiting() -> None:
    async def run() -> None:
        pool = WorkerPool(2, "test")
        try:
            hog = [asyncio.ensure_future(pool.run(_nap, 0.2, f"hog{i}", timeout=30, who="198.51.100.1",
                                                  table=f"h{i}")) for i in range(12)]
            await asyncio.sleep(0)
            other = await pool.run(_nap, 0.0, "other", timeout=30, who="198.51.100.2", table="o")
            done = await asyncio.gather(*hog)
            # the hog had both workers while nobody else waited; then the other address got the first
            # worker to come free: at most three of the hog's decisions started before it, not twelve
            assert sum(started < other[1] for _, started, _ in done) <= 3
        finally:
            pool.close()

    asyncio.run(run())


def test_a_worker_past_its_deadline_is_replaced_alone() -> None:
    async def run() -> None:
        pool = WorkerPool(2, "test")
        try:
            stuck = asyncio.ensure_future(pool.run(_nap, 60.0, "stuck", timeout=0.5, who="a", table="1"))
            other = asyncio.ensure_future(pool.run(_nap, 3.0, "other", timeout=60, who="b", table="2"))
            with pytest.raises(Deadline, match="no answer within 0.5 s"):
                await stuck
            tag, _, pid = await other  # the decision in flight on the other worker was not killed
            assert tag == "other" and pool.replaced == 1
            assert pid in [w.proc.pid for w in pool._all]  # its worker is still in the pool
            assert (await pool.run(_nap, 0.0, "after", timeout=30, who="a", table="1"))[0] == "after"
        finally:
            pool.close()

    asyncio.run(run())


def test_bot_workers_leave_the_event_loop_a_core(monkeypatch: pytest.MonkeyPatch) -> None:
    # with every core searching, the host took cores back in ~100 ms slices and the server's
    # acknowledgements waited them out (benchmarks/busy_cores_lag.py)
    from freetrader.server import workers

    for cores, expected in ((None, 1), (1, 1), (2, 1), (8, 7)):
        monkeypatch.setattr(workers.os, "cpu_count", lambda cores=cores: cores)
        assert workers.default_bot_workers() == expected
