"""The lobby: listing, creating and getting tables, joining and leaving their seats."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Query, Request

from ..limits import TooMany
from ..models import CreateTable, JoinBody, JoinResult, Ok, TableList, TableResult, TokenBody
from .common import ERRORS, Ctx, seat_of

__all__ = ["MAX_PAGE", "PAGE", "router"]

#: Tables in one page of the lobby's list (``?limit=``), by default and at most.
PAGE = 50
MAX_PAGE = 200

router = APIRouter()


@router.get("/api/tables", response_model=TableList, responses=ERRORS,
            summary="Tables still playing that people use, newest first, a page at a time")
async def list_tables(ctx: Ctx, offset: Annotated[int, Query(ge=0, le=1_000_000)] = 0,
                      limit: Annotated[int, Query(ge=1, le=MAX_PAGE)] = PAGE) -> dict[str, Any]:
    # a table no human seat used for Limits.lobby_idle_seconds is not listed (its seat links still work)
    listed = ctx.lobby.open_tables()
    return {"tables": [t.info() for t in listed[offset:offset + limit]], "total": len(listed),
            "offset": offset, "limit": limit}


@router.post("/api/tables", response_model=TableResult, status_code=201, responses=ERRORS,
             summary="Create a table: a game, its seats (human or a bot spec) and options")
async def create_table(body: CreateTable, request: Request, ctx: Ctx) -> dict[str, Any]:
    addr = request.client.host if request.client else ""
    caps, lobby = ctx.caps, ctx.lobby
    listed = lobby.open_tables()
    if len(listed) >= caps.open_tables:
        raise TooMany(f"{len(listed)} tables are open, the most this server allows; join or watch one of them")
    mine = sum(1 for t in listed if t.creator == addr)
    if mine >= caps.open_tables_per_address:
        raise TooMany(f"{mine} open tables were created from this address, the most one address may have; "
                      "finish or leave one (an unused table leaves the lobby after "
                      f"{caps.lobby_idle_seconds / 60:g} minutes)")
    if not ctx.created.allow(addr):
        raise TooMany(f"at most {caps.tables_per_minute} tables a minute may be created from one address; "
                      "try again in a minute")
    table = await lobby.create(body.game, body.seats, body.options, body.seed, body.turn_seconds,
                               body.timeout_bot, body.name, hints=body.hints, creator=addr,
                               wait_for_seats=body.wait_for_seats)
    return {"table": table.info()}


@router.get("/api/tables/{table_id}", response_model=TableResult, responses=ERRORS)
async def get_table(table_id: str, ctx: Ctx) -> dict[str, Any]:
    return {"table": (await ctx.lobby.get(table_id)).info()}


@router.post("/api/tables/{table_id}/join", response_model=JoinResult, responses=ERRORS,
             summary="Take a free human seat; the answer holds its secret seat link")
async def join(table_id: str, body: JoinBody, ctx: Ctx) -> dict[str, Any]:
    table = await ctx.lobby.get(table_id)
    seat, token = await ctx.lobby.join(table, body.seat, body.name)
    table.seen()
    return {"table_id": table.id, "seat": seat, "token": token, "link": f"/t/{table.id}#token={token}"}


@router.post("/api/tables/{table_id}/leave", response_model=Ok, responses=ERRORS,
             summary="Give up a seat; its link stops working and the seat is free again")
async def leave(table_id: str, body: TokenBody, ctx: Ctx) -> dict[str, Any]:
    table = await ctx.lobby.get(table_id)
    seat = seat_of(table, body.token)
    await ctx.lobby.leave(table, seat)
    return {"ok": True}


@router.post("/api/tables/{table_id}/start", response_model=Ok, responses=ERRORS,
             summary="The host starts a table that waits for its human seats: bots take the free ones")
async def start(table_id: str, body: TokenBody, ctx: Ctx) -> dict[str, Any]:
    table = await ctx.lobby.get(table_id)
    await ctx.lobby.start_with_bots(table, seat_of(table, body.token))
    return {"ok": True}
