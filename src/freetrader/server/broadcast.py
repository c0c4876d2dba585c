"""Telling the sockets: a socket's first message, and each change as every socket's delta."""

from __future__ import annotations

from typing import Any

from . import log as readable
from . import wire
from .deltas import Conn, SentView, still_known
from .lobbybase import LobbyBase
from .table import Table

__all__ = ["Broadcasting"]

_dumps = wire.dumps


class Broadcasting(LobbyBase):
    """The lobby's messages to sockets."""

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
