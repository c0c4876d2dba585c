"""Request and response bodies of the HTTP API (they make the OpenAPI spec)."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field

__all__ = [
    "ActionBody", "ActionResult", "AnswerBody", "BotBody", "CreateTable", "ErrorBody", "GameInfo", "JoinBody", "JoinResult",
    "Ok", "ReplayBody", "ReplayResult", "StateMessage", "TableList", "TableResult", "TokenBody",
]

Token = Field(min_length=1, max_length=128, description="the secret token of a seat link")


class _Body(BaseModel):
    model_config = ConfigDict(extra="forbid")


class ErrorBody(BaseModel):
    error: str


class Ok(BaseModel):
    ok: bool


class CreateTable(_Body):
    game: str = Field(max_length=64, description="a registered game, e.g. contraband")
    seats: list[str] = Field(min_length=1, max_length=16,
                             description='one entry per seat: "human", or a bot spec such as "random" or "heuristic"')
    options: dict[str, Any] = Field(default_factory=dict, description="game options; defaults for the rest")
    seed: int | None = Field(default=None, ge=0, le=2**53, description=(
        "practice only (one human seat, the rest bots): the game's seed, shown to all as seed_chosen; "
        "if omitted the server draws a secret 256-bit key, given out with the record when the game ends"))
    turn_seconds: float | None = Field(default=None, gt=0, le=86400, allow_inf_nan=False,
                                       description="turn timer for human seats; on timeout timeout_bot moves for them")
    timeout_bot: str = Field(default="random", max_length=32, description="random or heuristic")
    name: str | None = Field(default=None, max_length=64, description="a label shown in the lobby")
    hints: bool = Field(default=False, description="offer human seats a Hint button (the search's preferred move); "
                                                   "shown to everyone")
    wait_for_seats: bool = Field(default=False, description=(
        "with two or more human seats: the game starts (no move, no bot, no timer before) once every human "
        "seat is taken, or when its host (the first to sit down) starts it with bots (POST .../start)"))


class JoinBody(_Body):
    seat: int | None = Field(default=None, ge=0, le=64, description="the seat wanted (first free if omitted)")
    name: str | None = Field(default=None, max_length=40, description="your name at the table")


class TokenBody(_Body):
    token: str = Token


class ActionBody(_Body):
    token: str = Token
    action: str = Field(max_length=200, description="the action's notation, e.g. 'claim brandy'")
    seq: int | None = Field(default=None, ge=0, le=10**9,
                            description="the seq of the state message the action was chosen in (never repeats; "
                                        "preferred)")
    expected_index: int | None = Field(default=None, ge=0, le=10**9,
                                       description="how many actions have been played before this one (repeats "
                                                   "after a take-back; send seq instead)")
    seat: int | None = Field(default=None, ge=0, le=64, description="optional: the seat you mean to act for")


class BotBody(_Body):
    token: str = Token
    seat: int = Field(ge=0, le=64, description="the seat whose bot failed")
    choice: str = Field(max_length=16, description="replace (with `bot` from now on) or fallback (one move by "
                                                   "the fallback bot)")
    bot: str | None = Field(default=None, max_length=128, description="the replacing bot, one of the game's bots")


class AnswerBody(_Body):
    token: str = Token
    approve: bool


class ReplayBody(_Body):
    record: dict[str, Any] = Field(description="a game record: game, options, seats, seed, actions")
    upto: int | None = Field(default=None, ge=0, le=1_000_000, description="actions to replay (all if omitted)")


class SeatInfo(BaseModel):
    seat: int
    kind: str
    taken: bool
    name: str | None


class TableInfo(BaseModel):
    model_config = ConfigDict(extra="allow")
    id: str
    game: str
    name: str
    title: str
    seats: list[SeatInfo]
    actions: int
    to_act: int | None
    is_over: bool


class TableResult(BaseModel):
    table: TableInfo


class TableList(BaseModel):
    tables: list[TableInfo]
    total: int = 0  # tables in the whole list (this page holds tables[offset:offset + limit])
    offset: int = 0
    limit: int = 0


class JoinResult(BaseModel):
    table_id: str
    seat: int
    token: str
    link: str


class StateMessage(BaseModel):
    type: str
    index: int
    seq: int
    you: dict[str, Any]
    table: TableInfo
    view: dict[str, Any]
    log: list[dict[str, Any]] = []  # the readable log for this seat (server/log.py)
    results: dict[str, Any] | None = None  # each seat's rank, score and parts once the game is over
    # each of the seat's legal choices as data (core.moves.Move: verb, label, targets, cost, pays, note), by
    # notation; "@" keys are the decision's context (server/log.py choice_notes_of)
    notes: dict[str, Any] = {}


class ActionResult(BaseModel):
    index: int
    seq: int
    view: dict[str, Any]


class ReplayResult(BaseModel):
    upto: int
    total: int
    view: dict[str, Any]
    log: list[dict[str, Any]] = Field(default_factory=list, description="the readable log, as a spectator reads it")
    results: dict[str, Any] | None = Field(default=None, description="the results, once the game is over")


class OptionInfo(BaseModel):
    name: str
    kind: str = Field(description="choice (one of choices), flag (true/false), number (minimum..maximum) or text")
    default: Any
    help: str
    choices: list[Any] | None
    minimum: int | None
    maximum: int | None


class GameInfo(BaseModel):
    name: str
    slug: str
    title: str
    summary: str
    min_seats: int
    max_seats: int
    options: list[OptionInfo]
    bots: list[str]
