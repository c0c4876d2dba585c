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
- **One owner runs bots and timers, under a lease.** A process owns a table
  while it holds the table's row in ``ft_leases``: its id as ``owner`` and an
  ``expires`` time (the database's clock) ``lease`` seconds ahead, renewed
  at every ``sweep`` (the heartbeat). Every ``sweep`` seconds each process
  also takes the playing tables that run alone (a bot seat or a turn timer)
  whose lease has expired, or whose owner has no connection left
  (``pg_stat_activity``: a killed process is taken over at once), reads them
  afresh, and goes on with their bots and timers. A turn timer goes on from
  the deadline the old owner kept. A finished game's lease is let go.
- **Fenced.** A trigger on the log refuses a bot's, a fallback's or a turn
  timer's move unless the writing process (its ``application_name``) holds
  the table's lease, unexpired, in the same transaction. A process that was
  paused (``SIGSTOP``, a long stall) and wakes after another took over
  cannot write: its move is refused like a taken position (409 inside), and
  its next heartbeat tells it the table is gone.

Before leases, ownership was a session advisory lock: a paused owner kept its
connection and so its locks, and its tables froze for as long as it stayed
paused. Now they move again within ``lease`` + ``sweep`` seconds.
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

__all__ = ["CHANNEL", "Cluster", "LEASE_SECONDS"]

log = logging.getLogger("freetrader.server")

CHANNEL = "ft_tables"
#: Seconds a lease lasts without a heartbeat (a paused owner's tables move again after about this).
LEASE_SECONDS = 3.0

_LEASES = """
CREATE TABLE IF NOT EXISTS ft_leases (
    table_id TEXT PRIMARY KEY,
    owner TEXT NOT NULL,
    expires TIMESTAMPTZ NOT NULL
);
CREATE OR REPLACE FUNCTION ft_fence() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF NEW.origin NOT IN ('human', 'takeback') AND NOT EXISTS (
        SELECT 1 FROM ft_leases
        WHERE table_id = NEW.table_id AND owner = current_setting('application_name') AND expires > now()
    ) THEN
        RAISE EXCEPTION 'table % is not leased to %', NEW.table_id, current_setting('application_name')
            USING ERRCODE = 'unique_violation';
    END IF;
    RETURN NEW;
END $$;
DROP TRIGGER IF EXISTS ft_fence ON ft_log;
CREATE TRIGGER ft_fence BEFORE INSERT ON ft_log FOR EACH ROW EXECUTE FUNCTION ft_fence();
"""
#: a lease is free when it expired or its owner has no connection to the database any more
_FREE = ("(ft_leases.expires < now() OR ft_leases.owner NOT IN "
         "(SELECT application_name FROM pg_stat_activity WHERE application_name LIKE 'ft-%%'))")
_CLAIM = f"""
INSERT INTO ft_leases (table_id, owner, expires) VALUES (%(id)s, %(me)s, now() + %(ttl)s * interval '1 second')
ON CONFLICT (table_id) DO UPDATE SET owner = EXCLUDED.owner, expires = EXCLUDED.expires
WHERE ft_leases.owner = EXCLUDED.owner OR {_FREE}
RETURNING table_id
"""
_HEARTBEAT = """
UPDATE ft_leases SET expires = now() + %(ttl)s * interval '1 second' WHERE owner = %(me)s RETURNING table_id
"""
#: the playing tables that run alone (a bot seat, a turn timer) with no live lease: taken in one statement
_SWEEP = f"""
INSERT INTO ft_leases (table_id, owner, expires)
SELECT t.id, %(me)s, now() + %(ttl)s * interval '1 second' FROM ft_tables t
WHERE t.status = 'playing'
  AND (EXISTS (SELECT 1 FROM jsonb_array_elements_text(t.seats::jsonb) AS s(spec) WHERE s.spec <> 'human')
       OR (t.settings::jsonb ->> 'turn_seconds') IS NOT NULL)
  AND NOT EXISTS (SELECT 1 FROM ft_leases WHERE ft_leases.table_id = t.id AND (ft_leases.owner = %(me)s
                  OR NOT {_FREE}))
ON CONFLICT (table_id) DO UPDATE SET owner = EXCLUDED.owner, expires = EXCLUDED.expires
WHERE ft_leases.owner <> EXCLUDED.owner AND {_FREE}
RETURNING table_id
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

    def __init__(self, store: Store, lobby: Lobby, ident: str, sweep: float = 1.0,
                 lease: float = LEASE_SECONDS) -> None:
        self.store = store
        self.lobby = lobby
        self.sweep_seconds = sweep
        self.lease_seconds = max(lease, 2 * sweep)  # a heartbeat or two may be late without losing a lease
        self.id = ident
        self.name = f"ft-{ident}"  # the application_name of this process's connections
        self.owned: set[str] = set()
        self._locks = ThreadPoolExecutor(max_workers=1, thread_name_prefix="ft-locks")
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
            conn.execute(_TRIGGERS + _LEASES)

    # -- lifetime ----------------------------------------------------------------------
    async def start(self) -> None:
        self._loop = asyncio.get_running_loop()
        await self._in_lock_thread(self._install_triggers)
        self._listener = threading.Thread(target=self._listen, name="ft-listen", daemon=True)
        self._listener.start()

    def start_sweeping(self) -> None:
        """Renew this process's leases and take over expired ones from now on (after the lobby started)."""
        self._sweeper = asyncio.get_running_loop().create_task(self._sweep_forever())

    async def close(self) -> None:
        self._stop.set()
        if self._sweeper is not None:
            self._sweeper.cancel()
            with contextlib.suppress(BaseException):
                await self._sweeper
        if self._listener is not None:
            await asyncio.get_running_loop().run_in_executor(None, self._listener.join, 5.0)
        with contextlib.suppress(Exception):  # a clean stop hands the tables over at once
            await self._in_lock_thread(self._let_all_go)
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
            self._lock_conn = psycopg.connect(_conninfo(self.store), autocommit=True)
        return self._lock_conn

    def _drop_lock_conn(self) -> None:
        if self._lock_conn is not None:
            with contextlib.suppress(Exception):
                self._lock_conn.close()
        self._lock_conn = None

    def _params(self, **more: Any) -> dict[str, Any]:
        return {"me": self.name, "ttl": self.lease_seconds, **more}

    def _try_lock(self, table_id: str) -> bool:
        row = self._lock_connection().execute(_CLAIM, self._params(id=table_id)).fetchone()
        return row is not None

    def _unlock(self, table_id: str) -> None:
        self._lock_connection().execute("DELETE FROM ft_leases WHERE table_id = %(id)s AND owner = %(me)s",
                                        self._params(id=table_id))

    def _let_all_go(self) -> None:
        self._lock_connection().execute("DELETE FROM ft_leases WHERE owner = %(me)s", self._params())

    def _sweep_once(self) -> tuple[set[str], list[str]]:
        """The heartbeat (the leases still held) and the tables taken over now."""
        conn = self._lock_connection()
        held = {r[0] for r in conn.execute(_HEARTBEAT, self._params()).fetchall()}
        taken = [r[0] for r in conn.execute(_SWEEP, self._params()).fetchall()]
        return held, taken

    async def claim(self, table_id: str) -> bool:
        """Own ``table_id`` if nobody does (a new table, or one whose owner's lease ran out)."""
        if table_id in self.owned:
            return True
        try:
            got = await self._in_lock_thread(self._try_lock, table_id)
        except Exception as exc:  # noqa: BLE001 - the lease connection broke: own nothing until it is back
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
            log.warning("the lease connection failed (%s); this process owns no table until it is back", exc)
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
        """Renew this process's leases, then take over every table whose lease is free. Returns those taken."""
        try:
            found: tuple[set[str], list[str]] = await self._in_lock_thread(self._sweep_once)
        except Exception as exc:  # noqa: BLE001
            self._lost(exc)
            return []
        held, taken = found
        gone = self.owned - held - set(taken)
        if gone:  # its lease ran out while this process was paused, and another process took it
            log.warning("tables %s: the lease ran out; another process runs them now", ", ".join(sorted(gone)))
            self.owned -= gone
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
