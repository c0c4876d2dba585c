"""Issue 34 item 4: a seat may decline by itself where none of its cards can answer, and timing tells nothing.

The server sends the decline when the decline is the seat's only legal action (read from the true state);
a seat with an answer in hand is still asked. Any decline of such a seat, the server's or the player's,
lands ``decline_delay`` after its window opened (``Actions._hold_decline``): the tests stop the lobby's clock
and count its one pause, so they show the mechanism without reading a wall clock.
"""

from __future__ import annotations

import asyncio
import random
from typing import Any

import pytest
from fastapi.testclient import TestClient
from tablehelp import lobby_at

from freetrader.server.errors import ApiError
from freetrader.server.table import DECLINE, Table
from freetrader.server.tables import Lobby

SEED = 5
OUTER = 300.0  # only ends a stuck test; a busy machine may take long


def _freeze(lobby: Lobby, table_of: dict[str, Table]) -> list[tuple[int, float, list[str]]]:
    """Stop the lobby's clock; record each held decline's pause: the table's seq, seconds, the legal actions."""
    pauses: list[tuple[int, float, list[str]]] = []
    lobby.clock = lambda: 100.0

    async def pause(seconds: float) -> None:
        table = table_of["t"]
        pauses.append((table.seq, seconds, [str(a) for a in table.state.legal_actions()]))
        await asyncio.sleep(0)

    lobby._pause = pause  # type: ignore[method-assign]
    return pauses


async def _turn(table: Table, seat: int, end: float) -> None:
    """Wait until ``seat`` is to act with no decline of the server pending, or the game ends."""
    while not table.state.is_over:
        if table.state.to_act == seat and table.declining != table.seq:
            return
        assert asyncio.get_running_loop().time() < end, "the table did not come back to the seat"
        await asyncio.sleep(0.005)


def test_the_seat_declines_only_where_nothing_answers_and_after_the_same_pause(db_url: str) -> None:
    async def run() -> None:
        async with lobby_at(db_url) as lobby:
            lobby.decline_delay = 2.5
            table = await lobby.create("cornish-smuggler", ["human", "random", "random"], {}, SEED, None,
                                       "random", None)
            holder: dict[str, Table] = {"t": table}
            pauses = _freeze(lobby, holder)
            seat, _token = await lobby.join(table, 0, "Ann")
            await lobby.set_auto_decline(table, seat, True)
            assert table.message(seat)["you"]["auto_decline"] is True
            assert table.message(1)["you"]["auto_decline"] is False and table.message(None)["you"]["auto_decline"] is False
            end = asyncio.get_running_loop().time() + OUTER
            rng = random.Random(1)
            asked: list[int] = []  # seqs where the seat could answer: it was asked, and declined itself
            while not table.state.is_over and table.state.action_count < 3000 and (
                    not asked or not any(legal == [DECLINE] for _s, _w, legal in pauses)):
                await _turn(table, seat, end)
                if table.state.is_over:
                    break
                legal = [str(a) for a in table.state.legal_actions()]
                assert legal != [DECLINE], "the server did not decline where nothing could answer"
                if DECLINE in legal:  # a card could answer: nothing was sent for the seat, it is asked
                    asked.append(table.seq)
                    await lobby.act(table, seat, DECLINE, expected_seq=table.seq)
                else:  # moves drawn from a seeded generator: the seat gains cards that answer some events
                    await lobby.act(table, seat, rng.choice(legal), expected_seq=table.seq)
            auto = [seq for seq, _w, legal in pauses if legal == [DECLINE]]
            assert auto and asked, (auto, asked)
            assert sorted(seq for seq, _w, _l in pauses) == sorted(auto + asked)  # nothing else was held
            rows = {r.seq: r for r in table.stack}
            for seq in auto:  # the server's declines, written as the player's own
                assert rows[seq].text == DECLINE and rows[seq].seat == seat and rows[seq].origin == "human"
            # every decline of the seat waited the same pause from its window's opening, on both paths
            assert {w for _s, w, _l in pauses} == {2.5}
            # the player's own click on Decline, come after the server's, is answered as done, not refused
            count = table.state.action_count
            assert await lobby.act(table, seat, DECLINE, expected_seq=auto[0]) == count
            with pytest.raises(ApiError, match="stale action"):
                await lobby.act(table, seat, "pass", expected_seq=auto[0])

    asyncio.run(run())


def test_the_setting_is_kept_with_the_table_and_dropped_when_the_seat_is_left(db_url: str) -> None:
    async def run() -> None:
        async with lobby_at(db_url) as lobby:
            table = await lobby.create("cornish-smuggler", ["human", "human", "human"], {}, None, None, "random", None)
            await lobby.join(table, 0, "Ann")
            await lobby.join(table, 1, "Bob")
            await lobby.set_auto_decline(table, 1, True)
            await lobby.set_auto_decline(table, 0, True)
            await lobby.set_auto_decline(table, 0, False)
            tid = table.id
        async with lobby_at(db_url) as lobby:  # a restart reads it back from the table's notes
            table = await lobby.get(tid)
            assert table.auto_decline == {1}
            await lobby.leave(table, 1)
            assert table.auto_decline == set()
        async with lobby_at(db_url) as lobby:
            assert (await lobby.get(tid)).auto_decline == set()

    asyncio.run(run())


def test_bad_settings_are_refused_in_one_line(db_url: str) -> None:
    async def run() -> Any:
        async with lobby_at(db_url) as lobby:
            table = await lobby.create("cornish-smuggler", ["human", "random", "random"], {}, None, None, "random",
                                       None)
            for seat, value, status, words in ((None, True, 403, "spectators"), (0, "yes", 400, "true or false")):
                try:
                    await lobby.set_auto_decline(table, seat, value)
                except Exception as exc:  # noqa: BLE001 - the ApiError's status and line are checked
                    assert getattr(exc, "status", None) == status and words in str(exc) and "\n" not in str(exc)
                else:
                    raise AssertionError("accepted")
            assert table.auto_decline == set() and not table.notes

    asyncio.run(run())


def test_the_setting_is_told_to_its_own_seat_only(client: TestClient) -> None:
    made = client.post("/api/tables", json={"game": "cornish-smuggler", "seats": ["human"] * 3})  # nothing moves
    tid = made.json()["table"]["id"]
    tokens = [client.post(f"/api/tables/{tid}/join", json={"seat": s, "name": n}).json()["token"]
              for s, n in ((0, "Ann"), (1, "Bob"))]
    with client.websocket_connect(f"/ws/tables/{tid}?token={tokens[0]}") as ann, \
            client.websocket_connect(f"/ws/tables/{tid}?token={tokens[1]}") as bob:
        assert ann.receive_json()["you"]["auto_decline"] is False
        assert bob.receive_json()["type"] == "state"
        ann.send_json({"type": "setting", "auto_decline": True, "id": 1})
        got = [ann.receive_json(), ann.receive_json()]
        assert {m["type"] for m in got} == {"state", "ack"}
        assert next(m for m in got if m["type"] == "state")["you"]["auto_decline"] is True
        # anything sent to Bob for it would come before the answer to his ping: nothing did
        bob.send_json({"type": "ping", "id": 2})
        assert bob.receive_json() == {"type": "pong", "id": 2}
        ann.send_json({"type": "setting", "auto_decline": "yes", "id": 3})
        refused = ann.receive_json()
        assert refused["type"] == "error" and refused["status"] == 400 and "true or false" in refused["error"]


def test_a_setting_turned_off_during_the_pause_sends_nothing(db_url: str) -> None:
    async def run() -> None:
        async with lobby_at(db_url) as lobby:
            table = await lobby.create("cornish-smuggler", ["human", "random", "random"], {}, SEED, None,
                                       "random", None)
            seat, _token = await lobby.join(table, 0, "Ann")
            await lobby.set_auto_decline(table, seat, True)
            lobby.clock = lambda: 100.0
            paused = asyncio.Event()
            held: list[int] = []

            async def pause(seconds: float) -> None:  # the player unticks the box while the decline waits
                held.append(table.seq)
                await lobby.set_auto_decline(table, seat, False)
                paused.set()

            lobby._pause = pause  # type: ignore[method-assign]
            end = asyncio.get_running_loop().time() + OUTER
            while not paused.is_set():
                assert not table.state.is_over and asyncio.get_running_loop().time() < end
                if table.state.to_act == seat and table.declining != table.seq:
                    legal = [str(a) for a in table.state.legal_actions()]
                    await lobby.act(table, seat, legal[0], expected_seq=table.seq)
                await asyncio.sleep(0.005)
            seq = held[0]
            pending = [t for t in lobby.tasks if t.get_coro().__name__ == "_decline_for"]  # type: ignore[union-attr]
            await asyncio.gather(*pending)
            # nothing was sent: the seat is still to decide, and asked
            assert table.seq == seq and table.state.to_act == seat
            assert [str(a) for a in table.state.legal_actions()] == [DECLINE]
            assert table.message(seat)["you"]["auto_decline"] is False

    asyncio.run(run())
