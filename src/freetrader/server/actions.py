"""Playing an action: validated against the position, committed to the log, then broadcast.

Under the table's lock an action is checked against ``expected_seq`` (or
``expected_index``), applied to a clone of the state (the engine refuses an
illegal one and says why), appended to the log and committed, and only then
made the table's state, acknowledged and broadcast.
"""

from __future__ import annotations

import logging
from typing import Any

from freetrader.core import FreetraderError

from .deltas import Conn
from .errors import ApiError, bad_request, check_text, conflict, forbidden
from .rules import refusal
from .storage import DuplicateEntry, LogRow
from .table import DECLINE, HUMAN, Table, exact_legal
from .timers import Timers

__all__ = ["Actions", "MAX_ACTION_TEXT"]

MAX_ACTION_TEXT = 200

log = logging.getLogger("freetrader.server")


class Actions(Timers):
    """The validate-commit-broadcast path of one action."""

    async def _hold_decline(self, table: Table, seat: int) -> None:
        """A decline of a seat that declines by itself lands ``decline_delay`` after its window opened.

        Both the server's decline (``_decline_for``) and the player's come here, so the time from the
        window to the decline is the same whether or not the seat held an answer.
        """
        window = table.window
        if seat not in table.auto_decline or window is None or window[0] != table.seq:
            return
        wait = window[1] + self.decline_delay - self.clock()
        if wait > 0:
            await self._pause(wait)

    async def _decline_for(self, table: Table, seq: int, seat: int) -> None:
        """The seat's decline, sent as the player's own (``act`` holds it like any decline of the seat)."""
        try:
            await self.act(table, seat, DECLINE, origin=HUMAN, expected_seq=seq, auto=True)
        except ApiError as exc:  # the table moved on (the player acted, a take-back, the setting left)
            log.info("table %s: seat %d's decline was not sent: %s", table.id, seat, exc.message)

    async def act(self, table: Table, seat: int | None, text: Any, expected_index: Any = None,
                  origin: str = HUMAN, expected_seq: Any = None, holder: str | None = None,
                  answer: tuple[Conn, Any] | None = None, auto: bool = False) -> int:
        """Validate, commit, then broadcast one action; returns the number of actions after it.

        ``answer``: the socket that sent the action and the message's ``id``: its state message
        carries the acknowledgement (``ack``), one message instead of two, and ``answered`` is set
        on the socket (else the caller sends an ``ack`` of its own).

        ``expected_seq`` (the ``seq`` of the state the action was chosen in) guards it; clients may send
        ``expected_index`` instead, which repeats after a take-back. ``holder``: the hash of the token that
        opened the seat; the action is written only while that token still holds it (here, and in the
        database, which another process may have changed). ``auto``: the server's decline for a seat
        (``_decline_for``), written only while the seat still has the setting on.
        """
        text = check_text(text, "action", MAX_ACTION_TEXT)
        if seat is None:
            raise forbidden(f"spectators cannot act; join a free seat of table {table.id} to play")
        if expected_seq is None and expected_index is None:
            raise bad_request("send seq (the sequence number of the last state message) with the action")
        for name, value in (("seq", expected_seq), ("expected_index", expected_index)):
            if value is not None and (isinstance(value, bool) or not isinstance(value, int)):
                raise bad_request(f"{name} must be a whole number from the last state message, got {value!r}")
        if origin == HUMAN and _is_decline(text):
            await self._hold_decline(table, seat)
        async with table.lock:
            if expected_seq is not None and expected_seq != table.seq:
                if _declined(table, seat, text, expected_seq):  # the seat's decline went first (``_decline_for``)
                    return table.state.action_count
                raise conflict(f"stale action: the table is at position {table.seq}, but this one was chosen at "
                               f"{expected_seq}; nothing was changed (reload the table to see the current position)")
            n = table.state.action_count
            if expected_index is not None and expected_index != n:
                raise conflict(
                    f"stale action: {n} actions have been played, but this one expected {expected_index}; "
                    "nothing was changed (reload the table to see the current position)"
                )
            if table.waiting:
                free = ", ".join(map(str, table.free_seats()))
                raise conflict(f"the game at table {table.id} has not started: it waits for its free human seats "
                               f"({free}) to be taken, or for its host to start it with bots")
            if auto and seat not in table.auto_decline:  # turned off, or the seat left, during the pause
                raise conflict(f"seat {seat} no longer declines by itself; nothing was sent")
            if table.takeback is not None:
                raise conflict(f"seat {table.takeback.seat} asked to take back '{table.takeback.action}'; "
                               "the game waits until the other players answer")
            new = table.state.clone()
            # the page and the bots send a legal action as written (lower case, single spaces): the engine
            # would pick that same action, and the history (a walk of every move) need not be read back
            # for its notation; any other spelling is the engine's to parse
            exact = exact_legal(table, seat, text) \
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


def _is_decline(text: str) -> bool:
    """Whether ``text`` is the decline, written as a player may type it (any case, any spacing)."""
    return " ".join(text.lower().split()) == DECLINE


def _declined(table: Table, seat: int, text: str, seq: int) -> bool:
    """Whether ``seat`` already declined at position ``seq`` (its click came after the server's decline)."""
    if not _is_decline(text) or seat not in table.auto_decline:
        return False
    for row in reversed(table.stack):
        if row.seq <= seq:
            return row.seq == seq and row.seat == seat and row.text == DECLINE
    return False
