"""Bot seats: seating bots, their turns in the worker pool, failures, and the players' answer to one.

A failed bot turn (the bot raises, misses its deadline, picks an illegal move,
or the database does not answer) is retried with backoff; after ``BOT_FAULTS``
faults of the bot itself the seat's bot is marked failed (a ``bot-failed``
note) and the seated players replace it or let ``FALLBACK_BOT`` move
(``bot_choice``). With nobody seated to choose, the fallback moves by itself.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from freetrader.bots import bot_names, make_bot
from freetrader.core import FreetraderError, Rng, seed_number

from .actions import Actions
from .errors import ApiError, bad_request, conflict, forbidden
from .lobbybase import MAX_BACKOFF
from .table import FALLBACK_BOT, HUMAN, Table
from .workers import Deadline, WorkerLost, bot_decision, check_bot_spec

__all__ = ["BOT_FAULTS", "BotSeats", "WORKER_FAULTS"]

log = logging.getLogger("freetrader.server")

#: Faults of a bot itself (not of the database) at one decision before the seat's bot is marked failed.
BOT_FAULTS = 3
#: Lost worker processes at one decision (a bot that kills its worker) before the bot is marked failed.
WORKER_FAULTS = 6


class BotSeats(Actions):
    """The bot seats of the lobby's tables."""

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
