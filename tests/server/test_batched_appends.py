"""Moves of many tables committed together (``Lobby.append``, ``Store.append_logs``): nothing lost or mixed up.

Under load the moves of several tables wait for the database at once and go as one transaction; each
caller must still get its own answer: a committed move, a stale one refused, a failed batch retried
move by move, and a database down for a while a 503 that changed nothing.
"""

from __future__ import annotations

import asyncio
import random
from typing import Any

from sqlalchemy.exc import OperationalError
from tablehelp import lobby_at

import freetrader
from freetrader.server.errors import ApiError
from freetrader.server.storage import DuplicateEntry, LogRow, Store
from freetrader.server.tables import Lobby, Table

LONG = {"end": "turns", "turn_limit": 10000}


class _Counted:
    """``Store.append_logs`` that records each batch's size."""

    def __init__(self, store: Store) -> None:
        self.fn = store.append_logs
        self.sizes: list[int] = []

    def __call__(self, batch: Any) -> Any:
        self.sizes.append(len(batch))
        return self.fn(batch)


async def _tables(lobby: Lobby, n: int) -> list[Table]:
    out = []
    for _ in range(n):
        table = await lobby.create("contraband", ["human"] * 3, LONG, None, None, "random", None)
        for seat in range(3):
            await lobby.join(table, seat, f"P{seat}")
        out.append(table)
    return out


def _move(table: Table, rng: random.Random) -> tuple[int, str]:
    seat = table.state.to_act
    assert seat is not None
    return seat, " ".join(str(rng.choice(table.state.legal_actions())).lower().split())


async def _act_all(lobby: Lobby, tables: list[Table], rng: random.Random) -> list[Any]:
    """One move at every table, all at once (as many sockets' messages read in one turn of the loop)."""
    moves = [_move(t, rng) for t in tables]
    return await asyncio.gather(*(lobby.act(t, seat, text, None, expected_seq=t.seq, holder=t.seat_hashes[seat])
                                  for t, (seat, text) in zip(tables, moves, strict=True)), return_exceptions=True)


def _check_log(store: Store, table: Table) -> None:
    """The database holds exactly the table's moves, at positions 0, 1, 2, ..., and they replay to its game."""
    loaded = store.load(table.id)
    assert loaded is not None
    assert [r.seq for r in loaded.log] == list(range(len(loaded.log)))
    assert [r.text for r in loaded.log] == [r.text for r in table.stack]
    replayed = freetrader.replay({**table.record_core(), "actions": [r.text for r in loaded.log]})
    assert replayed.action_count == table.state.action_count


def _failing_rows(store: Store, when: Any) -> list[int]:
    """Make ``store``'s row writing fail (a lock, a lost disk) for the batches ``when(size)`` picks; their sizes."""
    real, sizes = store._append_rows, []

    def rows(batch: Any) -> None:
        sizes.append(len(batch))
        if when(len(batch)):
            raise OperationalError("INSERT", {}, Exception("database is locked (test)"))
        real(batch)

    store._append_rows = rows  # type: ignore[method-assign]
    return sizes


def test_moves_of_many_tables_go_as_one_transaction_and_each_is_answered(db_url: str) -> None:
    async def run() -> None:
        async with lobby_at(db_url) as lobby:
            counted = _Counted(lobby.store)
            lobby.store.append_logs = counted  # type: ignore[method-assign]
            tables = await _tables(lobby, 8)
            rng = random.Random(3)
            for _ in range(12):
                answers = await _act_all(lobby, tables, rng)
                assert answers == [t.state.action_count for t in tables]
            assert sum(counted.sizes) == 8 * 12
            assert max(counted.sizes) == 8  # the eight moves of one round went together
            for table in tables:
                _check_log(lobby.store, table)

    asyncio.run(run())


def test_a_stale_move_in_a_batch_is_refused_alone(db_url: str) -> None:
    """Another process wrote one table's next position: that move is refused (409), the rest commit."""
    async def run() -> None:
        async with lobby_at(db_url) as lobby:
            store = lobby.store
            counted = _Counted(store)
            store.append_logs = counted  # type: ignore[method-assign]
            tables = await _tables(lobby, 5)
            rng = random.Random(5)
            await _act_all(lobby, tables, rng)
            stolen = tables[2]
            seat, text = _move(stolen, rng)
            # the position this table would write next is taken meanwhile, as by another process
            store.append_log(stolen.id, LogRow(stolen.next_seq, "action", text, seat, "human"))
            before = [t.state.action_count for t in tables]
            answers = await _act_all(lobby, tables, rng)
            assert counted.sizes[-1] == 5  # tried as one batch, then move by move
            assert isinstance(answers[2], ApiError) and answers[2].status == 409
            assert "nothing was changed" in answers[2].message
            for i, table in enumerate(tables):
                if i != 2:
                    assert answers[i] == before[i] + 1 == table.state.action_count
                _check_log(store, table)  # the stolen table caught up with the row written meanwhile

    asyncio.run(run())


def test_a_batch_that_fails_whole_is_made_move_by_move(db_url: str) -> None:
    async def run() -> None:
        async with lobby_at(db_url) as lobby:
            tables = await _tables(lobby, 4)
            sizes = _failing_rows(lobby.store, lambda n: n > 1)  # the batch's one transaction fails
            answers = await _act_all(lobby, tables, random.Random(9))
            assert sizes == [4, 1, 1, 1, 1]
            assert answers == [t.state.action_count for t in tables] == [1, 1, 1, 1]
            for table in tables:
                _check_log(lobby.store, table)

    asyncio.run(run())


def test_a_database_down_refuses_every_move_of_the_batch_and_changes_nothing(db_url: str) -> None:
    async def run() -> None:
        async with lobby_at(db_url) as lobby:
            tables = await _tables(lobby, 3)
            rng = random.Random(11)
            down = {"now": True}
            _failing_rows(lobby.store, lambda _n: down["now"])
            faults = lobby.faults
            answers = await _act_all(lobby, tables, rng)
            assert all(isinstance(a, ApiError) and a.status == 503 and "nothing was changed" in a.message
                       for a in answers), answers
            assert lobby.faults == faults + 3
            assert [t.state.action_count for t in tables] == [0, 0, 0]
            down["now"] = False
            answers = await _act_all(lobby, tables, rng)  # back: the same tables play on
            assert answers == [1, 1, 1]
            for table in tables:
                _check_log(lobby.store, table)

    asyncio.run(run())


def test_rows_guarded_by_their_seat_go_together_and_a_left_seat_is_refused_alone(db_url: str) -> None:
    """With several processes a human's row goes in only while its seat's token holds (one statement each);
    a batch of such rows in which one seat was left: that one refused, the others written."""
    async def run() -> None:
        async with lobby_at(db_url) as lobby:
            store = lobby.store
            tables = await _tables(lobby, 4)
            rng = random.Random(13)
            batch = []
            for i, table in enumerate(tables):
                seat, text = _move(table, rng)
                holder = table.seat_hashes[seat] if i != 1 else "0" * 64  # table 1's seat was left meanwhile
                batch.append((table.id, LogRow(table.next_seq, "action", text, seat, "human"), None, holder))
            results = store.append_logs(batch)
            assert results[0] is None and results[2] is None and results[3] is None
            assert isinstance(results[1], DuplicateEntry) and "was left meanwhile" in str(results[1])
            for i, table in enumerate(tables):
                loaded = store.load(table.id)
                assert loaded is not None and len(loaded.log) == (0 if i == 1 else 1)
            # all held: one batch, every row written
            again = [(t.id, LogRow(1 if i != 1 else 0, "action", "x", 0, "human"), None, t.seat_hashes[0])
                     for i, t in enumerate(tables)]
            assert store.append_logs(again) == [None] * 4

    asyncio.run(run())


def test_a_batch_larger_than_one_statement_goes_in_one_transaction(db_url: str) -> None:
    """SQLite's rows go as multi-row statements (``_ROWS_PER_INSERT`` rows each): a batch of several statements
    is still one transaction, so a duplicate in its last statement undoes the first ones, and the rows then
    written one by one go in once each, in order."""
    from freetrader.server import storage

    async def run() -> None:
        async with lobby_at(db_url) as lobby:
            store = lobby.store
            tables = await _tables(lobby, 3)
            per = storage._ROWS_PER_INSERT  # rows of one table: the batch spans three statements
            batch: list[Any] = [(t.id, LogRow(seq, "action", f"move {seq}", seq % 3, "human"), None, None)
                                for t in tables for seq in range(per)]
            assert store.append_logs(batch) == [None] * len(batch)
            more = [(t.id, LogRow(per + seq, "action", f"move {per + seq}", 0, "human"), None, None)
                    for t in tables for seq in range(per // 2)]
            more[-1] = (tables[2].id, LogRow(0, "action", "again", 0, "human"), None, None)  # position 0 is taken
            results = store.append_logs(more)
            assert all(r is None for r in results[:-1]) and isinstance(results[-1], DuplicateEntry)
            for i, table in enumerate(tables):
                loaded = store.load(table.id)
                assert loaded is not None
                n = per + per // 2 - (1 if i == 2 else 0)
                assert [r.seq for r in loaded.log] == list(range(n))
                assert [r.text for r in loaded.log] == [f"move {seq}" for seq in range(n)]

    asyncio.run(run())
