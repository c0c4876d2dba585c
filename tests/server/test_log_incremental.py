"""The readable log made move by move (server/log.py's readers) equals the log made from scratch.

A live table renders only the new part of each reader's log; here random games with private
draws, take-backs (done, refused and dropped), timer moves and seats renamed are played in
the process, and after every change each seat's and a spectator's log is compared with one
rebuilt from nothing, and with the log a socket rebuilds from its deltas; the socket's events
and view (sent as changed fields) are rebuilt the same way and compared with the table's.
"""

from __future__ import annotations

import asyncio
import json
import random
from typing import Any

import pytest

from freetrader.server import log as readable
from freetrader.server.storage import Store
from freetrader.server.tables import Conn, Lobby, Table, view_from
from freetrader.server.workers import WorkerPool


def _from_scratch(table: Table, readers: list[int | None]) -> list[list[Any]]:
    """Each reader's log made with a new cache (one walk of the record for all), the table's cache kept."""
    kept = readable._CACHES.pop(table)
    try:
        return [readable.table_log(table, seat) for seat in readers]
    finally:
        readable._CACHES[table] = kept


def _drain(conn: Conn, log: list[Any], events: list[Any], held: list[Any]) -> None:
    """Apply the socket's messages to ``log``, ``events`` and ``held`` (``[(seq, view)]``) as the page does."""
    while not conn.queue.empty():
        raw = conn.queue.get_nowait()
        if raw is None:
            continue
        msg = json.loads(raw)
        if msg.get("type") != "state":
            continue
        assert msg["log_from"] <= len(log), "a delta may only start within what the socket holds"
        log[msg["log_from"]:] = msg["log"]
        assert msg["events_from"] <= len(events), "an events delta may only start within what the socket holds"
        events[msg["events_from"]:] = msg["events"]
        view = view_from(msg, held[0])
        assert view is not None, "a view's changes may only come over the view the socket holds"
        held[0] = (msg["seq"], view)


async def _play(tmp: Any, game: str, seats: int, seed: int, moves: int) -> dict[str, int]:
    store = Store(f"sqlite:///{tmp}/{game}-{seed}.db")
    lobby = Lobby(store, WorkerPool(1, "bot"))
    await lobby.start()
    rng = random.Random(seed)
    seen = {"checked": 0, "renamed": 0, "timeout": 0, "takeback": 0}
    try:
        table = await lobby.create(game, ["human"] * seats, {}, None, None, "random", None)
        for s in range(seats):
            await lobby.join(table, s, f"P{s}")
        conns = [Conn(s, token_hash=table.seat_hashes[s]) for s in range(seats)] + [Conn(None)]
        logs: list[list[Any]] = [[] for _ in conns]
        events: list[list[Any]] = [[] for _ in conns]
        held: list[list[Any]] = [[None] for _ in conns]
        for conn in conns:
            table.conns.add(conn)
            lobby.welcome(table, conn)
        for step in range(moves):
            seat = table.state.to_act
            if seat is None:
                break
            special = False  # a rename or a take-back: always compared from scratch (else every 2nd move)
            roll = rng.random()
            if roll < 0.05:  # a seat left and taken again under another name: the log's names change
                await lobby.leave(table, seat)
                await lobby.join(table, seat, f"Q{seat}-{rng.randrange(100)}")
                seen["renamed"] += 1
                special = True
                for conn in conns:
                    if conn.seat is None and conns.index(conn) == seat:
                        conn.seat, conn.token_hash = seat, table.seat_hashes[seat]
                        lobby.welcome(table, conn)
            else:
                action = rng.choice([str(a) for a in table.state.legal_actions()])
                origin = "timeout" if roll < 0.15 else "human"
                seen["timeout"] += origin == "timeout"
                await lobby.act(table, seat, action, None, origin, expected_seq=table.seq,
                                holder=table.seat_hashes[seat] if origin == "human" else None)
                if origin == "human" and rng.random() < 0.5 and table.can_take_back(seat):
                    await lobby.ask_takeback(table, seat)
                    seen["takeback"] += 1
                    special = True
                    while table.takeback is not None and table.takeback.waiting:  # a refusal ends it
                        await lobby.answer_takeback(table, min(table.takeback.waiting), rng.random() < 0.7)
            fresh = _from_scratch(table, [c.seat for c in conns]) if special or step % 2 == 0 else None
            for i, conn in enumerate(conns):
                _drain(conn, logs[i], events[i], held[i])
                assert held[i][0][1] == table.split_view(conn.seat)[0], f"socket {i} rebuilt another view"
                assert events[i] == table.state.events, f"socket {i} rebuilt different events after {table.seq} changes"
                got = readable.table_log(table, conn.seat)
                assert logs[i] == got, f"socket {i} rebuilt a different log after {table.seq} changes"
                if fresh is not None:
                    assert got == fresh[i]
                    seen["checked"] += 1
                if conn.seat is None:
                    assert all(line["kind"] != "you" for line in got)  # no seat's private news
    finally:
        await lobby.close()
        store.close()
    return seen


@pytest.mark.parametrize("game, seats, seed", [("contraband", 3, 1), ("contraband", 4, 2), ("cornish-smuggler", 3, 3),
                                               ("precious-cargo", 2, 4), ("merchants-cove", 3, 5)])
def test_the_log_made_move_by_move_is_the_log_made_from_scratch(tmp_path: Any, game: str, seats: int,
                                                                seed: int) -> None:
    seen = asyncio.run(_play(tmp_path, game, seats, seed, 90))
    assert seen["checked"] >= 45 * (seats + 1)  # the comparisons did run, for every reader
    assert seen["renamed"] and seen["timeout"]
