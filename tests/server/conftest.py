"""Fixtures for the server tests: a fresh database (SQLite, and PostgreSQL when FREETRADER_TEST_PG is set)."""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import Any

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("sqlalchemy")

from fastapi.testclient import TestClient  # noqa: E402

from freetrader.server.app import create_app  # noqa: E402
from freetrader.server.storage import Store  # noqa: E402

PG_URL = os.environ.get("FREETRADER_TEST_PG")
DATABASES = ["sqlite"] + (["postgresql"] if PG_URL else [])


def fresh_url(kind: str, tmp_path: Any) -> str:
    if kind == "sqlite":
        return f"sqlite:///{tmp_path}/table.db"
    assert PG_URL
    store = Store(PG_URL)
    store.drop_schema()
    store.close()
    return PG_URL


@pytest.fixture(params=DATABASES)
def db_url(request: pytest.FixtureRequest, tmp_path: Any) -> str:
    return fresh_url(request.param, tmp_path)


@pytest.fixture
def client(db_url: str) -> Iterator[TestClient]:
    with TestClient(create_app(db_url)) as c:
        yield c
