"""The websocket of a table: a seat's (or a spectator's) live view, and its messages to the table.

A socket gets the table's state messages as deltas (``tables.Lobby.broadcast``) and sends
``action``, ``takeback``, ``answer``, ``bot``, ``view``, ``hint`` and ``ping`` messages; each is
answered in one line (an ``ack``, a ``pong`` or an ``error``), a bad one never closes the socket.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import MutableMapping
from typing import Any

from fastapi import APIRouter, WebSocket, WebSocketDisconnect

from .. import wire
from ..context import MAX_MESSAGE, AppContext
from ..errors import ApiError
from ..guard import SEND_NOW
from ..limits import Bucket
from ..table import Table
from ..tables import Conn
from .common import context

__all__ = ["router"]

log = logging.getLogger("freetrader.server")

router = APIRouter()


@router.websocket("/ws/tables/{table_id}")
async def ws_table(ws: WebSocket, table_id: str, token: str | None = None) -> None:
    ctx = context(ws)
    caps = ctx.caps
    await ws.accept()
    addr = ws.client.host if ws.client else ""
    try:
        table = await ctx.lobby.get(table_id)
        seat = table.seat_of(token)
        if len(table.conns) >= caps.sockets_per_table:
            raise ApiError(429, f"table {table.id} has {len(table.conns)} open connections, the most this "
                                "server allows; try again later")
        if ctx.sockets_of.get(addr, 0) >= caps.sockets_per_address:
            raise ApiError(429, f"at most {caps.sockets_per_address} connections may be open from one "
                                "address; close some tabs")
    except ApiError as exc:
        await ws.send_text(json.dumps({"type": "error", "error": exc.message, "fatal": True,
                                       "status": exc.status}))
        await ws.close(code=4000 + exc.status)
        return
    conn = Conn(seat, token_hash=None if seat is None else table.seat_hashes.get(seat), addr=addr)
    await _serve(ctx, ws, table, conn)


async def _serve(ctx: AppContext, ws: WebSocket, table: Table, conn: Conn) -> None:
    """Count the socket against its address, welcome it, then read its messages until it closes."""
    addr, seat = conn.addr, conn.seat
    ctx.sockets_of[addr] = ctx.sockets_of.get(addr, 0) + 1
    try:
        await _whole_view_turn(ctx, addr)
    except asyncio.CancelledError:
        ctx.sockets_of[addr] -= 1
        raise
    send_now = ws.scope.get("extensions", {}).get(SEND_NOW)
    conn.send_now = send_now if callable(send_now) else None
    table.conns.add(conn)
    table.seen()
    ctx.lobby.welcome(table, conn)
    writer = asyncio.get_running_loop().create_task(_writer(ws, conn))
    try:
        await _reader(ctx, ws, table, conn)
    finally:
        table.conns.discard(conn)
        if seat is not None:
            table.seen()  # the idle clock starts when the last player leaves
        ctx.sockets_of[addr] -= 1
        if not ctx.sockets_of[addr]:
            del ctx.sockets_of[addr]
        writer.cancel()


async def _writer(ws: WebSocket, conn: Conn) -> None:
    try:
        while True:
            msg = await conn.queue.get()
            conn.writing = True  # held until written: no message may be sent now past it
            if msg is None:
                await ws.close()
                return
            await ws.send_text(msg)
            conn.writing = False
    except (WebSocketDisconnect, RuntimeError, OSError):
        return


async def _whole_view_turn(ctx: AppContext, addr: str) -> None:
    """Wait until ``addr`` may have another whole state message (``Limits.whole_views_per_second``)."""
    delay = ctx.whole_views.wait(addr)
    if delay > 0:
        await asyncio.sleep(delay)


async def _reader(ctx: AppContext, ws: WebSocket, table: Table, conn: Conn) -> None:
    caps = ctx.caps
    sent = Bucket(caps.messages_per_second, 2 * caps.messages_per_second)  # this socket's messages
    loop = asyncio.get_running_loop()
    heard = [loop.time()]  # when the socket last sent a message
    closing: list[asyncio.Task[None]] = []

    def watch() -> None:
        # one timer a socket, re-armed only when it fires: a message costs only noting its time
        quiet = loop.time() - heard[0]
        if quiet < caps.ws_idle_seconds:
            timer[0] = loop.call_later(caps.ws_idle_seconds - quiet, watch)
        else:  # idle: the slot goes back; the page reconnects when it wants more
            closing.append(loop.create_task(_close_idle(ws)))

    timer = [loop.call_later(caps.ws_idle_seconds, watch)]
    try:
        while True:
            try:
                raw = await ws.receive()
            except (WebSocketDisconnect, RuntimeError):
                return
            heard[0] = loop.time()
            if raw.get("type") == "websocket.disconnect":
                return
            reply = await _answer(ctx, table, conn, _text_of(raw), sent)
            if reply is not None:
                ctx.lobby._send(conn, reply)
    finally:
        timer[0].cancel()


def _text_of(raw: MutableMapping[str, Any]) -> str | None:
    """A received frame's text (a binary frame decoded; one too large stays too large)."""
    text: str | None = raw.get("text")
    if text is None and raw.get("bytes") is not None:
        data = raw["bytes"]
        text = data.decode("utf-8", "replace") if len(data) <= MAX_MESSAGE else "x" * (MAX_MESSAGE + 1)
    return text


async def _answer(ctx: AppContext, table: Table, conn: Conn, text: str | None,
                  sent: Bucket) -> dict[str, Any] | None:
    """The reply to one message: refused over the socket's rate, else handled; never a traceback."""
    if not sent.allow(""):
        return {"type": "error", "status": 429,
                "error": f"too many messages: at most {ctx.caps.messages_per_second:g} a second on one "
                         "connection; this one was not read"}
    try:
        return await _handle(ctx, table, conn, text or "")
    except Exception as exc:  # noqa: BLE001 - one line to the client and the log, never a traceback
        log.error("websocket message from %s on table %s failed: %s: %s", conn.addr or "?", table.id,
                  type(exc).__name__, " ".join(str(exc).split())[:200])
        return {"type": "error", "status": 500, "error": "internal error; nothing was changed"}


async def _close_idle(ws: WebSocket) -> None:
    with contextlib.suppress(Exception):
        await ws.close(code=1001, reason="idle")


async def _handle(ctx: AppContext, table: Table, conn: Conn, text: str) -> dict[str, Any] | None:
    if len(text.encode("utf-8", "surrogatepass")) > MAX_MESSAGE:
        return {"type": "error", "error": f"message too large: at most {MAX_MESSAGE} bytes are accepted"}
    try:
        msg = wire.loads(text)
    except ValueError as exc:
        log.info("websocket message from %s refused: the message is %s", conn.addr or "?", exc)
        return {"type": "error", "error": f"the message is {exc}", "status": 400}
    if not isinstance(msg, dict):
        return {"type": "error", "error": "send a JSON object with a 'type' field"}
    ref = msg.get("id") if isinstance(msg.get("id"), (int, str)) else None
    try:
        return await _message(ctx, table, conn, msg, ref)
    except ApiError as exc:
        return {"type": "error", "id": ref, "error": exc.message, "status": exc.status}


async def _message(ctx: AppContext, table: Table, conn: Conn, msg: dict[str, Any],
                   ref: int | str | None) -> dict[str, Any] | None:
    """Do what a well-formed message asks; its reply (None: the state message is the reply)."""
    lobby = ctx.lobby
    kind = msg.get("type")
    if kind == "action":
        conn.answered = False
        index = await lobby.act(table, conn.seat, msg.get("action"), msg.get("expected_index"),
                                expected_seq=msg.get("seq"), holder=conn.token_hash, answer=(conn, ref))
        if conn.answered:  # its state message carried the acknowledgement
            return None
        return {"type": "ack", "id": ref, "index": index, "seq": table.seq}
    if kind == "takeback":
        await lobby.ask_takeback(table, conn.seat)
    elif kind == "answer":
        await lobby.answer_takeback(table, conn.seat, msg.get("approve"))
    elif kind == "bot":
        await lobby.bot_choice(table, conn.seat, msg.get("seat"), msg.get("choice"), msg.get("bot"))
    elif kind == "setting":
        await lobby.set_auto_decline(table, conn.seat, msg.get("auto_decline"))
    elif kind == "view":
        await _whole_view_turn(ctx, conn.addr)
        if conn in table.conns:
            lobby.welcome(table, conn)
        return None
    elif kind == "hint":
        return {"type": "hint", "id": ref, "seq": table.seq, "can_take_back": table.can_take_back(conn.seat)}
    elif kind == "ping":
        return {"type": "pong", "id": ref}
    else:
        return {"type": "error", "id": ref,
                "error": f"unknown message type {kind!r}; use action, takeback, answer, bot, setting, view, hint or ping"}
    return {"type": "ack", "id": ref, "index": table.state.action_count, "seq": table.seq}

