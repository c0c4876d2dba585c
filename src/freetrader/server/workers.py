"""Work the event loop must not do: bot decisions and replays, in worker processes with deadlines.

The server keeps two ``WorkerPool``s: one for bots (``--bot-workers``, default
the number of cores) and one for heavy requests such as ``POST /api/replay``
(``--heavy-workers``). A pool is a ``ProcessPoolExecutor`` whose processes
are forked together at its first call, from the event loop's thread, and die
with the server (``PR_SET_PDEATHSIG``), so a ``kill -9`` of the server
leaves no worker holding its port or its files.

Every call has a deadline. A worker that misses it may be stuck for good, and
a process cannot be interrupted from outside, so the whole pool is replaced:
its processes are killed and a new pool is forked; the calls that were
running on the old one fail with ``WorkerLost`` and their callers retry.

Bots get what they got in the thread pool before: ``bot_decision`` is handed
the determinization the server drew for the deciding seat (``decide``'s
contract), never the true state, and builds the bot from its spec in the
worker. Bot parameters are capped (``BOT_CAPS``) before a table is made.
"""

from __future__ import annotations

import asyncio
import contextlib
import ctypes
import multiprocessing
import os
import signal
import socket
import stat
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any, TypeVar

import freetrader
from freetrader.bots import make_bot
from freetrader.core import FreetraderError, State

from . import log as readable
from .errors import bad_request

__all__ = ["BOT_CAPS", "Deadline", "WorkerLost", "WorkerPool", "bot_decision", "check_bot_spec", "replay_view"]

T = TypeVar("T")

#: The largest value of each numeric bot parameter this server accepts (a table asking for more is refused
#: with 400). ``ms`` and ``iters`` bound a decision's time; ``depth`` a rollout's length; the others are
#: weights or switches. Text parameters (``playout``, ``opponents``, ``reward``) take one of a few words,
#: which the bot itself checks. Bots not listed here take no parameters.
BOT_CAPS: dict[str, dict[str, tuple[float, float]]] = {
    "ismcts": {
        "ms": (1, 2000),
        "iters": (1, 20000),
        "depth": (0, 200),
        "c": (0, 10),
        "prior": (0, 1),
        "belief": (0, 1),
        "seed": (0, 2**53),
    },
}
_WORDS = {"ismcts": ("playout", "opponents", "reward")}


#: How much lower than the server the workers' CPU priority is (``nice``).
WORKER_NICENESS = 5


class Deadline(Exception):
    """A worker did not answer in time; its pool was replaced."""


class WorkerLost(Exception):
    """The worker process running a call died (or its pool was replaced meanwhile)."""


def _number(text: str) -> float | None:
    try:
        return float(text)
    except ValueError:
        return None


def check_bot_spec(spec: str) -> None:
    """Refuse (400) a bot spec with a parameter this server does not cap, or one above its cap."""
    name, _, params_text = spec.strip().partition(":")
    if not params_text:
        return
    caps = BOT_CAPS.get(name)
    if caps is None:
        raise bad_request(f"bot {name!r} takes no parameters at this table, got {params_text!r}")
    for part in params_text.split(";" if ";" in params_text else ","):
        key, _, value = (p.strip() for p in part.partition("="))
        if key in _WORDS.get(name, ()):
            continue
        if key not in caps:
            allowed = ", ".join([*caps, *_WORDS.get(name, ())])
            raise bad_request(f"{name} parameter {key!r} is not accepted at this table; it takes {allowed}")
        low, high = caps[key]
        number = _number(value)
        if number is None or not low <= number <= high:
            raise bad_request(f"{name} parameter {key}={value} is outside what this server allows: "
                              f"{low:g} to {high:g}")


# -- run in the worker processes ------------------------------------------------------
def _close_network_sockets() -> None:
    """Close the server's TCP sockets that the fork copied into this worker.

    A fork copies every open descriptor: the listening socket and each client's connection. When the
    server then closes an idle kept-alive connection, the worker's copy keeps it open, so no FIN goes out;
    the browser sends its next request on that connection and nobody ever reads it (a player following
    the Replay link from a finished table waited forever). The pool talks to its workers over pipes,
    never over sockets, and a PostgreSQL socket closed here stays open in the server.
    """
    for fd in network_sockets():
        with contextlib.suppress(OSError):
            os.close(fd)


def network_sockets() -> list[int]:
    """The descriptors of this process's TCP sockets (IPv4 or IPv6)."""
    found = []
    for name in os.listdir("/proc/self/fd") if os.path.isdir("/proc/self/fd") else ():
        fd = int(name)
        try:
            if not stat.S_ISSOCK(os.fstat(fd).st_mode):
                continue
            probe = socket.socket(fileno=fd)
        except OSError:
            continue  # the listing's own descriptor, gone by now
        try:
            if probe.family in (socket.AF_INET, socket.AF_INET6):
                found.append(fd)
        finally:
            probe.detach()
    return found


def _worker_start() -> None:
    """In each worker: hold none of the server's connections, die with the server, leave Ctrl-C to the
    server, yield the CPU to it."""
    _close_network_sockets()
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    with contextlib.suppress(OSError):
        os.nice(WORKER_NICENESS)  # when cores are short, the event loop (acks, broadcasts) goes first
    with contextlib.suppress(OSError, AttributeError):
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG: killed when the server goes
    if os.getppid() == 1:  # the server died before the line above ran
        os._exit(0)


def _ready(_n: int = 0) -> int:
    return os.getpid()


def bot_decision(spec: str, game_slug: str, seed: int, world: State, seat: int) -> str:
    """The notation of ``spec``'s choice for ``seat`` in ``world`` (a determinization for ``seat``)."""
    bot = make_bot(spec, freetrader.game(game_slug), seed)
    return str(bot.choose(world, seat))


def replay_view(record: dict[str, Any], upto: int | None) -> dict[str, Any]:
    """``POST /api/replay``'s answer, or ``{"error": ...}`` for a record that does not replay."""
    actions = record.get("actions")
    total = len(actions) if isinstance(actions, list) else 0
    if upto is None:
        upto = total
    try:  # the readable log (server/log.py) is a spectator's: a record's replay shows no private line
        state, lines = readable.record_log(record, upto)
    except FreetraderError as exc:
        return {"error": str(exc)}
    except (TypeError, ValueError, KeyError, AttributeError, IndexError) as exc:
        return {"error": f"the record cannot be replayed: {exc}"}
    return {"upto": upto, "total": total, "view": state.view(None), "log": lines,
            "results": readable.results_of(state)}


# -- the pool, in the server ------------------------------------------------------------
class WorkerPool:
    """``workers`` forked processes; ``await pool.run(fn, *args, timeout=s)`` runs ``fn`` in one of them."""

    def __init__(self, workers: int, name: str) -> None:
        if workers < 1:
            raise ValueError(f"{name} workers must be at least 1, got {workers}")
        self.workers = workers
        self.name = name
        self.replaced = 0  # pools replaced after a missed deadline or a dead worker
        self._pool: ProcessPoolExecutor | None = None  # forked at the first call

    def _current(self) -> ProcessPoolExecutor:
        if self._pool is None:
            self._pool = self._new()
        return self._pool

    def _new(self) -> ProcessPoolExecutor:
        pool = ProcessPoolExecutor(self.workers, mp_context=multiprocessing.get_context("fork"),
                                   initializer=_worker_start)
        # fork every worker now (the fork context starts them all at the first call)
        list(pool.map(_ready, range(self.workers)))
        return pool

    def _replace(self, pool: ProcessPoolExecutor) -> None:
        if pool is not self._pool:
            return  # another failed call replaced it already
        self.replaced += 1
        self._pool = self._new()
        self._kill(pool)

    @staticmethod
    def _kill(pool: ProcessPoolExecutor) -> None:
        procs = list((getattr(pool, "_processes", None) or {}).values())
        for proc in procs:
            with contextlib.suppress(OSError, AttributeError):
                proc.kill()
        pool.shutdown(wait=False, cancel_futures=True)

    async def run(self, fn: Callable[..., T], *args: Any, timeout: float) -> T:
        pool = self._current()
        loop = asyncio.get_running_loop()
        try:
            fut = loop.run_in_executor(pool, fn, *args)
        except (BrokenProcessPool, RuntimeError):
            self._replace(pool)
            raise WorkerLost(f"the {self.name} worker pool was being replaced") from None
        try:
            return await asyncio.wait_for(fut, timeout)
        except TimeoutError:
            self._replace(pool)
            raise Deadline(f"no answer within {timeout:g} s") from None
        except BrokenProcessPool:
            self._replace(pool)
            raise WorkerLost(f"a {self.name} worker process stopped") from None
        except asyncio.CancelledError:
            task = asyncio.current_task()
            if task is not None and task.cancelling():
                raise  # the caller itself is being cancelled (the server stops)
            # the call was queued on a pool that another call's deadline replaced
            raise WorkerLost(f"the {self.name} worker pool was replaced") from None

    def close(self) -> None:
        if self._pool is not None:
            self._kill(self._pool)
            self._pool = None
