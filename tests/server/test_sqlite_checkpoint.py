"""A serving SQLite store checkpoints its write-ahead log on its own thread, never inside a commit.

A commit that crossed SQLite's automatic threshold copied the log into the database file and
synced it (6-10 ms on an idle disk, 32 ms measured under load), and every move of its batch
waited for that before its acknowledgement.
"""

from __future__ import annotations

import shutil
import sqlite3
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from freetrader.server.storage import Store, TableRow


def _fill(store: Store, n: int) -> None:
    for i in range(n):
        store.create_table(TableRow(id=f"t{i}", game="contraband-v1", options={}, seats=["human"] * 3, seed=i,
                                    settings={}, status="playing", created=time.time()), [0, 1, 2])


def _rows_in_the_database_file_alone(db: Path, tmp: Path) -> int:
    """Tables found in a copy of the database file without its log: what checkpoints have copied."""
    alone = tmp / "alone.db"
    shutil.copyfile(db, alone)
    conn = sqlite3.connect(alone)
    try:
        return int(conn.execute("SELECT count(*) FROM ft_tables").fetchone()[0])
    except sqlite3.OperationalError:  # not even the schema copied yet
        return 0
    finally:
        conn.close()


def _wait_for_rounds(store: Store, more: int) -> None:
    checkpointer = store._checkpointer
    assert checkpointer is not None
    target = checkpointer.rounds + more
    deadline = time.monotonic() + 10
    while checkpointer.rounds < target:
        assert time.monotonic() < deadline, "the checkpointer did not run"
        time.sleep(0.01)


@contextmanager
def _store(db: Path, checkpoint_every: float | None) -> Iterator[Store]:
    """A store on ``db`` with its schema; serving (``lock_sqlite``) when ``checkpoint_every`` is given."""
    store = Store(f"sqlite:///{db}")
    store.create_schema()
    if checkpoint_every is not None:
        store.lock_sqlite(checkpoint_every=checkpoint_every)
    try:
        yield store
    finally:
        store.close()


def _autocheckpoint(store: Store) -> int:
    with store.engine.connect() as conn:
        return int(conn.exec_driver_sql("PRAGMA wal_autocheckpoint").scalar() or 0)


def test_commits_leave_the_log_to_the_checkpointer_which_copies_it(tmp_path: Path) -> None:
    db = tmp_path / "served.db"
    with _store(db, 0.05) as store:
        assert _autocheckpoint(store) == 0
        _wait_for_rounds(store, 1)
        _fill(store, 40)
        _wait_for_rounds(store, 2)  # one round may have begun before the last commit
        assert _rows_in_the_database_file_alone(db, tmp_path) == 40


def test_without_a_checkpointer_the_rows_stay_in_the_log_until_closed(tmp_path: Path) -> None:
    # the control for the test above: a store that does not serve keeps SQLite's own threshold, which
    # 40 small tables do not reach, so nothing but a checkpoint puts them in the database file
    db = tmp_path / "script.db"
    with _store(db, None) as store:
        assert _autocheckpoint(store) == 1000
        before = _rows_in_the_database_file_alone(db, tmp_path)
        _fill(store, 40)
        time.sleep(0.2)
        assert _rows_in_the_database_file_alone(db, tmp_path) == before


def test_closing_checkpoints_once_more_and_ends_the_thread(tmp_path: Path) -> None:
    db = tmp_path / "closed.db"
    with _store(db, 3600) as store:  # no round before close
        _fill(store, 5)
    assert not [t for t in threading.enumerate() if t.name == "ft-db-checkpoint"]
    assert _rows_in_the_database_file_alone(db, tmp_path) == 5
    with _store(db, 1.0):  # the file is free again for a new server
        pass
