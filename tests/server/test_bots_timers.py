"""Bots move server-side without blocking other tables; turn timers let a bot move for a slow human."""

from __future__ import annotations

import time
from typing import Any

from fastapi.testclient import TestClient
from tablehelp import SHORT, create, join, view, wait_for

from freetrader.bots import register_bot
from freetrader.bots.random_bot import RandomBot


class _SlowBot(RandomBot):  # type: ignore[misc]
    name = "slow-test"

    def choose(self, state: Any, seat: int) -> Any:
        time.sleep(1.5)
        return super().choose(state, seat)


register_bot("slow-test", _SlowBot)


def test_a_slow_bot_does_not_block_another_table(client: TestClient) -> None:
    slow = create(client, ["slow-test"] * 3, SHORT)
    tid = create(client, ["human"] * 3, {**SHORT, "first_officer": "agreement"})
    token = join(client, tid, 1)
    time.sleep(0.1)  # the slow bot is thinking now
    start = time.monotonic()
    r = client.post(f"/api/tables/{tid}/actions", json={"token": token, "action": "declare", "expected_index": 0})
    assert r.status_code == 200 and time.monotonic() - start < 1.0
    assert view(client, slow)["index"] == 0


def test_turn_timer_lets_a_bot_move_for_the_seat(client: TestClient) -> None:
    tid = create(client, ["human", "human", "human"], {**SHORT, "first_officer": "agreement"},
                 turn_seconds=0.3, timeout_bot="heuristic")
    msg = view(client, tid)
    assert msg["table"]["turn_seconds"] == 0.3 and msg["table"]["deadline"] > time.time() - 1
    # the deal is secret now, so how many claims come before the declaration varies: wait for it
    msg = wait_for(client, tid, lambda m: m["view"]["declarations"] >= 1)
    assert msg["index"] >= 1
    loaded = client.app.state.lobby.store.load(tid)  # type: ignore[attr-defined]
    assert loaded is not None and {e.origin for e in loaded.log} == {"timeout"}
