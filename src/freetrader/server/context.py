"""What the routes of one app share: its limits and their counters, the live lobby, the replay workers.

``create_app`` makes one ``AppContext`` and keeps it on ``app.state.context``; the routes
(``server/routes/``) read it through ``routes.common.Ctx``. The lobby lives only while the
app runs (``lifespan``), so the app can be started again.
"""

from __future__ import annotations

import gc
import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from fastapi import FastAPI

import freetrader

from .cluster import Cluster, tagged_url
from .errors import ApiError, bad_request
from .hints import Coach
from .limits import Bucket, Limits, PerMinute, TooMany
from .storage import Store, normalize_url
from .tables import Lobby
from .workers import Deadline, WorkerLost, WorkerPool, default_bot_workers, prefer_idle_workers, replay_view

__all__ = ["AppContext", "MAX_BODY", "MAX_MESSAGE", "MAX_RECORD"]

#: Largest websocket message and request body accepted (bytes); records uploaded to /api/replay may be larger.
MAX_MESSAGE = 16 * 1024
MAX_BODY = 16 * 1024
MAX_RECORD = 1024 * 1024
#: How long a thread of ``serve`` runs Python before another that waits for the interpreter's lock gets it
#: (``sys.setswitchinterval``; Python's default is 5 ms): see ``settle_server_process``.
SWITCH_INTERVAL = 0.0005
#: The cyclic collector's thresholds in ``serve`` (Python's default: 700, 10, 10): see ``settle_server_process``.
GC_THRESHOLDS = (10_000, 10, 10)


class AppContext:
    """The server's settings and shared state (see ``create_app`` for the arguments)."""

    def __init__(self, db_url: str, *, bot_delay: float, bot_workers: int | None, heavy_workers: int,
                 bot_deadline: float, limits: Limits | None, sweep_seconds: float) -> None:
        self.db_url = db_url
        self.bot_delay, self.bot_workers, self.bot_deadline = bot_delay, bot_workers, bot_deadline
        self.sweep_seconds = sweep_seconds
        self.caps = caps = limits or Limits()
        self.created = PerMinute(caps.tables_per_minute)
        self.whole_views = Bucket(caps.whole_views_per_second, max(1.0, caps.whole_views_per_second))
        self.sockets_of: dict[str, int] = {}  # address -> its open websockets
        self.heavy = WorkerPool(heavy_workers, "heavy")
        self.heavy_busy = 0  # replays running now
        self.coach: Coach | None = None  # the review and hint workers (``hints.install_coach``)
        self._lobby: Lobby | None = None
        self.live = _Live(self)

    @property
    def lobby(self) -> Lobby:
        """The running lobby; a 503 while the server starts or stops."""
        if self._lobby is None:
            raise ApiError(503, "the server is starting or stopping; try again in a moment")
        return self._lobby

    @asynccontextmanager
    async def lifespan(self, app: FastAPI) -> AsyncIterator[None]:
        """Open the store, start the lobby (and on PostgreSQL join the cluster); close it all at the end."""
        warm_games()
        bots = WorkerPool(self.bot_workers or default_bot_workers(), "bot")
        ident = Cluster.new_id()
        on_pg = normalize_url(self.db_url).startswith("postgresql")
        store = Store(tagged_url(self.db_url, ident) if on_pg else self.db_url)
        try:
            store.lock_sqlite()
        except Exception:
            store.close()
            raise
        lobby = Lobby(store, bots, bot_delay=self.bot_delay, bot_deadline=self.bot_deadline,
                      idle_seconds=self.caps.lobby_idle_seconds)
        cluster = None
        try:
            if not store.is_sqlite:  # PostgreSQL: other processes may serve the same tables
                await lobby.db(store.create_schema)
                cluster = lobby.cluster = Cluster(store, lobby, ident, sweep=self.sweep_seconds)
                await cluster.start()
            await lobby.start()
            if cluster is not None:
                cluster.start_sweeping()
            self._lobby = app.state.lobby = lobby
            yield
        finally:
            self._lobby = None
            if cluster is not None:
                await cluster.close()
            await lobby.close()
            if self.coach is not None:
                self.coach.close()
            bots.close()
            self.heavy.close()
            store.close()

    async def replay(self, record: dict[str, Any], upto: int | None) -> dict[str, Any]:
        """The spectator's view after ``upto`` actions of ``record``, replayed in a heavy worker (bounded)."""
        caps = self.caps
        if self.heavy_busy >= caps.heavy_requests:
            raise TooMany(f"{self.heavy_busy} replays are running, the most this server runs at once; "
                          "try again in a moment")
        self.heavy_busy += 1
        try:
            out = await self.heavy.run(replay_view, record, upto, timeout=caps.heavy_seconds)
        except Deadline:
            raise ApiError(413, f"the record did not replay within {caps.heavy_seconds:g} s; "
                                "send fewer actions (upto) or a shorter record") from None
        except WorkerLost:
            raise ApiError(503, "the replay worker stopped; try again in a moment") from None
        finally:
            self.heavy_busy -= 1
        if "error" in out:
            raise bad_request(str(out["error"]))
        return out


def warm_games() -> None:
    """Each game's shared caches (``GameSpec.warm``), filled before any table plays and before the worker
    pools fork, so the workers start with them too."""
    for slug in freetrader.games():
        warm = freetrader.game(slug).spec.warm
        if warm is not None:
            warm()


def settle_server_process(idle_workers: bool = True) -> None:
    """For a process that will only serve (``freetrader serve``, before uvicorn starts): the games' caches
    filled, then every object made so far (modules, those caches; about 140,000) frozen out of the cyclic
    collector's sight.

    They live as long as the process, yet each full collection walked them all: with 200 tables playing,
    a pause of the event loop of 72 ms at 234,000 objects (issue 35). Frozen, a full collection walks
    only what play made since; the worker pools fork later and inherit the freeze. And the workers
    will run under the idle CPU policy (``workers.prefer_idle_workers``) unless ``idle_workers`` is
    false (``serve --worker-cpu nice``): idle workers get no CPU while any other process of the
    machine wants it, so beside other work (a test suite's other half) a review could wait past
    every deadline. Not in ``lifespan``: an app
    made in another process (a test's) keeps its collector, its switch interval and its workers'
    ``nice`` as they are.

    Two settings for the event loop's latency under a burst of moves (200 tables moving at once):

    - ``GC_THRESHOLDS``: a young collection every 10,000 new objects rather than 700. Play's objects
      (positions, views, messages) live a move or two; collected every 700 many of them lived long
      enough to be moved on to the older generations, whose collections paused the loop 8-16 ms
      (middle) and 35-65 ms (full, about every 30 s). Measured over 20 s of 200 tables: the
      collector's CPU 66 ms -> 19 ms, no middle or full collection, the longest pause ~9 ms.
    - ``SWITCH_INTERVAL``: the database thread gives the interpreter's lock back at every commit and
      statement, and gets it again only when the loop's thread, busy with the burst, is made to yield
      it: after Python's 5 ms switch interval, several times per batch, while every move of the
      batch waits for its acknowledgement. 0.5 ms bounds that wait.
    """
    warm_games()
    gc.freeze()
    gc.set_threshold(*GC_THRESHOLDS)
    if idle_workers:
        prefer_idle_workers()
    sys.setswitchinterval(SWITCH_INTERVAL)


class _Live:
    """The running lobby, looked up at each use (for ``hints.install_coach``, which keeps it)."""

    def __init__(self, context: AppContext) -> None:
        self._context = context

    def __getattr__(self, name: str) -> Any:
        return getattr(self._context.lobby, name)
