"""Telling the sockets: a socket's first message, and each change as every socket's delta."""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from . import log as readable
from . import wire
from .deltas import Conn, SentView, still_known
from .lobbybase import LobbyBase
from .table import Table

__all__ = ["Broadcasting"]

_dumps = wire.dumps
log = logging.getLogger("freetrader.server")
#: a change's seat names and shared JSON (``Table.shared_parts``), made once for all its sockets
_Parts = tuple[list[str], tuple[str, str]]
#: Tables whose held-back sockets are told in one turn of the loop (``Broadcasting._tell_behind``):
#: about a millisecond of work, between which the moves read meanwhile go on.
TELL_PER_TURN = 8


class Broadcasting(LobbyBase):
    """The lobby's messages to sockets."""

    def welcome(self, table: Table, conn: Conn) -> None:
        """The first message of a socket (or one that asked for the whole view): every event from 0."""
        if table in self._behind:
            self._behind[table][0].discard(conn)  # it is told everything now
        view, events = table.split_view(conn.seat)
        lines = readable.table_log(table, conn.seat)
        self._send(conn, table.socket_message(conn.seat, table.shared_parts(table.info()), view, events, 0, lines, 0))
        conn.events_sent, conn.known = events, len(events) if events is not None else 0
        conn.log_sent, conn.known_log = lines, len(lines)
        conn.view_sent = SentView.of(table.seq, view)

    def broadcast(self, table: Table, answer: tuple[Conn, Any] | None = None) -> None:
        """Each seat's view once, its bytes shared by that seat's sockets (and all spectators'): a delta of events.

        ``answer``: the socket whose action brought this position and its message's id; its message carries
        the acknowledgement and ``answered`` is set on it. While other moves wait for their commit or for
        their own answer (``_acks_waiting``), only the mover's seat is told now and the table's other
        sockets a little later (``_tell_behind``): under a burst of moves every acknowledgement goes out
        before the other players' messages, instead of each mover waiting behind every earlier table's
        whole broadcast.
        """
        self._behind.pop(table, None)  # whoever waited to be told is told now, or waits again below
        if not table.conns:
            return
        if answer is None or not self._acks_waiting():
            self._tell(table, list(table.conns), answer)
            return
        mover, seat = answer[0], answer[0].seat
        first = [c for c in table.conns if c is mover or (seat is not None and c.seat == seat)]
        parts = self._tell(table, first, answer)
        rest = table.conns.difference(first)
        if rest:
            # told as they would have been now: no change comes in between (a broadcast takes the entry)
            self._behind[table] = (rest, parts)
            self._tell_soon()

    def _acks_waiting(self) -> bool:
        """Whether other moves wait for their commit or for their answer (a batch's other movers, a table told later)."""
        return bool(self._appends or self._appending or self._telling_batch or self._behind)

    def _tell_soon(self) -> None:
        """Tell one table's waiting sockets in a later turn of the loop (``_tell_behind``)."""
        if not self._behind_soon:
            self._behind_soon = True
            loop = asyncio.get_running_loop()
            # two turns on: after the movers' own messages were written by their sockets' writers
            loop.call_soon(loop.call_soon, self._tell_behind)

    def _tell_behind(self) -> None:
        """The sockets of a few tables told later (``broadcast``), then the next few a turn of the loop on.

        A few tables a turn (``TELL_PER_TURN``), so moves read meanwhile are validated and committed
        between them, without a turn of the loop for each table.
        """
        self._behind_soon = False
        told = 0
        while self._behind and told < TELL_PER_TURN:
            table = next(iter(self._behind))
            waiting, parts = self._behind.pop(table)
            conns = [c for c in waiting if c in table.conns]
            if conns:
                told += 1
                try:
                    self._tell(table, conns, None, parts)
                except Exception:  # the change stands; these sockets get it with the next message or on reconnect
                    log.exception("table %s: telling the other sockets failed", table.id)
        if self._behind:
            self._tell_soon()

    def _tell(self, table: Table, conns: list[Conn], answer: tuple[Conn, Any] | None,
              parts: _Parts | None = None) -> _Parts:
        """The state message of each of ``conns``: a delta over what that socket holds.

        ``parts``: the seats' names and the shared JSON (``Table.shared_parts``) of this change, when
        made already (``_tell_behind``); returned for the sockets told later.
        """
        if parts is None:
            info = table.info()
            parts = (readable.seat_names(info["seats"]), table.shared_parts(info))  # once per change
        names, shared = parts
        views: dict[int | None, tuple[SentView, list[Any] | None, list[Any]]] = {}
        cache: dict[tuple[int | None, int, int, int], str] = {}
        kept: dict[tuple[int, int], int] = {}  # (id of a list a socket was sent, of the new one) -> common prefix
        for conn in conns:
            seat = conn.seat
            if seat not in views:
                view, events = table.split_view(seat)
                views[seat] = (SentView.of(table.seq, view), events, readable.table_log(table, seat, names))
            now, events, lines = views[seat]
            start = still_known(conn.events_sent, conn.known, events, kept)
            log_start = still_known(conn.log_sent, conn.known_log, lines, kept)
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
        return parts
