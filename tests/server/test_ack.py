"""An action's acknowledgement rides in the mover's state message; alone only when no state message goes."""

from __future__ import annotations

import asyncio
import json
from typing import Any

from tablehelp import lobby_at

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
