"""An action's acknowledgement rides in the mover's state message; alone only when no state message goes."""

from __future__ import annotations

import asyncio
import json
from typing import Any

from tablehelp import lobby_at

from freetrader.server.deltas import view_from
from freetrader.server.tables import Conn


def _messages(conn: Conn) -> list[dict[str, Any]]:
    out = []
    while not conn.queue.empty():
        raw = conn.queue.get_nowait()
        assert raw is not None
        out.append(json.loads(raw))
    return out


def test_the_mover_alone_gets_the_ack_in_its_state_message(db_url: str) -> None:
    async def run() -> None:
        async with lobby_at(db_url) as lobby:
            table = await lobby.create("contraband", ["human"] * 3, {"first_officer": "agreement"}, None, None,
                                       "random", None)
            for seat in range(3):
                await lobby.join(table, seat, f"P{seat}")
            mover, twin, other, spectator = (Conn(1, token_hash=table.seat_hashes[1]),
                                             Conn(1, token_hash=table.seat_hashes[1]),
                                             Conn(0, token_hash=table.seat_hashes[0]), Conn(None))
            for conn in (mover, twin, other, spectator):
                table.conns.add(conn)
                lobby.welcome(table, conn)
                _messages(conn)
            count = await lobby.act(table, 1, "claim brandy", None, expected_seq=table.seq,
                                    holder=table.seat_hashes[1], answer=(mover, "m-1"))
            assert count == 1 and mover.answered
            [mine] = _messages(mover)
            assert mine["type"] == "state" and mine["ack"] == {"id": "m-1"} and mine["index"] == 1
            for conn in (twin, other, spectator):
                [msg] = _messages(conn)
                assert msg["type"] == "state" and "ack" not in msg and not conn.answered
            # a socket the broadcast does not reach (it is closing) is not marked: the caller sends an ack
            gone = Conn(0, token_hash=table.seat_hashes[0])
            to_act = table.state.to_act
            assert to_act is not None
            legal = " ".join(str(table.state.legal_actions()[0]).lower().split())
            await lobby.act(table, to_act, legal, None, expected_seq=table.seq, holder=table.seat_hashes[to_act],
                            answer=(gone, 2))
            assert not gone.answered and gone.queue.empty()
            assert all("ack" not in m for c in (mover, twin, other, spectator) for m in _messages(c))

    asyncio.run(run())


async def _seated_tables(lobby: Any, n: int) -> list[Any]:
    tables = []
    for _ in range(n):
        table = await lobby.create("contraband", ["human"] * 3, {"first_officer": "agreement"}, None, None,
                                   "random", None)
        for seat in range(3):
            await lobby.join(table, seat, f"P{seat}")
        tables.append(table)
    return tables


def _sockets(table: Any) -> dict[int | None, Conn]:
    """A socket on each seat and a spectator's, welcomed, with the welcome read (kept in ``held``)."""
    conns: dict[int | None, Conn] = {s: Conn(s, token_hash=table.seat_hashes[s]) for s in range(3)}
    conns[None] = Conn(None)
    for conn in conns.values():
        table.conns.add(conn)
    return conns


def _legal(table: Any) -> tuple[int, str]:
    seat = table.state.to_act
    assert seat is not None
    return seat, " ".join(str(table.state.legal_actions()[0]).lower().split())


async def _two_tables(lobby: Any) -> tuple[list[Any], list[dict[int | None, Conn]], list[dict[int | None, _Client]],
                                            list[tuple[int, str]]]:
    """Two seated tables, a welcomed socket on each seat and a spectator's, their readers, each one's next move."""
    tables = await _seated_tables(lobby, 2)
    sockets = [_sockets(t) for t in tables]
    clients = [{s: _Client(lobby, t, c) for s, c in conns.items()} for t, conns in zip(tables, sockets, strict=True)]
    return tables, sockets, clients, [_legal(t) for t in tables]


async def _told(lobby: Any) -> None:
    """Run the loop until the lobby has told every socket it held back (a bound ends a stuck test only)."""
    for _ in range(10_000):
        if not lobby._behind and not lobby._behind_soon:
            return
        await asyncio.sleep(0)
    raise AssertionError("the held-back sockets were never told")


class _Client:
    """A socket's reader as the page is: the view rebuilt from deltas (``view_from``), the events appended."""

    def __init__(self, lobby: Any, table: Any, conn: Conn) -> None:
        lobby.welcome(table, conn)
        [first] = _messages(conn)
        self.held = (first["seq"], first["view"])
        self.events = list(first["events"])

    def read(self, conn: Conn) -> list[dict[str, Any]]:
        got = _messages(conn)
        for msg in got:
            view = view_from(msg, self.held)
            assert view is not None, "a delta over a view the socket does not hold"
            assert msg["events_from"] == len(self.events)
            self.events += msg["events"]
            self.held = (msg["seq"], view)
        return got


def test_under_a_burst_every_mover_is_answered_before_the_other_sockets_are_told(db_url: str) -> None:
    """Moves of two tables committed in one batch: both movers' acknowledgements are queued first; the
    other seats and the spectators are told afterwards, each its own seat's view, nothing lost."""
    async def run() -> None:
        async with lobby_at(db_url) as lobby:
            tables, sockets, clients, moves = await _two_tables(lobby)
            order: list[tuple[Conn, bool]] = []  # each message as it is queued: its socket, whether it is an ack
            send = lobby._send

            def recorded(conn: Conn, msg: Any) -> None:
                order.append((conn, isinstance(msg, str) and '"ack": ' in msg))
                send(conn, msg)

            lobby._send = recorded
            counts = await asyncio.gather(*(
                lobby.act(t, seat, text, None, expected_seq=t.seq, holder=t.seat_hashes[seat],
                          answer=(conns[seat], f"m{i}"))
                for i, (t, conns, (seat, text)) in enumerate(zip(tables, sockets, moves, strict=True))))
            assert counts == [1, 1]
            for i, (_table, conns, (mover, _text)) in enumerate(zip(tables, sockets, moves, strict=True)):
                [mine] = clients[i][mover].read(conns[mover])
                assert mine["ack"] == {"id": f"m{i}"} and conns[mover].answered
            await _told(lobby)
            acks = [is_ack for _conn, is_ack in order]
            assert acks == [True, True] + [False] * 6, "a socket was told before every mover was answered"
            movers = [conns[mover] for conns, (mover, _t) in zip(sockets, moves, strict=True)]
            assert [c for c, _ in order[:2]] == movers
            for i, (table, conns, (mover, _text)) in enumerate(zip(tables, sockets, moves, strict=True)):
                for seat, conn in conns.items():
                    got = clients[i][seat].read(conn)
                    assert len(got) == (0 if seat == mover else 1)
                    assert all("ack" not in m for m in got)
                    assert clients[i][seat].held == (table.seq, table.split_view(seat)[0])  # its own seat's view only
                    assert clients[i][seat].events == table.public_events()

    asyncio.run(run())


def test_a_table_that_moves_again_before_its_sockets_are_told_tells_them_once(db_url: str) -> None:
    """Held-back sockets of a table that moved twice get one message bringing them to the newest
    position; the movers are answered each in its own message and get nothing twice."""
    async def run() -> None:
        async with lobby_at(db_url) as lobby:
            tables, sockets, clients, moves = await _two_tables(lobby)
            tell_soon = lobby._tell_soon
            lobby._tell_soon = lambda: None  # their turn to be told comes only after the second move (below)
            await asyncio.gather(*(
                lobby.act(t, seat, text, None, expected_seq=t.seq, holder=t.seat_hashes[seat],
                          answer=(conns[seat], i))
                for i, (t, conns, (seat, text)) in enumerate(zip(tables, sockets, moves, strict=True))))
            table, conns, first_mover = tables[0], sockets[0], moves[0][0]
            assert lobby._behind  # the other sockets wait; the same table moves again meanwhile
            second_mover, text = _legal(table)
            await lobby.act(table, second_mover, text, None, expected_seq=table.seq,
                            holder=table.seat_hashes[second_mover], answer=(conns[second_mover], "again"))
            lobby._tell_soon = tell_soon
            lobby._tell_soon()
            await _told(lobby)
            for seat, conn in conns.items():
                got = clients[0][seat].read(conn)
                acks = [m["ack"]["id"] for m in got if "ack" in m]
                if seat == first_mover == second_mover:
                    assert acks == [0, "again"] and len(got) == 2
                elif seat == first_mover:  # its answer, then told of the next move
                    assert acks == [0] and len(got) == 2
                elif seat == second_mover:  # held back at the first move: its answer brings both
                    assert acks == ["again"] and len(got) == 1
                else:
                    assert acks == [] and len(got) == 1  # one message for both moves
                assert clients[0][seat].held == (table.seq, table.split_view(seat)[0])
                assert clients[0][seat].events == table.public_events()
            assert table.state.action_count == 2

    asyncio.run(run())


def test_a_lone_move_tells_every_socket_at_once(db_url: str) -> None:
    """Nothing else waits: the whole broadcast goes with the move, as before (no socket is held back)."""
    async def run() -> None:
        async with lobby_at(db_url) as lobby:
            [table] = await _seated_tables(lobby, 1)
            conns = _sockets(table)
            clients = {s: _Client(lobby, table, c) for s, c in conns.items()}
            seat, text = _legal(table)
            await lobby.act(table, seat, text, None, expected_seq=table.seq, holder=table.seat_hashes[seat],
                            answer=(conns[seat], 1))
            assert not lobby._behind
            for s, conn in conns.items():
                [msg] = clients[s].read(conn)
                assert ("ack" in msg) == (s == seat)
                assert clients[s].held == (table.seq, table.split_view(s)[0])

    asyncio.run(run())
