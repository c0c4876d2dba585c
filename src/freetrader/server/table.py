"""One live table: its record, state, seats and connections, and the messages made from them.

Each view is computed once per change and its bytes are shared by every socket
of that seat, and by all spectators (``seat_view``, ``shared_parts``,
``socket_message``). The lobby (``tables.Lobby``) holds the tables and changes them.
"""

from __future__ import annotations

import asyncio
import hmac
import time
from dataclasses import dataclass
from typing import Any

import freetrader
from freetrader.bots import Bot, bot_names
from freetrader.core import Game, Rng, Seed, State

from . import log as readable
from . import wire
from .deltas import Conn, SentView
from .errors import forbidden
from .storage import LogRow, TableRow, token_hash
from .takeback import undoable

__all__ = ["DECLINE", "FALLBACK_BOT", "HUMAN", "Table", "Takeback", "exact_legal"]

HUMAN = "human"
#: The bot that moves for a failed bot seat: it reads only the legal actions, so it cannot fail the same way.
FALLBACK_BOT = "random"
#: The action that lets a reaction window pass (the games that have windows write it so).
DECLINE = "decline"
_dumps = wire.dumps


@dataclass
class Takeback:
    request: int  # seq of the request note
    seat: int
    index: int  # the action's index in the game
    action: str
    waiting: set[int]


class Table:
    """A live table: its record, its state, its seats and connections."""

    def __init__(self, row: TableRow, game: Game, state: State, stack: list[LogRow], next_seq: int) -> None:
        self.row = row
        self.id = row.id
        self.game = game
        self.state = state
        self.stack = stack  # the log rows of the actions in the game, in order
        self.next_seq = next_seq
        self.prev: State | None = None  # the state before the last action, when known
        self.seat_hashes: dict[int, str | None] = {}
        self.seat_names: dict[int, str | None] = {}
        self.notes: list[dict[str, Any]] = []
        self.takeback: Takeback | None = None
        self.bots: dict[int, Bot] = {}
        self.bot_rngs: dict[int, Rng] = {}
        self.conns: set[Conn] = set()
        self.lock = asyncio.Lock()
        self.timer: asyncio.TimerHandle | None = None
        self.deadline: float | None = None
        self.deadline_seq: int | None = None  # the position ``deadline`` is for
        self.saved_deadline: tuple[int, float] | None = None  # (seq, deadline) read from the database
        self.undo_cache: tuple[int, bool] | None = None
        self.error: str | None = None
        self._events: tuple[State | None, list[str]] = (None, [])  # the public log, and the state it is of
        self._views: tuple[State | None, dict[int | None, dict[str, Any]]] = (None, {})  # see ``seat_view``
        self.thinking: int | None = None  # the seq a bot turn is running for
        self.failed: dict[int, dict[str, Any]] = {}  # bot seat -> {"seat", "bot", "reason"}: waits for players
        self.replaced: dict[int, str] = {}  # bot seat -> the bot spec that replaced the one it was created with
        # when a human seat was last here (a socket, a request with its token; monotonic), and who created
        # the table (the address, kept in memory only): the lobby lists a table only while people use it
        self.human_seen: float | None = None
        self.creator: str | None = None
        self.touched = time.monotonic()  # last asked for (``Lobby.get``): not forgotten while in use
        # the human seats that decline by themselves when only the decline is legal (a note keeps each
        # change), the window a decline is held in (seq, when it opened: ``Lobby.clock``), and the seq the
        # server's own decline was sent for
        self.auto_decline: set[int] = set()
        self.window: tuple[int, float] | None = None
        self.declining: int | None = None
        # a table made to wait for its human seats (settings "wait_for_seats") starts once they are all
        # taken or its host (the first seat taken) starts it with bots; both kept as notes
        self.host: int | None = None
        self.started = False

    @property
    def waiting(self) -> bool:
        """Whether the game waits for its human seats: no move, no bot, no timer until it starts."""
        return bool(self.row.settings.get("wait_for_seats")) and not self.started

    def seen(self) -> None:
        """A human seat is here now (the lobby's idle clock starts again)."""
        self.human_seen = time.monotonic()

    def human_connected(self) -> bool:
        return any(c.seat is not None for c in self.conns)

    @property
    def seq(self) -> int:
        """The sequence number of the position: the log position the next row takes (never repeats)."""
        return self.next_seq

    @property
    def specs(self) -> list[str]:
        """Each seat's player now: ``human`` or a bot spec (a replaced bot's replacement)."""
        return [self.replaced.get(i, s) for i, s in enumerate(self.row.seats)]

    def anyone_seated(self) -> bool:
        """Whether a player holds a seat link here (who could answer for a failed bot)."""
        return any(h is not None for h in self.seat_hashes.values())

    def is_human(self, seat: int) -> bool:
        return seat in self.seat_hashes

    def free_seats(self) -> list[int]:
        return [s for s, h in sorted(self.seat_hashes.items()) if h is None]

    def seat_of(self, token: str | None) -> int | None:
        """The seat a token opens; None for no token (a spectator); ApiError for a bad one."""
        if token is None or token == "":
            return None
        h = token_hash(token)
        for seat, stored in self.seat_hashes.items():
            if stored is not None and hmac.compare_digest(stored, h):
                return seat
        raise forbidden(
            f"this seat link is not valid at table {self.id} (never issued, or its seat was left); "
            "join a free seat from the lobby, or watch without a link"
        )

    @property
    def seed(self) -> Seed:
        """The game's seed: a secret key for a hosted game (kept in the settings), or the creator's int."""
        return self.row.settings.get("seed", self.row.seed)  # type: ignore[no-any-return]

    @property
    def seed_chosen(self) -> bool:
        """Whether the creator chose the seed (practice against bots): who chose it may know every card."""
        return bool(self.row.settings.get("seed_chosen"))

    def view(self, seat: int | None) -> dict[str, Any]:
        """``state.view(seat)``, marked ``seed_chosen: true`` when the creator chose the seed."""
        v = self.state.view(seat)
        if self.seed_chosen:
            v["seed_chosen"] = True
        return v

    def state_before_last(self) -> State:
        if self.prev is None or self.prev.action_count != self.state.action_count - 1:
            self.prev = freetrader.replay(self.record_core(), upto=self.state.action_count - 1)
        return self.prev

    def may_take_back(self, seat: int | None) -> bool:
        """The cheap part of ``can_take_back``: the last move is ``seat``'s own and nothing is pending."""
        if seat is None or not self.stack or self.takeback is not None or self.state.is_over:
            return False
        last = self.stack[-1]
        return last.seat == seat and last.origin == HUMAN

    def can_take_back(self, seat: int | None) -> bool:
        """Whether ``seat`` may ask to take back the last action now (see ``takeback``); cached per position."""
        if not self.may_take_back(seat):
            return False
        last = self.stack[-1]
        n = self.state.action_count
        if self.undo_cache is None or self.undo_cache[0] != n:
            self.undo_cache = (n, undoable(self.state_before_last(), last.text, self.state))
        return self.undo_cache[1]

    def record_core(self) -> dict[str, Any]:
        return {
            "game": self.row.game,
            "options": dict(self.row.options),
            "seats": len(self.row.seats),
            "seed": self.seed,
            "actions": [r.text for r in self.stack],
        }

    def info(self) -> dict[str, Any]:
        """What anyone may know about the table (the lobby's line, the page's header)."""
        seats = []
        for i, spec in enumerate(self.specs):
            if self.is_human(i):
                seats.append({"seat": i, "kind": HUMAN, "taken": self.seat_hashes[i] is not None,
                              "name": self.seat_names.get(i)})
            else:
                seats.append({"seat": i, "kind": spec, "taken": True, "name": None})
        tb = self.takeback
        return {
            "id": self.id,
            "game": self.row.game,
            "name": self.game.spec.name,
            "title": self.game.spec.title,
            "label": self.row.settings.get("name"),
            "seats": seats,
            "options": self.row.options,
            "seed_chosen": self.seed_chosen,
            "turn_seconds": self.row.settings.get("turn_seconds"),
            "timeout_bot": self.row.settings.get("timeout_bot"),
            "hints": bool(self.row.settings.get("hints")),  # the Hint button (server/hints.py), shown to all
            "waiting": self.waiting,  # for its human seats (the host may start it with bots)
            "host": self.host,
            "deadline": self.deadline if self.deadline_seq == self.seq else None,  # this position's only
            "actions": self.state.action_count,
            "to_act": self.state.to_act,
            "is_over": self.state.is_over,
            "winners": self.state.winners() if self.state.is_over else None,
            "takeback": None if tb is None else
            {"seat": tb.seat, "index": tb.index, "action": tb.action, "waiting": sorted(tb.waiting)},
            "takebacks": [n for n in self.notes if n["kind"].startswith("takeback")],
            "created": self.row.created,
            "error": self.error,
            "bot_failures": [self.failed[s] for s in sorted(self.failed)],
            "fallback_bot": FALLBACK_BOT,
            "bot_choices": bot_names(self.game) if self.failed else [],  # what may replace a failed bot
        }

    def message(self, seat: int | None) -> dict[str, Any]:
        """The state message for one request: its own view (events included) and nothing more."""
        return {
            "type": "state",
            "index": self.state.action_count,
            "seq": self.seq,
            "you": {"seat": seat, "can_take_back": self.can_take_back(seat),
                    "auto_decline": seat in self.auto_decline},
            "table": self.info(),
            "view": self.view(seat),
            "now": time.time(),
            "log": list(readable.table_log(self, seat)),  # a copy: the table's log grows in place
            "results": readable.results_of(self.state),
            "notes": readable.choice_notes_of(self.state, seat),
        }

    def shared_parts(self, info: dict[str, Any]) -> tuple[str, str]:
        """The JSON of what every socket's message holds alike (the table's line, the results): encoded once."""
        return _dumps(info), _dumps(readable.results_of(self.state))

    def socket_message(self, seat: int | None, shared: tuple[str, str], view: dict[str, Any],
                       events: list[Any] | None, start: int, lines: list[Any], log_start: int,
                       base: SentView | None = None,
                       changes: tuple[dict[str, Any], list[str] | None] | None = None) -> str:
        """A socket's state message: ``events`` after the first ``start``, log ``lines`` after ``log_start``.

        With ``changes`` (``SentView.changes`` from ``base``, the view the socket holds), the view goes
        as those fields only: ``view_base`` (the ``seq`` of the message that brought ``base``),
        ``view_changes`` and, when the fields are not those of ``base``, ``view_keys`` (the view's keys
        in order); the page rebuilds the view from the one it holds (``view_from``), or asks for the
        whole view when it does not hold that one.

        ``shared``: ``shared_parts``, the JSON of the parts every seat's message holds alike, spliced in.
        ``can_take_back`` is false when a take-back is impossible, and null when it may be possible:
        the client asks (``{"type": "hint"}``), so the costly check runs only for the seat that moved.
        """
        info_json, results_json = shared
        you = "null" if self.may_take_back(seat) else "false"
        # one encoding for this seat's parts, the shared ones spliced in before them; "now" is the
        # server's clock (the client counts the deadline down against it); the readable log
        # (server/log.py) goes as a delta too: a renamed seat rewrites it from line 0
        if changes is None or base is None:
            delta: dict[str, Any] = {"view": view}
        else:
            delta = {"view_base": base.seq, "view_changes": changes[0]}
            if changes[1] is not None:
                delta["view_keys"] = changes[1]
        own = _dumps({**delta,
                      "events_from": start, "events": None if events is None else events[start:],
                      "now": time.time(), "log_from": log_start, "log": lines[log_start:],
                      "notes": readable.choice_notes_of(self.state, seat)})
        return (f'{{"type": "state", "index": {self.state.action_count}, "seq": {self.seq}, '
                f'"you": {{"seat": {"null" if seat is None else seat}, "can_take_back": {you}, '
                f'"auto_decline": {"true" if seat in self.auto_decline else "false"}}}, '
                f'"table": {info_json}, "results": {results_json}, {own[1:]}')

    def public_events(self) -> list[str]:
        """The public log (the same for every seat), followed move by move rather than walked each time.

        After a move (``prev`` is the state the list was of) only the new events are read, and the
        list grows in place; after a take-back or a catch-up the whole log is read again, into a new
        list. So a holder of the list (a socket, the readable log) knows its first entries still stand
        while it is the same object. Not to be changed by the caller.
        """
        of, events = self._events
        if of is self.state:
            return events
        if of is not None and of is self.prev and self.state.event_count >= len(events):
            events += self.state.events_since(len(events))
        else:
            events = self.state.events
        self._events = (self.state, events)
        return events

    def seat_view(self, seat: int | None) -> dict[str, Any]:
        """``state.view(seat, events=False)``, computed once per position and seat (not to be changed).

        The sockets' messages and the readable log's private lines (server/log.py) both read it.
        """
        of, views = self._views
        if of is not self.state:
            views = {}
            self._views = (self.state, views)
        view = views.get(seat)
        if view is None:
            view = views[seat] = self.state.view(seat, events=False)
        return view

    def split_view(self, seat: int | None) -> tuple[dict[str, Any], list[Any] | None]:
        """A seat's view without its events, and the events (computed once for all seats)."""
        view = self.seat_view(seat)
        if self.seed_chosen:
            view = {**view, "seed_chosen": True}
        return view, self.public_events()


def exact_legal(table: Table, seat: int, text: str) -> Any:
    """The legal action (of ``seat``, to act) written ``text``, or None; read from the view sent, if any."""
    legal = table.state.legal_actions()
    of, views = table._views
    shown = views.get(seat, {}).get("legal") if of is table.state else None
    if isinstance(shown, list) and len(shown) == len(legal):  # the view lists them in the same order
        try:
            return legal[shown.index(text)]
        except ValueError:
            return None
    return next((a for a in legal if str(a) == text), None)


