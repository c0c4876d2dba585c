"""Live tables: the lobby, the validate-commit-broadcast path, bot seats, timers, take-backs.

One ``Lobby`` per server holds every live ``Table``. Each table has an
``asyncio.Lock``; an action is, under that lock:

1. checked against ``expected_index`` (a stale or replayed action is refused);
2. applied with ``State.apply(text, seat=seat)`` to a *clone* of the state
   (the engine refuses it, and says why, if it is illegal or not that seat's
   turn; the error for another seat's turn names only whose turn it is);
3. appended to the log in the database and committed;
4. only then made the table's state, acknowledged, and broadcast to every
   connection as that connection's own ``view(seat)`` (spectators:
   ``view(None)``).

Every action is guarded by the table's *sequence number* ``seq``: the log
position the next row will take. It grows with every action and every
take-back and never repeats, so a decision made before a take-back cannot
land after it (``expected_index``, the action count, is still accepted from
clients but does repeat after a take-back).

Bots (any spec ``make_bot`` accepts, within ``workers.BOT_CAPS``) move in a
background task: the server draws the seat's determinization, a worker
process (``workers.WorkerPool``) makes the choice under a deadline, and the
choice is submitted through the same path, so no bot runs on the event loop.
A failure there (the bot raises, misses its deadline, picks an illegal move,
or the database does not answer) is retried with backoff; the table shows a
plain error meanwhile (it names the seat and the kind of fault, never the
bot's legal actions) and clears it when a move goes through. After
``BOT_FAULTS`` faults of the bot itself the seat's bot is marked *failed*
(a ``bot-failed`` note, so it survives a restart): the table shows which
bot failed and the kind of fault (the exception's type, never its message,
which may name that seat's cards), and the seated players choose, by
``bot_choice``: replace the bot by another of the game's bots (a
``bot-replaced`` note; the new bot plays from then on), or let the
fallback bot (``FALLBACK_BOT``) make the seat's move. With nobody seated to
choose, the fallback moves by itself; with a turn timer, the timer runs
for the failed seat as for a human one. So a broken bot cannot stop a
table. On a restart, every table still playing that runs by itself (a bot
seat, a turn timer) is rebuilt by replaying its log (``freetrader.replay``)
and its notes, and its bots and timers resume; the others are rebuilt when
first asked for. A bot this server no longer has is a failed seat, not a
lost table. The lobby lists a table while a human seat is connected or was
there within ``idle_seconds``; its seat links work whether listed or not.

Sockets receive a table's events as deltas: a state message holds the view
without its ``events`` list and ``events_from``/``events``, the events after
the first ``events_from`` the socket already has (0 and the whole log on
connect). Each view is computed once per change and its bytes are shared by
every socket of that seat, and by all spectators.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import hmac
import importlib
import json
import logging
import marshal
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, TypeVar

import freetrader
from freetrader.bots import Bot, bot_names, make_bot
from freetrader.core import FreetraderError, Game, Rng, Seed, State, new_key_seed, seed_number

from . import log as readable
from . import wire
from .errors import ApiError, bad_request, conflict, forbidden, not_found
from .rules import refusal
from .storage import Append, DuplicateEntry, LoadedTable, LogRow, Store, TableRow, token_hash
from .takeback import undoable
from .workers import Deadline, WorkerLost, WorkerPool, bot_decision, check_bot_spec

__all__ = ["HUMAN", "Lobby", "Table", "Conn", "SentView", "view_from"]

log = logging.getLogger("freetrader.server")

HUMAN = "human"
TIMEOUT_BOTS = ("random", "heuristic")
MAX_ACTION_TEXT = 200
#: Faults of a bot itself (not of the database) at one decision before the seat's bot is marked failed.
BOT_FAULTS = 3
#: Lost worker processes at one decision (a bot that kills its worker) before the bot is marked failed.
WORKER_FAULTS = 6
#: The bot that moves for a failed bot seat: it reads only the legal actions, so it cannot fail the same way.
FALLBACK_BOT = "random"
#: Longest pause between retries of a failing bot turn, timer or take-back (seconds).
MAX_BACKOFF = 5.0
T = TypeVar("T")


@dataclass(eq=False)
class Conn:
    """One websocket connection: its seat (None: spectator) and its outgoing queue."""

    seat: int | None
    queue: asyncio.Queue[str | None] = field(default_factory=lambda: asyncio.Queue(maxsize=256))
    token_hash: str | None = None
    addr: str = ""
    known: int = 0  # how many of its view's events this socket has been sent
    known_log: int = 0  # how many lines of its readable log this socket has been sent
    # the lists those counts are of: while the table's list is the same object it has only grown
    # (``Table.public_events``, ``log.table_log``), so the first ``known`` entries still stand
    events_sent: list[Any] | None = None
    log_sent: list[Any] | None = None
    view_sent: SentView | None = None  # the view it holds (sent whole or rebuilt from ``SentView.changes``)
    answered: bool = False  # its last action was acknowledged in its state message (``Lobby.act``'s answer)

    def forget(self) -> None:
        """The socket becomes a spectator's: its next message starts its view, log and events again."""
        self.seat, self.known, self.known_log, self.events_sent, self.log_sent = None, 0, 0, None, None
        self.view_sent = None


@dataclass(frozen=True, eq=False)
class SentView:
    """A view a socket holds: the position's ``seq`` and the view (see ``changes``).

    ``==`` cannot say which fields changed: ``True == 1 == 1.0`` and ``0.0 == -0.0``, which JSON
    writes apart. ``same_json`` (``_same_json.c``) compares as ``==`` does but asks for the same type
    at every level, the same key order and the same float bits; without the compiled module each
    field's ``marshal`` bytes (``fields``), which write types exactly, are compared instead.
    """

    seq: int
    view: dict[str, Any]
    fields: list[bytes] | None = None

    @classmethod
    def of(cls, seq: int, view: dict[str, Any]) -> SentView:
        return cls(seq, view, None if _same_json is not None else [marshal.dumps(v, 2) for v in view.values()])

    def changes(self, now: SentView) -> tuple[dict[str, Any], list[str] | None]:
        """What makes ``now`` from this view: the fields that differ or are new, and ``now``'s keys
        in order when they are not this view's (a field came or went: ``legal`` does, each turn)."""
        old = self.view
        if _changes is not None:
            changed, same_keys = _changes(old, now.view)
            return changed, None if same_keys else list(now.view)
        keys = list(now.view)
        moved = keys != list(old)
        if moved or self.fields is None or now.fields is None:
            same = same_json
            changed = {k: v for k, v in now.view.items() if k not in old or not same(old[k], v)}
        else:
            changed = {k: v for (k, v), a, b in zip(now.view.items(), self.fields, now.fields, strict=True) if a != b}
        return changed, keys if moved else None


def _same_by_marshal(a: Any, b: Any) -> bool:
    return marshal.dumps(a, 2) == marshal.dumps(b, 2)


def _compiled_module() -> Any:
    try:
        return importlib.import_module("freetrader.server._same_json")
    except ImportError:  # no C compiler at install: marshal bytes decide (slower, the same answers)
        return None


_compiled = _compiled_module()
_same_json: Callable[[Any, Any], bool] | None = None if _compiled is None else _compiled.same
#: the changed or new items of a view and whether its keys are the old ones, in one pass (C only)
_changes: Callable[[dict[str, Any], dict[str, Any]], tuple[dict[str, Any], bool]] | None = \
    None if _compiled is None else _compiled.changes

#: whether two JSON-able values would be written as the same JSON (errs only towards "different")
same_json: Callable[[Any, Any], bool] = _same_json if _same_json is not None else _same_by_marshal


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
            "deadline": self.deadline,
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
            "you": {"seat": seat, "can_take_back": self.can_take_back(seat)},
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
                f'"you": {{"seat": {"null" if seat is None else seat}, "can_take_back": {you}}}, '
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


def _exact_legal(table: Table, seat: int, text: str) -> Any:
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


_dumps = wire.dumps


def view_from(message: dict[str, Any], held: tuple[int, dict[str, Any]] | None) -> dict[str, Any] | None:
    """The view a socket's state message brings, as a client rebuilds it (``web/table.js`` does the same).

    ``held``: the ``(seq, view)`` of the last state message the client applied. A message sends the
    view whole (``view``), or only its changed fields over the view of message ``view_base``
    (``view_changes``, with ``view_keys`` when the fields are not those of that view: the keys in order,
    each new value or the held one); None when the client does not hold that view (it then sends
    ``{"type": "view"}``).
    """
    if "view_changes" not in message:
        return dict(message["view"])
    if held is None or held[0] != message.get("view_base"):
        return None
    changes, old = message["view_changes"], held[1]
    keys = message.get("view_keys")
    if keys is None:
        return {**old, **changes}
    if any(k not in changes and k not in old for k in keys):
        return None
    return {k: changes[k] if k in changes else old[k] for k in keys}


def _still_known(sent: list[Any] | None, known: int, now: list[Any] | None, kept: dict[tuple[int, int], int]) -> int:
    """How many first entries of ``now`` a socket already has: it was sent ``known`` entries of ``sent``.

    The table's lists grow in place, so while ``now`` is ``sent`` nothing is compared; a list made
    anew (a take-back, a rename) is compared once per broadcast for all the sockets that had the old one.
    """
    if sent is None or now is None:
        return 0
    if sent is now:
        return min(known, len(now))
    key = (id(sent), id(now))
    if key not in kept:
        kept[key] = _common_prefix(sent, now)
    return min(known, kept[key])


def _common_prefix(old: list[Any] | None, new: list[Any] | None) -> int:
    """How many first events two event lists share (the lists only grow, except after a take-back)."""
    if old is None or new is None:
        return 0
    n = min(len(old), len(new))
    if old[:n] == new[:n]:
        return n
    k = 0
    while k < n and old[k] == new[k]:
        k += 1
    return k


def _rebuild(loaded: LoadedTable) -> tuple[list[LogRow], State]:
    """A table's actions (the log read as a stack: an undo pops) and its state, replayed from them.

    Runs in the lobby's loader thread, not on the event loop: a long log takes a while to replay.
    """
    stack: list[LogRow] = []
    for entry in loaded.log:
        if entry.kind == "undo":
            stack.pop()
        else:
            stack.append(entry)
    row = loaded.row
    record = {"game": row.game, "options": row.options, "seats": len(row.seats),
              "seed": row.settings.get("seed", row.seed), "actions": [e.text for e in stack]}
    return stack, freetrader.replay(record)


def _runs_alone(row: TableRow) -> bool:
    """Whether a playing table has something to do with no one there: a bot seat or a turn timer."""
    return any(spec != HUMAN for spec in row.seats) or bool(row.settings.get("turn_seconds"))


def _check_text(text: Any, what: str, limit: int) -> str:
    if not isinstance(text, str):
        raise bad_request(f"{what} must be text, got {type(text).__name__}")
    if len(text) > limit:
        raise bad_request(f"{what} is {len(text)} characters long; at most {limit} are allowed")
    return text


class Lobby:
    """Every table of one server, and the operations on them."""

    def __init__(self, store: Store, bot_pool: WorkerPool, *, bot_delay: float = 0.0,
                 bot_deadline: float = 10.0, idle_seconds: float = 900.0) -> None:
        self.store = store
        self.idle_seconds = idle_seconds  # a table no human used for so long leaves the lobby's list
        self.bot_pool = bot_pool
        self.bot_delay = bot_delay
        self.bot_deadline = bot_deadline
        self.tables: dict[str, Table] = {}
        self.tasks: set[asyncio.Task[Any]] = set()
        self.closing = False
        self.cluster: Any = None  # a ``cluster.Cluster`` when several processes share the database
        self.faults = 0  # faults survived (bot turns, timers, database calls), for logs and tests
        # tables are rebuilt from their logs here, so the loop answers other tables meanwhile
        self.loader = concurrent.futures.ThreadPoolExecutor(1, thread_name_prefix="ft-load")
        self.loading: dict[str, asyncio.Future[Table | None]] = {}  # table id -> its load under way
        self.restoring: set[str] = set()  # playing tables not yet restored since the start
        self.restored = asyncio.Event()  # set once every playing table is restored
        self.resuming: dict[str, asyncio.Future[None]] = {}  # table id -> its resume under way
        # appends waiting for a batch (``append``), the batches under way and how many may be at once
        self._appends: list[tuple[Append, asyncio.Future[BaseException | None]]] = []
        self._appending = 0
        self._append_batches = store.executor.workers
        self._batch_soon = False  # a ``_send_batch`` is scheduled

    # -- plumbing ----------------------------------------------------------------
    async def db(self, fn: Callable[..., T], *args: Any) -> T:
        """Run a ``Store`` call in its threads; a failure other than a duplicate is a 503 that changed nothing."""
        try:
            return await self.store.executor.call(fn, *args)  # type: ignore[no-any-return]
        except Exception as exc:  # noqa: BLE001 - any database fault: disk full, a restart, a lost connection
            raise self._db_failure(getattr(fn, "__name__", str(fn)), exc) from None

    def _db_failure(self, name: str, exc: Exception) -> Exception:
        """What a caller sees of a failed database call: a duplicate as it is, any other fault a 503."""
        if isinstance(exc, (DuplicateEntry, ApiError)):
            return exc
        self.faults += 1
        log.warning("database call %s failed: %s", name, exc)
        return ApiError(503, "the database did not answer; nothing was changed; try again in a moment")

    async def append(self, table_id: str, entry: LogRow, status: str | None = None, guard: str | None = None) -> None:
        """``Store.append_log`` as ``db`` runs it, committed together with the other tables' appends waiting then.

        The first append finds the database idle and goes at once; those that come while it commits wait
        for it and then go as one batch (``Store.append_logs``): one transaction and one trip to the
        database threads for all of them, as many batches at a time as there are threads.
        """
        fut: asyncio.Future[BaseException | None] = asyncio.get_running_loop().create_future()
        self._appends.append(((table_id, entry, status, guard), fut))
        if self._appending < self._append_batches and not self._batch_soon:
            # after the callbacks ready now: the moves read from the sockets in this turn of the loop go together
            self._batch_soon = True
            asyncio.get_running_loop().call_soon(self._send_batch)
        error = await fut
        if error is not None:
            raise self._db_failure("append_log", error) if isinstance(error, Exception) else error

    def _send_batch(self) -> None:
        """Every waiting append to the database threads as one batch; its answers go out when it returns.

        The answers are handed out by a callback of the batch, not by one of its callers, so a caller
        that is cancelled (a closing socket) leaves the others theirs.
        """
        self._batch_soon = False
        if not self._appends or self._appending >= self._append_batches:
            return  # nothing waits, or a batch under way sends the waiting ones when it returns
        batch, self._appends = self._appends, []
        try:
            call = self.store.executor.call(self.store.append_logs, [item for item, _ in batch])
        except RuntimeError as exc:  # the threads are shut down (closing)
            for _item, fut in batch:
                if not fut.done():
                    fut.set_result(exc)
            return
        self._appending += 1
        call.add_done_callback(lambda done: self._batch_done(batch, done))

    def _batch_done(self, batch: list[tuple[Append, asyncio.Future[BaseException | None]]],
                    done: asyncio.Future[list[BaseException | None]]) -> None:
        self._appending -= 1
        results: list[BaseException | None]
        if done.cancelled():
            results = [RuntimeError("the database call was cancelled")] * len(batch)
        elif done.exception() is not None:
            results = [done.exception()] * len(batch)
        else:
            results = done.result()
        for (_item, fut), result in zip(batch, results, strict=True):
            if not fut.done():
                fut.set_result(result)
        if self._appends and self._appending < self._append_batches:
            self._send_batch()

    def _spawn(self, coro: Any) -> None:
        if self.closing:
            coro.close()
            return
        task = asyncio.get_running_loop().create_task(coro)
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    async def start(self) -> None:
        """Create the schema, then restore the playing tables in the background (one by one, off the loop).

        The server answers meanwhile: a table asked for before its turn is loaded at once (and resumed).
        The lobby's list does not wait: it lists a table once a human seat is back (``listed``).
        """
        await self.db(self.store.create_schema)
        # only the tables with something to run (a bot seat, a turn timer) are restored now: the others
        # wait in the database until a seat link or a socket asks for them, so the start does not grow
        # with the number of stored tables that nobody plays
        ids = [row.id for row in await self.db(self.store.table_rows, "playing") if _runs_alone(row)]
        self.restoring = set(ids)
        self._spawn(self._unload_forever())
        if not ids:
            self.restored.set()
            return
        self._spawn(self._restore(ids))

    async def _unload_forever(self) -> None:
        while not self.closing:
            await asyncio.sleep(max(5.0, self.idle_seconds / 4))
            self.unload_idle()

    def unload_idle(self) -> list[str]:
        """Forget the tables nobody uses and that have nothing to run; they load again when asked for.

        Without this every table ever made stayed in memory until its game ended (a finished one for
        good): one address making 30 tables a minute grew the server without bound.
        """
        now = time.monotonic()
        gone = [t.id for t in self.tables.values() if self._forgettable(t, now)]
        for table_id in gone:
            del self.tables[table_id]
            if self.cluster is not None:
                self._spawn(self.cluster.release(table_id))
        return gone

    def _forgettable(self, table: Table, now: float) -> bool:
        return (not table.conns and not self.listed(table, now) and now - table.touched >= self.idle_seconds
                and (table.human_seen is None or now - table.human_seen >= self.idle_seconds)
                and (table.state.is_over or not _runs_alone(table.row))
                and table.timer is None and table.thinking is None and not table.lock.locked()
                and table.id not in self.loading and table.id not in self.resuming)

    async def _restore(self, ids: list[str]) -> None:
        try:
            for table_id in ids:
                if table_id not in self.restoring:
                    continue  # asked for meanwhile, and resumed then
                try:
                    table = await self._load(table_id)
                except asyncio.CancelledError:
                    raise
                except Exception as exc:  # one broken table must not keep the server down
                    log.error("table %s could not be restored: %s", table_id, exc)
                    self.restoring.discard(table_id)
                    continue
                await self._resume(table_id, table)
        finally:
            self.restored.set()

    async def _resume(self, table_id: str, table: Table | None) -> None:
        """A restored table: claim it (several processes) and start its bots and timer.

        A request that comes while another resumes the table waits for that resume, so it never sees
        the table before its timer runs again.
        """
        if table_id not in self.restoring:
            pending = self.resuming.get(table_id)
            if pending is not None:
                await asyncio.shield(pending)
            return
        self.restoring.discard(table_id)
        if table is None:
            return
        done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self.resuming[table_id] = done
        try:
            if self.cluster is not None:
                await self.cluster.claim(table_id)
            self._after_change(table, broadcast=False)
        finally:
            done.set_result(None)
            del self.resuming[table_id]

    def owns(self, table: Table) -> bool:
        return self.cluster is None or self.cluster.owns(table.id)

    async def close(self) -> None:
        self.closing = True
        for table in self.tables.values():
            if table.timer is not None:
                table.timer.cancel()
            for conn in list(table.conns):
                self._send(conn, None)
        for task in list(self.tasks):
            task.cancel()
        if self.tasks:
            await asyncio.gather(*self.tasks, return_exceptions=True)
        self.loader.shutdown(wait=False, cancel_futures=True)

    # -- building tables ---------------------------------------------------------
    def _seat_players(self, table: Table) -> None:
        for seat, spec in enumerate(table.specs):
            if spec != HUMAN:
                self._seat_bot(table, seat, spec)

    def _seat_bot(self, table: Table, seat: int, spec: str) -> None:
        table.bot_rngs[seat] = Rng(seed_number(table.seed, 1000 + seat))
        try:
            table.bots[seat] = make_bot(spec, table.game, seed_number(table.seed, seat))
        except FreetraderError as exc:  # a table made by a server with other bots: the seat waits for players
            table.bots.pop(seat, None)
            table.failed.setdefault(seat, {"seat": seat, "bot": spec.partition(":")[0],
                                           "reason": f"this server cannot run it ({exc})"})

    def _restore_bots(self, table: Table) -> None:
        """The failed and replaced bots, from the notes (so a restart or another process knows them)."""
        failed: dict[int, dict[str, Any]] = {}
        replaced: dict[int, str] = {}
        for note in table.notes:
            if note["kind"] == "bot-failed":
                seat = int(note["seat"])
                failed[seat] = {"seat": seat, "bot": note["bot"], "reason": note["reason"]}
            elif note["kind"] == "bot-replaced":
                seat = int(note["seat"])
                replaced[seat] = str(note["bot"])
                failed.pop(seat, None)
        changed = [s for s in set(replaced) | set(table.replaced) if replaced.get(s) != table.replaced.get(s)]
        table.failed, table.replaced = failed, replaced
        for seat in changed:
            self._seat_bot(table, seat, table.specs[seat])

    async def _load(self, table_id: str) -> Table | None:
        """The table, read and rebuilt from the database if it is not live here (None: no such table).

        Two requests for one table share one load.
        """
        existing = self.tables.get(table_id)
        if existing is not None:
            return existing
        pending = self.loading.get(table_id)
        if pending is not None:
            return await asyncio.shield(pending)
        fut: asyncio.Future[Table | None] = asyncio.get_running_loop().create_future()
        self.loading[table_id] = fut
        try:
            table = await self._load_now(table_id)
        except asyncio.CancelledError:
            fut.cancel()
            raise
        except BaseException as exc:
            fut.set_exception(exc)
            fut.exception()  # retrieved: a load nobody else waited for logs no warning
            raise
        else:
            fut.set_result(table)
            return table
        finally:
            del self.loading[table_id]

    async def _load_now(self, table_id: str) -> Table | None:
        loaded: LoadedTable | None = await self.db(self.store.load, table_id)
        if loaded is None:
            return None
        stack, state = await asyncio.get_running_loop().run_in_executor(self.loader, _rebuild, loaded)
        existing = self.tables.get(table_id)
        if existing is not None:
            return existing
        row = loaded.row
        table = Table(row, state.game, state, stack, len(loaded.log))
        table.seat_hashes = dict(loaded.seat_hashes)
        table.seat_names = dict(loaded.seat_names)
        table.notes = loaded.notes
        table.saved_deadline = loaded.deadline
        self._restore_takeback(table)
        self._restore_bots(table)
        self._seat_players(table)
        self.tables[table_id] = table
        return table

    def _restore_takeback(self, table: Table) -> None:
        open_req: dict[str, Any] | None = None
        approved: set[int] = set()
        for note in table.notes:
            if note["kind"] == "takeback-requested":
                open_req, approved = note, set()
            elif note["kind"] == "takeback-approved":
                approved.add(int(note["by"]))
            elif note["kind"] in ("takeback-refused", "takeback-done", "takeback-dropped"):
                open_req = None
        if open_req is not None and open_req["index"] == table.state.action_count - 1:
            waiting = {s for s, h in table.seat_hashes.items() if h is not None and s != open_req["seat"]}
            table.takeback = Takeback(open_req["seq"], open_req["seat"], open_req["index"], open_req["action"],
                                      waiting - approved)

    async def create(self, game_name: str, seats: list[str], options: dict[str, Any], seed: int | None,
                     turn_seconds: float | None, timeout_bot: str, label: str | None, *, hints: bool = False,
                     creator: str | None = None) -> Table:
        try:
            game = freetrader.game(game_name)
        except FreetraderError as exc:
            raise bad_request(str(exc)) from None
        specs = [_check_text(s, "a seat", 128).strip() for s in seats]
        specs = [HUMAN if s.lower() == HUMAN else s for s in specs]
        chosen = seed is not None
        if chosen and specs.count(HUMAN) >= 2:
            # Whoever chose the seed could replay the deal and know every hand: not at a shared table.
            raise bad_request(f"a table with {specs.count(HUMAN)} human seats cannot take a chosen seed; "
                              "leave out 'seed' (a seed is only for practice: one human seat, the rest bots)")
        game_seed: Seed = seed if seed is not None else new_key_seed()
        try:
            state = game.new_state(len(specs), game_seed, options)
            for spec in specs:
                if spec != HUMAN:
                    check_bot_spec(spec)
                    make_bot(spec, game, 0)
            if turn_seconds is not None:
                if timeout_bot not in TIMEOUT_BOTS:
                    raise bad_request(f"timeout_bot must be one of {', '.join(TIMEOUT_BOTS)}, got {timeout_bot!r}")
                make_bot(timeout_bot, game, 0)
        except FreetraderError as exc:
            raise bad_request(str(exc)) from None
        except ApiError:
            raise
        except Exception as exc:  # noqa: BLE001 - options the checks let through but the game cannot take
            log.warning("creating a %s table with options %r failed: %r", game.spec.slug, options, exc)
            raise bad_request(f"the options {json.dumps(options, default=str)[:200]} do not make a "
                              f"{game.spec.title} game; leave them out for the defaults") from None
        settings = {"turn_seconds": turn_seconds, "timeout_bot": timeout_bot if turn_seconds else None,
                    "name": label, "seed_chosen": chosen, "hints": bool(hints)}
        if not chosen:
            settings["seed"] = game_seed  # the secret key; the integer column keeps 0 for a hosted game
        row = TableRow(id=secrets.token_urlsafe(6), game=game.spec.slug, options=dict(state.options),
                       seats=specs, seed=seed if seed is not None else 0, settings=settings, status="playing",
                       created=time.time())
        humans = [i for i, s in enumerate(specs) if s == HUMAN]
        await self.db(self.store.create_table, row, humans)
        table = Table(row, game, state, [], 0)
        table.creator = creator
        table.seen()
        table.seat_hashes = {i: None for i in humans}
        table.seat_names = {i: None for i in humans}
        self._seat_players(table)
        self.tables[row.id] = table
        if self.cluster is not None:
            await self.cluster.claim(row.id)
        self._after_change(table, broadcast=False)
        return table

    async def get(self, table_id: str) -> Table:
        if not isinstance(table_id, str) or len(table_id) > 32:
            raise not_found(f"no table {table_id!r}; the lobby (GET /api/tables) lists the open tables")
        table = self.tables.get(table_id)
        if table is None or table_id in self.resuming:
            try:
                table = await self._load(table_id)
            except FreetraderError as exc:
                raise ApiError(500, f"table {table_id} cannot be rebuilt from its log: {exc}") from None
            await self._resume(table_id, table)  # asked for before the start restored it
        if table is None:
            raise not_found(f"no table {table_id!r}; the lobby (GET /api/tables) lists the open tables")
        table.touched = time.monotonic()
        return table

    def open_tables(self) -> list[Table]:
        """The lobby's tables, newest first: still playing, and used by a human seat lately (or now)."""
        now = time.monotonic()
        return sorted((t for t in self.tables.values() if self.listed(t, now)), key=lambda t: -t.row.created)

    def listed(self, table: Table, now: float) -> bool:
        if table.state.is_over:
            return False
        if table.human_connected():
            return True
        return table.human_seen is not None and now - table.human_seen < self.idle_seconds

    # -- seats ---------------------------------------------------------------------
    async def join(self, table: Table, seat: int | None, name: str | None) -> tuple[int, str]:
        name = None if name is None else _check_text(name, "name", 40).strip() or None
        async with table.lock:
            free = table.free_seats()
            if seat is None:
                if not free:
                    raise conflict(f"table {table.id} has no free human seat; you can watch it as a spectator")
                seat = free[0]
            elif seat not in table.seat_hashes:
                humans = ", ".join(map(str, sorted(table.seat_hashes))) or "none"
                raise bad_request(f"seat {seat} of table {table.id} is not a human seat (human seats: {humans})")
            elif seat not in free:
                raise conflict(f"seat {seat} of table {table.id} is taken; free human seats: "
                               f"{', '.join(map(str, free)) or 'none'}")
            if table.state.is_over:
                raise conflict(f"the game at table {table.id} is over; download its record or replay it")
            token = secrets.token_urlsafe(24)
            h = token_hash(token)
            if not await self.db(self.store.set_seat, table.id, seat, h, name, True):
                raise conflict(f"seat {seat} of table {table.id} was just taken")
            table.seat_hashes[seat] = h
            table.seat_names[seat] = name
            self._after_change(table, reschedule=False)
            return seat, token

    async def leave(self, table: Table, seat: int) -> None:
        async with table.lock:
            await self.db(self.store.set_seat, table.id, seat, None, None, False)
            table.seat_hashes[seat] = None
            table.seat_names[seat] = None
            for conn in [c for c in table.conns if c.seat == seat]:
                self._send(conn, {"type": "left", "message": f"seat {seat} was left; you are now watching"})
                conn.forget()
            tb = table.takeback
            if tb is not None and tb.seat == seat:
                await self._note(table, "takeback-dropped", {"request": tb.request, "reason": "the asker left"})
                table.takeback = None
            elif tb is not None:
                tb.waiting.discard(seat)
                if not tb.waiting:
                    await self._undo_or_retry(table)
            self._changed(table)

    # -- actions -------------------------------------------------------------------
    async def act(self, table: Table, seat: int | None, text: Any, expected_index: Any = None,
                  origin: str = HUMAN, expected_seq: Any = None, holder: str | None = None,
                  answer: tuple[Conn, Any] | None = None) -> int:
        """Validate, commit, then broadcast one action; returns the number of actions after it.

        ``answer``: the socket that sent the action and the message's ``id``: its state message
        carries the acknowledgement (``ack``), one message instead of two, and ``answered`` is set
        on the socket (else the caller sends an ``ack`` of its own).

        ``expected_seq`` (the ``seq`` of the state the action was chosen in) guards it; clients may send
        ``expected_index`` instead, which repeats after a take-back. ``holder``: the hash of the token that
        opened the seat; the action is written only while that token still holds it (here, and in the
        database, which another process may have changed).
        """
        text = _check_text(text, "action", MAX_ACTION_TEXT)
        if seat is None:
            raise forbidden(f"spectators cannot act; join a free seat of table {table.id} to play")
        if expected_seq is None and expected_index is None:
            raise bad_request("send seq (the sequence number of the last state message) with the action")
        for name, value in (("seq", expected_seq), ("expected_index", expected_index)):
            if value is not None and (isinstance(value, bool) or not isinstance(value, int)):
                raise bad_request(f"{name} must be a whole number from the last state message, got {value!r}")
        async with table.lock:
            if expected_seq is not None and expected_seq != table.seq:
                raise conflict(f"stale action: the table is at position {table.seq}, but this one was chosen at "
                               f"{expected_seq}; nothing was changed (reload the table to see the current position)")
            n = table.state.action_count
            if expected_index is not None and expected_index != n:
                raise conflict(
                    f"stale action: {n} actions have been played, but this one expected {expected_index}; "
                    "nothing was changed (reload the table to see the current position)"
                )
            if table.takeback is not None:
                raise conflict(f"seat {table.takeback.seat} asked to take back '{table.takeback.action}'; "
                               "the game waits until the other players answer")
            new = table.state.clone()
            # the page and the bots send a legal action as written (lower case, single spaces): the engine
            # would pick that same action, and the history (a walk of every move) need not be read back
            # for its notation; any other spelling is the engine's to parse
            exact = _exact_legal(table, seat, text) \
                if seat == table.state.to_act and text == " ".join(text.lower().split()) else None
            try:
                new.apply(text if exact is None else exact, seat=seat)
            except FreetraderError as exc:  # named by the rule of the decision this seat's own view shows
                phase = table.state.view(seat, events=False).get("phase")
                raise bad_request(refusal(table.game.spec.name, phase, str(exc))) from None
            written = text if exact is not None else str(new.history[-1])
            entry = LogRow(seq=table.next_seq, kind="action", text=written, seat=seat, origin=origin)
            guard = None
            if origin == HUMAN and holder is not None:
                if table.seat_hashes.get(seat) != holder:  # the seat was left while this waited for the lock
                    raise forbidden(f"seat {seat} of table {table.id} was left; this seat link no longer plays")
                guard = holder if self.cluster is not None else None
            try:
                await self.append(table.id, entry, "over" if new.is_over else None, guard)
            except DuplicateEntry as exc:
                # another process, or a write whose answer was lost, took this position: catch up
                await self._sync(table)
                raise conflict(f"stale action: {exc}; nothing was changed") from None
            table.prev, table.state = table.state, new
            table.stack.append(entry)
            table.next_seq += 1
            self._changed(table, answer)
            return new.action_count

    def _changed(self, table: Table, answer: tuple[Conn, Any] | None = None) -> None:
        """A committed change (the database told the other processes): the sockets, then bots and timers.

        ``answer``: the socket whose action this is, and its message's id (``act``).
        """
        if self.cluster is not None and table.state.is_over:
            self._spawn(self.cluster.release(table.id))
        self._after_change_safely(table, answer=answer)

    async def refresh(self, table: Table) -> None:
        """Bring ``table`` up to the database (another process changed it)."""
        async with table.lock:
            await self._sync(table)

    async def _sync(self, table: Table) -> None:
        """Read what the log, the seats and the notes gained since this process last saw them (lock held)."""
        rows, seats, notes = await self.db(self.store.load_since, table.id, table.next_seq, len(table.notes))
        hashes = {s: h for s, (h, _n) in seats.items()}
        if not rows and not notes and hashes == table.seat_hashes:
            return
        if rows:
            stack = list(table.stack)
            state = table.state.clone()
            replay = False
            for entry in rows:
                if entry.kind == "undo":
                    stack.pop()
                    replay = True
                else:
                    stack.append(entry)
                    if not replay:
                        state.apply(entry.text)
            table.stack = stack
            if replay:
                state = freetrader.replay(table.record_core())
            table.state, table.prev, table.undo_cache = state, None, None
            table.next_seq = rows[-1].seq + 1
        table.seat_hashes = hashes
        table.seat_names = {s: n for s, (_h, n) in seats.items()}
        for conn in list(table.conns):
            if conn.seat is not None and table.seat_hashes.get(conn.seat) != conn.token_hash:
                self._send(conn, {"type": "left", "message": f"seat {conn.seat} was left; you are now watching"})
                conn.forget()
        if notes:
            table.notes.extend(notes)
            self._restore_bots(table)
        table.takeback = None
        self._restore_takeback(table)
        # a seat taken or left changes no turn: the timer keeps running
        self._after_change_safely(table, reschedule=bool(rows or notes))

    # -- take-backs ----------------------------------------------------------------
    async def _note(self, table: Table, kind: str, data: dict[str, Any]) -> dict[str, Any]:
        seq = len(table.notes)
        await self.db(self.store.append_note, table.id, seq, kind, data)
        note = {"seq": seq, "kind": kind, "at": time.time(), **data}
        table.notes.append(note)
        return note

    async def ask_takeback(self, table: Table, seat: int | None) -> None:
        if seat is None:
            raise forbidden("spectators cannot take back actions")
        async with table.lock:
            if table.takeback is not None:
                raise conflict(f"a take-back of '{table.takeback.action}' is already waiting for answers")
            if not table.stack or table.stack[-1].seat != seat or table.stack[-1].origin != HUMAN:
                raise conflict(f"seat {seat} can only take back its own last move, and the last move is not its own")
            if table.state.is_over:
                raise conflict("the game is over; nothing can be taken back")
            last = table.stack[-1]
            if not table.can_take_back(seat):
                raise conflict(f"'{last.text}' cannot be taken back: it revealed hidden information or drew "
                               "by chance (only moves that do neither can be undone)")
            index = table.state.action_count - 1
            note = await self._note(table, "takeback-requested", {"seat": seat, "index": index, "action": last.text})
            waiting = {s for s, h in table.seat_hashes.items() if h is not None and s != seat}
            table.takeback = Takeback(note["seq"], seat, index, last.text, waiting)
            if table.timer is not None:
                table.timer.cancel()
            # the answers stop the clock; a refusal gives the player to move a whole turn again
            table.timer, table.deadline, table.deadline_seq, table.saved_deadline = None, None, None, None
            if not waiting:
                await self._undo_or_retry(table)
            self._changed(table)

    async def answer_takeback(self, table: Table, seat: int | None, approve: Any) -> None:
        if not isinstance(approve, bool):
            raise bad_request("approve must be true or false")
        async with table.lock:
            tb = table.takeback
            if tb is None:
                raise conflict("no take-back is waiting for an answer")
            if seat is None or seat not in tb.waiting:
                raise forbidden(f"the take-back waits for seats {sorted(tb.waiting)}, not for "
                                f"{'a spectator' if seat is None else f'seat {seat}'}")
            if not approve:
                await self._note(table, "takeback-refused", {"request": tb.request, "by": seat})
                table.takeback = None
            else:
                await self._note(table, "takeback-approved", {"request": tb.request, "by": seat})
                tb.waiting.discard(seat)
                if not tb.waiting:
                    await self._undo_or_retry(table)
            self._changed(table)

    async def _undo_or_retry(self, table: Table) -> None:
        """Undo now; if the database fails, every answer is in, so a background task finishes it."""
        try:
            await self._undo(table)
        except ApiError:
            self._spawn(self._finish_takeback(table, table.seq))

    async def _finish_takeback(self, table: Table, seq: int) -> None:
        attempt = 0
        while not self.closing:
            attempt += 1
            await asyncio.sleep(min(MAX_BACKOFF, 0.1 * 2**attempt))
            async with table.lock:
                tb = table.takeback
                if table.seq != seq or tb is None or tb.waiting:
                    return
                try:
                    await self._undo(table)
                except ApiError:
                    table.error = "the take-back is approved but the database does not answer; retrying"
                    self._after_change_safely(table, reschedule=False)
                    continue
                table.error = None
                self._changed(table)
                return

    async def _undo(self, table: Table) -> None:
        tb = table.takeback
        assert tb is not None
        before = table.state_before_last()
        entry = LogRow(seq=table.next_seq, kind="undo", text=tb.action, seat=tb.seat, origin="takeback")
        try:
            await self.db(self.store.append_log, table.id, entry, None)
        except DuplicateEntry:
            await self._sync(table)
            raise conflict("the table moved on meanwhile; the take-back was not done") from None
        table.next_seq += 1
        table.stack.pop()
        table.state, table.prev = before, None
        table.undo_cache = None
        table.takeback = None
        try:
            await self._note(table, "takeback-done", {"request": tb.request, "index": tb.index, "action": tb.action})
        except ApiError:  # the undo row is written, which is what counts; the note is history only
            log.warning("table %s: the take-back is done but its note could not be written", table.id)

    # -- after every change: broadcast, then bots and timers --------------------------
    def _send(self, conn: Conn, msg: dict[str, Any] | str | None) -> None:
        payload = msg if msg is None or isinstance(msg, str) else _dumps(msg)
        try:
            conn.queue.put_nowait(payload)
        except asyncio.QueueFull:  # a reader this far behind reconnects and gets the current view
            while not conn.queue.empty():
                conn.queue.get_nowait()
            conn.queue.put_nowait(None)

    def welcome(self, table: Table, conn: Conn) -> None:
        """The first message of a socket (or one that asked for the whole view): every event from 0."""
        view, events = table.split_view(conn.seat)
        lines = readable.table_log(table, conn.seat)
        self._send(conn, table.socket_message(conn.seat, table.shared_parts(table.info()), view, events, 0, lines, 0))
        conn.events_sent, conn.known = events, len(events) if events is not None else 0
        conn.log_sent, conn.known_log = lines, len(lines)
        conn.view_sent = SentView.of(table.seq, view)

    def broadcast(self, table: Table, answer: tuple[Conn, Any] | None = None) -> None:
        """Each seat's view once, its bytes shared by that seat's sockets (and all spectators'): a delta of events.

        ``answer``: the socket whose action brought this position and its message's id; its message carries
        the acknowledgement and ``answered`` is set on it.
        """
        if not table.conns:
            return
        info = table.info()
        names = readable.seat_names(info["seats"])  # once per change, not once per seat
        shared = table.shared_parts(info)  # encoded once for every socket
        views: dict[int | None, tuple[SentView, list[Any] | None, list[Any]]] = {}
        cache: dict[tuple[int | None, int, int, int], str] = {}
        kept: dict[tuple[int, int], int] = {}  # (id of a list a socket was sent, of the new one) -> common prefix
        for conn in list(table.conns):
            seat = conn.seat
            if seat not in views:
                view, events = table.split_view(seat)
                views[seat] = (SentView.of(table.seq, view), events, readable.table_log(table, seat, names))
            now, events, lines = views[seat]
            start = _still_known(conn.events_sent, conn.known, events, kept)
            log_start = _still_known(conn.log_sent, conn.known_log, lines, kept)
            # the sockets of a seat that hold the view of one position share one message
            base = conn.view_sent
            key = (seat, start, log_start, -1 if base is None else base.seq)
            if key not in cache:
                changes = base.changes(now) if base is not None else None
                cache[key] = table.socket_message(seat, shared, now.view, events, start, lines, log_start,
                                                  base, changes)
            if answer is not None and conn is answer[0]:  # its own action: the acknowledgement rides along
                self._send(conn, f'{cache[key][:-1]}, "ack": {{"id": {_dumps(answer[1])}}}}}')
                conn.answered = True
            else:
                self._send(conn, cache[key])
            conn.events_sent, conn.known = events, len(events) if events is not None else 0
            conn.log_sent, conn.known_log = lines, len(lines)
            conn.view_sent = now

    def _after_change_safely(self, table: Table, reschedule: bool = True,
                             answer: tuple[Conn, Any] | None = None) -> None:
        """``_after_change`` once a change is committed: a failure to tell the clients is logged, not raised."""
        try:
            self._after_change(table, reschedule=reschedule, answer=answer)
        except Exception:  # the change stands; clients get the state with the next message or on reconnect
            log.exception("table %s: broadcasting the new position failed", table.id)

    def _after_change(self, table: Table, broadcast: bool = True, reschedule: bool = True,
                      answer: tuple[Conn, Any] | None = None) -> None:
        if broadcast:
            self.broadcast(table, answer)
        if not reschedule:
            return
        # a timer armed again for the same position keeps its deadline: a seat taken or left, a restart
        # or a takeover by another process gives the player to move no extra time
        kept = table.deadline if table.deadline_seq == table.seq else None
        if kept is None and table.saved_deadline is not None and table.saved_deadline[0] == table.seq:
            kept = table.saved_deadline[1]
        if table.timer is not None:
            table.timer.cancel()
        table.timer, table.deadline, table.deadline_seq = None, None, None
        seat = table.state.to_act
        if seat is None or table.takeback is not None or not self.owns(table):
            return
        if seat in table.failed and not table.anyone_seated():
            # nobody is here to choose for the failed bot: the fallback moves, so the table goes on
            if table.thinking != table.seq:
                table.thinking = table.seq
                self._spawn(self._bot_turn(table, table.seq, seat, FALLBACK_BOT, "fallback"))
            return
        if seat in table.bots and seat not in table.failed:
            if table.thinking != table.seq:  # one bot turn per position, however often this runs
                table.thinking = table.seq
                self._spawn(self._bot_turn(table, table.seq, seat, table.specs[seat], "bot"))
            return
        if not table.is_human(seat) and seat not in table.failed:
            return
        secs = table.row.settings.get("turn_seconds")
        if secs:
            seq = table.seq
            loop = asyncio.get_running_loop()
            table.saved_deadline = None
            if kept is None:
                kept = time.time() + float(secs)
                self._spawn(self._keep_deadline(table, seq, kept))
            table.deadline, table.deadline_seq = kept, seq
            table.timer = loop.call_later(max(0.0, kept - time.time()),
                                          lambda: self._spawn(self._timeout(table, seq, seat)))

    async def _keep_deadline(self, table: Table, seq: int, deadline: float) -> None:
        """Write the timer's deadline, so a restart or another process keeps it (a failure only logs)."""
        try:
            await self.db(self.store.set_deadline, table.id, seq, deadline)
        except ApiError:
            log.warning("table %s: the turn timer's deadline could not be kept; a restart would restart it",
                        table.id)

    async def _timeout(self, table: Table, seq: int, seat: int) -> None:
        if table.seq != seq or table.state.to_act != seat:
            return
        spec = str(table.row.settings.get("timeout_bot") or "random")
        await self._bot_turn(table, seq, seat, spec, "timeout", delay=False)

    async def _decide(self, table: Table, seq: int, seat: int, spec: str) -> str:
        """Ask the bot pool for ``spec``'s move; the worker gets the seat's determinization only."""
        rng = table.bot_rngs.get(seat) or Rng(seed_number(table.seed, 3000 + seq))
        bot = table.bots.get(seat) if spec == table.specs[seat] else None
        if bot is None:
            bot = make_bot(spec, table.game, 0)
        world = table.state.determinize(seat, rng) if bot.reads_state else table.state.clone()
        seed = seed_number(table.seed, 5000 + 7 * seq + seat)
        # the queue is fair between creators' addresses (a table restored at start has none known: its own)
        return await self.bot_pool.run(bot_decision, spec, table.row.game, seed, world, seat,
                                       timeout=self.bot_deadline, who=table.creator or f"table {table.id}",
                                       table=table.id)

    async def _bot_turn(self, table: Table, seq: int, seat: int, spec: str, origin: str, delay: bool = True) -> None:
        """One bot (or timer) move, retried with backoff until it lands or the table moves on."""
        try:
            await self._bot_turn_tries(table, seq, seat, spec, origin, delay)
        finally:
            if table.thinking == seq:
                table.thinking = None

    async def _bot_turn_tries(self, table: Table, seq: int, seat: int, spec: str, origin: str, delay: bool) -> None:
        if delay and self.bot_delay:
            await asyncio.sleep(self.bot_delay)
        name = spec.partition(":")[0]
        bot_faults = lost = 0
        attempt = 0
        while not self.closing:
            if table.seq != seq or table.state.to_act != seat or table.takeback is not None or not self.owns(table):
                return
            use = spec
            if origin == "bot" and seat in table.failed:
                if table.anyone_seated():
                    return  # the players choose: replace the bot or let the fallback move
                use, origin = FALLBACK_BOT, "fallback"
            elif origin != "bot" and (bot_faults >= BOT_FAULTS or lost >= WORKER_FAULTS):
                use = FALLBACK_BOT  # a timer's bot that keeps failing: the fallback moves for that decision
            try:
                text = await self._decide(table, seq, seat, use)
                await self.act(table, seat, text, None, origin, expected_seq=seq)
            except ApiError as exc:
                if exc.status == 409:  # the table moved on meanwhile (a take-back, a timer): nothing to do
                    return
                if exc.status == 503:
                    reason = "the database does not answer"
                else:
                    bot_faults += 1
                    reason = "it chose a move the rules do not allow"
            except Deadline:
                bot_faults += 1
                reason = f"it did not decide within {self.bot_deadline:g} s"
            except WorkerLost:
                lost += 1
                reason = "its worker process stopped"
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # noqa: BLE001 - a bot may fail in any way; the table must not stop
                bot_faults += 1
                # the type only: a message may name the cards of the seat the bot plays
                reason = f"it raised {type(exc).__name__}"
                log.exception("table %s: the %s bot at seat %d failed", table.id, name, seat)
            else:
                if table.error is not None:
                    table.error = None
                    self._after_change_safely(table, reschedule=False)
                return
            attempt += 1
            self.faults += 1
            who = "the turn timer" if origin == "timeout" else f"the {use.partition(':')[0]} bot"
            if origin == "bot" and (bot_faults >= BOT_FAULTS or lost >= WORKER_FAULTS):
                await self._bot_failed(table, seq, seat, name, reason)
                bot_faults = lost = 0
                continue  # the loop's head waits for the players, or lets the fallback move
            table.error = f"{who} at seat {seat} could not move ({reason}); retrying"
            log.warning("table %s: %s", table.id, table.error)
            self._after_change_safely(table, reschedule=False)
            await asyncio.sleep(min(MAX_BACKOFF, 0.1 * 2**attempt))

    async def _bot_failed(self, table: Table, seq: int, seat: int, name: str, reason: str) -> None:
        """Mark ``seat``'s bot failed (a note: it survives a restart) and show it to the table."""
        async with table.lock:
            if table.seq != seq or seat in table.failed:
                return
            failure = {"seat": seat, "bot": name, "reason": reason}
            try:
                await self._note(table, "bot-failed", failure)
            except ApiError:  # the database is away: shown anyway; after a restart the bot is tried again
                log.warning("table %s: the failure of seat %d's bot could not be noted", table.id, seat)
            table.failed[seat] = failure
            table.error = None
            log.warning("table %s: the %s bot at seat %d failed (%s)", table.id, name, seat, reason)
            self._after_change_safely(table, reschedule=False)

    async def bot_choice(self, table: Table, by: int | None, seat: Any, choice: Any, bot: Any) -> None:
        """A seated player answers for a failed bot: ``replace`` it with ``bot``, or let the ``fallback`` move."""
        if by is None:
            raise forbidden("spectators cannot answer for a failed bot; join a free seat to play")
        if isinstance(seat, bool) or not isinstance(seat, int):
            raise bad_request(f"seat must be the number of the failed bot's seat, got {seat!r}")
        if choice not in ("replace", "fallback"):
            raise bad_request(f"choice must be replace or fallback, got {choice!r}")
        async with table.lock:
            if seat not in table.failed:
                failed = ", ".join(map(str, sorted(table.failed))) or "none"
                raise conflict(f"the bot at seat {seat} has not failed (seats whose bot failed: {failed})")
            if choice == "fallback":
                if table.state.to_act != seat:
                    raise conflict(f"it is not seat {seat}'s turn; the fallback bot moves only for its turn")
                if table.thinking != table.seq:
                    table.thinking = table.seq
                    self._spawn(self._bot_turn(table, table.seq, seat, FALLBACK_BOT, "fallback", delay=False))
                return
            spec = self._replacement(table, bot)
            await self._note(table, "bot-replaced", {"seat": seat, "bot": spec, "was": table.specs[seat], "by": by})
            table.replaced[seat] = spec
            table.failed.pop(seat, None)
            self._seat_bot(table, seat, spec)
            self._changed(table)

    def _replacement(self, table: Table, bot: Any) -> str:
        names = bot_names(table.game)
        if not isinstance(bot, str) or not bot.strip():
            raise bad_request(f"bot must name the replacing bot, one of: {', '.join(names)}")
        spec = bot.strip()
        if spec.partition(":")[0] not in names:
            raise bad_request(f"{spec.partition(':')[0]!r} is not a bot for {table.game.spec.title}; "
                              f"its bots are: {', '.join(names)}")
        check_bot_spec(spec)
        try:
            make_bot(spec, table.game, 0)
        except FreetraderError as exc:
            raise bad_request(str(exc)) from None
        return spec

    def record(self, table: Table) -> dict[str, Any]:
        """The downloadable record: ``state.record()`` plus the table's history as metadata."""
        rec = table.state.record()
        rec["table"] = {
            "id": table.id,
            "seats": table.specs,
            "names": [table.seat_names.get(i) for i in range(len(table.specs))],
            "settings": {k: v for k, v in table.row.settings.items() if k != "seed"},  # the key is rec["seed"]
            "created": table.row.created,
            "moves": [{"index": i, "seat": r.seat, "by": r.origin} for i, r in enumerate(table.stack)],
            "takebacks": [n for n in table.notes if n["kind"].startswith("takeback")],
        }
        return rec
