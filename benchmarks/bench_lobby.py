"""The table server's own work per action, in the process: ``Lobby.act`` and its broadcast, no websockets.

``bench_table.py`` measures the whole server over real sockets, where a run's figure moves with the
machine's load; this one isolates the lobby (validate, commit, make each socket's message) so two
versions of it compare more steadily, and says how the database batches formed. Each table has three
human seats, each with a socket (``Conn``) whose queue is emptied after every move; every table's
players act at once (``--tables`` coroutines), so the moves waiting for the database go as batches
(``Lobby.append``), as under load.

    python benchmarks/bench_lobby.py                    # 40 tables, 3,000 actions a run, 5 runs
    python benchmarks/bench_lobby.py --tables 1         # one table: no batching
    python benchmarks/bench_lobby.py --sockets 0        # the act and the commit alone
    python benchmarks/bench_lobby.py --waves 12 --tables 200  # one move at every table at once, 12 times

``--waves N`` plays N waves of one move at every table at once, each move sent with an answer socket
(``act(..., answer=...)``, as a socket's message is), as when every table's player sends in the same
instant (``bench_table.py --think-start together``), and reports the loop's CPU per move until the
last mover's acknowledgement was queued and until every socket was told: the part of a wave the
movers wait for (from issue 35 on, the other sockets are told after every mover is answered).

For a count that does not depend on the load, run it under ``valgrind --tool=callgrind`` with two
``--actions`` values and divide the difference of the totals by the difference of the actions.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import sys
import tempfile
import time
from collections import Counter
from typing import Any

from freetrader.server.storage import Store
from freetrader.server.tables import Conn, Lobby, Table
from freetrader.server.workers import WorkerPool

LONG = {"end": "turns", "turn_limit": 10000}  # games longer than a run


async def _seated(lobby: Lobby, tables: int, sockets: int, game: str) -> list[tuple[Table, list[Conn]]]:
    """``tables`` tables of three human seats, each seat taken, the first ``sockets`` seats with a welcomed socket."""
    seated = []
    for _ in range(tables):
        table = await lobby.create(game, ["human"] * 3, LONG, None, None, "random", None)
        for seat in range(3):
            await lobby.join(table, seat, f"P{seat}")
        conns = [Conn(s, token_hash=table.seat_hashes[s]) for s in range(min(sockets, 3))]
        for conn in conns:
            table.conns.add(conn)
            lobby.welcome(table, conn)
        seated.append((table, conns))
    return seated


async def _run(tables: int, sockets: int, actions: int, game: str, db: str) -> tuple[float, int, Counter[int]]:
    store = Store(db)
    sizes: Counter[int] = Counter()
    batched = store.append_logs

    def counted(batch: Any) -> Any:
        sizes[len(batch)] += 1
        return batched(batch)

    store.append_logs = counted  # type: ignore[method-assign]
    lobby = Lobby(store, WorkerPool(1, "bot"))
    await lobby.start()
    seated = await _seated(lobby, tables, sockets, game)
    done = 0

    async def players(table: Table, conns: list[Conn], rng: random.Random) -> None:
        nonlocal done
        while done < actions and table.state.to_act is not None:
            seat = table.state.to_act
            text = " ".join(str(rng.choice(table.state.legal_actions())).lower().split())
            await lobby.act(table, seat, text, None, expected_seq=table.seq, holder=table.seat_hashes[seat])
            done += 1
            for conn in conns:
                while not conn.queue.empty():
                    conn.queue.get_nowait()

    sizes.clear()  # the set-up's writes are not the run's
    cpu = time.process_time()
    await asyncio.gather(*(players(t, c, random.Random(i)) for i, (t, c) in enumerate(seated)))
    cpu = time.process_time() - cpu
    await lobby.close()
    store.close()
    return cpu, done, sizes


async def _waves(tables: int, waves: int, game: str, db: str) -> tuple[float, float]:
    """CPU ms per move of a wave: until the last mover's ack is queued, and until every socket is told."""
    store = Store(db)
    lobby = Lobby(store, WorkerPool(1, "bot"))
    await lobby.start()
    seated = await _seated(lobby, tables, 3, game)
    acked: list[float] = []  # the CPU clock when each ack was queued
    send = lobby._send

    def noted(conn: Conn, msg: Any) -> None:
        if isinstance(msg, str) and '"ack": ' in msg:
            acked.append(time.thread_time())
        send(conn, msg)

    lobby._send = noted  # type: ignore[method-assign]
    rng = random.Random(1)
    until_ack, until_all = [], []
    for wave in range(waves + 2):  # the first two warm the caches
        for _table, conns in seated:
            for conn in conns:
                while not conn.queue.empty():
                    conn.queue.get_nowait()
        moves = []
        for table, conns in seated:
            seat = table.state.to_act
            assert seat is not None
            moves.append((table, conns[seat], seat, " ".join(str(rng.choice(table.state.legal_actions())).lower().split())))
        acked.clear()
        began = time.thread_time()
        await asyncio.gather(*(lobby.act(t, seat, text, None, expected_seq=t.seq, holder=t.seat_hashes[seat],
                                         answer=(conn, i)) for i, (t, conn, seat, text) in enumerate(moves)))
        while getattr(lobby, "_behind", None) or getattr(lobby, "_behind_soon", False):  # told later
            await asyncio.sleep(0)
        ended = time.thread_time()
        if wave >= 2:
            until_ack.append((max(acked) - began) / tables * 1000)
            until_all.append((ended - began) / tables * 1000)
    await lobby.close()
    store.close()
    return statistics.median(until_ack), statistics.median(until_all)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--tables", type=int, default=40)
    ap.add_argument("--sockets", type=int, default=3, help="sockets a table (0-3), one per seat")
    ap.add_argument("--actions", type=int, default=3000, help="actions a run")
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--game", default="contraband")
    ap.add_argument("--waves", type=int, default=0, help="waves of one move at every table at once (see above)")
    args = ap.parse_args()
    if args.waves > 0:
        with tempfile.TemporaryDirectory() as tmp:
            ack, told = asyncio.run(_waves(args.tables, args.waves, args.game, f"sqlite:///{tmp}/bench.db"))
        print(f"{args.game}: {args.tables} tables, 3 sockets a table, {args.waves} waves of a move at every table; "
              f"SQLite; Python {sys.version.split()[0]}")
        print(f"loop CPU ms per move, median wave: until the last ack {ack:.3f}, until every socket is told {told:.3f}")
        return
    if not (1 <= args.tables <= 1000 and 0 <= args.sockets <= 3 and args.actions > 0 and args.repeats > 0):
        raise SystemExit("--tables 1..1000, --sockets 0..3, --actions and --repeats above 0")
    runs = []
    sizes: Counter[int] = Counter()
    for _ in range(args.repeats):
        with tempfile.TemporaryDirectory() as tmp:
            cpu, done, got = asyncio.run(_run(args.tables, args.sockets, args.actions, args.game,
                                              f"sqlite:///{tmp}/bench.db"))
        runs.append(1000 * cpu / done)
        sizes += got
    batches = sum(sizes.values())
    rows = sum(k * v for k, v in sizes.items())
    print(f"{args.game}: {args.tables} tables, {args.sockets} sockets a table, {args.actions} actions a run, "
          f"SQLite; Python {sys.version.split()[0]}")
    print(f"{'cpu ms/action (median)':>24} {'runs':>32} {'batches':>8} {'rows/batch':>10}")
    print(f"{statistics.median(runs):24.3f} {' '.join(f'{r:.3f}' for r in runs):>32} {batches:8d} "
          f"{rows / max(1, batches):10.1f}")


if __name__ == "__main__":
    main()
