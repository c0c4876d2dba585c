"""Durable storage of tables through SQLAlchemy (SQLite by default, PostgreSQL by URL).

Five tables:

- ``ft_tables``: one row per table: the record's fixed part (game slug,
  resolved options, seat specs, seed) and the table settings;
- ``ft_seats``: one row per human seat: the SHA-256 of its secret token
  (never the token itself) and the player's name, both empty while free;
- ``ft_log``: the append-only move log, keyed by ``(table_id, seq)`` with
  ``seq`` = 0, 1, 2, ... per table. A row is an ``action`` (its notation) or an
  ``undo`` (an approved take-back of the action before it). The game's actions
  are the log read as a stack: an ``undo`` pops. Rows are never updated or
  deleted; the primary key makes a duplicate append fail;
- ``ft_notes``: the table's other history (take-back requests and answers),
  also append-only, kept in the downloadable record as metadata.

- ``ft_reviews``: the review of a finished game (``bots.review``), one row per
  table, written once when it is first computed, so a second visit does not
  compute it again.

Every write is one transaction; a call returns only after its commit, so an
acknowledged action survives a ``kill -9``. Calls are synchronous: the server
runs them in ``Store.executor`` (one thread for SQLite, which serializes
writes anyway; a few for PostgreSQL).

A serving SQLite store (``lock_sqlite``) copies its write-ahead log into the
database file on a thread and connection of its own (``_Checkpointer``), not
in the commit that fills the log to SQLite's threshold: that commit took
6-10 ms on an idle disk and 32 ms under load, and every move of its batch
waited for it.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import functools
import hashlib
import json
import os
import queue
import sqlite3
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import (
    BigInteger,
    Column,
    Engine,
    Float,
    Integer,
    MetaData,
    PrimaryKeyConstraint,
    String,
    Table,
    Text,
    create_engine,
    delete,
    event,
    func,
    insert,
    select,
    text,
    update,
)
from sqlalchemy.exc import IntegrityError

__all__ = ["Store", "TableRow", "LogRow", "DbThreads", "DuplicateEntry", "InUse", "claim_sqlite", "normalize_url",
           "release_sqlite", "token_hash"]

metadata = MetaData()

tables_t = Table(
    "ft_tables",
    metadata,
    Column("id", String(32), primary_key=True),
    Column("game", String(64), nullable=False),
    Column("options", Text, nullable=False),
    Column("seats", Text, nullable=False),
    Column("seed", BigInteger, nullable=False),
    Column("settings", Text, nullable=False),
    Column("status", String(16), nullable=False),  # "playing" or "over"
    Column("created", Float, nullable=False),
    # the turn timer: the log position it runs for and when it fires, so a restart keeps the deadline
    Column("deadline_seq", Integer, nullable=True),
    Column("deadline", Float, nullable=True),
)

seats_t = Table(
    "ft_seats",
    metadata,
    Column("table_id", String(32), nullable=False),
    Column("seat", Integer, nullable=False),
    Column("token_hash", String(64), nullable=True),
    Column("name", String(64), nullable=True),
    PrimaryKeyConstraint("table_id", "seat"),
)

log_t = Table(
    "ft_log",
    metadata,
    Column("table_id", String(32), nullable=False),
    Column("seq", Integer, nullable=False),
    Column("kind", String(8), nullable=False),  # "action" or "undo"
    Column("text", String(256), nullable=False),
    Column("seat", Integer, nullable=True),
    Column("origin", String(16), nullable=False),  # human, bot, timeout, takeback
    Column("at", Float, nullable=False),
    PrimaryKeyConstraint("table_id", "seq"),
)

notes_t = Table(
    "ft_notes",
    metadata,
    Column("table_id", String(32), nullable=False),
    Column("seq", Integer, nullable=False),
    Column("kind", String(32), nullable=False),
    Column("data", Text, nullable=False),
    Column("at", Float, nullable=False),
    PrimaryKeyConstraint("table_id", "seq"),
)

reviews_t = Table(
    "ft_reviews",
    metadata,
    Column("table_id", String(32), primary_key=True),
    Column("data", Text, nullable=False),
    Column("at", Float, nullable=False),
)


#: SQLite files this process serves: path -> [the open lock file, how many stores use it]
_SQLITE_LOCKS: dict[str, list[Any]] = {}


class InUse(Exception):
    """The SQLite file is being served by another process."""


#: ``append_log`` with a seat check, as one plain statement (built once: this runs for every human action).
_INSERT_IF_HELD = text(
    "INSERT INTO ft_log (table_id, seq, kind, text, seat, origin, at) "
    "SELECT CAST(:table_id AS VARCHAR(32)), CAST(:seq AS INTEGER), CAST(:kind AS VARCHAR(8)), "
    "CAST(:text AS VARCHAR(256)), CAST(:seat AS INTEGER), CAST(:origin AS VARCHAR(16)), CAST(:at AS FLOAT) "
    "WHERE EXISTS (SELECT 1 FROM ft_seats WHERE table_id = :table_id AND seat = :seat AND token_hash = :hash) "
    "RETURNING seq"
)


#: ``append_log``'s plain insert.
_INSERT_LOG = text("INSERT INTO ft_log (table_id, seq, kind, text, seat, origin, at) "
                   "VALUES (:table_id, :seq, :kind, :text, :seat, :origin, :at)")
_SET_STATUS = text("UPDATE ft_tables SET status = :status WHERE id = :table_id")
#: Rows in one SQLite ``INSERT`` (``Store._insert_rows``): 7 values each, within the 999 variables older
#: SQLite versions allow in one statement.
_ROWS_PER_INSERT = 128


class _Prepared:
    """A statement compiled once for the engine's driver, run on the driver's own connection.

    The move log's append runs once per move: this skips SQLAlchemy's per-call work (its
    execution context, result and transaction objects), which cost more than the insert.
    """

    def __init__(self, stmt: Any, engine: Engine) -> None:
        compiled = stmt.compile(dialect=engine.dialect)
        self.sql = str(compiled)
        self.order: list[str] | None = list(compiled.positiontup) if compiled.positional else None

    def params(self, values: dict[str, Any]) -> Any:
        return values if self.order is None else tuple(values[k] for k in self.order)


class DbThreads(concurrent.futures.Executor):
    """The threads that run ``Store`` calls, with a short way back to the event loop (``call``).

    ``run_in_executor`` makes a ``concurrent.futures.Future`` (a lock and a condition) for each call
    and chains it to an asyncio future; once per move that was a good part of the loop's time. Here
    a call is a queue entry, and its answer one ``call_soon_threadsafe``. ``submit`` is the ordinary
    executor interface, for anything else.
    """

    def __init__(self, workers: int, prefix: str) -> None:
        self._queue: queue.SimpleQueue[Any] = queue.SimpleQueue()
        self.workers = workers
        self._threads = [threading.Thread(target=self._work, name=f"{prefix}_{i}", daemon=True)
                         for i in range(workers)]
        self._closed = False
        for t in self._threads:
            t.start()

    def call(self, fn: Callable[..., Any], *args: Any) -> asyncio.Future[Any]:
        """``fn(*args)`` in a thread; the future (of the running loop) gets its result or exception."""
        if self._closed:
            raise RuntimeError("the database threads are shut down")
        loop = asyncio.get_running_loop()
        fut = loop.create_future()
        self._queue.put((fn, args, loop, fut))
        return fut

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> concurrent.futures.Future[Any]:
        if self._closed:
            raise RuntimeError("the database threads are shut down")
        cf: concurrent.futures.Future[Any] = concurrent.futures.Future()
        self._queue.put((functools.partial(fn, *args, **kwargs), (), None, cf))
        return cf

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        if not self._closed:
            self._closed = True
            for _ in self._threads:
                self._queue.put(None)
        if wait:
            for t in self._threads:
                if t is not threading.current_thread():
                    t.join()

    def _work(self) -> None:
        while True:
            item = self._queue.get()
            if item is None:
                return
            fn, args, loop, fut = item
            if loop is None:  # from ``submit``
                if fut.set_running_or_notify_cancel():
                    try:
                        fut.set_result(fn())
                    except BaseException as exc:  # noqa: BLE001 - handed to the caller
                        fut.set_exception(exc)
                continue
            try:
                result, error = fn(*args), None
            except BaseException as exc:  # noqa: BLE001 - handed to the caller
                result, error = None, exc
            try:
                loop.call_soon_threadsafe(_settle, fut, result, error)
            except RuntimeError:  # the loop is closed: nobody waits for the answer
                pass


def _settle(fut: asyncio.Future[Any], result: Any, error: BaseException | None) -> None:
    if fut.cancelled():
        return
    if error is not None:
        fut.set_exception(error)
    else:
        fut.set_result(result)


class DuplicateEntry(Exception):
    """An append at a position the log already holds (a stale or replayed write)."""


@dataclass
class TableRow:
    id: str
    game: str
    options: dict[str, Any]
    seats: list[str]
    seed: int
    settings: dict[str, Any]
    status: str
    created: float


@dataclass
class LogRow:
    seq: int
    kind: str
    text: str
    seat: int | None
    origin: str


#: one ``Store.append_log`` call's arguments: table id, row, new status or None, seat token hash or None
Append = tuple[str, LogRow, str | None, str | None]


@dataclass
class LoadedTable:
    row: TableRow
    log: list[LogRow]
    seat_hashes: dict[int, str | None]
    seat_names: dict[int, str | None]
    notes: list[dict[str, Any]] = field(default_factory=list)
    deadline: tuple[int, float] | None = None  # (seq, epoch seconds) of the running turn timer


class _Taken(Exception):
    """A seat to fill was taken meanwhile (``Store.fill_seats``)."""


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def normalize_url(url: str) -> str:
    """``postgresql://`` and ``postgres://`` use the psycopg 3 driver; a bare path means a SQLite file."""
    if url.startswith("postgres://"):
        url = "postgresql://" + url[len("postgres://"):]
    if url.startswith("postgresql://"):
        return "postgresql+psycopg://" + url[len("postgresql://"):]
    if "://" not in url:
        return f"sqlite:///{url}"
    return url


def claim_sqlite(url: str) -> str | None:
    """Hold a SQLite database file for this process; ``InUse`` if another process serves it.

    Two servers on one file would each keep their own live tables and diverge. A POSIX lock on a
    file beside the database (``<db>.serving``) keeps a second process out; the kernel drops it when
    the process ends, even by ``kill -9``. Apps inside one process share it (counted). Returns the
    path to give ``release_sqlite``, or None for PostgreSQL and in-memory databases.
    """
    url = normalize_url(url)
    if not url.startswith("sqlite"):
        return None
    raw = url.split(":///", 1)[-1].split("?", 1)[0]
    if not raw or raw == ":memory:":
        return None
    path = os.path.abspath(raw)
    held = _SQLITE_LOCKS.get(path)
    if held is None:
        import fcntl

        f = open(path + ".serving", "a+")  # noqa: SIM115 - held open while the file is served
        try:
            # a POSIX lock belongs to this process: forked bot workers do not inherit it
            fcntl.lockf(f, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            f.close()
            raise InUse(f"another freetrader server is using {path}; stop it first, or give this one "
                        "another --db (several servers can share one PostgreSQL database)") from None
        held = _SQLITE_LOCKS[path] = [f, 0]
    held[1] += 1
    return path


def release_sqlite(path: str) -> None:
    held = _SQLITE_LOCKS.get(path)
    if held is not None:
        held[1] -= 1
        if held[1] <= 0:
            held[0].close()
            del _SQLITE_LOCKS[path]


def _deadline_of(r: Any) -> tuple[int, float] | None:
    if r is None or r.deadline_seq is None or r.deadline is None:
        return None
    return int(r.deadline_seq), float(r.deadline)


def _sqlite_pragmas(dbapi_conn: Any, _record: Any) -> None:
    cur = dbapi_conn.cursor()
    # WAL + synchronous=NORMAL: a committed transaction survives the process being killed.
    cur.execute("PRAGMA journal_mode=WAL")
    cur.execute("PRAGMA synchronous=NORMAL")
    cur.execute("PRAGMA busy_timeout=10000")
    cur.close()


def _no_autocheckpoint(dbapi_conn: Any, _record: Any) -> None:
    dbapi_conn.execute("PRAGMA wal_autocheckpoint=0")  # _Checkpointer does it


class _Checkpointer:
    """Checkpoints a SQLite database in WAL mode every ``every`` seconds, on its own thread and connection.

    A passive checkpoint waits for no reader or writer: commits go on appending to the log while it
    copies, and the fsync of the database file (the only one synchronous=NORMAL makes) is no
    commit's. sqlite3 lets go of the interpreter's lock while SQLite works, so the event loop runs on.
    """

    def __init__(self, path: str, every: float = 1.0) -> None:
        self.rounds = 0  # checkpoints done (a test waits for one)
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, args=(path, every), name="ft-db-checkpoint", daemon=True)
        self._thread.start()

    def _run(self, path: str, every: float) -> None:
        conn = sqlite3.connect(path, check_same_thread=False, isolation_level=None)
        try:
            while True:
                stopping = self._stop.wait(every)
                try:
                    conn.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchall()
                except sqlite3.Error:  # busy or a disk error: the log only grows until the next round
                    pass
                self.rounds += 1
                if stopping:
                    return
        finally:
            conn.close()

    def stop(self) -> None:
        """A last checkpoint, then the thread ends."""
        self._stop.set()
        self._thread.join(timeout=10)


class Store:
    """All database access of the server. Methods block; run them in ``executor``."""

    def __init__(self, url: str) -> None:
        self.url = normalize_url(url)
        self.is_sqlite = self.url.startswith("sqlite")
        if self.is_sqlite:
            self.engine: Engine = create_engine(self.url, connect_args={"check_same_thread": False})
            event.listen(self.engine, "connect", _sqlite_pragmas)
        else:
            self.engine = create_engine(self.url, pool_size=8, max_overflow=4, pool_pre_ping=True)
        self.executor = DbThreads(1 if self.is_sqlite else 6, "ft-db")
        self._insert_log = _Prepared(_INSERT_LOG, self.engine)
        self._insert_if_held = _Prepared(_INSERT_IF_HELD, self.engine)
        self._set_status = _Prepared(_SET_STATUS, self.engine)
        self._integrity = self.engine.dialect.dbapi.IntegrityError  # type: ignore[union-attr]
        self._lock_path: str | None = None
        self._checkpointer: _Checkpointer | None = None

    def lock_sqlite(self, checkpoint_every: float = 1.0) -> None:
        """Hold the SQLite file for this process (``claim_sqlite``); ``InUse`` if another process serves it.

        From then on the log is checkpointed every ``checkpoint_every`` seconds by ``_Checkpointer``,
        never by a commit.
        """
        self._lock_path = claim_sqlite(self.url)
        if self._lock_path is not None and self._checkpointer is None:
            event.listen(self.engine, "connect", _no_autocheckpoint)
            self.engine.dispose()  # connections opened before take the setting when opened again
            self._checkpointer = _Checkpointer(self._lock_path, checkpoint_every)

    def create_schema(self) -> None:
        """Create or migrate the schema to this release's (Alembic; see ``server/migrations``)."""
        from .migrations import upgrade

        upgrade(self.engine)

    def drop_schema(self) -> None:
        """Remove every Freetrader table and the schema version (tests use this for a clean database)."""
        from .migrations import VERSION_TABLE

        metadata.drop_all(self.engine)
        Table(VERSION_TABLE, MetaData()).drop(self.engine, checkfirst=True)
        Table("ft_leases", MetaData()).drop(self.engine, checkfirst=True)  # cluster.py makes it on PostgreSQL

    def close(self) -> None:
        self.executor.shutdown(wait=True)
        self.engine.dispose()
        if self._checkpointer is not None:
            self._checkpointer.stop()
            self._checkpointer = None
        if self._lock_path is not None:
            release_sqlite(self._lock_path)
        self._lock_path = None

    # -- writes ------------------------------------------------------------------
    def create_table(self, row: TableRow, human_seats: list[int]) -> None:
        with self.engine.begin() as conn:
            conn.execute(
                insert(tables_t).values(
                    id=row.id, game=row.game, options=json.dumps(row.options), seats=json.dumps(row.seats),
                    seed=row.seed, settings=json.dumps(row.settings), status=row.status, created=row.created,
                )
            )
            if human_seats:
                conn.execute(insert(seats_t), [{"table_id": row.id, "seat": s} for s in human_seats])

    def append_log(self, table_id: str, entry: LogRow, status: str | None = None,
                   seat_hash: str | None = None) -> None:
        """Append one log row (and set the table's status in the same transaction).

        With ``seat_hash``, only while the seat's token is still that one (another process may have
        let the seat go): else ``DuplicateEntry``, and the caller reads the table again.
        """
        self._append_rows([(table_id, entry, status, seat_hash)])

    def append_logs(self, batch: Sequence[Append]) -> list[BaseException | None]:
        """Several ``append_log`` calls (of different tables) in one transaction: each one's error, or None.

        Under load the moves of many tables wait for the database at once; one commit for all of them
        costs the commit, the connection and the trip to this thread once. A batch that fails as a
        whole (one row refused, a lost connection) is rolled back and each append is made on its
        own, so every caller gets the answer it would have had alone.
        """
        if len(batch) > 1:
            try:
                self._append_rows(batch)
                return [None] * len(batch)
            except Exception:  # noqa: BLE001 - each append on its own says whose it was
                pass
        out: list[BaseException | None] = []
        for table_id, entry, status, seat_hash in batch:
            try:
                self.append_log(table_id, entry, status, seat_hash)
                out.append(None)
            except Exception as exc:  # noqa: BLE001 - handed to that append's caller
                out.append(exc)
        return out

    def _append_rows(self, batch: Sequence[Append]) -> None:
        at = time.time()
        plain, held, statuses = [], [], []
        for table_id, entry, status, seat_hash in batch:
            values = {"table_id": table_id, "seq": entry.seq, "kind": entry.kind, "text": entry.text,
                      "seat": entry.seat, "origin": entry.origin, "at": at}
            if seat_hash is None:
                plain.append(self._insert_log.params(values))
            else:  # one statement: the row goes in only while the seat's token is that one
                held.append(self._insert_if_held.params({**values, "hash": seat_hash}))
            if status is not None:
                statuses.append(self._set_status.params({"status": status, "table_id": table_id}))
        conn = self.engine.raw_connection()  # the pool's driver connection: one transaction, then back
        try:
            cur = conn.cursor()
            try:
                # several rows go as one executemany: psycopg sends them in one pipeline, not a trip each;
                # SQLite's rows go as one statement (``_insert_rows``)
                if plain and self.is_sqlite:
                    self._insert_rows(cur, plain)
                elif plain:
                    cur.executemany(self._insert_log.sql, plain)
                if held and not self._returning_many(cur, self._insert_if_held.sql, held):
                    raise DuplicateEntry("a seat was left meanwhile" if len(held) > 1 else
                                         f"seat {batch[0][1].seat} of table {batch[0][0]} was left meanwhile")
                if statuses:
                    cur.executemany(self._set_status.sql, statuses)
            finally:
                cur.close()
            conn.commit()
        except self._integrity:
            conn.rollback()
            entry = batch[0][1]
            raise DuplicateEntry(f"log position {entry.seq} of table {batch[0][0]} is already written "
                                 "(the table moved on meanwhile)") from None
        except BaseException:
            conn.rollback()
            raise
        finally:
            conn.close()

    def _insert_rows(self, cur: Any, rows: list[Any]) -> None:
        """SQLite: the log rows as multi-row ``INSERT``s of up to ``_ROWS_PER_INSERT`` rows.

        The driver lets go of the interpreter's lock for every statement it steps (``executemany``:
        for every row), and this thread gets the lock back only when the event loop's thread, busy
        under a burst of moves, is made to yield it: up to ``sys.getswitchinterval()`` a row, all of
        it added to the acknowledgement of every move in the batch (issue 35). One statement of many
        rows steps once.
        """
        head, _, values = self._insert_log.sql.partition(" VALUES ")
        for at in range(0, len(rows), _ROWS_PER_INSERT):
            part = rows[at:at + _ROWS_PER_INSERT]
            cur.execute(f"{head} VALUES {', '.join([values] * len(part))}", [v for row in part for v in row])

    def _returning_many(self, cur: Any, sql: str, params: list[Any]) -> bool:
        """Run ``sql`` (``... RETURNING``) once per parameter set; whether each one returned its row."""
        if self.engine.dialect.driver == "psycopg" and len(params) > 1:
            cur.executemany(sql, params, returning=True)
            while True:
                if cur.fetchone() is None:
                    return False
                if not cur.nextset():
                    return True
        for one in params:
            cur.execute(sql, one)
            if cur.fetchone() is None:
                return False
        return True

    def append_note(self, table_id: str, seq: int, kind: str, data: dict[str, Any]) -> None:
        try:
            with self.engine.begin() as conn:
                conn.execute(
                    insert(notes_t).values(table_id=table_id, seq=seq, kind=kind, data=json.dumps(data), at=time.time())
                )
        except IntegrityError:
            raise DuplicateEntry(f"note {seq} of table {table_id} is already written") from None

    def fill_seats(self, table_id: str, seats: list[int], notes: list[tuple[int, str, dict[str, Any]]]) -> bool:
        """Make the free human ``seats`` bot seats: their seat rows go and ``notes`` (seq, kind, data) are
        written, in one transaction; False (nothing changed) if one of them was taken meanwhile."""
        try:
            with self.engine.begin() as conn:
                gone = conn.execute(delete(seats_t).where(seats_t.c.table_id == table_id, seats_t.c.seat.in_(seats),
                                                          seats_t.c.token_hash.is_(None))).rowcount
                if gone != len(seats):
                    raise _Taken  # leaves the transaction: rolled back
                now = time.time()
                for seq, kind, data in notes:
                    conn.execute(insert(notes_t).values(table_id=table_id, seq=seq, kind=kind, data=json.dumps(data),
                                                        at=now))
        except _Taken:
            return False
        except IntegrityError:
            raise DuplicateEntry(f"a note of table {table_id} from {notes[0][0]} is already written") from None
        return True

    def set_deadline(self, table_id: str, seq: int, deadline: float | None) -> None:
        """Keep the turn timer's deadline for position ``seq`` (None: no timer runs there).

        A write for an older position than the stored one is ignored: writes may finish out of order.
        """
        with self.engine.begin() as conn:
            conn.execute(
                update(tables_t)
                .where(tables_t.c.id == table_id,
                       tables_t.c.deadline_seq.is_(None) | (tables_t.c.deadline_seq <= seq))
                .values(deadline_seq=seq, deadline=deadline)
            )

    def load_deadline(self, table_id: str) -> tuple[int, float] | None:
        """The stored turn timer of a table: ``(seq, deadline)``, or None."""
        with self.engine.connect() as conn:
            r = conn.execute(select(tables_t.c.deadline_seq, tables_t.c.deadline)
                             .where(tables_t.c.id == table_id)).first()
        return _deadline_of(r)

    def set_seat(self, table_id: str, seat: int, token_hash_: str | None, name: str | None,
                 expect_free: bool) -> bool:
        """Claim (``expect_free``) or release a human seat; False if it was not in the expected state."""
        with self.engine.begin() as conn:
            cond = seats_t.c.token_hash.is_(None) if expect_free else seats_t.c.token_hash.is_not(None)
            res = conn.execute(
                update(seats_t)
                .where(seats_t.c.table_id == table_id, seats_t.c.seat == seat, cond)
                .values(token_hash=token_hash_, name=name)
            )
            return bool(res.rowcount == 1)

    # -- reads -------------------------------------------------------------------
    def _row(self, r: Any) -> TableRow:
        return TableRow(
            id=r.id, game=r.game, options=json.loads(r.options), seats=json.loads(r.seats), seed=int(r.seed),
            settings=json.loads(r.settings), status=r.status, created=float(r.created),
        )

    def table_rows(self, status: str | None = None) -> list[TableRow]:
        """The tables' own rows (no log, seats or notes), oldest first: one query, whatever their number."""
        q = select(tables_t).order_by(tables_t.c.created)
        if status is not None:
            q = q.where(tables_t.c.status == status)
        with self.engine.connect() as conn:
            return [self._row(r) for r in conn.execute(q)]

    def table_ids(self, status: str | None = None) -> list[str]:
        q = select(tables_t.c.id).order_by(tables_t.c.created)
        if status is not None:
            q = q.where(tables_t.c.status == status)
        with self.engine.connect() as conn:
            return [r.id for r in conn.execute(q)]

    def load(self, table_id: str) -> LoadedTable | None:
        with self.engine.connect() as conn:
            r = conn.execute(select(tables_t).where(tables_t.c.id == table_id)).first()
            if r is None:
                return None
            log = [
                LogRow(seq=x.seq, kind=x.kind, text=x.text, seat=x.seat, origin=x.origin)
                for x in conn.execute(select(log_t).where(log_t.c.table_id == table_id).order_by(log_t.c.seq))
            ]
            seats = conn.execute(select(seats_t).where(seats_t.c.table_id == table_id)).all()
            notes = [
                {"seq": x.seq, "kind": x.kind, "at": x.at, **json.loads(x.data)}
                for x in conn.execute(select(notes_t).where(notes_t.c.table_id == table_id).order_by(notes_t.c.seq))
            ]
        return LoadedTable(
            row=self._row(r), log=log,
            seat_hashes={s.seat: s.token_hash for s in seats},
            seat_names={s.seat: s.name for s in seats},
            notes=notes,
            deadline=_deadline_of(r),
        )

    def load_since(self, table_id: str, seq: int, note_seq: int
                   ) -> tuple[list[LogRow], dict[int, tuple[str | None, str | None]], list[dict[str, Any]]]:
        """Log rows from ``seq`` on, every seat (``seat: (token hash, name)``), notes from ``note_seq`` on."""
        with self.engine.connect() as conn:
            rows = [
                LogRow(seq=x.seq, kind=x.kind, text=x.text, seat=x.seat, origin=x.origin)
                for x in conn.execute(select(log_t).where(log_t.c.table_id == table_id, log_t.c.seq >= seq)
                                      .order_by(log_t.c.seq))
            ]
            seats = {s.seat: (s.token_hash, s.name)
                     for s in conn.execute(select(seats_t).where(seats_t.c.table_id == table_id))}
            notes = [
                {"seq": x.seq, "kind": x.kind, "at": x.at, **json.loads(x.data)}
                for x in conn.execute(select(notes_t).where(notes_t.c.table_id == table_id, notes_t.c.seq >= note_seq)
                                      .order_by(notes_t.c.seq))
            ]
        return rows, seats, notes

    def save_review(self, table_id: str, data: dict[str, Any]) -> None:
        """Keep a finished game's review; a second write of the same table's is ignored (the first stays)."""
        try:
            with self.engine.begin() as conn:
                conn.execute(insert(reviews_t).values(table_id=table_id, data=json.dumps(data), at=time.time()))
        except IntegrityError:
            pass  # another process stored it first: the same game, reviewed the same way

    def load_review(self, table_id: str) -> dict[str, Any] | None:
        with self.engine.connect() as conn:
            r = conn.execute(select(reviews_t.c.data).where(reviews_t.c.table_id == table_id)).first()
        return None if r is None else dict(json.loads(r.data))

    def count_tables(self, status: str) -> int:
        with self.engine.connect() as conn:
            return int(conn.execute(select(func.count()).select_from(tables_t).where(tables_t.c.status == status))
                       .scalar() or 0)
