"""Merchants Cove balance: heuristic bots at 4 seats, merchants dealt at random, win rate per merchant.

    python benchmarks/balance_merchants_cove.py [-n 2000] [--seats 4] [--workers 2] [--seed 1]

Each game deals the merchants to the seats at random (option ``merchants=random``) with
a random Rogue card, and every seat is the heuristic bot. A tie splits the win.
Prints, per merchant, games, win rate with a 95% Wilson interval, the fair share and the
mean final gold. This script prints numbers; it never passes or fails.
"""

from __future__ import annotations

import argparse
import math
import time
from multiprocessing import Pool

import freetrader
from freetrader.bots import decide, make_bot
from freetrader.core import Rng, derive_seed


def play(args: tuple[int, int]) -> tuple[list[str], list[float], list[int], int]:
    seats, seed = args
    game = freetrader.game("merchants-cove")
    s = game.new_state(seats, seed, {"merchants": "random"})
    bots = [make_bot("heuristic", game, derive_seed(seed, i)) for i in range(seats)]
    rng = Rng(derive_seed(seed, 99))
    while not s.is_over:
        p = s.to_act
        s.apply(decide(bots[p], s, p, rng))
    return list(s.merchant), s.scores(), s.winners(), s.action_count


def wilson(k: float, n: int, z: float = 1.96) -> tuple[float, float]:
    if n == 0:
        return 0.0, 0.0
    p = k / n
    d = 1 + z * z / n
    c = (p + z * z / (2 * n)) / d
    h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return c - h, c + h


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("-n", type=int, default=2000)
    ap.add_argument("--seats", type=int, default=4)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args()
    t0 = time.time()
    jobs = [(a.seats, derive_seed(a.seed, i)) for i in range(a.n)]
    with Pool(a.workers) as pool:
        results = pool.map(play, jobs, chunksize=10)
    wins: dict[str, float] = {}
    games: dict[str, int] = {}
    gold: dict[str, float] = {}
    lengths = []
    for merchants, scores, winners, n_actions in results:
        lengths.append(n_actions)
        for p, m in enumerate(merchants):
            games[m] = games.get(m, 0) + 1
            gold[m] = gold.get(m, 0.0) + scores[p]
            if p in winners:
                wins[m] = wins.get(m, 0.0) + 1 / len(winners)
    fair = 1 / a.seats
    print(f"Merchants Cove balance: {a.n} games, {a.seats} seats, heuristic bots, {time.time() - t0:.0f} s, "
          f"mean {sum(lengths) / len(lengths):.0f} actions a game")
    print(f"{'merchant':<14}{'games':>7}{'win rate':>10}{'95% interval':>18}{'fair':>7}{'mean gold':>11}")
    for m in sorted(games):
        lo, hi = wilson(wins.get(m, 0.0), games[m])
        rate = wins.get(m, 0.0) / games[m]
        flag = "" if abs(rate - fair) <= 0.15 else "  OUTSIDE 15 points"
        print(f"{m:<14}{games[m]:>7}{rate:>10.1%}{f'{lo:.1%} - {hi:.1%}':>18}{fair:>7.0%}{gold[m] / games[m]:>11.1f}{flag}")


if __name__ == "__main__":
    main()
