"""Work the event loop must not do: bot decisions and replays, in worker processes with deadlines.

The server keeps two ``WorkerPool``s: one for bots (``--bot-workers``, default
one fewer than the cores: ``default_bot_workers``) and one for heavy requests such as ``POST /api/replay``
(``--heavy-workers``). A pool's processes are forked together at its first
call, from the event loop's thread, each talking to the server over a pipe of
its own, and die with the server (``PR_SET_PDEATHSIG``), so a ``kill -9`` of
the server leaves no worker holding its port or its files.

Every call has a deadline, counted from the moment a worker starts it (not
its wait in the queue). A worker that misses it may be stuck for good, and a
process cannot be interrupted from outside, so that worker alone is killed and
a new one forked; the calls on the other workers go on (before, the whole pool
was replaced, and twelve slow tables of one address cost everyone's decisions
in flight). Calls wait in a fair queue: callers (addresses) take turns, each
caller's tables take turns, and one caller runs at most its share of the
workers while others wait (``WorkerPool``).

The server's end of each pipe is non-blocking and framed here (``_Channel``), as
``multiprocessing.Connection`` frames it, so the worker's end stays a plain
``Connection``. uvloop, which uvicorn picks when installed, makes every fd given to
``add_reader`` non-blocking; a blocking ``Connection.recv``/``send`` on it then
failed as soon as an answer or a record was bigger than what the socket held at
once (``BlockingIOError``), and the pool took a live worker for dead: the
"replay worker stopped" 503s under load.

Bots get what they got in the thread pool before: ``bot_decision`` is handed
the determinization the server drew for the deciding seat (``decide``'s
contract), never the true state, and builds the bot from its spec in the
worker. Bot parameters are capped (``BOT_CAPS``) before a table is made.
"""

from __future__ import annotations

import asyncio
import contextlib
import ctypes
import logging
import multiprocessing
import os
import pickle
import signal
import socket
import stat
import struct
from collections import Counter, deque
from collections.abc import Callable
from typing import Any, TypeVar

import freetrader
from freetrader.bots import make_bot
from freetrader.core import FreetraderError, State
from freetrader.core.procs import leave_signals_to_parent

from . import log as readable
from .errors import bad_request

__all__ = ["BOT_CAPS", "Deadline", "WorkerLost", "WorkerPool", "bot_decision", "check_bot_spec", "prefer_idle_workers",
           "replay_view"]

T = TypeVar("T")
log = logging.getLogger("freetrader.server")

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


#: How much lower than the server the workers' CPU priority is (``nice``), without the idle policy.
WORKER_NICENESS = 5
#: Whether workers forked from now on run under Linux's idle CPU policy (``prefer_idle_workers``).
_idle_policy = False


def prefer_idle_workers() -> None:
    """Workers forked from now on run under Linux's idle CPU policy (``SCHED_IDLE``), where there is one.

    For a process that only serves (``freetrader serve``): a worker busy with a bot's search should
    not delay the event loop (acks, broadcasts). Niced by 5, two busy bot workers on 2 cores kept the
    server's loop waiting on the run queue longer than it ran (issue 35); under the idle policy a
    waking server preempts a worker at once, and a worker gets every cycle the server leaves. It also
    yields to every other process of the machine, however niced: a test run beside other work keeps
    ``nice`` (the default), so its bots are not starved past their deadlines.
    """
    global _idle_policy
    _idle_policy = True


def default_bot_workers() -> int:
    """Bot workers when ``--bot-workers`` is not given: one fewer than the cores, at least one.

    The event loop needs a core of its own even though the workers yield to it. With every core
    busy (two workers searching on two cores), a machine whose host shares its cores out took them
    back in slices of about 100 ms, and whatever woke in such a slice waited for its end: the
    server's acknowledgements (paced p99 36-82 ms beside four IS-MCTS tables, 6 ms without them),
    and any process, niced or not (``benchmarks/busy_cores_lag.py``). With a core left free the
    slices did not come. Bots then think in turn on fewer workers, which only slows bot tables.
    """
    return max(1, (os.cpu_count() or 1) - 1)


class Deadline(Exception):
    """A worker did not answer in time; it was replaced."""


class WorkerLost(Exception):
    """The worker process running a call died (or its pool was closed meanwhile)."""


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


def _yield_cpu() -> str:
    """Put this process below the server for the CPU; returns how: ``"idle"`` or ``"nice"``."""
    policy = getattr(os, "SCHED_IDLE", None)
    if _idle_policy and policy is not None:
        with contextlib.suppress(OSError):
            os.sched_setscheduler(0, policy, os.sched_param(0))
            return "idle"
    with contextlib.suppress(OSError):
        os.nice(WORKER_NICENESS)
    return "nice"


def _worker_start() -> None:
    """In each worker: hold none of the server's connections, die with the server, leave Ctrl-C to the
    server, yield the CPU to it."""
    _close_network_sockets()
    leave_signals_to_parent()
    _yield_cpu()
    with contextlib.suppress(OSError, AttributeError):
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG: killed when the server goes
    if os.getppid() == 1:  # the server died before the line above ran
        os._exit(0)


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
def _serve(conn: Any, others: list[Any]) -> None:
    """A worker's life: run each ``(fn, args)`` the pipe brings and send back ``("ok", value)`` or
    ``("err", exception)``, until the pipe closes."""
    for other in others:  # the fork copied the server's ends of every pipe: only its own is kept
        with contextlib.suppress(OSError):
            other.close()
    _worker_start()
    while True:
        try:
            fn, args = conn.recv()
        except (EOFError, OSError):
            os._exit(0)
        try:
            answer: tuple[str, Any] = ("ok", fn(*args))
        except BaseException as exc:  # noqa: BLE001 - every failure goes back to the caller
            answer = ("err", exc)
        try:
            conn.send(answer)
        except (EOFError, OSError):
            os._exit(0)
        except Exception as exc:  # noqa: BLE001 - an answer or exception that does not pickle
            conn.send(("err", RuntimeError(f"{type(exc).__name__} while sending the answer back")))


class _Job:
    __slots__ = ("fn", "args", "timeout", "who", "table", "future")

    def __init__(self, fn: Callable[..., Any], args: tuple[Any, ...], timeout: float, who: str, table: str,
                 future: asyncio.Future[Any]) -> None:
        self.fn, self.args, self.timeout, self.who, self.table, self.future = fn, args, timeout, who, table, future


_SIZE = struct.Struct("!i")  # ``multiprocessing.Connection``'s frame: the length, then the pickle
_BIG_SIZE = struct.Struct("!Q")  # after a length of -1, for a pickle over 2 GiB


def _frame(obj: Any) -> bytes:
    data = pickle.dumps(obj, protocol=pickle.HIGHEST_PROTOCOL)
    if len(data) > 0x7FFFFFFF:
        return _SIZE.pack(-1) + _BIG_SIZE.pack(len(data)) + data
    return _SIZE.pack(len(data)) + data


class _Channel:
    """The server's end of one worker's pipe, non-blocking: what arrived so far and what is left to send."""

    __slots__ = ("fd", "inbox", "outbox")

    def __init__(self, fd: int) -> None:
        self.fd = fd
        self.inbox = bytearray()
        self.outbox = memoryview(b"")  # a view: what is left is never copied (a record may be 1 MB)
        os.set_blocking(fd, False)  # as uvloop leaves it anyway: the same under both loops

    def read(self) -> list[bytes] | None:
        """The whole messages that arrived (pickles, not yet loaded); None once the worker's end closed."""
        while True:
            try:
                chunk = os.read(self.fd, 1 << 16)
            except (BlockingIOError, InterruptedError):
                break
            if not chunk:
                return None
            self.inbox += chunk
        return self._messages()

    def _messages(self) -> list[bytes]:
        out = []
        while len(self.inbox) >= _SIZE.size:
            (size,) = _SIZE.unpack_from(self.inbox)
            start = _SIZE.size
            if size == -1:
                if len(self.inbox) < start + _BIG_SIZE.size:
                    break
                (size,) = _BIG_SIZE.unpack_from(self.inbox, start)
                start += _BIG_SIZE.size
            if len(self.inbox) < start + size:
                break
            out.append(bytes(self.inbox[start:start + size]))
            del self.inbox[:start + size]
        return out

    def write(self) -> bool:
        """Send what the socket takes now; True when nothing is left."""
        while self.outbox:
            try:
                sent = os.write(self.fd, self.outbox)
            except (BlockingIOError, InterruptedError):
                return False
            self.outbox = self.outbox[sent:]
        return True


class _Worker:
    __slots__ = ("proc", "conn", "channel", "job", "timer")

    def __init__(self, proc: Any, conn: Any) -> None:
        self.proc, self.conn = proc, conn
        self.channel = _Channel(conn.fileno())
        self.job: _Job | None = None
        self.timer: asyncio.TimerHandle | None = None


class WorkerPool:
    """``workers`` forked processes; ``await pool.run(fn, *args, timeout=s, who=, table=)`` runs ``fn`` in one.

    Calls wait in a fair queue: the callers (``who``: an address) take turns, and within one caller its
    tables take turns, so a caller with many tables gets one turn among the callers, not one per table.
    While other callers wait, one caller has at most ``share`` calls running (by default half the
    workers, at least one); with nobody else waiting it may use them all. A call's ``timeout`` counts
    from the moment a worker starts it, never its wait in the queue. A worker that misses it is killed
    and replaced alone: the calls running on the other workers go on.
    """

    def __init__(self, workers: int, name: str, share: int | None = None) -> None:
        if workers < 1:
            raise ValueError(f"{name} workers must be at least 1, got {workers}")
        self.workers = workers
        self.name = name
        self.share = share or max(1, workers // 2)
        self.replaced = 0  # workers replaced after a missed deadline or a death
        self.started = 0  # calls handed to a worker
        self._loop: asyncio.AbstractEventLoop | None = None
        self._all: list[_Worker] = []
        self._idle: list[_Worker] = []
        self._waiting: dict[str, dict[str, deque[_Job]]] = {}  # caller -> table -> its calls, in turn order
        self._turns: deque[str] = deque()  # callers with waiting calls, the next first
        self._running: Counter[str] = Counter()

    # -- workers --------------------------------------------------------------------
    def _start(self) -> None:
        self._loop = asyncio.get_running_loop()
        for _ in range(self.workers):
            self._fork()

    def _fork(self) -> None:
        assert self._loop is not None
        ctx = multiprocessing.get_context("fork")
        mine, theirs = ctx.Pipe()
        others = [w.conn for w in self._all] + [mine]
        proc = ctx.Process(target=_serve, args=(theirs, others), name=f"ft-{self.name}", daemon=True)
        proc.start()
        theirs.close()
        worker = _Worker(proc, mine)
        self._loop.add_reader(mine.fileno(), self._answered, worker)
        self._all.append(worker)
        self._idle.append(worker)

    def _drop(self, worker: _Worker) -> None:
        if self._loop is not None and not self._loop.is_closed():
            with contextlib.suppress(Exception):
                self._loop.remove_reader(worker.channel.fd)
            with contextlib.suppress(Exception):
                self._loop.remove_writer(worker.channel.fd)
        if worker.timer is not None:
            worker.timer.cancel()
        with contextlib.suppress(OSError, AttributeError, ValueError):
            worker.proc.kill()
        with contextlib.suppress(OSError, AttributeError, ValueError, AssertionError):
            worker.proc.join(1.0)
        with contextlib.suppress(OSError):
            worker.conn.close()
        if worker in self._all:
            self._all.remove(worker)
        if worker in self._idle:
            self._idle.remove(worker)

    def _end(self, worker: _Worker) -> _Job | None:
        """The worker's call is over: its slot and timer are freed; returns the call."""
        job, worker.job = worker.job, None
        if worker.timer is not None:
            worker.timer.cancel()
            worker.timer = None
        if job is not None:
            self._running[job.who] -= 1
            if self._running[job.who] <= 0:
                del self._running[job.who]
        return job

    def _replace(self, worker: _Worker, failure: BaseException) -> None:
        job = self._end(worker)
        self._drop(worker)
        self.replaced += 1
        if job is not None and not job.future.done():
            job.future.set_exception(failure)
        self._fork()
        self._dispatch()

    def _stopped(self, worker: _Worker) -> WorkerLost:
        """The failure for a worker whose pipe closed or broke, logged with how its process ended."""
        with contextlib.suppress(OSError, AttributeError, ValueError, AssertionError):
            worker.proc.join(0.1)
        code = getattr(worker.proc, "exitcode", None)
        how = ("still running" if code is None else f"killed by signal {-code}" if code < 0
               else f"exit status {code}")
        log.warning("a %s worker process (pid %s) stopped: %s", self.name, worker.proc.pid, how)
        return WorkerLost(f"a {self.name} worker process stopped ({how})")

    def _answered(self, worker: _Worker) -> None:
        try:
            messages = worker.channel.read()
        except OSError:
            messages = None
        if messages is None:
            self._replace(worker, self._stopped(worker))
            return
        for message in messages:
            self._took(worker, message)

    def _took(self, worker: _Worker, message: bytes) -> None:
        try:
            status, value = pickle.loads(message)
        except Exception as exc:  # noqa: BLE001 - an answer that does not unpickle here
            status, value = "err", RuntimeError(f"the answer could not be read ({type(exc).__name__})")
        job = self._end(worker)
        if job is not None and not job.future.done():
            if status == "ok":
                job.future.set_result(value)
            else:
                job.future.set_exception(value)
        self._idle.append(worker)
        self._dispatch()

    def _late(self, worker: _Worker) -> None:
        worker.timer = None
        job = worker.job
        seconds = job.timeout if job is not None else 0.0
        self._replace(worker, Deadline(f"no answer within {seconds:g} s"))

    # -- the fair queue -----------------------------------------------------------------
    def _next(self) -> _Job | None:
        """The next call to start: callers in turn; one at its share waits while a caller under it waits."""
        under = [w for w in self._turns if self._running[w] < self.share]
        for _ in range(len(self._turns)):
            who = self._turns[0]
            self._turns.rotate(-1)
            if under and self._running[who] >= self.share:
                continue
            tables = self._waiting[who]
            table = next(iter(tables))
            calls = tables.pop(table)
            job = calls.popleft()
            if calls:
                tables[table] = calls  # its table goes to the end of the caller's turns
            if not tables:
                del self._waiting[who]
                self._turns.remove(who)
            if job.future.done():  # its caller gave up while it waited
                return self._next()
            return job
        return None

    def _dispatch(self) -> None:
        assert self._loop is not None
        while self._idle and self._turns:
            job = self._next()
            if job is None:
                return
            try:
                message = _frame((job.fn, job.args))
            except Exception as exc:  # noqa: BLE001 - arguments that do not pickle: the caller's fault
                job.future.set_exception(exc)
                continue
            worker = self._idle.pop()
            worker.channel.outbox = memoryview(message)
            if not self._send(worker):
                self._waiting.setdefault(job.who, {}).setdefault(job.table, deque()).appendleft(job)
                if job.who not in self._turns:
                    self._turns.appendleft(job.who)
                self._replace(worker, self._stopped(worker))
                return
            worker.job = job
            self._running[job.who] += 1
            self.started += 1
            worker.timer = self._loop.call_later(job.timeout, self._late, worker)

    def _send(self, worker: _Worker) -> bool:
        """Send the worker its call, the rest when its pipe has room (a record may be bigger than the
        socket holds); False if the pipe is broken."""
        assert self._loop is not None
        try:
            done = worker.channel.write()
        except OSError:
            return False
        if not done:
            self._loop.add_writer(worker.channel.fd, self._send_rest, worker)
        return True

    def _send_rest(self, worker: _Worker) -> None:
        assert self._loop is not None
        try:
            done = worker.channel.write()
        except OSError:
            self._replace(worker, self._stopped(worker))
            return
        if done:
            self._loop.remove_writer(worker.channel.fd)

    async def run(self, fn: Callable[..., T], *args: Any, timeout: float, who: str = "", table: str = "") -> T:
        loop = asyncio.get_running_loop()
        if self._loop is not loop:  # the first call, or the app was started again on a new loop
            self.close()
            self._start()
        future: asyncio.Future[T] = loop.create_future()
        self._waiting.setdefault(who, {}).setdefault(table, deque()).append(
            _Job(fn, args, timeout, who, table, future))
        if who not in self._turns:
            self._turns.append(who)
        self._dispatch()
        return await future

    def close(self) -> None:
        for worker in list(self._all):
            job = self._end(worker)
            self._drop(worker)
            if job is not None and not job.future.done():
                job.future.set_exception(WorkerLost(f"the {self.name} worker pool was closed"))
        for tables in self._waiting.values():
            for calls in tables.values():
                for job in calls:
                    if not job.future.done():
                        job.future.set_exception(WorkerLost(f"the {self.name} worker pool was closed"))
        self._waiting.clear()
        self._turns.clear()
        self._running.clear()
        self._loop = None
