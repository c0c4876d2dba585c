"""The table under attack (issue 35): hostile input and hostile load from one address, answered in one line."""

from __future__ import annotations

import json
import logging
import os
import tempfile
import time
from typing import Any

import pytest
from fastapi.testclient import TestClient
from tablehelp import SHORT, create, join, view, wait_for

from freetrader.server import hints
from freetrader.server.app import create_app
from freetrader.server.limits import Limits
from freetrader.server.storage import Store, TableRow


def test_a_deeply_nested_websocket_message_gets_the_http_one_line_error(
        client: TestClient, caplog: pytest.LogCaptureFixture) -> None:
    tid = create(client, ["human"] * 3, SHORT)
    nested = "[" * 8000
    r = client.post("/api/tables", content=nested, headers={"content-type": "application/json"})
    assert r.status_code == 400
    http_error = r.json()["error"]
    assert "nested too deeply" in http_error and "\n" not in http_error
    caplog.set_level(logging.INFO, logger="freetrader.server")
    with client.websocket_connect(f"/ws/tables/{tid}") as ws:
        assert ws.receive_json()["type"] == "state"
        ws.send_text(nested)
        err = ws.receive_json()
        assert err["type"] == "error" and err["status"] == 400
        # the same words as over HTTP, naming the message instead of the body
        assert err["error"].removeprefix("the message is ") == http_error.removeprefix("the request body is ")
        ws.send_text(json.dumps({"type": "ping", "id": 1}))  # the socket is still usable
        assert ws.receive_json() == {"type": "pong", "id": 1}
    lines = [r for r in caplog.records if "refused" in r.getMessage()]
    assert len(lines) == 1 and "\n" not in lines[0].getMessage() and lines[0].exc_info is None
    assert not any(r.exc_info for r in caplog.records)
    assert view(client, tid)["index"] == 0


# -- a lobby that cannot be filled (item 4) ------------------------------------------------------------
def _listed(c: TestClient, **params: Any) -> dict[str, Any]:
    r = c.get("/api/tables", params=params)
    assert r.status_code == 200, r.text
    return dict(r.json())


def test_one_address_may_keep_only_so_many_tables_in_the_lobby(tmp_path: Any) -> None:
    with TestClient(create_app(f"sqlite:///{tmp_path}/t.db", limits=Limits(open_tables_per_address=2))) as c:
        first, _second = create(c, ["human"] * 3, SHORT), create(c, ["human"] * 3, SHORT)
        r = c.post("/api/tables", json={"game": "contraband", "seats": ["human"] * 3})
        assert r.status_code == 429
        assert r.json()["error"].startswith("2 open tables were created from this address, the most one address")
        assert _listed(c)["total"] == 2
        # a table nobody uses leaves the lobby, and no longer counts against its creator
        lobby = c.app.state.lobby  # type: ignore[attr-defined]
        lobby.tables[first].human_seen -= Limits().lobby_idle_seconds + 1
        assert first not in [t["id"] for t in _listed(c)["tables"]]
        assert c.post("/api/tables", json={"game": "contraband", "seats": ["human"] * 3}).status_code == 201


def test_a_table_nobody_uses_leaves_the_lobby_and_its_seat_links_still_work(client: TestClient) -> None:
    tid = create(client, ["human"] * 3, SHORT)
    token = join(client, tid, 0)
    lobby = client.app.state.lobby  # type: ignore[attr-defined]
    assert [t["id"] for t in _listed(client)["tables"]] == [tid]
    lobby.tables[tid].human_seen -= lobby.idle_seconds + 1  # as if no seat had been here for that long
    assert _listed(client)["tables"] == [] and _listed(client)["total"] == 0
    assert view(client, tid, token)["you"]["seat"] == 0  # the seat link resumes it...
    assert [t["id"] for t in _listed(client)["tables"]] == [tid]  # ...and it is back in the lobby
    lobby.tables[tid].human_seen -= lobby.idle_seconds + 1
    with client.websocket_connect(f"/ws/tables/{tid}?token={token}") as ws:
        assert ws.receive_json()["type"] == "state"
        lobby.tables[tid].human_seen -= lobby.idle_seconds + 1
        assert [t["id"] for t in _listed(client)["tables"]] == [tid]  # listed while a player is connected


def test_the_lobby_list_comes_a_page_at_a_time(tmp_path: Any) -> None:
    with TestClient(create_app(f"sqlite:///{tmp_path}/t.db", limits=Limits(open_tables_per_address=100))) as c:
        made = [create(c, ["human"] * 3, SHORT) for _ in range(5)]
        page = _listed(c, limit=2)
        assert page["total"] == 5 and page["offset"] == 0 and len(page["tables"]) == 2
        pages = [t["id"] for off in (0, 2, 4) for t in _listed(c, offset=off, limit=2)["tables"]]
        assert sorted(pages) == sorted(made) and len(set(pages)) == 5
        created = [t["created"] for off in (0, 2, 4) for t in _listed(c, offset=off, limit=2)["tables"]]
        assert created == sorted(created, reverse=True)  # newest first
        r = c.get("/api/tables", params={"limit": 1000})
        assert r.status_code == 422 and "limit" in r.json()["error"]


def test_a_restart_with_many_stored_tables_loads_only_what_runs_alone(tmp_path: Any) -> None:
    url = f"sqlite:///{tmp_path}/t.db"
    store = Store(url)
    store.create_schema()
    stored = 300
    for i in range(stored):  # tables of humans only, as a lobby filler leaves them
        store.create_table(TableRow(id=f"fill{i}", game="contraband-v1", options=dict(SHORT), seats=["human"] * 3,
                                    seed=i, settings={"seed_chosen": True}, status="playing", created=1.0 + i),
                           [0, 1, 2])
    store.close()
    with TestClient(create_app(url)) as c:
        bots = create(c, ["random"] * 3, SHORT)
    with TestClient(create_app(url)) as c:
        lobby = c.app.state.lobby  # type: ignore[attr-defined]
        assert lobby.restoring <= {bots}  # the bot table is restored; none of the 300 is read
        assert not any(tid.startswith("fill") for tid in lobby.tables)
        assert _listed(c)["total"] == 0 and len(lobby.tables) <= 1
        assert view(c, "fill7")["index"] == 0  # a stored table is read when first asked for
        assert "fill7" in lobby.tables and len([t for t in lobby.tables if t.startswith("fill")]) == 1
        wait_for(c, bots, lambda m: m["index"] > 0 or m["view"]["is_over"], timeout=60)  # the bots play on


# -- reviews queued per address, with a budget (item 6) ---------------------------------------------
#: while this file exists the slow review waits (the worker is a forked process: a file is what they share)
HOLD = os.path.join(tempfile.gettempdir(), f"ft-review-hold-{os.getpid()}")


def _held_review(record: dict[str, Any], iters: int) -> dict[str, Any]:
    end = time.monotonic() + 60
    while os.path.exists(HOLD) and time.monotonic() < end:
        time.sleep(0.05)
    return {"error": "held review (test)"}


def test_one_address_may_have_only_so_many_reviews_computed(client: TestClient,
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(hints, "review_job", _held_review)
    done = [create(client, ["random"] * 3, SHORT) for _ in range(hints.PER_ADDRESS + 1)]
    for tid in done:
        wait_for(client, tid, lambda m: m["view"]["is_over"], timeout=60)
    open(HOLD, "w").close()
    try:
        for tid in done[:-1]:
            assert client.get(f"/api/tables/{tid}/review").status_code == 202
        r = client.get(f"/api/tables/{done[-1]}/review")
        assert r.status_code == 429
        assert r.json()["error"] == (f"{hints.PER_ADDRESS} reviews or hints asked from this address are being "
                                     "computed, the most one address may have; wait for them")
    finally:
        os.unlink(HOLD)
    end = time.monotonic() + 60
    while client.get(f"/api/tables/{done[0]}/review").json().get("status") == "running":
        assert time.monotonic() < end, "the held review never ended"
        time.sleep(0.05)
    assert client.get(f"/api/tables/{done[-1]}/review").status_code == 202  # its turn now


def test_tables_nobody_uses_are_forgotten_and_load_again_when_asked_for(client: TestClient) -> None:
    lobby = client.app.state.lobby  # type: ignore[attr-defined]
    humans = create(client, ["human"] * 3, SHORT)
    token = join(client, humans, 0)
    done = create(client, ["random"] * 3, SHORT)
    over = wait_for(client, done, lambda m: m["view"]["is_over"], timeout=60)
    bots = create(client, ["random"] * 3, {"end": "turns", "turn_limit": 10000})  # runs alone: kept
    unload = lambda: client.portal.call(lobby.unload_idle)  # type: ignore[union-attr]  # noqa: E731 - in the loop
    assert unload() == []  # all of them were used a moment ago
    for tid in (humans, done, bots):  # as if nobody had asked for them for that long
        lobby.tables[tid].human_seen -= lobby.idle_seconds + 1
        lobby.tables[tid].touched -= lobby.idle_seconds + 1
    assert sorted(unload()) == sorted([humans, done])
    assert bots in lobby.tables and humans not in lobby.tables and done not in lobby.tables
    assert view(client, humans, token)["you"]["seat"] == 0  # the seat link loads it again
    assert view(client, done)["view"] == over["view"]
