"""The lobby's plumbing: its state, database calls (appends committed in batches), tasks and sends.

``tables.Lobby`` is built in layers, one module per concern, each a class over the one below:
``LobbyBase`` (here) < ``broadcast.Broadcasting`` < ``timers.Timers`` < ``actions.Actions``
< ``botseats.BotSeats`` < ``takebacks.Takebacks`` < ``tables.Lobby``. A layer calls only the
layers below it, except the methods declared here for mypy (``_bot_turn``, ``_sync``, ``_decline_for``).
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import logging
import time
from abc import abstractmethod
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeVar

from . import wire
from .deltas import Conn
from .errors import ApiError
from .storage import Append, DuplicateEntry, LogRow, Store
from .table import Table
from .workers import WorkerPool

__all__ = ["DECLINE_DELAY", "LobbyBase", "MAX_BACKOFF"]

log = logging.getLogger("freetrader.server")

#: Longest pause between retries of a failing bot turn, timer or take-back (seconds).
MAX_BACKOFF = 5.0
#: A seat that declines what it cannot answer (``Table.auto_decline``): its decline in a window lands this
#: long after the window opened, whether the server sent it (nothing to answer) or the player chose it.
DECLINE_DELAY = 1.5
T = TypeVar("T")
_dumps = wire.dumps


class LobbyBase:
    """Every table of one server: the state the layers share, and the plumbing they use."""

    if TYPE_CHECKING:  # made by the layers above (botseats.BotSeats, tables.Lobby), called from below them
        @abstractmethod
        async def _bot_turn(self, table: Table, seq: int, seat: int, spec: str, origin: str,
                            delay: bool = True) -> None: ...

        @abstractmethod
        async def _sync(self, table: Table) -> None: ...

        @abstractmethod
        async def _decline_for(self, table: Table, seq: int, seat: int) -> None: ...

    def __init__(self, store: Store, bot_pool: WorkerPool, *, bot_delay: float = 0.0,
                 bot_deadline: float = 10.0, idle_seconds: float = 900.0) -> None:
        self.store = store
        self.idle_seconds = idle_seconds  # a table no human used for so long leaves the lobby's list
        self.bot_pool = bot_pool
        self.bot_delay = bot_delay
        self.bot_deadline = bot_deadline
        self.decline_delay = DECLINE_DELAY
        self.clock: Callable[[], float] = time.monotonic  # the decline windows' clock (a test may stop it)
        self.tables: dict[str, Table] = {}
        self.tasks: set[asyncio.Task[Any]] = set()
        self.closing = False
        self.cluster: Any = None  # a ``cluster.Cluster`` when several processes share the database
        self.faults = 0  # faults survived (bot turns, timers, database calls), for logs and tests
        # tables are rebuilt from their logs here, so the loop answers other tables meanwhile
        self.loader = concurrent.futures.ThreadPoolExecutor(1, thread_name_prefix="ft-load")
        self.loading: dict[str, asyncio.Future[Table | None]] = {}  # table id -> its load under way
        self.restoring: set[str] = set()  # playing tables not yet restored since the start
        self.restored = asyncio.Event()  # set once every playing table is restored
        self.resuming: dict[str, asyncio.Future[None]] = {}  # table id -> its resume under way
        # appends waiting for a batch (``append``), the batches under way and how many may be at once
        self._appends: list[tuple[Append, asyncio.Future[BaseException | None]]] = []
        self._appending = 0
        self._append_batches = store.executor.workers
        self._batch_soon = False  # a ``_send_batch`` is scheduled
        # sockets told of their table's change after the movers' (``Broadcasting.broadcast``), table by table
        self._behind: dict[Table, tuple[set[Conn], Any]] = {}  # its sockets, the change's parts made already
        self._behind_soon = False  # a ``_tell_behind`` is scheduled
        self._telling_batch = False  # the moves of a batch of several are being answered this turn of the loop

    async def db(self, fn: Callable[..., T], *args: Any) -> T:
        """Run a ``Store`` call in its threads; a failure other than a duplicate is a 503 that changed nothing."""
        try:
            return await self.store.executor.call(fn, *args)  # type: ignore[no-any-return]
        except Exception as exc:  # noqa: BLE001 - any database fault: disk full, a restart, a lost connection
            raise self._db_failure(getattr(fn, "__name__", str(fn)), exc) from None

    def _db_failure(self, name: str, exc: Exception) -> Exception:
        """What a caller sees of a failed database call: a duplicate as it is, any other fault a 503."""
        if isinstance(exc, (DuplicateEntry, ApiError)):
            return exc
        self.faults += 1
        log.warning("database call %s failed: %s", name, exc)
        return ApiError(503, "the database did not answer; nothing was changed; try again in a moment")

    async def append(self, table_id: str, entry: LogRow, status: str | None = None, guard: str | None = None) -> None:
        """``Store.append_log`` as ``db`` runs it, committed together with the other tables' appends waiting then.

        The first append finds the database idle and goes at once; those that come while it commits wait
        for it and then go as one batch (``Store.append_logs``): one transaction and one trip to the
        database threads for all of them, as many batches at a time as there are threads.
        """
        fut: asyncio.Future[BaseException | None] = asyncio.get_running_loop().create_future()
        self._appends.append(((table_id, entry, status, guard), fut))
        if self._appending < self._append_batches and not self._batch_soon:
            # after the callbacks ready now: the moves read from the sockets in this turn of the loop go together
            self._batch_soon = True
            asyncio.get_running_loop().call_soon(self._send_batch)
        error = await fut
        if error is not None:
            raise self._db_failure("append_log", error) if isinstance(error, Exception) else error

    def _send_batch(self) -> None:
        """Every waiting append to the database threads as one batch; its answers go out when it returns.

        The answers are handed out by a callback of the batch, not by one of its callers, so a caller
        that is cancelled (a closing socket) leaves the others theirs.
        """
        self._batch_soon = False
        if not self._appends or self._appending >= self._append_batches:
            return  # nothing waits, or a batch under way sends the waiting ones when it returns
        batch, self._appends = self._appends, []
        try:
            call = self.store.executor.call(self.store.append_logs, [item for item, _ in batch])
        except RuntimeError as exc:  # the threads are shut down (closing)
            for _item, fut in batch:
                if not fut.done():
                    fut.set_result(exc)
            return
        self._appending += 1
        call.add_done_callback(lambda done: self._batch_done(batch, done))

    def _batch_done(self, batch: list[tuple[Append, asyncio.Future[BaseException | None]]],
                    done: asyncio.Future[list[BaseException | None]]) -> None:
        self._appending -= 1
        results: list[BaseException | None]
        if done.cancelled():
            results = [RuntimeError("the database call was cancelled")] * len(batch)
        elif done.exception() is not None:
            results = [done.exception()] * len(batch)
        else:
            results = done.result()
        for (_item, fut), result in zip(batch, results, strict=True):
            if not fut.done():
                fut.set_result(result)
        if len(batch) > 1:  # their callers run next, in this order: each answer goes before the others' news
            self._telling_batch = True
            asyncio.get_running_loop().call_soon(self._batch_told)
        if self._appends and self._appending < self._append_batches:
            self._send_batch()

    def _batch_told(self) -> None:
        self._telling_batch = False

    async def _pause(self, seconds: float) -> None:
        """Wait ``seconds`` (the one sleep of a held decline: a test may count it instead)."""
        await asyncio.sleep(seconds)

    def _spawn(self, coro: Any) -> None:
        if self.closing:
            coro.close()
            return
        task = asyncio.get_running_loop().create_task(coro)
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    def owns(self, table: Table) -> bool:
        return self.cluster is None or self.cluster.owns(table.id)

    async def _note(self, table: Table, kind: str, data: dict[str, Any]) -> dict[str, Any]:
        seq = len(table.notes)
        await self.db(self.store.append_note, table.id, seq, kind, data)
        note = {"seq": seq, "kind": kind, "at": time.time(), **data}
        table.notes.append(note)
        return note

    def _send(self, conn: Conn, msg: dict[str, Any] | str | None) -> None:
        """``msg`` to the socket: written now when nothing is queued before it and the socket can take it,
        else queued for its writer (``routes.sockets``); ``None`` closes the socket after the queue."""
        payload = msg if msg is None or isinstance(msg, str) else _dumps(msg)
        if payload is not None and conn.send_now is not None and not conn.writing and conn.queue.empty() \
                and conn.send_now(payload):
            return
        try:
            conn.queue.put_nowait(payload)
        except asyncio.QueueFull:  # a reader this far behind reconnects and gets the current view
            while not conn.queue.empty():
                conn.queue.get_nowait()
            conn.queue.put_nowait(None)
