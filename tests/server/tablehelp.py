"""Helpers shared by the server tests (plain functions over a TestClient, and a lobby in the process)."""

from __future__ import annotations

import contextlib
import time
from collections.abc import AsyncIterator
from typing import Any

from fastapi.testclient import TestClient

from freetrader.server.storage import Store
from freetrader.server.tables import Lobby
from freetrader.server.workers import WorkerPool

SHORT = {"end": "turns", "turn_limit": 6}


def create(c: TestClient, seats: list[str], options: dict[str, Any] | None = None, seed: int | None = None,
           **extra: Any) -> str:
    """A Contraband table; ``seed`` only where the server takes one (one human seat at most)."""
    body = {"game": "contraband", "seats": seats, "options": options or {}, **extra}
    if seed is not None:
        body["seed"] = seed
    r = c.post("/api/tables", json=body)
    assert r.status_code == 201, r.text
    return str(r.json()["table"]["id"])


def join(c: TestClient, table_id: str, seat: int | None = None) -> str:
    r = c.post(f"/api/tables/{table_id}/join", json={} if seat is None else {"seat": seat})
    assert r.status_code == 200, r.text
    return str(r.json()["token"])


def view(c: TestClient, table_id: str, token: str | None = None) -> dict[str, Any]:
    r = c.get(f"/api/tables/{table_id}/view", params={} if token is None else {"token": token})
    assert r.status_code == 200, r.text
    return dict(r.json())


def wait_for(c: TestClient, table_id: str, pred: Any, timeout: float = 300.0) -> dict[str, Any]:
    """Poll the spectator's message until ``pred(message)`` holds (bots move in the background)."""
    end = time.monotonic() + timeout
    while True:
        msg = view(c, table_id)
        if pred(msg):
            return msg
        if time.monotonic() > end:
            raise AssertionError(f"timed out waiting; last message: {msg['table']}")
        time.sleep(0.01)


def human_turn_or_over(tokens: dict[int, str]) -> Any:
    return lambda m: m["view"]["is_over"] or (m["view"]["to_act"] in tokens and m["table"]["takeback"] is None)


def play_out(c: TestClient, table_id: str, tokens: dict[int, str], pick: Any = None) -> dict[str, Any]:
    """Play human seats (first legal action, or ``pick(legal)``) until the game ends; bots move themselves."""
    while True:
        msg = wait_for(c, table_id, human_turn_or_over(tokens))
        if msg["view"]["is_over"]:
            return msg
        seat = msg["view"]["to_act"]
        mine = view(c, table_id, tokens[seat])
        legal = mine["view"]["legal"]
        action = pick(legal) if pick else legal[-1]
        r = c.post(f"/api/tables/{table_id}/actions",
                   json={"token": tokens[seat], "action": action, "expected_index": mine["index"]})
        assert r.status_code == 200, r.text


@contextlib.asynccontextmanager
async def lobby_at(url: str) -> AsyncIterator[Lobby]:
    """A started ``Lobby`` on the database at ``url`` (the ``db_url`` fixture's), closed with its store afterwards."""
    store = Store(url)
    lobby = Lobby(store, WorkerPool(1, "bot"))
    try:
        await lobby.start()
        yield lobby
    finally:
        await lobby.close()
        store.close()


def wait_for_file(path: Any, what: str) -> None:
    """Wait until ``path`` exists: a signal from a bot or replay in a forked worker (files are what they share).

    The bound only ends a stuck test; a loaded machine may take long, and that is not a failure.
    """
    end = time.monotonic() + 300
    while not path.exists():
        assert time.monotonic() < end, f"{what} did not happen within 300 s"
        time.sleep(0.01)
