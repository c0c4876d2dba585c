"""Where games are played: ``local`` (processes on this machine) or ``ray`` (a Ray cluster).

A task is ``(game slug, seat specs, game seed, options, action cap)``; every
backend yields the results in task order, and a game depends on its task
alone, so the backends give the same results, byte for byte once written.
Ray is optional: it is imported only when asked for
(``pip install 'freetrader[ray]'``).
"""

from __future__ import annotations

import multiprocessing
import os
import pickle
import signal
from collections import deque
from collections.abc import Iterable, Iterator
from multiprocessing.connection import Connection, wait
from typing import Any, cast

from freetrader.core.procs import leave_signals_to_parent

from .runner import SimulationError, play_game

__all__ = ["BACKENDS", "Task", "play_task", "run_tasks"]

Task = tuple[str, list[str], int, dict[str, Any], int]
BACKENDS = ("local", "ray")


def play_task(task: Task) -> dict[str, Any]:
    slug, specs, seed, options, cap = task
    return play_game(slug, specs, seed, options, cap)


def _play_chunk(tasks: list[Task]) -> list[dict[str, Any]]:
    return [play_task(t) for t in tasks]


_STOPS = {signal.SIGINT, signal.SIGTERM}


def _serve(conn: Connection) -> None:
    """A worker: play each chunk it is sent and send back its results (or the error), until the pipe closes."""
    # the parent forked us with both signals blocked, so none slipped in before this
    leave_signals_to_parent()
    signal.pthread_sigmask(signal.SIG_UNBLOCK, _STOPS)
    while True:
        try:
            key, chunk = conn.recv()
        except EOFError:
            return
        try:
            reply: tuple[Any, ...] = ("ok", key, _play_chunk(chunk))
        except Exception as exc:  # noqa: BLE001 - handed to the parent, which raises it
            reply = ("error", key, exc)
        try:
            conn.send(reply)
        except (TypeError, AttributeError, pickle.PicklingError):  # an error that cannot be pickled
            conn.send(("error", key, SimulationError(f"{type(reply[2]).__name__}: {reply[2]}")))


def _stopped(proc: Any) -> SimulationError:
    proc.join(5)
    return SimulationError(f"a worker process stopped (exit status {proc.exitcode}); the run cannot go on without it")


def _run_local(tasks: Iterable[Task], chunksize: int, workers: int) -> Iterator[dict[str, Any]]:
    """Play chunks in ``workers`` processes, two chunks in flight each, and yield results in task order.

    Each worker has a pipe of its own and nothing is shared, so stopping is one thing: kill the
    workers. ``multiprocessing.Pool`` was not: stopped while its workers were writing large results,
    its shutdown could wait forever on a queue lock (a run at Ctrl-C hung in CI once).
    """
    ctx = multiprocessing.get_context()
    chunks = enumerate(_chunks(tasks, chunksize))
    procs: dict[Connection, Any] = {}  # pipe -> its worker
    conns: dict[Connection, int] = {}  # pipe -> chunks in flight on it
    done: dict[int, list[dict[str, Any]]] = {}
    sent = emitted = 0
    exhausted = False
    try:
        old = signal.pthread_sigmask(signal.SIG_BLOCK, _STOPS)
        try:
            for _ in range(workers):
                mine, theirs = ctx.Pipe()
                proc = ctx.Process(target=_serve, args=(theirs,), daemon=True)
                proc.start()
                theirs.close()
                procs[mine] = proc
                conns[mine] = 0
        finally:
            signal.pthread_sigmask(signal.SIG_SETMASK, old)
        while True:
            # Keep each worker busy, but never run far ahead of the oldest result not yet yielded.
            for conn, busy in conns.items():
                while not exhausted and busy < 2 and sent < emitted + 4 * workers:
                    item = next(chunks, None)
                    if item is None:
                        exhausted = True
                        break
                    try:
                        conn.send(item)
                    except (BrokenPipeError, ConnectionResetError):
                        raise _stopped(procs[conn]) from None
                    busy += 1
                    sent += 1
                conns[conn] = busy
            while emitted in done:
                yield from done.pop(emitted)
                emitted += 1
            if exhausted and emitted == sent:
                return
            for ready in wait([c for c, busy in conns.items() if busy]):
                conn = cast(Connection, ready)
                try:
                    status, key, value = conn.recv()
                except (EOFError, ConnectionResetError):
                    raise _stopped(procs[conn]) from None
                if status == "error":
                    raise value
                done[key] = value
                conns[conn] -= 1
    finally:
        for proc in procs.values():
            if proc.is_alive():
                proc.kill()
        for proc in procs.values():
            proc.join()
        for conn in conns:
            conn.close()


def run_tasks(
    tasks: Iterable[Task],
    count: int,
    *,
    backend: str = "local",
    workers: int | None = None,
    chunksize: int | None = None,
    address: str | None = None,
) -> Iterator[dict[str, Any]]:
    """Play ``count`` tasks and yield their results in order.

    ``local``: ``workers`` processes (default ``os.cpu_count()``), or this
    process for one worker or one game. ``ray``: chunks of tasks run on the
    cluster at ``address`` (default: a local Ray instance), two per cluster
    CPU in flight, so that results stream back in order.
    """
    if backend not in BACKENDS:
        raise SimulationError(f"unknown backend {backend!r}; use one of: {', '.join(BACKENDS)}")
    if address and backend != "ray":
        raise SimulationError(f"an address ({address}) is for --backend ray; the {backend} backend takes none")
    if workers is None:
        workers = os.cpu_count() or 1
    if isinstance(workers, bool) or not isinstance(workers, int) or workers < 1:
        raise SimulationError(f"workers must be a whole number >= 1, got {workers!r}")
    if count <= 0:
        return
    if chunksize is None:
        # Small enough chunks for a smooth progress bar and balanced workers.
        chunksize = max(1, min(32, count // (workers * 16)))
    if backend == "ray":
        yield from _run_ray(tasks, chunksize, workers, address)
        return
    workers = min(workers, count)
    if workers == 1:
        for task in tasks:
            yield play_task(task)
        return
    yield from _run_local(tasks, chunksize, workers)


def _chunks(tasks: Iterable[Task], size: int) -> Iterator[list[Task]]:
    chunk: list[Task] = []
    for task in tasks:
        chunk.append(task)
        if len(chunk) == size:
            yield chunk
            chunk = []
    if chunk:
        yield chunk


def ray_connect(address: str | None) -> Any:
    """The ``ray`` module, initialised (joining ``address``, or a local instance)."""
    try:
        import ray
    except ImportError:
        raise SimulationError(
            "--backend ray needs the ray extra (ray is missing): pip install 'freetrader[ray]'"
        ) from None
    if not ray.is_initialized():
        kwargs: dict[str, Any] = {"include_dashboard": False, "log_to_driver": False, "logging_level": "ERROR"}
        if address:
            kwargs["address"] = address
        if os.environ.get("FREETRADER_DATA"):  # the data pack, for workers on every node (the path must exist there)
            kwargs["runtime_env"] = {"env_vars": {"FREETRADER_DATA": os.environ["FREETRADER_DATA"]}}
        ray.init(**kwargs)
    return ray


def _run_ray(tasks: Iterable[Task], chunksize: int, workers: int, address: str | None) -> Iterator[dict[str, Any]]:
    ray = ray_connect(address)
    remote = ray.remote(num_cpus=1)(_play_chunk)
    cpus = int(ray.cluster_resources().get("CPU", workers)) or 1
    in_flight = max(2, 2 * cpus)
    pending: deque[Any] = deque()
    chunks = _chunks(tasks, chunksize)
    try:
        for chunk in chunks:
            pending.append(remote.remote(chunk))
            if len(pending) >= in_flight:
                yield from ray.get(pending.popleft())
        while pending:
            yield from ray.get(pending.popleft())
    finally:
        for ref in pending:  # closed early or interrupted: stop what is still queued
            ray.cancel(ref, force=True)
