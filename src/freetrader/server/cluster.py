"""Several ``freetrader serve`` processes (on one or more machines) sharing one PostgreSQL database.

Any process accepts any client, for any table. What keeps them one table:

- **The log decides.** Every change is an append at the table's next log
  position (or note position), and the primary key lets exactly one process
  write it. A process that finds the position taken reads what it missed
  (``Lobby._sync``) and answers "stale" (409): nothing diverges. A human
  action is written only while the seat's token is still the one that opened
  it, so a seat left on one process cannot act on another.
- **NOTIFY relays.** A trigger on the log, the notes and the seats sends
  ``NOTIFY ft_tables, '<process> <table>'`` with every row written (delivered
  on commit; ``<process>`` is the writer's ``application_name``, which each
  server sets to its own id). Each process LISTENs on a connection of its
  own and, for a table it has loaded and another process changed, reads the
  new rows and broadcasts to its own sockets.
- **One owner runs bots and timers.** A process owns a table while it holds
  the session advisory lock of the table id on its lock connection. Every
  ``sweep`` seconds each process tries to lock the playing tables nobody
  holds: a table whose owner died (its connection closed, so PostgreSQL
  dropped the lock) is taken over, read afresh, and its bots and timers go
  on. A turn timer restarts its full time at the new owner. A finished
  game's lock is let go.

If the lock connection breaks, this process owns nothing until the next
sweep has locked again, so two processes never both run a table's bots for
long, and when they briefly do, the log's primary key still lets one move in.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import threading
from concurrent.futures import ThreadPoolExecutor
from typing import TYPE_CHECKING, Any

from sqlalchemy.engine import make_url

from .storage import Store

if TYPE_CHECKING:
    from .tables import Lobby

__all__ = ["CHANNEL", "Cluster"]

log = logging.getLogger("freetrader.server")

CHANNEL = "ft_tables"
#: A table id's advisory-lock key, computed by PostgreSQL itself so every process agrees.
_KEY = "('x' || substr(md5(:id), 1, 16))::bit(64)::bigint"
_SWEEP = f"""
WITH free AS MATERIALIZED (
    SELECT id FROM ft_tables WHERE status = 'playing' AND NOT (id = ANY(:owned))
)
SELECT id FROM free WHERE pg_try_advisory_lock({_KEY.replace(':id', 'id')})
"""


_TRIGGERS = """
SELECT pg_advisory_xact_lock(20020);
CREATE OR REPLACE FUNCTION ft_notify() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify('ft_tables', current_setting('application_name') || ' ' || NEW.table_id);
    RETURN NULL;
END $$;
""" + "".join(f"""
DROP TRIGGER IF EXISTS ft_notify ON {t};
CREATE TRIGGER ft_notify AFTER INSERT OR UPDATE ON {t} FOR EACH ROW EXECUTE FUNCTION ft_notify();
""" for t in ("ft_log", "ft_notes", "ft_seats"))


def tagged_url(url: str, ident: str) -> str:
    """``url`` with ``application_name`` set to this process's id (the triggers put it in each NOTIFY)."""
    return f"{url}{'&' if '?' in url else '?'}application_name=ft-{ident}"


def _conninfo(store: Store) -> str:
    return str(make_url(store.url).set(drivername="postgresql").render_as_string(hide_password=False))


class Cluster:
    """This process's part in a group of servers on one PostgreSQL database."""

    def __init__(self, store: Store, lobby: Lobby, ident: str, sweep: float = 1.0) -> None:
        self.store = store
        self.lobby = lobby
        self.sweep_seconds = sweep
        self.id = ident
        self.name = f"ft-{ident}"  # the application_name of this process's connections
        self.owned: set[str] = set()
        self._locks = ThreadPoolExecutor(max_workers=1, thread_name_prefix="ft-locks")
        # the locks this session holds, kept by the lock thread alone: a lock is never taken twice
        # (session advisory locks count), even when a claim and a sweep run close together
        self._held: set[str] = set()
        self._lock_conn: Any = None
        self._stop = threading.Event()
        self._listener: threading.Thread | None = None
        self._sweeper: asyncio.Task[None] | None = None
        self._refreshing: dict[str, bool] = {}  # table -> another notification came during its refresh
        self._loop: asyncio.AbstractEventLoop | None = None

    @staticmethod
    def new_id() -> str:
        return secrets.token_hex(6)

    def _install_triggers(self) -> None:
        conn = self._lock_connection()
        with conn.transaction():
            conn.execute(_TRIGGERS)

    # -- lifetime ----------------------------------------------------------------------
    async def start(self) -> None:
        self._loop = asyncio.get_running_loop()
        await self._in_lock_thread(self._install_triggers)
        self._listener = threading.Thread(target=self._listen, name="ft-listen", daemon=True)
        self._listener.start()

    def start_sweeping(self) -> None:
        """Take over ownerless tables from now on (after the lobby has loaded and claimed its own)."""
        self._sweeper = asyncio.get_running_loop().create_task(self._sweep_forever())

    async def close(self) -> None:
        self._stop.set()
        if self._sweeper is not None:
            self._sweeper.cancel()
            with contextlib.suppress(BaseException):
                await self._sweeper
        if self._listener is not None:
            await asyncio.get_running_loop().run_in_executor(None, self._listener.join, 5.0)
        await self._in_lock_thread(self._drop_lock_conn)
        self._locks.shutdown(wait=True)

    # -- ownership ---------------------------------------------------------------------
    def owns(self, table_id: str) -> bool:
        return table_id in self.owned

    async def _in_lock_thread(self, fn: Any, *args: Any) -> Any:
        return await asyncio.get_running_loop().run_in_executor(self._locks, fn, *args)

    def _lock_connection(self) -> Any:
        import psycopg

        if self._lock_conn is None or self._lock_conn.closed:
            self._held.clear()  # a new session: the old one's locks are gone
            self._lock_conn = psycopg.connect(_conninfo(self.store), autocommit=True)
        return self._lock_conn

    def _drop_lock_conn(self) -> None:
        if self._lock_conn is not None:
            with contextlib.suppress(Exception):
                self._lock_conn.close()
        self._lock_conn = None
        self._held.clear()  # a closed session holds no lock

    def _try_lock(self, table_id: str) -> bool:
        if table_id in self._held:
            return True
        row = self._lock_connection().execute(
            f"SELECT pg_try_advisory_lock({_KEY.replace(':id', '%s')})", (table_id,)).fetchone()
        if row and row[0]:
            self._held.add(table_id)
        return bool(row and row[0])

    def _unlock(self, table_id: str) -> None:
        if table_id in self._held:
            self._lock_connection().execute(f"SELECT pg_advisory_unlock({_KEY.replace(':id', '%s')})", (table_id,))
            self._held.discard(table_id)

    def _sweep_once(self, owned: list[str]) -> list[str]:
        conn = self._lock_connection()
        sql = _SWEEP.replace(":owned", "%s")
        taken = [r[0] for r in conn.execute(sql, (sorted(self._held.union(owned)),)).fetchall()]
        self._held.update(taken)
        return taken

    async def claim(self, table_id: str) -> bool:
        """Own ``table_id`` if nobody does (a new table, or one whose owner died)."""
        if table_id in self.owned:
            return True
        try:
            got = await self._in_lock_thread(self._try_lock, table_id)
        except Exception as exc:  # noqa: BLE001 - the lock connection broke: own nothing until it is back
            self._lost(exc)
            return False
        if got:
            self.owned.add(table_id)
        return bool(got)

    async def release(self, table_id: str) -> None:
        if table_id not in self.owned:
            return
        self.owned.discard(table_id)
        with contextlib.suppress(Exception):
            await self._in_lock_thread(self._unlock, table_id)

    def _lost(self, exc: BaseException) -> None:
        if self.owned:
            log.warning("the advisory-lock connection failed (%s); this process owns no table until it is back", exc)
        self.owned.clear()
        with contextlib.suppress(Exception):
            self._locks.submit(self._drop_lock_conn)

    async def _sweep_forever(self) -> None:
        while not self._stop.is_set():
            try:
                await self.sweep()
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # noqa: BLE001 - try again at the next sweep
                log.warning("the table sweep failed: %s", exc)
            await asyncio.sleep(self.sweep_seconds)

    async def sweep(self) -> list[str]:
        """Lock every playing table that has no owner; take them over. Returns the ids taken."""
        try:
            taken: list[str] = await self._in_lock_thread(self._sweep_once, sorted(self.owned))
        except Exception as exc:  # noqa: BLE001
            self._lost(exc)
            return []
        for table_id in taken:
            self.owned.add(table_id)
            try:
                table = self.lobby.tables.get(table_id) or await self.lobby._load(table_id)
                if table is None:
                    continue
                # the turn timer goes on from the deadline the old owner kept, not from the start
                table.saved_deadline = await self.lobby.db(self.store.load_deadline, table_id)
                await self.lobby.refresh(table)
                log.info("table %s: taken over by process %s", table_id, self.id)
                self.lobby._after_change_safely(table)
            except Exception as exc:  # noqa: BLE001 - keep it owned; the next change retries its bots
                log.warning("table %s: taking it over failed: %s", table_id, exc)
        return taken

    # -- notifications -----------------------------------------------------------------
    def _listen(self) -> None:
        """A thread: LISTEN on a connection of its own; hand each notification to the event loop."""
        import psycopg

        while not self._stop.is_set():
            try:
                with psycopg.connect(_conninfo(self.store), autocommit=True) as conn:
                    conn.execute(f"LISTEN {CHANNEL}")
                    self._call_soon(self._resync_all)  # whatever was missed while not listening
                    while not self._stop.is_set():
                        for note in conn.notifies(timeout=0.5):
                            if not note.payload.startswith(self.name + " "):  # our own writes: nothing to read
                                self._call_soon(self._on_notify, note.payload)
            except Exception as exc:  # noqa: BLE001 - reconnect after a pause
                if not self._stop.is_set():
                    log.warning("LISTEN %s failed (%s); reconnecting", CHANNEL, exc)
                    self._stop.wait(1.0)

    def _call_soon(self, fn: Any, *args: Any) -> None:
        if self._loop is not None and not self._loop.is_closed():
            with contextlib.suppress(RuntimeError):
                self._loop.call_soon_threadsafe(fn, *args)

    def _resync_all(self) -> None:
        for table_id in list(self.lobby.tables):
            self._on_notify(f"- {table_id}")

    def _on_notify(self, payload: str) -> None:
        sender, _, table_id = payload.partition(" ")
        if sender == self.name or table_id not in self.lobby.tables:
            return
        if table_id in self._refreshing:
            self._refreshing[table_id] = True  # read again when the running refresh ends
            return
        self._refreshing[table_id] = False
        self.lobby._spawn(self._refresh(table_id))

    async def _refresh(self, table_id: str) -> None:
        try:
            while True:
                table = self.lobby.tables.get(table_id)
                if table is not None:
                    try:
                        await self.lobby.refresh(table)
                    except Exception as exc:  # noqa: BLE001 - the next notification tries again
                        log.warning("table %s: reading another process's change failed: %s", table_id, exc)
                if not self._refreshing.get(table_id):
                    return
                self._refreshing[table_id] = False
        finally:
            self._refreshing.pop(table_id, None)
