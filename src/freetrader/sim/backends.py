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
import signal
from collections import deque
from collections.abc import Iterable, Iterator
from typing import Any

from .runner import SimulationError, play_game

__all__ = ["BACKENDS", "Task", "play_task", "run_tasks"]

Task = tuple[str, list[str], int, dict[str, Any], int]
BACKENDS = ("local", "ray")


def play_task(task: Task) -> dict[str, Any]:
    slug, specs, seed, options, cap = task
    return play_game(slug, specs, seed, options, cap)


def _play_chunk(tasks: list[Task]) -> list[dict[str, Any]]:
    return [play_task(t) for t in tasks]


def _ignore_sigint() -> None:
    # Workers leave Ctrl-C to the parent, which stops the pool; SIGTERM (how the pool stops them) must
    # kill them quietly, not run a handler the parent had installed when it forked them.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)


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
    with multiprocessing.get_context().Pool(workers, initializer=_ignore_sigint) as pool:
        yield from pool.imap(play_task, tasks, chunksize)


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
