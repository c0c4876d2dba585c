"""Finished games: the downloadable record and the replays (the reviews and hints: ``server/hints.py``)."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Query
from fastapi.responses import JSONResponse

from ..errors import conflict
from ..models import ReplayBody, ReplayResult
from .common import ERRORS, Ctx

__all__ = ["router"]

router = APIRouter()


@router.get("/api/tables/{table_id}/record", responses=ERRORS,
            summary="The record of a finished game (state.record() plus the table's history)")
async def record(table_id: str, ctx: Ctx) -> JSONResponse:
    table = await ctx.lobby.get(table_id)
    if not table.state.is_over:
        raise conflict(f"the game at table {table.id} is not over; its record is given out when it ends")
    return JSONResponse(ctx.lobby.record(table),
                        headers={"Content-Disposition": f'attachment; filename="{table.id}.json"'})


@router.post("/api/replay", response_model=ReplayResult, responses=ERRORS,
             summary="The spectator's view after the first `upto` actions of a record")
async def replay(body: ReplayBody, ctx: Ctx) -> dict[str, Any]:
    return await ctx.replay(body.record, body.upto)


@router.get("/api/tables/{table_id}/replay", response_model=ReplayResult, responses=ERRORS,
            summary="Step through a finished game: the spectator's view after `upto` actions")
async def table_replay(table_id: str, ctx: Ctx,
                       upto: Annotated[int | None, Query(ge=0, le=1_000_000)] = None) -> dict[str, Any]:
    table = await ctx.lobby.get(table_id)
    if not table.state.is_over:
        raise conflict(f"the game at table {table.id} is not over; it can be replayed when it ends")
    return await ctx.replay(table.state.record(), upto)
