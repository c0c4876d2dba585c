"""The turn timer's deadline is kept in the database: a restart does not give the player to move more time."""

from __future__ import annotations

import time

from fastapi.testclient import TestClient
from tablehelp import SHORT, create, view, wait_for

from freetrader.server.app import create_app


def _stored_deadline(c: TestClient, tid: str) -> tuple[int, float] | None:
    loaded = c.app.state.lobby.store.load(tid)  # type: ignore[attr-defined]
    assert loaded is not None
    return loaded.deadline


def test_a_restart_keeps_the_turn_timers_deadline(db_url: str) -> None:
    with TestClient(create_app(db_url)) as c:
        tid = create(c, ["human"] * 3, SHORT, turn_seconds=600, timeout_bot="random")
        first = view(c, tid)["table"]["deadline"]
        assert first is not None
        # the write is in the background: wait until the database holds it
        wait_for(c, tid, lambda m: _stored_deadline(c, tid) == (0, first))
    time.sleep(0.05)  # the server is down a while: a restarted timer would end later than the first
    with TestClient(create_app(db_url)) as c:
        # the table is restored in the background and its timer armed after that: wait for it (a loaded
        # machine showed a view with no deadline yet), then it must be the stored one, not a new one
        after = wait_for(c, tid, lambda m: m["table"]["deadline"] is not None)
        assert after["table"]["deadline"] == first and after["seq"] == 0


def test_a_deadline_that_passed_while_the_server_was_down_moves_after_the_restart(db_url: str) -> None:
    with TestClient(create_app(db_url)) as c:
        tid = create(c, ["human"] * 3, SHORT, turn_seconds=3.0, timeout_bot="random")
        first = view(c, tid)["table"]["deadline"]
        wait_for(c, tid, lambda m: _stored_deadline(c, tid) == (0, first))
    while time.time() < first + 0.2:  # the deadline passes while no server runs
        time.sleep(0.05)
    with TestClient(create_app(db_url)) as c:
        moved = wait_for(c, tid, lambda m: m["index"] >= 1)
        loaded = c.app.state.lobby.store.load(tid)  # type: ignore[attr-defined]
        assert loaded is not None and [e.origin for e in loaded.log][:1] == ["timeout"]
        assert moved["seq"] >= 1
