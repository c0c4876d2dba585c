"""A worker's pipe carries calls and answers of any size, under asyncio's loop and under uvloop.

uvicorn runs on uvloop when it is installed (the ``web`` extra installs it), and uvloop makes each fd
given to ``add_reader`` non-blocking. The pool read its answers with a blocking ``Connection.recv``:
an answer bigger than the socket held at once raised ``BlockingIOError``, and a live worker was
taken for dead ("the replay worker stopped", 503). A record sent for replay (up to 1 MB) failed the
same way on the way in. These tests send and receive several megabytes, and check that no worker
was replaced.
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import Callable, Coroutine
from typing import Any

import pytest

from freetrader.server.workers import WorkerLost, WorkerPool


def _echo(data: bytes) -> bytes:
    return data


def _grow(size: int) -> bytes:
    return bytes(range(256)) * (size // 256)


def _exit_now() -> None:
    os._exit(3)


def _loops() -> list[Any]:
    loops: list[Any] = [pytest.param(asyncio.new_event_loop, id="asyncio")]
    try:
        import uvloop
    except ImportError:  # pragma: no cover - the web extra installs it
        loops.append(pytest.param(None, id="uvloop", marks=pytest.mark.skip(reason="uvloop is not installed")))
    else:
        loops.append(pytest.param(uvloop.new_event_loop, id="uvloop"))
    return loops


def _run(new_loop: Callable[[], asyncio.AbstractEventLoop], main: Callable[[], Coroutine[Any, Any, None]]) -> None:
    loop = new_loop()
    try:
        loop.run_until_complete(main())
    finally:
        loop.close()


@pytest.mark.parametrize("new_loop", _loops())
def test_answers_and_calls_bigger_than_the_socket_holds_arrive_whole(new_loop: Any) -> None:
    big = _grow(3 * 1024 * 1024)  # far above a Unix socket's buffer (about 200 KiB)

    async def main() -> None:
        pool = WorkerPool(2, "test")
        try:
            answers = await asyncio.gather(*(pool.run(_grow, 3 * 1024 * 1024 + 256 * k, timeout=60) for k in range(4)))
            assert [len(a) for a in answers] == [3 * 1024 * 1024 + 256 * k for k in range(4)]
            assert answers[0] == big
            echoed = await asyncio.gather(*(pool.run(_echo, big, timeout=60) for _ in range(3)))
            assert all(e == big for e in echoed)
            assert pool.replaced == 0
        finally:
            pool.close()

    _run(new_loop, main)


@pytest.mark.parametrize("new_loop", _loops())
def test_a_worker_that_really_dies_is_still_reported_and_replaced(new_loop: Any) -> None:
    async def main() -> None:
        pool = WorkerPool(1, "test")
        try:
            with pytest.raises(WorkerLost, match="exit status 3"):
                await pool.run(_exit_now, timeout=60)
            assert pool.replaced == 1
            assert await pool.run(_echo, b"after", timeout=60) == b"after"
        finally:
            pool.close()

    _run(new_loop, main)
