"""The websocket hub: per-seat views, acks after commit, clean errors, spectators see nothing hidden."""

from __future__ import annotations

import json
from typing import Any

from fastapi.testclient import TestClient
from tablehelp import SHORT, create, join, view

from freetrader.server.tables import view_from


def _until(ws: Any, kind: str) -> dict[str, Any]:
    while True:
        msg = ws.receive_json()
        if msg["type"] == kind:
            return dict(msg)


def test_actions_over_websockets_reach_every_connection_as_its_own_view(client: TestClient) -> None:
    tid = create(client, ["human"] * 3, {**SHORT, "first_officer": "agreement"})
    tokens = {s: join(client, tid, s) for s in range(3)}
    base = f"/ws/tables/{tid}"
    with client.websocket_connect(f"{base}?token={tokens[1]}") as p1, \
            client.websocket_connect(f"{base}?token={tokens[1]}") as p1b, \
            client.websocket_connect(f"{base}?token={tokens[0]}") as p0, \
            client.websocket_connect(base) as spectator:
        first = p1.receive_json()
        assert first["type"] == "state" and first["you"]["seat"] == 1 and "your_luggage" in first["view"]
        for ws in (p1b, p0, spectator):
            ws.receive_json()
        p1.send_text(json.dumps({"type": "action", "action": "claim brandy", "expected_index": 0, "id": 7}))
        state = _until(p1, "state")
        # the take-back hint is computed only when the seat that moved asks for it
        assert state["index"] == 1 and state["you"]["can_take_back"] is None
        # the acknowledgement (sent only after the commit) rides in the mover's state message
        assert state["ack"] == {"id": 7} and state["seq"] == 1
        p1.send_text(json.dumps({"type": "hint", "id": 8}))
        assert _until(p1, "hint") == {"type": "hint", "id": 8, "seq": 1, "can_take_back": True}
        # the second tab of seat 1 sees the same; seat 0 and the spectator see no luggage
        # (the view goes as its changed fields over the one the socket holds: rebuilt as the page does)
        again = _until(p1b, "state")
        assert "view" not in again and again["view_base"] == first["seq"]
        rebuilt = view_from(again, (first["seq"], first["view"]))
        assert rebuilt is not None and "your_luggage" in rebuilt
        whole = view(client, tid, tokens[1])["view"]
        assert rebuilt == {k: v for k, v in whole.items() if k != "events"}  # the view the HTTP API gives
        frames = [p0.receive_text(), spectator.receive_text()]
        assert all("your_luggage" not in f and '"legal"' not in f for f in frames)
        # the second tab sends the same action again: stale, nothing changes
        p1b.send_text(json.dumps({"type": "action", "action": "claim brandy", "expected_index": 0}))
        err = _until(p1b, "error")
        assert "stale" in err["error"] and err["status"] == 409
        # bad messages get errors, the connection stays usable
        p1.send_text("{oops")
        assert "not valid JSON" in _until(p1, "error")["error"]
        p1.send_text(json.dumps({"type": "action", "action": "x" * 20000, "expected_index": 1}))
        assert "too large" in _until(p1, "error")["error"]
        p1.send_text(json.dumps({"type": "dance"}))
        assert "unknown message type" in _until(p1, "error")["error"]
        p1.send_text(json.dumps([1, 2]))
        assert "JSON object" in _until(p1, "error")["error"]
        spectator.send_text(json.dumps({"type": "action", "action": "declare", "expected_index": 1}))
        assert "spectators cannot act" in _until(spectator, "error")["error"]
        p0.send_text(json.dumps({"type": "action", "action": "declare", "expected_index": 1}))
        assert "seat 1's turn" in _until(p0, "error")["error"]
        p1.send_text(json.dumps({"type": "ping", "id": "a"}))
        assert _until(p1, "pong")["id"] == "a"
    assert view(client, tid)["index"] == 1


def test_websocket_with_bad_table_or_token_is_refused_clearly(client: TestClient) -> None:
    tid = create(client, ["human"] * 3, SHORT)
    with client.websocket_connect("/ws/tables/nope") as ws:
        msg = ws.receive_json()
        assert msg["type"] == "error" and "no table" in msg["error"] and msg["fatal"]
    with client.websocket_connect(f"/ws/tables/{tid}?token=forged") as ws:
        assert "not valid" in ws.receive_json()["error"]
