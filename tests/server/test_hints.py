"""The coach endpoints: a finished game's review is computed once and stored; hints only where the table allows."""

from __future__ import annotations

import time
from typing import Any

import pytest
from fastapi.testclient import TestClient
from tablehelp import SHORT, create, join, view, wait_for

import freetrader
from freetrader.server import hints
from freetrader.server.app import create_app


@pytest.fixture(autouse=True)
def _small_budgets(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("FREETRADER_REVIEW_ITERS", "4")
    monkeypatch.setenv("FREETRADER_HINT_ITERS", "20")


def _review(c: TestClient, table_id: str, timeout: float = 300.0) -> dict[str, Any]:
    end = time.monotonic() + timeout
    while True:
        r = c.get(f"/api/tables/{table_id}/review")
        assert r.status_code in (200, 202), r.text
        if r.status_code == 200:
            return dict(r.json())
        assert r.json()["status"] == "running"
        if time.monotonic() > end:
            raise AssertionError("the review did not finish")
        time.sleep(0.05)


def test_a_finished_game_is_reviewed_once_and_stored(db_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    with TestClient(create_app(db_url)) as c:
        table_id = create(c, ["random", "random", "random"], SHORT)
        assert c.get(f"/api/tables/{table_id}/review").status_code in (409, 200, 202)  # 409 while playing
        wait_for(c, table_id, lambda m: m["view"]["is_over"])
        out = _review(c, table_id)
        assert out["status"] == "done"
        review = out["review"]
        record = c.get(f"/api/tables/{table_id}/record").json()
        assert review["actions"] == len(record["actions"]) and review["budget"] == "iters=4"
        assert review["decisions"] and {"before", "after_played", "best", "flagged"} <= set(review["decisions"][0])
    # a second visit (a new server on the same database) reads it back and computes nothing
    calls: list[Any] = []
    monkeypatch.setattr(hints, "review_job", lambda *a: calls.append(a) or {"error": "recomputed"})
    with TestClient(create_app(db_url)) as c:
        again = c.get(f"/api/tables/{table_id}/review")
        assert again.status_code == 200 and again.json()["review"] == review
    assert calls == []


def test_a_game_still_playing_is_not_reviewed(client: TestClient) -> None:
    table_id = create(client, ["human", "random", "random"], SHORT)
    r = client.get(f"/api/tables/{table_id}/review")
    assert r.status_code == 409 and "not over" in r.json()["error"]
    assert client.get("/api/tables/nosuch/review").status_code == 404


def test_hints_are_off_unless_the_table_turns_them_on(client: TestClient) -> None:
    table_id = create(client, ["human", "random", "random"], SHORT, seed=3)
    token = join(client, table_id, 0)
    assert view(client, table_id)["table"]["hints"] is False
    r = client.post(f"/api/tables/{table_id}/hint", json={"token": token})
    assert r.status_code == 403 and "hints are off" in r.json()["error"]


def test_a_hint_is_the_seats_own_move_and_asked_again_gives_the_same(client: TestClient) -> None:
    table_id = create(client, ["human", "random", "random"], SHORT, seed=3, hints=True)
    token = join(client, table_id, 0)
    msg = wait_for(client, table_id, lambda m: m["view"]["to_act"] == 0)
    assert msg["table"]["hints"] is True  # shown to everyone, spectators too
    mine = view(client, table_id, token)["view"]
    r = client.post(f"/api/tables/{table_id}/hint", json={"token": token})
    assert r.status_code == 200, r.text
    h = r.json()["hint"]
    assert h["seat"] == 0 and h["action"] in mine["legal"] and h["action"] in h["sentence"]
    assert client.post(f"/api/tables/{table_id}/hint", json={"token": token}).json()["hint"] == h
    # no token, a bad token, or a seat whose turn it is not: refused, nothing computed
    assert client.post(f"/api/tables/{table_id}/hint", json={"token": "bad"}).status_code == 403
    assert client.post(f"/api/tables/{table_id}/hint", json={}).status_code == 422


def test_the_hint_worker_gets_a_determinization_for_the_seat(monkeypatch: pytest.MonkeyPatch) -> None:
    # What the worker is handed differs from the true state only where the seat cannot see.
    seen: list[Any] = []

    class _Pool:
        async def run(self, fn: Any, world: Any, seat: int, *args: Any, timeout: float, **_queue: str) -> dict[str, Any]:
            seen.append((world, seat))
            return {"seat": seat, "action": str(world.legal_actions()[0]), "sentence": "x"}

        def close(self) -> None:
            pass

    class _Table:
        id, seq, seed = "t", 5, 11
        row = type("R", (), {"settings": {"hints": True}})()

        def __init__(self) -> None:
            self.state = freetrader.game("contraband").new_state(3, 4)

        def seat_of(self, token: str) -> int:
            return 0

    table = _Table()

    class _Lobby:
        async def get(self, _id: str) -> Any:
            return table

    import asyncio

    coach = hints.Coach()
    coach.hints = _Pool()  # type: ignore[assignment]
    asyncio.run(coach.hint(_Lobby(), "t", "tok"))
    world, seat = seen[0]
    assert seat == 0 and world is not table.state
    assert world.view(0) == table.state.view(0)
    assert world.to_json() != table.state.to_json()  # the hidden cards are redrawn, not the true ones
    coach.close()
