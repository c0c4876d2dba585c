"""Rebuilding a table from its log runs off the event loop: the server answers other requests meanwhile.

The rebuild of one table is held in its thread until the test lets it go; had it run on the event loop,
the loop would be stuck and the other requests would never be answered.
"""

from __future__ import annotations

import threading
from typing import Any

import pytest
from fastapi.testclient import TestClient
from tablehelp import SHORT, create, join, view, wait_for

from freetrader.server import tables
from freetrader.server.app import create_app
from freetrader.server.storage import LoadedTable

LONG = {"end": "turns", "turn_limit": 10000}


def _play(c: TestClient, tid: str, tokens: dict[int, str], moves: int) -> None:
    for _ in range(moves):
        msg = view(c, tid)
        seat = msg["view"]["to_act"]
        mine = view(c, tid, tokens[seat])
        r = c.post(f"/api/tables/{tid}/actions", json={"token": tokens[seat], "action": mine["view"]["legal"][0],
                                                       "seq": mine["seq"]})
        assert r.status_code == 200, r.text


def _hold(monkeypatch: pytest.MonkeyPatch, table_id: str) -> tuple[threading.Event, threading.Event]:
    """Make the rebuild of ``table_id`` wait (in its thread) until the second event is set."""
    started, go = threading.Event(), threading.Event()
    real = tables._rebuild

    def held(loaded: LoadedTable) -> Any:
        if loaded.row.id == table_id:
            started.set()
            assert go.wait(60), "the test never let the rebuild go"
        return real(loaded)

    monkeypatch.setattr(tables, "_rebuild", held)
    return started, go


def _other_table_plays(c: TestClient) -> None:
    tid = create(c, ["human"] * 3, SHORT)
    tokens = {s: join(c, tid, s) for s in range(3)}
    _play(c, tid, tokens, 2)
    assert view(c, tid)["index"] == 2


def test_restoring_a_long_table_at_start_leaves_the_loop_answering(db_url: str,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    with TestClient(create_app(db_url)) as c:
        # a turn timer: the table has something to run alone, so the start restores it (tables of humans
        # only, without a timer, wait until asked for: test_attacks.py)
        big = create(c, ["human"] * 3, LONG, turn_seconds=3600)
        tokens = {s: join(c, big, s) for s in range(3)}
        _play(c, big, tokens, 40)
        before = view(c, big, tokens[0])
    started, go = _hold(monkeypatch, big)
    with TestClient(create_app(db_url)) as c:
        assert started.wait(60)
        lobby = c.app.state.lobby  # type: ignore[attr-defined]
        _other_table_plays(c)  # answered while the long table is still being rebuilt
        assert not go.is_set() and big not in lobby.tables and big in lobby.loading
        # a request for the long table itself waits for that same load, then gets the whole table
        got: dict[str, Any] = {}
        asker = threading.Thread(target=lambda: got.update(view(c, big, tokens[0])))
        asker.start()
        go.set()
        asker.join(60)
        assert got["view"] == before["view"] and got["seq"] == before["seq"] == 40
        assert [t["id"] for t in c.get("/api/tables").json()["tables"]].count(big) == 1


def test_loading_a_finished_table_on_demand_leaves_the_loop_answering(db_url: str,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    with TestClient(create_app(db_url)) as c:
        done = create(c, ["random"] * 3, {"end": "turns", "turn_limit": 4})
        before = wait_for(c, done, lambda m: m["view"]["is_over"])
    started, go = _hold(monkeypatch, done)
    with TestClient(create_app(db_url)) as c:
        lobby = c.app.state.lobby  # type: ignore[attr-defined]
        assert done not in lobby.tables  # only playing tables are restored at start
        got: dict[str, Any] = {}
        asker = threading.Thread(target=lambda: got.update(view(c, done)))
        asker.start()
        assert started.wait(60)
        _other_table_plays(c)  # answered while the finished table is being rebuilt for the asker
        assert not go.is_set() and not got
        go.set()
        asker.join(60)
        assert got["view"] == before["view"] and got["view"]["is_over"]
