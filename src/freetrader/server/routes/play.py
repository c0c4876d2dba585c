"""Playing at a table: a seat's view, its actions, take-backs, and the answer for a failed bot."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Query

from ..errors import bad_request
from ..models import ActionBody, ActionResult, AnswerBody, BotBody, Ok, StateMessage, TokenBody
from ..storage import token_hash
from ..table import Table
from .common import ERRORS, Ctx, seat_of

__all__ = ["router"]

router = APIRouter()


@router.get("/api/tables/{table_id}/view", response_model=StateMessage, responses=ERRORS,
            summary="The table as the token's seat sees it (no token: as a spectator)")
async def view(table_id: str, ctx: Ctx,
               token: Annotated[str | None, Query(max_length=128)] = None) -> dict[str, Any]:
    table: Table = await ctx.lobby.get(table_id)
    seat = table.seat_of(token)
    if seat is not None:
        table.seen()
    return table.message(seat)


@router.post("/api/tables/{table_id}/actions", response_model=ActionResult, responses=ERRORS,
             summary="Play an action; acknowledged only once committed")
async def act(table_id: str, body: ActionBody, ctx: Ctx) -> dict[str, Any]:
    table = await ctx.lobby.get(table_id)
    seat = seat_of(table, body.token)
    table.seen()
    if body.seat is not None and body.seat != seat:
        raise bad_request(f"this seat link is for seat {seat}, not seat {body.seat}")
    index = await ctx.lobby.act(table, seat, body.action, body.expected_index, expected_seq=body.seq,
                                holder=token_hash(body.token))
    return {"index": index, "seq": table.seq, "view": table.view(seat)}


@router.post("/api/tables/{table_id}/takeback", response_model=Ok, responses=ERRORS,
             summary="Ask to take back your last action (the other human seats answer)")
async def takeback(table_id: str, body: TokenBody, ctx: Ctx) -> dict[str, Any]:
    table = await ctx.lobby.get(table_id)
    await ctx.lobby.ask_takeback(table, seat_of(table, body.token))
    return {"ok": True}


@router.post("/api/tables/{table_id}/takeback/answer", response_model=Ok, responses=ERRORS,
             summary="Approve or refuse the pending take-back")
async def answer(table_id: str, body: AnswerBody, ctx: Ctx) -> dict[str, Any]:
    table = await ctx.lobby.get(table_id)
    await ctx.lobby.answer_takeback(table, seat_of(table, body.token), body.approve)
    return {"ok": True}


@router.post("/api/tables/{table_id}/bots", response_model=Ok, responses=ERRORS,
             summary="A seat whose bot failed: replace its bot, or let the fallback bot make this move")
async def bot_choice(table_id: str, body: BotBody, ctx: Ctx) -> dict[str, Any]:
    table = await ctx.lobby.get(table_id)
    await ctx.lobby.bot_choice(table, seat_of(table, body.token), body.seat, body.choice, body.bot)
    return {"ok": True}
