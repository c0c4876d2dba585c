"""The FastAPI application: the lobby and table API, the websocket hub, the static client.

Every error is ``{"error": "..."}`` with a 4xx status and changes nothing.
Responses carry views only (``State.view(seat)`` for the requester's seat,
``view(None)`` for spectators); records are given out only once a game is over.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import json
import logging
import os
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from importlib import resources
from pathlib import Path
from typing import Annotated, Any

from fastapi import FastAPI, Query, Request, WebSocket, WebSocketDisconnect
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, HTMLResponse, JSONResponse
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException as StarletteHTTPException

import freetrader
from freetrader.bots import bot_names
from freetrader.core import FreetraderError
from freetrader.core.registry import load_part, part_file

from . import wire
from .apidocs import install_api_docs
from .cluster import Cluster, tagged_url
from .errors import ApiError, bad_request, conflict, not_found
from .hints import install_coach
from .limits import BodyLimit, Bucket, Limits, PerMinute, TooMany
from .models import (
    ActionBody,
    ActionResult,
    AnswerBody,
    BotBody,
    CreateTable,
    ErrorBody,
    GameInfo,
    JoinBody,
    JoinResult,
    Ok,
    ReplayBody,
    ReplayResult,
    StateMessage,
    TableList,
    TableResult,
    TokenBody,
)
from .rules import rules_page
from .storage import Store, normalize_url, token_hash
from .tables import Conn, Lobby, Table
from .workers import Deadline, WorkerLost, WorkerPool, replay_view

__all__ = ["create_app", "MAX_MESSAGE", "MAX_BODY", "MAX_RECORD"]

log = logging.getLogger("freetrader.server")

#: Largest websocket message and request body accepted (bytes); records uploaded to /api/replay may be larger.
MAX_MESSAGE = 16 * 1024
MAX_BODY = 16 * 1024
MAX_RECORD = 1024 * 1024
#: Tables in one page of the lobby's list (``?limit=``), by default and at most.
PAGE = 50
MAX_PAGE = 200

_ERRORS: dict[int | str, dict[str, Any]] = {
    code: {"model": ErrorBody} for code in (400, 403, 404, 409, 413, 422, 429, 503)
}


def web_dir() -> Path:
    return Path(str(resources.files("freetrader") / "web"))


def _validation_message(exc: RequestValidationError) -> str:
    parts = []
    for err in exc.errors()[:5]:
        loc = ".".join(str(p) for p in err.get("loc", ()) if p != "body")
        if err.get("type") == "json_invalid":
            return "the request body is not valid JSON; send one JSON object (Content-Type: application/json)"
        msg = str(err.get("msg", "is invalid"))
        parts.append(f"{loc}: {msg}" if loc else msg)
    return "bad request: " + "; ".join(parts)


def create_app(db_url: str = "sqlite:///freetrader-table.db", *, bot_delay: float = 0.0,
               bot_workers: int | None = None, heavy_workers: int = 1, bot_deadline: float = 10.0,
               limits: Limits | None = None, sweep_seconds: float = 1.0) -> FastAPI:
    """The table server on ``db_url`` (SQLite file or PostgreSQL URL).

    ``bot_workers`` processes decide for bots (default: one per core), each decision within
    ``bot_deadline`` seconds; ``heavy_workers`` processes run replays. ``limits``: see ``Limits``.
    On PostgreSQL the process joins the others on the database (``cluster``); every ``sweep_seconds``
    it takes over the tables whose owner died.
    """
    live: dict[str, Lobby] = {}
    caps = limits or Limits()
    created = PerMinute(caps.tables_per_minute)
    whole_views = Bucket(caps.whole_views_per_second, max(1.0, caps.whole_views_per_second))
    sockets_of: dict[str, int] = {}
    heavy = WorkerPool(heavy_workers, "heavy")
    busy = {"heavy": 0}

    @asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        bots = WorkerPool(bot_workers or os.cpu_count() or 1, "bot")
        ident = Cluster.new_id()
        on_pg = normalize_url(db_url).startswith("postgresql")
        store = Store(tagged_url(db_url, ident) if on_pg else db_url)
        try:
            store.lock_sqlite()
        except Exception:
            store.close()
            raise
        lobby = Lobby(store, bots, bot_delay=bot_delay, bot_deadline=bot_deadline,
                      idle_seconds=caps.lobby_idle_seconds)
        cluster = None
        try:
            if not store.is_sqlite:  # PostgreSQL: other processes may serve the same tables
                await lobby.db(store.create_schema)
                cluster = lobby.cluster = Cluster(store, lobby, ident, sweep=sweep_seconds)
                await cluster.start()
            await lobby.start()
            if cluster is not None:
                cluster.start_sweeping()
            live["lobby"] = _app.state.lobby = lobby
            yield
        finally:
            live.pop("lobby", None)
            if cluster is not None:
                await cluster.close()
            await lobby.close()
            coach.close()
            bots.close()
            heavy.close()
            store.close()

    class _Live:
        """The running lobby (made by the lifespan, so the app can be started again)."""

        def __getattr__(self, name: str) -> Any:
            if "lobby" not in live:
                raise ApiError(503, "the server is starting or stopping; try again in a moment")
            return getattr(live["lobby"], name)

    lobby: Any = _Live()

    app = FastAPI(title="Freetrader table", version=freetrader.__version__, lifespan=lifespan,
                  docs_url=None, redoc_url=None,  # /docs is served with local scripts: install_api_docs
                  description="Lobby, tables and seats of the Freetrader game table. Every error is "
                              '{"error": "..."}; responses hold only what the requester\'s seat may see.')
    app.add_middleware(BodyLimit, limit=MAX_BODY, large_paths={"/api/replay": MAX_RECORD})
    install_api_docs(app)

    @app.exception_handler(ApiError)
    async def _api_error(_req: Request, exc: ApiError) -> JSONResponse:
        return JSONResponse({"error": exc.message}, status_code=exc.status)

    @app.exception_handler(RequestValidationError)
    async def _invalid(_req: Request, exc: RequestValidationError) -> JSONResponse:
        return JSONResponse({"error": _validation_message(exc)}, status_code=422)

    async def _heavy(record: dict[str, Any], upto: int | None) -> dict[str, Any]:
        if busy["heavy"] >= caps.heavy_requests:
            raise TooMany(f"{busy['heavy']} replays are running, the most this server runs at once; "
                          "try again in a moment")
        busy["heavy"] += 1
        try:
            out = await heavy.run(replay_view, record, upto, timeout=caps.heavy_seconds)
        except Deadline:
            raise ApiError(413, f"the record did not replay within {caps.heavy_seconds:g} s; "
                                "send fewer actions (upto) or a shorter record") from None
        except WorkerLost:
            raise ApiError(503, "the replay worker stopped; try again in a moment") from None
        finally:
            busy["heavy"] -= 1
        if "error" in out:
            raise bad_request(str(out["error"]))
        return out

    @app.exception_handler(StarletteHTTPException)
    async def _http(_req: Request, exc: StarletteHTTPException) -> JSONResponse:
        if isinstance(exc.__cause__, RecursionError):  # FastAPI's body reader hit 8,000 nested [
            return JSONResponse({"error": f"the request body is {wire.NESTED}"}, status_code=400)
        return JSONResponse({"error": str(exc.detail)}, status_code=exc.status_code)

    @app.exception_handler(Exception)
    async def _crash(_req: Request, exc: Exception) -> JSONResponse:
        log.exception("unexpected error", exc_info=exc)
        return JSONResponse({"error": "internal error; nothing was changed"}, status_code=500)

    # -- games and lobby ----------------------------------------------------------------
    @app.get("/api/games", response_model=list[GameInfo], summary="The registered games, their options and bots")
    async def list_games() -> list[dict[str, Any]]:
        out = []
        for name in freetrader.games():
            g = freetrader.game(name)
            spec = g.spec
            out.append({
                "name": spec.name, "slug": spec.slug, "title": spec.title, "summary": spec.summary,
                "min_seats": spec.min_seats, "max_seats": spec.max_seats,
                "options": [{"name": o.name, "kind": o.kind, "default": o.default, "help": o.help,
                             "choices": list(o.choices) if o.choices else None,
                             "minimum": o.minimum, "maximum": o.maximum} for o in spec.options],
                "bots": bot_names(g),
            })
        return out

    @app.get("/api/games/{name}/components", responses=_ERRORS,
             summary="What the browser draws a game from: its board, cards, names, texts and costs")
    async def game_components(name: str) -> dict[str, Any]:
        # built once per game, but the first build can take seconds (Cornish Smuggler's hold
        # packings): off the loop, so other tables are not held up meanwhile
        return await asyncio.to_thread(_components, name)

    @app.get("/api/tables", response_model=TableList, responses=_ERRORS,
             summary="Tables still playing that people use, newest first, a page at a time")
    async def list_tables(offset: Annotated[int, Query(ge=0, le=1_000_000)] = 0,
                          limit: Annotated[int, Query(ge=1, le=MAX_PAGE)] = PAGE) -> dict[str, Any]:
        # a table no human seat used for Limits.lobby_idle_seconds is not listed (its seat links still work)
        listed = lobby.open_tables()
        return {"tables": [t.info() for t in listed[offset:offset + limit]], "total": len(listed),
                "offset": offset, "limit": limit}

    @app.post("/api/tables", response_model=TableResult, status_code=201, responses=_ERRORS,
              summary="Create a table: a game, its seats (human or a bot spec) and options")
    async def create_table(body: CreateTable, request: Request) -> dict[str, Any]:
        addr = request.client.host if request.client else ""
        listed = lobby.open_tables()
        if len(listed) >= caps.open_tables:
            raise TooMany(f"{len(listed)} tables are open, the most this server allows; join or watch one of them")
        mine = sum(1 for t in listed if t.creator == addr)
        if mine >= caps.open_tables_per_address:
            raise TooMany(f"{mine} open tables were created from this address, the most one address may have; "
                          "finish or leave one (an unused table leaves the lobby after "
                          f"{caps.lobby_idle_seconds / 60:g} minutes)")
        if not created.allow(addr):
            raise TooMany(f"at most {caps.tables_per_minute} tables a minute may be created from one address; "
                          "try again in a minute")
        table = await lobby.create(body.game, body.seats, body.options, body.seed, body.turn_seconds,
                                   body.timeout_bot, body.name, hints=body.hints, creator=addr)
        return {"table": table.info()}

    @app.get("/api/tables/{table_id}", response_model=TableResult, responses=_ERRORS)
    async def get_table(table_id: str) -> dict[str, Any]:
        return {"table": (await lobby.get(table_id)).info()}

    @app.post("/api/tables/{table_id}/join", response_model=JoinResult, responses=_ERRORS,
              summary="Take a free human seat; the answer holds its secret seat link")
    async def join(table_id: str, body: JoinBody) -> dict[str, Any]:
        table = await lobby.get(table_id)
        seat, token = await lobby.join(table, body.seat, body.name)
        table.seen()
        return {"table_id": table.id, "seat": seat, "token": token, "link": f"/t/{table.id}#token={token}"}

    @app.post("/api/tables/{table_id}/leave", response_model=Ok, responses=_ERRORS,
              summary="Give up a seat; its link stops working and the seat is free again")
    async def leave(table_id: str, body: TokenBody) -> dict[str, Any]:
        table = await lobby.get(table_id)
        seat = _seat(table, body.token)
        await lobby.leave(table, seat)
        return {"ok": True}

    # -- playing ------------------------------------------------------------------------
    @app.get("/api/tables/{table_id}/view", response_model=StateMessage, responses=_ERRORS,
             summary="The table as the token's seat sees it (no token: as a spectator)")
    async def view(table_id: str, token: Annotated[str | None, Query(max_length=128)] = None) -> dict[str, Any]:
        table: Table = await lobby.get(table_id)
        seat = table.seat_of(token)
        if seat is not None:
            table.seen()
        return table.message(seat)

    @app.post("/api/tables/{table_id}/actions", response_model=ActionResult, responses=_ERRORS,
              summary="Play an action; acknowledged only once committed")
    async def act(table_id: str, body: ActionBody) -> dict[str, Any]:
        table = await lobby.get(table_id)
        seat = _seat(table, body.token)
        table.seen()
        if body.seat is not None and body.seat != seat:
            raise bad_request(f"this seat link is for seat {seat}, not seat {body.seat}")
        index = await lobby.act(table, seat, body.action, body.expected_index, expected_seq=body.seq,
                                holder=token_hash(body.token))
        return {"index": index, "seq": table.seq, "view": table.view(seat)}

    @app.post("/api/tables/{table_id}/takeback", response_model=Ok, responses=_ERRORS,
              summary="Ask to take back your last action (the other human seats answer)")
    async def takeback(table_id: str, body: TokenBody) -> dict[str, Any]:
        table = await lobby.get(table_id)
        await lobby.ask_takeback(table, _seat(table, body.token))
        return {"ok": True}

    @app.post("/api/tables/{table_id}/takeback/answer", response_model=Ok, responses=_ERRORS,
              summary="Approve or refuse the pending take-back")
    async def answer(table_id: str, body: AnswerBody) -> dict[str, Any]:
        table = await lobby.get(table_id)
        await lobby.answer_takeback(table, _seat(table, body.token), body.approve)
        return {"ok": True}

    @app.post("/api/tables/{table_id}/bots", response_model=Ok, responses=_ERRORS,
              summary="A seat whose bot failed: replace its bot, or let the fallback bot make this move")
    async def bot_choice(table_id: str, body: BotBody) -> dict[str, Any]:
        table = await lobby.get(table_id)
        await lobby.bot_choice(table, _seat(table, body.token), body.seat, body.choice, body.bot)
        return {"ok": True}

    # -- records and replays ------------------------------------------------------------------
    @app.get("/api/tables/{table_id}/record", responses=_ERRORS,
             summary="The record of a finished game (state.record() plus the table's history)")
    async def record(table_id: str) -> JSONResponse:
        table = await lobby.get(table_id)
        if not table.state.is_over:
            raise conflict(f"the game at table {table.id} is not over; its record is given out when it ends")
        return JSONResponse(lobby.record(table),
                            headers={"Content-Disposition": f'attachment; filename="{table.id}.json"'})

    @app.post("/api/replay", response_model=ReplayResult, responses=_ERRORS,
              summary="The spectator's view after the first `upto` actions of a record")
    async def replay(body: ReplayBody) -> dict[str, Any]:
        return await _heavy(body.record, body.upto)

    @app.get("/api/tables/{table_id}/replay", response_model=ReplayResult, responses=_ERRORS,
             summary="Step through a finished game: the spectator's view after `upto` actions")
    async def table_replay(table_id: str, upto: Annotated[int | None, Query(ge=0, le=1_000_000)] = None
                           ) -> dict[str, Any]:
        table = await lobby.get(table_id)
        if not table.state.is_over:
            raise conflict(f"the game at table {table.id} is not over; it can be replayed when it ends")
        return await _heavy(table.state.record(), upto)

    coach = install_coach(app, lobby, _ERRORS)  # GET .../review, POST .../hint (server/hints.py)

    # -- websocket --------------------------------------------------------------------
    @app.websocket("/ws/tables/{table_id}")
    async def ws_table(ws: WebSocket, table_id: str, token: str | None = None) -> None:
        await ws.accept()
        addr = ws.client.host if ws.client else ""
        try:
            table = await lobby.get(table_id)
            seat = table.seat_of(token)
            if len(table.conns) >= caps.sockets_per_table:
                raise ApiError(429, f"table {table.id} has {len(table.conns)} open connections, the most this "
                                    "server allows; try again later")
            if sockets_of.get(addr, 0) >= caps.sockets_per_address:
                raise ApiError(429, f"at most {caps.sockets_per_address} connections may be open from one "
                                    "address; close some tabs")
        except ApiError as exc:
            await ws.send_text(json.dumps({"type": "error", "error": exc.message, "fatal": True,
                                           "status": exc.status}))
            await ws.close(code=4000 + exc.status)
            return
        conn = Conn(seat, token_hash=None if seat is None else table.seat_hashes.get(seat), addr=addr)
        sockets_of[addr] = sockets_of.get(addr, 0) + 1
        try:
            await _whole_view_turn(addr)
        except asyncio.CancelledError:
            sockets_of[addr] -= 1
            raise
        table.conns.add(conn)
        table.seen()
        lobby.welcome(table, conn)
        writer = asyncio.get_running_loop().create_task(_writer(ws, conn))
        try:
            await _reader(ws, table, conn)
        finally:
            table.conns.discard(conn)
            if seat is not None:
                table.seen()  # the idle clock starts when the last player leaves
            sockets_of[addr] -= 1
            if not sockets_of[addr]:
                del sockets_of[addr]
            writer.cancel()

    async def _writer(ws: WebSocket, conn: Conn) -> None:
        try:
            while True:
                msg = await conn.queue.get()
                if msg is None:
                    await ws.close()
                    return
                await ws.send_text(msg)
        except (WebSocketDisconnect, RuntimeError, OSError):
            return

    async def _whole_view_turn(addr: str) -> None:
        """Wait until ``addr`` may have another whole state message (``Limits.whole_views_per_second``)."""
        delay = whole_views.wait(addr)
        if delay > 0:
            await asyncio.sleep(delay)

    async def _reader(ws: WebSocket, table: Table, conn: Conn) -> None:
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
                text = raw.get("text")
                if text is None and raw.get("bytes") is not None:
                    data = raw["bytes"]
                    text = data.decode("utf-8", "replace") if len(data) <= MAX_MESSAGE else "x" * (MAX_MESSAGE + 1)
                reply: dict[str, Any] | None
                if not sent.allow(""):
                    reply = {"type": "error", "status": 429,
                             "error": f"too many messages: at most {caps.messages_per_second:g} a second on one "
                                      "connection; this one was not read"}
                else:
                    try:
                        reply = await _handle(table, conn, text or "")
                    except Exception as exc:  # noqa: BLE001 - one line to the client and the log, never a traceback
                        log.error("websocket message from %s on table %s failed: %s: %s", conn.addr or "?", table.id,
                                  type(exc).__name__, " ".join(str(exc).split())[:200])
                        reply = {"type": "error", "status": 500, "error": "internal error; nothing was changed"}
                if reply is not None:
                    lobby._send(conn, reply)
        finally:
            timer[0].cancel()

    async def _close_idle(ws: WebSocket) -> None:
        with contextlib.suppress(Exception):
            await ws.close(code=1001, reason="idle")

    async def _handle(table: Table, conn: Conn, text: str) -> dict[str, Any] | None:
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
        kind = msg.get("type")
        try:
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
            elif kind == "view":
                await _whole_view_turn(conn.addr)
                if conn in table.conns:
                    lobby.welcome(table, conn)
                return None
            elif kind == "hint":
                return {"type": "hint", "id": ref, "seq": table.seq, "can_take_back": table.can_take_back(conn.seat)}
            elif kind == "ping":
                return {"type": "pong", "id": ref}
            else:
                return {"type": "error", "id": ref,
                        "error": f"unknown message type {kind!r}; use action, takeback, answer, bot, view, hint or ping"}
            return {"type": "ack", "id": ref, "index": table.state.action_count, "seq": table.seq}
        except ApiError as exc:
            return {"type": "error", "id": ref, "error": exc.message, "status": exc.status}

    # -- pages ----------------------------------------------------------------------------
    web = web_dir()

    @app.get("/", include_in_schema=False)
    async def index() -> FileResponse:
        return FileResponse(web / "index.html")

    @app.get("/t/{table_id}", include_in_schema=False)
    async def table_page(table_id: str) -> FileResponse:
        return FileResponse(web / "table.html")

    @app.get("/replay", include_in_schema=False)
    async def replay_page() -> FileResponse:
        return FileResponse(web / "replay.html")

    @app.get("/rules/{name}", include_in_schema=False)
    async def rules(name: str) -> HTMLResponse:
        _registered(name)
        page = rules_page(web, name)
        if page is None:
            raise not_found(f"{name} has no players' rules page yet; see its RULES.md")
        return HTMLResponse(page)

    @app.get("/static/games/{name}.js", include_in_schema=False)
    async def game_script(name: str) -> FileResponse:
        # a game's browser renderer lives in its own folder (games/<game>/web.js); generic.js stays here
        path = web / "games" / "generic.js" if name == "generic" else _game_file(name, "web.js")
        return FileResponse(path, media_type="text/javascript")

    app.mount("/static", StaticFiles(directory=str(web)), name="static")
    return app


def _registered(name: str) -> freetrader.Game:
    try:
        return freetrader.game(name)
    except FreetraderError as exc:
        raise not_found(str(exc)) from None


def _game_file(name: str, filename: str) -> Path:
    path = part_file(_registered(name), filename)
    if path is None:
        raise not_found(f"{name} has no {filename} of its own; the generic renderer draws it")
    return path


@functools.lru_cache(maxsize=64)
def _components(name: str) -> dict[str, Any]:
    """The game's ``web`` part (``games/<game>/web.py``) serialised once: the data never changes while serving."""
    g = _registered(name)
    part = load_part(g, "web")
    return {"game": g.spec.slug, "components": part.components() if part is not None else {}}


def _seat(table: Table, token: str) -> int:
    seat = table.seat_of(token)
    if seat is None:
        raise bad_request("a seat token is required; the join answer gives one")
    return seat

