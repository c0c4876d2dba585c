"""Commit times of the server's SQLite store, with the log checkpointed by commits or by its own thread.

    python benchmarks/bench_commits.py [--batches 6000] [--tables 200] [--rounds 3]

Appends batches of three moves (as a burst of the table server commits them) to a served SQLite
store, once as SQLite checkpoints by itself (a commit that fills the write-ahead log to 1,000 pages
copies it into the database file and syncs that) and once with ``Store.lock_sqlite``'s
checkpointer thread (the server's way since issue 35). Printed: each commit's wall time, p50, p99,
p99.9 and max, and how many took over 5 ms. The two ways alternate, round by round, on fresh files.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from loop_probe import _pct  # noqa: E402 - beside this file

from freetrader.server.storage import LogRow, Store, TableRow  # noqa: E402


def _run(folder: str, checkpointer: bool, batches: int, tables: int) -> list[float]:
    store = Store(f"sqlite:///{folder}/{'thread' if checkpointer else 'commit'}-{time.monotonic_ns()}.db")
    store.create_schema()
    if checkpointer:
        store.lock_sqlite()
    try:
        for t in range(tables):
            store.create_table(TableRow(id=f"t{t}", game="contraband-v1", options={}, seats=["human"] * 3,
                                        seed=t, settings={}, status="playing", created=time.time()), [])
        seqs = [0] * tables
        times = []
        text = "declare 3 brandy " + "x" * 60  # about a move's notation and more
        for b in range(batches):
            batch = []
            for k in range(3):
                t = (b * 3 + k) % tables
                batch.append((f"t{t}", LogRow(seq=seqs[t], kind="action", text=text, seat=k, origin="human"),
                              None, None))
                seqs[t] += 1
            began = time.perf_counter()
            errors = store.append_logs(batch)
            times.append(time.perf_counter() - began)
            assert not any(errors), errors
        return times
    finally:
        store.close()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--batches", type=int, default=6000)
    ap.add_argument("--tables", type=int, default=200)
    ap.add_argument("--rounds", type=int, default=3)
    args = ap.parse_args()
    rows: dict[bool, list[list[float]]] = {False: [], True: []}
    with tempfile.TemporaryDirectory(prefix="ft-commits-") as folder:
        for _ in range(args.rounds):
            for checkpointer in (False, True):
                rows[checkpointer].append(_run(folder, checkpointer, args.batches, args.tables))
    print(f"{args.batches} batches of 3 appends a round, {args.rounds} rounds; medians over rounds, ms; "
          f"load {os.getloadavg()[0]:.1f}")
    print("| checkpoints by | p50 | p99 | p99.9 | max | commits over 5 ms |")
    print("|---|---|---|---|---|---|")
    for checkpointer, runs in rows.items():
        def med(p: float, runs: list[list[float]] = runs) -> float:
            return statistics.median(_pct(r, p) for r in runs) * 1e3
        over = statistics.median(sum(x > 0.005 for x in r) for r in runs)
        print(f"| {'its own thread' if checkpointer else 'the commits'} | {med(50):.2f} | {med(99):.2f} | "
              f"{med(99.9):.2f} | {med(100):.1f} | {over:g} |")


if __name__ == "__main__":
    main()
