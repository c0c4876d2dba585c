"""The table under attack (issue 35): hostile input and hostile load from one address, answered in one line."""

from __future__ import annotations

import json
import logging

import pytest
from fastapi.testclient import TestClient
from tablehelp import SHORT, create, view


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
