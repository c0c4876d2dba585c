"""The replay review at the server's default settings: seconds per game and per decision, and agreement.

    nice python benchmarks/bench_review.py [--games contraband,...] [--seed 1] [--workers 1,2]

For every game: one seeded game of the game's heuristic in every seat (3 seats, or the most the game takes), reviewed with
``review_record`` at the defaults (``DEFAULT_WORLDS`` worlds per decision), once per worker count;
then reviewed again with another review seed. Prints decisions, seconds per game and per decision,
seconds scaled to a 200-decision game, the median absolute difference of the win-chance line
(``before.win``) and of the played move's win chance between the two seeds, and how many moves
each review flagged. Prints numbers only.
"""

from __future__ import annotations

import argparse
import statistics
import time

import freetrader
from freetrader.bots.review import DEFAULT_WORLDS, review_record
from freetrader.sim import play_game

GAMES = ("cornish-smuggler", "precious-cargo", "contraband", "merchants-cove")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", default=",".join(GAMES))
    ap.add_argument("--seed", type=int, default=1, help="the played game's seed")
    ap.add_argument("--workers", default="1,2", help="worker counts to time, comma-separated")
    ap.add_argument("--worlds", type=int, default=DEFAULT_WORLDS)
    args = ap.parse_args()
    print(f"worlds per decision: {args.worlds}")
    print(f"{'game':18} {'wrk':>3} {'decisions':>9} {'s/game':>7} {'ms/dec':>7} {'s/200dec':>8} "
          f"{'mad line':>8} {'mad played':>10} {'flagged a/b':>11}")
    for name in args.games.split(","):
        seats = min(3, freetrader.game(name).spec.max_seats)
        record = play_game(name, ["heuristic"] * seats, args.seed)["record"]
        runs = []
        for workers in [int(w) for w in args.workers.split(",")]:
            start = time.perf_counter()
            a = review_record(record, iters=args.worlds, seed=0, workers=workers)
            took = time.perf_counter() - start
            runs.append((workers, took, a))
        b = review_record(record, iters=args.worlds, seed=1, workers=max(w for w, _, _ in runs))
        a = runs[0][2]
        n = len(a.decisions)
        line = statistics.median(abs(x.before.win - y.before.win) for x, y in zip(a.decisions, b.decisions, strict=True))
        played = statistics.median(abs(x.after_played.win - y.after_played.win)
                                   for x, y in zip(a.decisions, b.decisions, strict=True))
        for workers, took, _ in runs:
            print(f"{name:18} {workers:>3} {n:>9} {took:>7.2f} {1000 * took / max(n, 1):>7.1f} "
                  f"{200 * took / max(n, 1):>8.2f} {line:>8.3f} {played:>10.3f} "
                  f"{len(a.flagged()):>5}/{len(b.flagged()):<5}")


if __name__ == "__main__":
    main()
