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
    seated: list[tuple[Table, list[Conn]]] = []
    for _ in range(tables):
        table = await lobby.create(game, ["human"] * 3, LONG, None, None, "random", None)
        for seat in range(3):
            await lobby.join(table, seat, f"P{seat}")
        conns = [Conn(s, token_hash=table.seat_hashes[s]) for s in range(min(sockets, 3))]
        for conn in conns:
            table.conns.add(conn)
            lobby.welcome(table, conn)
        seated.append((table, conns))
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


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--tables", type=int, default=40)
    ap.add_argument("--sockets", type=int, default=3, help="sockets a table (0-3), one per seat")
    ap.add_argument("--actions", type=int, default=3000, help="actions a run")
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--game", default="contraband")
    args = ap.parse_args()
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
