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

Bots (any spec ``make_bot`` accepts) move in a background task that asks
``decide`` in a worker thread and submits through the same path, so a slow
bot blocks no other table. On a restart, every table still playing is rebuilt
by replaying its log (``freetrader.replay``) and its bots and timers resume.
"""

from __future__ import annotations

import asyncio
import hmac
import json
import logging
import secrets
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any, TypeVar

import freetrader
from freetrader.bots import Bot, decide, make_bot
from freetrader.core import FreetraderError, Game, Rng, Seed, State, new_key_seed, seed_number

from .errors import ApiError, bad_request, conflict, forbidden, not_found
from .storage import DuplicateEntry, LoadedTable, LogRow, Store, TableRow, token_hash
from .takeback import undoable

__all__ = ["HUMAN", "Lobby", "Table", "Conn"]

log = logging.getLogger("freetrader.server")

HUMAN = "human"
TIMEOUT_BOTS = ("random", "heuristic")
MAX_ACTION_TEXT = 200
T = TypeVar("T")


@dataclass(eq=False)
class Conn:
    """One websocket connection: its seat (None: spectator) and its outgoing queue."""

    seat: int | None
    queue: asyncio.Queue[str | None] = field(default_factory=lambda: asyncio.Queue(maxsize=256))


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
        self.undo_cache: tuple[int, bool] | None = None
        self.error: str | None = None

    @property
    def specs(self) -> list[str]:
        return self.row.seats

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

    def can_take_back(self, seat: int | None) -> bool:
        """Whether ``seat`` may ask to take back the last action now (see ``takeback``); cached per position."""
        if seat is None or not self.stack or self.takeback is not None or self.state.is_over:
            return False
        last = self.stack[-1]
        if last.seat != seat or last.origin != HUMAN:
            return False
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
        }

    def message(self, seat: int | None) -> dict[str, Any]:
        """The state message for one connection: its own view and nothing more."""
        return {
            "type": "state",
            "index": self.state.action_count,
            "you": {"seat": seat, "can_take_back": self.can_take_back(seat)},
            "table": self.info(),
            "view": self.view(seat),
        }


def _check_text(text: Any, what: str, limit: int) -> str:
    if not isinstance(text, str):
        raise bad_request(f"{what} must be text, got {type(text).__name__}")
    if len(text) > limit:
        raise bad_request(f"{what} is {len(text)} characters long; at most {limit} are allowed")
    return text


class Lobby:
    """Every table of one server, and the operations on them."""

    def __init__(self, store: Store, *, bot_delay: float = 0.0, bot_threads: int = 4) -> None:
        self.store = store
        self.bot_delay = bot_delay
        self.tables: dict[str, Table] = {}
        self.bot_executor = ThreadPoolExecutor(max_workers=bot_threads, thread_name_prefix="ft-bot")
        self.tasks: set[asyncio.Task[Any]] = set()
        self.closing = False

    # -- plumbing ----------------------------------------------------------------
    async def db(self, fn: Callable[..., T], *args: Any) -> T:
        return await asyncio.get_running_loop().run_in_executor(self.store.executor, fn, *args)

    def _spawn(self, coro: Any) -> None:
        if self.closing:
            coro.close()
            return
        task = asyncio.get_running_loop().create_task(coro)
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    async def start(self) -> None:
        await self.db(self.store.create_schema)
        for table_id in await self.db(self.store.table_ids, "playing"):
            try:
                table = await self._load(table_id)
            except Exception as exc:  # one broken table must not keep the server down
                log.error("table %s could not be restored: %s", table_id, exc)
                continue
            if table is not None:
                self._after_change(table, broadcast=False)

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
        self.bot_executor.shutdown(wait=False, cancel_futures=True)

    # -- building tables ---------------------------------------------------------
    def _seat_players(self, table: Table) -> None:
        for seat, spec in enumerate(table.specs):
            if spec != HUMAN:
                table.bots[seat] = make_bot(spec, table.game, seed_number(table.seed, seat))
                table.bot_rngs[seat] = Rng(seed_number(table.seed, 1000 + seat))

    async def _load(self, table_id: str) -> Table | None:
        loaded: LoadedTable | None = await self.db(self.store.load, table_id)
        if loaded is None:
            return None
        existing = self.tables.get(table_id)
        if existing is not None:
            return existing
        stack: list[LogRow] = []
        for entry in loaded.log:
            if entry.kind == "undo":
                stack.pop()
            else:
                stack.append(entry)
        row = loaded.row
        record = {"game": row.game, "options": row.options, "seats": len(row.seats),
                  "seed": row.settings.get("seed", row.seed), "actions": [e.text for e in stack]}
        state = freetrader.replay(record)
        table = Table(row, state.game, state, stack, len(loaded.log))
        table.seat_hashes = dict(loaded.seat_hashes)
        table.seat_names = dict(loaded.seat_names)
        table.notes = loaded.notes
        self._restore_takeback(table)
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
                     turn_seconds: float | None, timeout_bot: str, label: str | None) -> Table:
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
                    make_bot(spec, game, 0)
            if turn_seconds is not None:
                if timeout_bot not in TIMEOUT_BOTS:
                    raise bad_request(f"timeout_bot must be one of {', '.join(TIMEOUT_BOTS)}, got {timeout_bot!r}")
                make_bot(timeout_bot, game, 0)
        except FreetraderError as exc:
            raise bad_request(str(exc)) from None
        except (TypeError, ValueError) as exc:  # options of a shape the engine does not expect
            raise bad_request(f"bad options for {game.spec.slug}: {exc}") from None
        settings = {"turn_seconds": turn_seconds, "timeout_bot": timeout_bot if turn_seconds else None,
                    "name": label, "seed_chosen": chosen}
        if not chosen:
            settings["seed"] = game_seed  # the secret key; the integer column keeps 0 for a hosted game
        row = TableRow(id=secrets.token_urlsafe(6), game=game.spec.slug, options=dict(state.options),
                       seats=specs, seed=seed if seed is not None else 0, settings=settings, status="playing",
                       created=time.time())
        humans = [i for i, s in enumerate(specs) if s == HUMAN]
        await self.db(self.store.create_table, row, humans)
        table = Table(row, game, state, [], 0)
        table.seat_hashes = {i: None for i in humans}
        table.seat_names = {i: None for i in humans}
        self._seat_players(table)
        self.tables[row.id] = table
        self._after_change(table, broadcast=False)
        return table

    async def get(self, table_id: str) -> Table:
        if not isinstance(table_id, str) or len(table_id) > 32:
            raise not_found(f"no table {table_id!r}; the lobby (GET /api/tables) lists the open tables")
        table = self.tables.get(table_id)
        if table is None:
            try:
                table = await self._load(table_id)
            except FreetraderError as exc:
                raise ApiError(500, f"table {table_id} cannot be rebuilt from its log: {exc}") from None
        if table is None:
            raise not_found(f"no table {table_id!r}; the lobby (GET /api/tables) lists the open tables")
        return table

    def open_tables(self) -> list[Table]:
        return sorted((t for t in self.tables.values() if not t.state.is_over), key=lambda t: -t.row.created)

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
                conn.seat = None
            tb = table.takeback
            if tb is not None and tb.seat == seat:
                await self._note(table, "takeback-dropped", {"request": tb.request, "reason": "the asker left"})
                table.takeback = None
            elif tb is not None:
                tb.waiting.discard(seat)
                if not tb.waiting:
                    await self._undo(table)
            self._after_change_safely(table)

    # -- actions -------------------------------------------------------------------
    async def act(self, table: Table, seat: int | None, text: Any, expected_index: Any, origin: str = HUMAN) -> int:
        """Validate, commit, then broadcast one action; returns the number of actions after it."""
        text = _check_text(text, "action", MAX_ACTION_TEXT)
        if seat is None:
            raise forbidden(f"spectators cannot act; join a free seat of table {table.id} to play")
        if isinstance(expected_index, bool) or not isinstance(expected_index, int):
            raise bad_request("expected_index must be the number of actions played so far (a whole number)")
        async with table.lock:
            if table.error:
                raise conflict(table.error)
            n = table.state.action_count
            if expected_index != n:
                raise conflict(
                    f"stale action: {n} actions have been played, but this one expected {expected_index}; "
                    "nothing was changed (reload the table to see the current position)"
                )
            if table.takeback is not None:
                raise conflict(f"seat {table.takeback.seat} asked to take back '{table.takeback.action}'; "
                               "the game waits until the other players answer")
            new = table.state.clone()
            try:
                new.apply(text, seat=seat)
            except FreetraderError as exc:
                raise bad_request(str(exc)) from None
            entry = LogRow(seq=table.next_seq, kind="action", text=str(new.history[-1]), seat=seat, origin=origin)
            try:
                await self.db(self.store.append_log, table.id, entry, "over" if new.is_over else None)
            except DuplicateEntry as exc:
                raise conflict(f"{exc}; nothing was changed") from None
            table.prev, table.state = table.state, new
            table.stack.append(entry)
            table.next_seq += 1
            self._after_change_safely(table)
            return new.action_count

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
                table.timer, table.deadline = None, None
            if not waiting:
                await self._undo(table)
            self._after_change_safely(table)

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
                    await self._undo(table)
            self._after_change_safely(table)

    async def _undo(self, table: Table) -> None:
        tb = table.takeback
        assert tb is not None
        before = table.state_before_last()
        entry = LogRow(seq=table.next_seq, kind="undo", text=tb.action, seat=tb.seat, origin="takeback")
        await self.db(self.store.append_log, table.id, entry, None)
        table.next_seq += 1
        table.stack.pop()
        table.state, table.prev = before, None
        table.undo_cache = None
        await self._note(table, "takeback-done", {"request": tb.request, "index": tb.index, "action": tb.action})
        table.takeback = None

    # -- after every change: broadcast, then bots and timers --------------------------
    def _send(self, conn: Conn, msg: dict[str, Any] | str | None) -> None:
        payload = msg if msg is None or isinstance(msg, str) else json.dumps(msg)
        try:
            conn.queue.put_nowait(payload)
        except asyncio.QueueFull:  # a reader this far behind reconnects and gets the current view
            while not conn.queue.empty():
                conn.queue.get_nowait()
            conn.queue.put_nowait(None)

    def broadcast(self, table: Table) -> None:
        cache: dict[int | None, str] = {}
        for conn in list(table.conns):
            if conn.seat not in cache:
                cache[conn.seat] = json.dumps(table.message(conn.seat))
            self._send(conn, cache[conn.seat])

    def _after_change_safely(self, table: Table) -> None:
        """``_after_change`` once a change is committed: a failure to tell the clients is logged, not raised."""
        try:
            self._after_change(table)
        except Exception:  # the change stands; clients get the state with the next message or on reconnect
            log.exception("table %s: broadcasting the new position failed", table.id)

    def _after_change(self, table: Table, broadcast: bool = True, reschedule: bool = True) -> None:
        if broadcast:
            self.broadcast(table)
        if not reschedule:
            return
        if table.timer is not None:
            table.timer.cancel()
            table.timer, table.deadline = None, None
        seat = table.state.to_act
        if seat is None or table.takeback is not None or table.error:
            return
        if seat in table.bots:
            self._spawn(self._bot_turn(table, table.state.action_count, seat, table.bots[seat], "bot"))
            return
        secs = table.row.settings.get("turn_seconds")
        if secs:
            index = table.state.action_count
            loop = asyncio.get_running_loop()
            table.deadline = time.time() + float(secs)
            table.timer = loop.call_later(float(secs), lambda: self._spawn(self._timeout(table, index, seat)))

    async def _timeout(self, table: Table, index: int, seat: int) -> None:
        if table.state.action_count != index or table.state.to_act != seat:
            return
        spec = str(table.row.settings.get("timeout_bot") or "random")
        bot = make_bot(spec, table.game, seed_number(table.seed, 2000 + seat + index))
        await self._bot_turn(table, index, seat, bot, "timeout", delay=False)

    async def _bot_turn(self, table: Table, index: int, seat: int, bot: Bot, origin: str, delay: bool = True) -> None:
        if delay and self.bot_delay:
            await asyncio.sleep(self.bot_delay)
        state = table.state
        if state.action_count != index or state.to_act != seat or table.takeback is not None:
            return
        rng = table.bot_rngs.get(seat) or Rng(seed_number(table.seed, 3000 + index))
        snapshot = state.clone()
        loop = asyncio.get_running_loop()
        try:
            action = await loop.run_in_executor(self.bot_executor, decide, bot, snapshot, seat, rng)
            await self.act(table, seat, str(action), index, origin)
        except ApiError as exc:
            if exc.status == 409:  # the table moved on meanwhile (a take-back, a timer): nothing to do
                return
            # The engine's refusal lists the bot seat's legal actions: they go to the server log, never
            # into the error every seat is shown.
            table.error = f"the {bot.name} bot at seat {seat} failed: the table refused its move ({exc.status})"
            log.error("table %s: %s: %s", table.id, table.error, exc.message)
            self.broadcast(table)
        except RuntimeError:  # executor shut down while the server stops
            return

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
