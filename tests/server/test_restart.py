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


def test_a_table_that_no_longer_replays_names_the_data_it_was_made_with(db_url: str, monkeypatch, caplog) -> None:
    """A server restarted on other components (an upgrade that changed a game's data) cannot rebuild a table
    whose log no longer replays; its one-line answer (409: the table is kept, this server cannot play it)
    names both data hashes and how to finish the game, and quotes no action: any client may ask."""
    from freetrader.core.state import Game

    made = "sha256:00000000000000bb"  # Contraband reads no data file: both hashes are set here
    monkeypatch.setattr(Game, "data_hash", property(lambda self: made))
    with TestClient(create_app(db_url)) as c:
        tid = create(c, ["human"] * 3, SHORT)
    store = Store(db_url)
    try:  # the first action of the log, as the older data allowed it and today's does not
        store.append_log(tid, LogRow(0, "action", "smuggle the-crown-jewels", 1, "human"))
    finally:
        store.close()
    monkeypatch.setattr(Game, "data_hash", property(lambda self: "sha256:00000000000000aa"))
    with TestClient(create_app(db_url)) as c:
        r = c.get(f"/api/tables/{tid}")
        error = r.json()["error"]
        assert r.status_code == 409 and "\n" not in error
        assert "cannot be rebuilt from its log: action 1 of 1 no longer replays" in error
        assert "crown-jewels" not in error  # what a seat smuggled is its own: the number names the action
        assert f"made with data {made}" in error and "now has data sha256:00000000000000aa" in error
        assert "--data" in error
    assert "crown-jewels" not in caplog.text  # nor in the server's log
