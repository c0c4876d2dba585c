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

The lobby is built in layers, one module per concern (see ``lobbybase``):
``table`` (one live table), ``deltas`` (what a socket is sent), ``broadcast``,
``timers``, ``actions``, ``botseats``, ``takebacks``; here the lobby itself:
creating, listing, loading, restoring and unloading tables, and their seats.
"""

from __future__ import annotations

import asyncio
import json
import logging
import secrets
import time
from typing import Any

import freetrader
from freetrader.bots import bot_names, make_bot
from freetrader.core import BadRecord, FreetraderError, Seed, State, new_key_seed
from freetrader.core.record import pack_mismatch

from .deltas import Conn, SentView, view_from
from .errors import ApiError, bad_request, check_text, conflict, forbidden, not_found
from .storage import LoadedTable, LogRow, TableRow, token_hash
from .table import HUMAN, Table
from .takebacks import Takebacks
from .workers import check_bot_spec

__all__ = ["HUMAN", "Lobby", "Table", "Conn", "SentView", "view_from"]

log = logging.getLogger("freetrader.server")

TIMEOUT_BOTS = ("random", "heuristic")


class Lobby(Takebacks):
    """Every table of one server, and the operations on them."""

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
        _seat_notes(table)
        self._seat_players(table)
        self.tables[table_id] = table
        return table

    async def create(self, game_name: str, seats: list[str], options: dict[str, Any], seed: int | None,
                     turn_seconds: float | None, timeout_bot: str, label: str | None, *, hints: bool = False,
                     creator: str | None = None, wait_for_seats: bool = False) -> Table:
        try:
            game = freetrader.game(game_name)
        except FreetraderError as exc:
            raise bad_request(str(exc)) from None
        specs = [check_text(s, "a seat", 128).strip() for s in seats]
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
        # the components' hash, as records carry it: a server restarted on other data says so (``_rebuild``)
        settings = {"turn_seconds": turn_seconds, "timeout_bot": timeout_bot if turn_seconds else None,
                    "name": label, "seed_chosen": chosen, "hints": bool(hints), "data": game.data_hash,
                    "wait_for_seats": bool(wait_for_seats) and specs.count(HUMAN) >= 2}
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
            except FreetraderError as exc:  # the table is kept; this server cannot play it
                raise conflict(f"table {table_id} {exc}") from None
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

    async def join(self, table: Table, seat: int | None, name: str | None) -> tuple[int, str]:
        name = None if name is None else check_text(name, "name", 40).strip() or None
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
            starts = False
            if table.waiting:
                if table.host is None:  # the first to sit down hosts: they may start it with bots
                    await self._note(table, "host", {"seat": seat})
                    table.host = seat
                if not table.free_seats():
                    await self._note(table, "started", {"by": None, "bots": []})
                    table.started = starts = True
            self._after_change(table, reschedule=starts)  # a seat taken changes no turn, unless the game starts
            return seat, token

    async def start_with_bots(self, table: Table, seat: int | None) -> None:
        """The host starts a waiting table: its free human seats get the game's default bot."""
        if seat is None:
            raise forbidden(f"spectators cannot start table {table.id}; its host starts it")
        async with table.lock:
            if not table.waiting:
                raise conflict(f"the game at table {table.id} has already started")
            host = table.host
            if host is not None and host != seat and table.seat_hashes.get(host) is not None:
                raise forbidden(f"only the host (seat {host}, the first to sit down) may start table {table.id} "
                                "with bots")
            free = table.free_seats()
            bot = default_bot(table.game)
            seq = len(table.notes)
            notes = [(seq + i, "bot-replaced", {"seat": s, "bot": bot, "was": HUMAN, "by": seat})
                     for i, s in enumerate(free)]
            notes.append((seq + len(free), "started", {"by": seat, "bots": free}))
            if not await self.db(self.store.fill_seats, table.id, free, notes):
                raise conflict(f"a seat of table {table.id} was just taken; look again before starting")
            now = time.time()
            table.notes.extend({"seq": n, "kind": kind, "at": now, **data} for n, kind, data in notes)
            for s in free:
                table.seat_hashes.pop(s, None)
                table.seat_names.pop(s, None)
            self._restore_bots(table)
            table.started = True
            self._changed(table)

    async def set_auto_decline(self, table: Table, seat: int | None, on: Any) -> None:
        """Whether ``seat`` declines by itself where the decline is its only legal action (kept as a note)."""
        if seat is None:
            raise forbidden("spectators have no seat to set; join a free seat to play")
        if not isinstance(on, bool):
            raise bad_request(f"auto_decline must be true or false, got {on!r}")
        async with table.lock:
            if (seat in table.auto_decline) != on:
                await self._note(table, "auto-decline", {"seat": seat, "on": on})
                _seat_notes(table)
            self._reschedule(table)  # a window open now acts (the turn timer keeps its deadline)
            # only the seat's own sockets hear of it: a message to all would tell them a setting changed
            for conn in [c for c in table.conns if c.seat == seat]:
                self.welcome(table, conn)

    async def leave(self, table: Table, seat: int) -> None:
        async with table.lock:
            await self.db(self.store.set_seat, table.id, seat, None, None, False)
            if seat in table.auto_decline:  # the next player of this seat chooses for themselves
                await self._note(table, "auto-decline", {"seat": seat, "on": False})
                _seat_notes(table)
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
            _seat_notes(table)
        table.takeback = None
        self._restore_takeback(table)
        # a seat taken or left changes no turn: the timer keeps running
        self._after_change_safely(table, reschedule=bool(rows or notes))

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
              "seed": row.settings.get("seed", row.seed), "actions": [e.text for e in stack],
              "data": row.settings.get("data")}  # a replay that fails then names both data hashes
    try:
        return stack, freetrader.replay(record)
    except BadRecord as exc:
        raise BadRecord(_unreplayable(record, exc), exc.action) from None


def _unreplayable(record: dict[str, Any], exc: BadRecord) -> str:
    """Why a stored table does not rebuild, fit for any client and the log: the failing action by number only.

    The action's text, and the engine's reason for refusing it, can name what only its seat saw (a card
    smuggled, a discard), and whoever asks for the table reads this line."""
    if exc.action is None:
        return f"cannot be rebuilt from its log: {exc}"  # options or seats: public, as the lobby shows them
    mismatch = pack_mismatch(record)
    return (f"cannot be rebuilt from its log: action {exc.action} of {len(record['actions'])} no longer replays "
            f"with this server's rules and data; the log is kept unchanged"
            + (f"; {mismatch}" if mismatch else ""))


def default_bot(game: Any) -> str:
    """The bot that fills a seat nobody took: the game's heuristic (the lobby's default), else its first bot."""
    names = bot_names(game)
    return "heuristic" if "heuristic" in names else names[0]


def _seat_notes(table: Table) -> None:
    """From the notes: the seats that decline by themselves (a seat's last note holds), the host, the start."""
    on: set[int] = set()
    for note in table.notes:
        if note["kind"] == "auto-decline":
            (on.add if note["on"] else on.discard)(int(note["seat"]))
        elif note["kind"] == "host" and table.host is None:
            table.host = int(note["seat"])
        elif note["kind"] == "started":
            table.started = True
    table.auto_decline = on


def _runs_alone(row: TableRow) -> bool:
    """Whether a playing table has something to do with no one there: a bot seat or a turn timer."""
    return any(spec != HUMAN for spec in row.seats) or bool(row.settings.get("turn_seconds"))
