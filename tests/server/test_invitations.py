"""Issue 34 item 8: a table made to wait for its human seats starts only when they are taken, or with bots.

Before, the game started (and a bot moved) while the invited friend's seat was still empty. A table
created with ``wait_for_seats`` runs nothing until every human seat is taken, or its host (the first to
sit down) starts it and the game's default bot takes each free seat.
"""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient
from tablehelp import SHORT, view, wait_for

from freetrader.server.app import create_app

CONTRABAND = {**SHORT, "first_officer": "agreement"}


def _create(c: TestClient, seats: list[str], **extra: Any) -> str:
    r = c.post("/api/tables", json={"game": "contraband", "seats": seats, "options": CONTRABAND,
                                    "wait_for_seats": True, **extra})
    assert r.status_code == 201, r.text
    return str(r.json()["table"]["id"])


def _join(c: TestClient, tid: str, seat: int, name: str) -> str:
    r = c.post(f"/api/tables/{tid}/join", json={"seat": seat, "name": name})
    assert r.status_code == 200, r.text
    return str(r.json()["token"])


def _refused(r: Any, status: int, words: str) -> None:
    assert r.status_code == status, r.text
    error = r.json()["error"]
    assert words in error and "\n" not in error, error


def test_the_game_waits_for_every_human_seat_then_starts(client: TestClient) -> None:
    tid = _create(client, ["human", "human", "random"], turn_seconds=30)
    ann = _join(client, tid, 0, "Ann")
    table = client.app.state.lobby.tables[tid]  # type: ignore[attr-defined]
    info = view(client, tid)["table"]
    assert info["waiting"] is True and info["host"] == 0 and info["deadline"] is None
    assert [s["name"] for s in info["seats"]] == ["Ann", None, None]
    # nothing runs: no bot turn, no turn timer, and no seat may move
    assert table.thinking is None and table.timer is None
    r = client.post(f"/api/tables/{tid}/actions", json={"token": ann, "action": "declare", "seq": 0})
    _refused(r, 409, "has not started: it waits for its free human seats (1)")
    bob = _join(client, tid, 1, "Bob")
    info = view(client, tid, bob)["table"]
    assert info["waiting"] is False and [s["name"] for s in info["seats"]][:2] == ["Ann", "Bob"]
    # started: the seat to act has a timer (a human) or the bot moves
    wait_for(client, tid, lambda m: m["table"]["deadline"] is not None or m["index"] >= 1)
    _refused(client.post(f"/api/tables/{tid}/start", json={"token": ann}), 409, "has already started")


def test_the_host_starts_with_bots_in_the_free_seats(client: TestClient) -> None:
    tid = _create(client, ["human", "human", "human"])
    ann = _join(client, tid, 0, "Ann")
    bob = _join(client, tid, 1, "Bob")
    _refused(client.post(f"/api/tables/{tid}/start", json={"token": bob}), 403, "only the host (seat 0")
    _refused(client.post(f"/api/tables/{tid}/start", json={"token": "not-a-seat-link"}), 403, "not valid")
    assert view(client, tid)["table"]["waiting"] is True
    r = client.post(f"/api/tables/{tid}/start", json={"token": ann})
    assert r.status_code == 200, r.text
    info = view(client, tid)["table"]
    assert info["waiting"] is False
    assert [(s["kind"], s["name"]) for s in info["seats"]] == [("human", "Ann"), ("human", "Bob"), ("heuristic", None)]
    _refused(client.post(f"/api/tables/{tid}/join", json={"seat": 2, "name": "Cy"}), 400, "not a human seat")
    # the game runs: the humans move, the bot at seat 2 moves by itself
    tokens = {0: ann, 1: bob}
    table = client.app.state.lobby.tables[tid]  # type: ignore[attr-defined]
    while not any(row.seat == 2 and row.origin == "bot" for row in table.stack):
        msg = wait_for(client, tid, lambda m: m["view"]["to_act"] in tokens or m["view"]["is_over"]
                       or any(row.seat == 2 for row in table.stack))
        assert not msg["view"]["is_over"], "the bot at seat 2 never moved"
        if msg["view"]["to_act"] not in tokens:
            continue
        seat = msg["view"]["to_act"]
        mine = view(client, tid, tokens[seat])
        r = client.post(f"/api/tables/{tid}/actions",
                        json={"token": tokens[seat], "action": mine["view"]["legal"][0], "seq": mine["seq"]})
        assert r.status_code in (200, 409), r.text  # 409: a bot or timer moved first


def test_waiting_and_the_bots_it_started_with_survive_a_restart(db_url: str) -> None:
    app = create_app(db_url)
    with TestClient(app) as c:
        tid = _create(c, ["human", "human", "human"])
        ann = _join(c, tid, 0, "Ann")
    with TestClient(create_app(db_url)) as c:
        info = view(c, tid)["table"]
        assert info["waiting"] is True and info["host"] == 0
        assert c.post(f"/api/tables/{tid}/start", json={"token": ann}).status_code == 200
    with TestClient(create_app(db_url)) as c:
        info = view(c, tid)["table"]
        assert info["waiting"] is False
        assert [s["kind"] for s in info["seats"]] == ["human", "heuristic", "heuristic"]


def test_a_table_without_the_wait_or_with_one_human_starts_at_once(client: TestClient) -> None:
    for seats, wait in ((["human", "human", "random"], False), (["human", "random", "random"], True)):
        r = client.post("/api/tables", json={"game": "contraband", "seats": seats, "options": CONTRABAND,
                                             "wait_for_seats": wait})
        assert r.status_code == 201 and r.json()["table"]["waiting"] is False
    r = client.post("/api/tables", json={"game": "contraband", "seats": ["human"] * 3, "wait_for_seats": "soon"})
    _refused(r, 422, "wait_for_seats")


def test_when_the_host_leaves_another_seated_player_may_start(client: TestClient) -> None:
    tid = _create(client, ["human", "human", "human"])
    ann = _join(client, tid, 0, "Ann")
    bob = _join(client, tid, 1, "Bob")
    assert client.post(f"/api/tables/{tid}/leave", json={"token": ann}).status_code == 200
    assert view(client, tid)["table"]["waiting"] is True  # a seat is free again: still waiting
    assert client.post(f"/api/tables/{tid}/start", json={"token": bob}).status_code == 200
    info = view(client, tid)["table"]
    assert info["waiting"] is False and [s["kind"] for s in info["seats"]] == ["heuristic", "human", "heuristic"]
