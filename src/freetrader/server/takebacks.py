"""Take-backs: a seat asks to take back its last move, the other seated players answer, the move is undone.

Which moves may be undone at all is ``takeback.undoable``; this is the asking,
answering and undoing, each step a note in the database (so a restart keeps it).
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from .botseats import BotSeats
from .errors import ApiError, bad_request, conflict, forbidden
from .lobbybase import MAX_BACKOFF
from .storage import DuplicateEntry, LogRow
from .table import HUMAN, Table, Takeback

__all__ = ["Takebacks"]

log = logging.getLogger("freetrader.server")


class Takebacks(BotSeats):
    """The take-backs of the lobby's tables."""

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
