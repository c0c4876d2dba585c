"""Durability: a table survives its server; the log never holds a duplicate."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient
from tablehelp import SHORT, create, join, view, wait_for

from freetrader.server.app import create_app
from freetrader.server.storage import DuplicateEntry, LogRow, Store


def test_a_restarted_server_rebuilds_every_table_from_its_log(db_url: str) -> None:
    with TestClient(create_app(db_url)) as c:
        tid = create(c, ["human", "human", "heuristic"], {**SHORT, "first_officer": "agreement"})
        bots_only = create(c, ["random"] * 3, {"end": "turns", "turn_limit": 40})
        tokens = {1: join(c, tid, 1), 2: None}
        r = c.post(f"/api/tables/{tid}/actions", json={"token": tokens[1], "action": "claim watch",
                                                       "expected_index": 0})
        assert r.status_code == 200
        before = view(c, tid, tokens[1])
    with TestClient(create_app(db_url)) as c:
        after = view(c, tid, tokens[1])
        assert after["view"] == before["view"] and after["index"] == 1
        assert after["table"]["seats"][1]["taken"] and not after["table"]["seats"][0]["taken"]
        # bots of the bot-only table resume and finish it
        done = wait_for(c, bots_only, lambda m: m["view"]["is_over"])
        assert done["view"]["actions_taken"] > 0
        r = c.post(f"/api/tables/{tid}/actions", json={"token": tokens[1], "action": "claim watch",
                                                       "expected_index": 0})
        assert r.status_code == 409 and "stale" in r.json()["error"]


def test_the_log_refuses_a_duplicate_position(db_url: str) -> None:
    with TestClient(create_app(db_url)) as c:
        tid = create(c, ["human"] * 3, SHORT)
    store = Store(db_url)
    try:
        store.append_log(tid, LogRow(0, "action", "declare", 1, "human"))
        with pytest.raises(DuplicateEntry, match="already written"):
            store.append_log(tid, LogRow(0, "action", "search", 2, "human"))
        loaded = store.load(tid)
        assert loaded is not None and [e.text for e in loaded.log] == ["declare"]
    finally:
        store.close()
