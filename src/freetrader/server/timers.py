"""After every change: the broadcast, then the next bot turn or the turn timer of the seat to move."""

from __future__ import annotations

import asyncio
import logging
import time
from typing import Any

from .broadcast import Broadcasting
from .deltas import Conn
from .errors import ApiError
from .table import DECLINE, FALLBACK_BOT, Table

__all__ = ["Timers"]

log = logging.getLogger("freetrader.server")


class Timers(Broadcasting):
    """What runs after a committed change: the broadcast, a bot turn, a turn timer."""

    def _changed(self, table: Table, answer: tuple[Conn, Any] | None = None) -> None:
        """A committed change (the database told the other processes): the sockets, then bots and timers.

        ``answer``: the socket whose action this is, and its message's id (``act``).
        """
        if self.cluster is not None and table.state.is_over:
            self._spawn(self.cluster.release(table.id))
        self._after_change_safely(table, answer=answer)

    def _after_change_safely(self, table: Table, reschedule: bool = True,
                             answer: tuple[Conn, Any] | None = None) -> None:
        """``_after_change`` once a change is committed: a failure to tell the clients is logged, not raised."""
        try:
            self._after_change(table, reschedule=reschedule, answer=answer)
        except Exception:  # the change stands; clients get the state with the next message or on reconnect
            log.exception("table %s: broadcasting the new position failed", table.id)

    def _after_change(self, table: Table, broadcast: bool = True, reschedule: bool = True,
                      answer: tuple[Conn, Any] | None = None) -> None:
        # the timer of the new position is armed before the broadcast, so the message of a position carries
        # its own deadline (the page showed the previous one: "Time is up" at the decision after a timeout)
        if reschedule:
            self._reschedule(table)
        if broadcast:
            self.broadcast(table, answer)

    def _reschedule(self, table: Table) -> None:
        """The next bot turn or the turn timer of the seat to move (one per position)."""
        # a timer armed again for the same position keeps its deadline: a seat taken or left, a restart
        # or a takeover by another process gives the player to move no extra time
        kept = table.deadline if table.deadline_seq == table.seq else None
        if kept is None and table.saved_deadline is not None and table.saved_deadline[0] == table.seq:
            kept = table.saved_deadline[1]
        if table.timer is not None:
            table.timer.cancel()
        table.timer, table.deadline, table.deadline_seq = None, None, None
        seat = table.state.to_act
        if seat is None or table.takeback is not None or table.waiting or not self.owns(table):
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
        if seat in table.auto_decline:
            self._open_window(table, seat)
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

    def _open_window(self, table: Table, seat: int) -> None:
        """A seat that declines what it cannot answer, to act where it may decline: hold its decline.

        The window's opening is noted whatever the hand, and any decline of the seat here lands
        ``decline_delay`` after it (``Actions.act`` holds it): the server's own, sent when the decline is
        the only legal action (read from the true state), and the player's, chosen with a card in hand.
        So neither the time nor the message tells the other seats which it was.
        """
        legal = [str(a) for a in table.state.legal_actions()]
        if DECLINE not in legal:
            return
        if table.window is None or table.window[0] != table.seq:
            table.window = (table.seq, self.clock())
        if legal == [DECLINE] and table.declining != table.seq:
            table.declining = table.seq
            self._spawn(self._decline_for(table, table.seq, seat))

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
