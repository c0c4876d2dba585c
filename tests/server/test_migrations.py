"""Alembic migrations: a database of the release before migrations upgrades and its tables resume."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import inspect
from tablehelp import SHORT, create, join, view, wait_for

from freetrader.server import migrations
from freetrader.server.app import create_app
from freetrader.server.storage import Store, metadata

pytest.importorskip("alembic")


@contextmanager
def _store(db_url: str) -> Iterator[Store]:
    """A ``Store`` on the test's database, closed afterwards (its SQLite lock and pool released)."""
    store = Store(db_url)
    try:
        yield store
    finally:
        store.close()


def test_a_database_made_with_create_all_is_stamped_upgraded_and_resumes(db_url: str, monkeypatch) -> None:
    # the release before migrations: Store.create_schema was metadata.create_all
    monkeypatch.setattr(Store, "create_schema", lambda self: metadata.create_all(self.engine))
    with TestClient(create_app(db_url)) as c:
        tid = create(c, ["human", "human", "heuristic"], {**SHORT, "first_officer": "agreement"})
        bots_only = create(c, ["random"] * 3, {"end": "turns", "turn_limit": 40})
        token = join(c, tid, 1)
        r = c.post(f"/api/tables/{tid}/actions", json={"token": token, "action": "claim watch", "expected_index": 0})
        assert r.status_code == 200
        before = view(c, tid, token)
    with _store(db_url) as store:
        assert migrations.current(store.engine) is None
        assert not inspect(store.engine).has_table(migrations.VERSION_TABLE)
    monkeypatch.undo()

    with TestClient(create_app(db_url)) as c:  # this release: migrates at start-up, then resumes
        after = view(c, tid, token)
        assert after["view"] == before["view"] and after["index"] == 1
        done = wait_for(c, bots_only, lambda m: m["view"]["is_over"])
        assert done["view"]["actions_taken"] > 0
    with _store(db_url) as store:
        assert migrations.current(store.engine) == migrations.head()


def test_the_migrated_schema_is_the_metadata_and_upgrading_again_changes_nothing(db_url: str) -> None:
    from alembic.autogenerate import compare_metadata
    from alembic.runtime.migration import MigrationContext

    with _store(db_url) as store:
        store.create_schema()
        store.create_schema()  # idempotent: a restart migrates nothing
        assert migrations.current(store.engine) == migrations.head()
        with store.engine.connect() as conn:
            ctx = MigrationContext.configure(conn, opts={"version_table": migrations.VERSION_TABLE})
            diff = compare_metadata(ctx, metadata)
        assert diff == []
        names = set(inspect(store.engine).get_table_names())
        assert {"ft_tables", "ft_seats", "ft_log", "ft_notes", migrations.VERSION_TABLE} <= names


def test_drop_schema_also_forgets_the_version(db_url: str) -> None:
    with _store(db_url) as store:
        store.create_schema()
        store.drop_schema()
        assert migrations.current(store.engine) is None
        store.create_schema()  # so a dropped database is created again, not left empty at "head"
        assert inspect(store.engine).has_table("ft_tables")


def test_a_migration_says_so_in_one_log_line_and_a_restart_says_nothing(db_url: str, caplog) -> None:
    with _store(db_url) as store:
        store.drop_schema()
        metadata.create_all(store.engine)  # a database of the release before migrations: the baseline
        with caplog.at_level("INFO", logger="freetrader.server"):
            store.create_schema()
        moved = [r.getMessage() for r in caplog.records if "database schema" in r.getMessage()]
        assert moved == [f"database schema migrated from revision {migrations.BASELINE} to {migrations.head()}"]
        caplog.clear()
        with caplog.at_level("INFO", logger="freetrader.server"):
            store.create_schema()  # a restart on an up-to-date database
        assert not [r for r in caplog.records if "database schema" in r.getMessage()]
        store.drop_schema()
        with caplog.at_level("INFO", logger="freetrader.server"):
            store.create_schema()
        made = [r.getMessage() for r in caplog.records if "database schema" in r.getMessage()]
        assert made == [f"database schema created at revision {migrations.head()}"]


def test_a_database_migrated_by_a_newer_release_is_refused_in_one_line_and_left_as_it_is(db_url: str) -> None:
    from sqlalchemy import text

    from freetrader.cli.cmd_serve import open_database

    with _store(db_url) as store:
        store.create_schema()
        with store.engine.begin() as conn:
            conn.execute(text(f"UPDATE {migrations.VERSION_TABLE} SET version_num = '0999'"))
        with pytest.raises(migrations.NewerSchema, match="newer than this release knows"):
            store.create_schema()
        problem = open_database(db_url)
        assert problem is not None and "\n" not in problem
        assert "revision 0999" in problem and "restore the backup" in problem
        assert migrations.current(store.engine) == "0999"  # nothing migrated, nothing dropped
        assert inspect(store.engine).has_table("ft_tables")
