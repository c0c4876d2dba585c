"""A socket's message written at once (``guard.SEND_NOW``), never past one its writer still holds (issue 35).

Under uvicorn's sans-I/O websocket protocol the server writes a message in the step that makes it
instead of handing it to the socket's writer task; whenever that could reorder the socket's messages
(something queued, the writer holding one, the peer not reading) it queues the message as before.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from typing import Any

from guardserver import PATIENCE, get, live_server
from tablehelp import lobby_at

from freetrader.server.deltas import Conn
from freetrader.server.limits import Limits


def test_a_message_is_written_at_once_only_when_nothing_waits_before_it(db_url: str) -> None:
    async def run() -> None:
        async with lobby_at(db_url) as lobby:
            written: list[str] = []
            can = [True]  # whether the socket takes a message now (False: its peer reads too slowly)

            def send_now(text: str) -> bool:
                if can[0]:
                    written.append(text)
                return can[0]

            conn = Conn(0, send_now=send_now)
            lobby._send(conn, {"n": 1})
            assert written == ['{"n":1}'] and conn.queue.empty()
            can[0] = False  # the transport is paused: queued for the writer
            lobby._send(conn, "two")
            can[0] = True
            lobby._send(conn, "three")  # "two" waits in the queue: this one goes after it
            assert written == ['{"n":1}'] and [conn.queue.get_nowait(), conn.queue.get_nowait()] == ["two", "three"]
            conn.writing = True  # the writer took a message and has not written it yet
            lobby._send(conn, "four")
            assert conn.queue.get_nowait() == "four"
            conn.writing = False
            lobby._send(conn, None)  # the close goes by the writer, after whatever it holds
            assert conn.queue.get_nowait() is None and written == ['{"n":1}']
            plain = Conn(0)  # no SEND_NOW (a TestClient, another ASGI server): always the queue
            lobby._send(plain, "five")
            assert plain.queue.get_nowait() == "five"

    asyncio.run(run())


def test_a_live_socket_gets_its_messages_written_at_once_and_in_order(tmp_path: Any) -> None:
    from websockets.sync.client import connect as ws_connect

    with live_server(f"sqlite:///{tmp_path}/t.db", Limits()) as (port, guard):
        status, body = get(port, "/api/tables", method="POST", headers={"Content-Type": "application/json"},
                           body=json.dumps({"game": "contraband", "seats": ["human"] * 3}).encode())
        assert status == 201
        tid = json.loads(body)["table"]["id"]
        tokens = []
        for seat in range(3):
            status, body = get(port, f"/api/tables/{tid}/join", method="POST",
                               headers={"Content-Type": "application/json"}, body=json.dumps({"seat": seat}).encode())
            assert status == 200
            tokens.append(json.loads(body)["token"])
        with contextlib.ExitStack() as opened:
            sockets = [opened.enter_context(ws_connect(f"ws://127.0.0.1:{port}/ws/tables/{tid}?token={t}",
                                                       open_timeout=PATIENCE)) for t in tokens]
            views = [json.loads(ws.recv(timeout=PATIENCE)) for ws in sockets]
            assert guard.sent_now >= 3  # the welcomes
            seqs = [[v["seq"]] for v in views]
            for ref in range(6):
                to_act = views[0]["view"]["to_act"]
                mine = views[to_act]
                sockets[to_act].send(json.dumps({"type": "action", "id": ref, "seq": mine["seq"],
                                                 "action": mine["view"]["legal"][0]}))
                for seat, ws in enumerate(sockets):  # every socket: the next position, the mover's with its ack
                    msg = json.loads(ws.recv(timeout=PATIENCE))
                    assert msg["type"] == "state", msg
                    assert ("ack" in msg) == (seat == to_act) and msg.get("ack", {}).get("id", ref) == ref
                    view = msg["view"] if "view" in msg else {**views[seat]["view"], **msg["view_changes"]}
                    views[seat] = {**msg, "view": view}
                    seqs[seat].append(msg["seq"])
            assert all(s == sorted(set(s)) and len(s) == 7 for s in seqs)  # each socket: every position, in order
            assert guard.sent_now >= 3 + 6 * 3
