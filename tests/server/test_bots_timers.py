"""Bots move server-side without blocking other tables; turn timers let a bot move for a slow human."""

from __future__ import annotations

import os
import shutil
import tempfile
import time
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient
from tablehelp import SHORT, create, join, view, wait_for, wait_for_file

from freetrader.bots import register_bot
from freetrader.bots.random_bot import RandomBot

#: the slow bot says here that it thinks, and decides only once the file ``decide`` appears
#: (bots run in forked worker processes: a file is what they share with the test)
GATE = Path(tempfile.gettempdir()) / f"ft-slow-bot-{os.getpid()}"


class _SlowBot(RandomBot):  # type: ignore[misc]
    name = "slow-test"

    def choose(self, state: Any, seat: int) -> Any:
        GATE.mkdir(exist_ok=True)
        (GATE / "thinking").touch()
        wait_for_file(GATE / "decide", "the slow bot's release")
        return super().choose(state, seat)


register_bot("slow-test", _SlowBot)


def test_a_slow_bot_does_not_block_another_table(client: TestClient) -> None:
    shutil.rmtree(GATE, ignore_errors=True)
    try:
        slow = create(client, ["slow-test"] * 3, SHORT)
        tid = create(client, ["human"] * 3, {**SHORT, "first_officer": "agreement"})
        token = join(client, tid, 1)
        wait_for_file(GATE / "thinking", "the slow bot's turn")
        # another table takes a move while the slow bot has not decided (it cannot, until released):
        # no clock is needed, a blocked table would wait for the release that only comes after this
        r = client.post(f"/api/tables/{tid}/actions", json={"token": token, "action": "declare", "expected_index": 0})
        assert r.status_code == 200 and view(client, tid)["index"] == 1
        assert view(client, slow)["index"] == 0
    finally:
        (GATE / "decide").touch()
    wait_for(client, slow, lambda m: m["index"] >= 1)  # released, the slow table goes on
    shutil.rmtree(GATE, ignore_errors=True)


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


def test_each_position_carries_its_own_deadline_after_a_timeout(client: TestClient) -> None:
    """Issue 34 item 9: the message after a timeout carried the previous decision's (passed) deadline.

    The timer of a position was armed after its broadcast, so the page kept "Time is up" at the next
    decision (or the last decision's seconds). Now each position's message holds its own deadline.
    """
    tid = create(client, ["human", "human", "human"], {**SHORT, "first_officer": "agreement"},
                 turn_seconds=0.4, timeout_bot="random")
    with client.websocket_connect(f"/ws/tables/{tid}") as ws:
        seen: dict[int, float | None] = {}
        while len(seen) < 4:  # nobody acts: each new position comes from a timeout
            msg = ws.receive_json()
            if msg.get("type") == "state" and not msg["table"]["is_over"]:
                seen.setdefault(msg["seq"], msg["table"]["deadline"])
    seqs = sorted(seen)
    deadlines = [seen[s] for s in seqs]
    assert all(d is not None for d in deadlines), seen
    # a new position's deadline is counted from its own start, after the last one passed: never the old one
    assert all(float(deadlines[i + 1] or 0) > float(deadlines[i] or 0) for i in range(len(deadlines) - 1)), seen
