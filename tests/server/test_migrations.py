"""Alembic migrations: a database of the release before migrations upgrades and its tables resume."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import inspect
from tablehelp import SHORT, create, join, view, wait_for

from freetrader.server import migrations
from freetrader.server.app import create_app
from freetrader.server.storage import Store, metadata

pytest.importorskip("alembic")


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
    store = Store(db_url)
    try:
        assert migrations.current(store.engine) is None
        assert not inspect(store.engine).has_table(migrations.VERSION_TABLE)
    finally:
        store.close()
    monkeypatch.undo()

    with TestClient(create_app(db_url)) as c:  # this release: migrates at start-up, then resumes
        after = view(c, tid, token)
        assert after["view"] == before["view"] and after["index"] == 1
        done = wait_for(c, bots_only, lambda m: m["view"]["is_over"])
        assert done["view"]["actions_taken"] > 0
    store = Store(db_url)
    try:
        assert migrations.current(store.engine) == migrations.head()
    finally:
        store.close()


def test_the_migrated_schema_is_the_metadata_and_upgrading_again_changes_nothing(db_url: str) -> None:
    from alembic.autogenerate import compare_metadata
    from alembic.runtime.migration import MigrationContext

    store = Store(db_url)
    try:
        store.create_schema()
        store.create_schema()  # idempotent: a restart migrates nothing
        assert migrations.current(store.engine) == migrations.head()
        with store.engine.connect() as conn:
            ctx = MigrationContext.configure(conn, opts={"version_table": migrations.VERSION_TABLE})
            diff = compare_metadata(ctx, metadata)
        assert diff == []
        names = set(inspect(store.engine).get_table_names())
        assert {"ft_tables", "ft_seats", "ft_log", "ft_notes", migrations.VERSION_TABLE} <= names
    finally:
        store.close()


def test_drop_schema_also_forgets_the_version(db_url: str) -> None:
    store = Store(db_url)
    try:
        store.create_schema()
        store.drop_schema()
        assert migrations.current(store.engine) is None
        store.create_schema()  # so a dropped database is created again, not left empty at "head"
        assert inspect(store.engine).has_table("ft_tables")
    finally:
        store.close()
