"""The balance report's component test at scale: seconds per table, by games and components.

    python benchmarks/bench_effects.py [--games 1000,10000,40000] [--seats 4] [--components 60] [--repeat 3]

Synthetic win shares and 0/1 components (no replays: the replays that find the components
are the games' own cost, measured by ``bench_games.py``); each row is the median of
``--repeat`` runs of ``stats.within_game_maxt`` with the report's 999 permutations. This
script prints numbers; it never passes or fails.
"""

from __future__ import annotations

import argparse
import statistics
import time

import numpy as np

from freetrader.sim.stats import PERMUTATIONS, within_game_maxt


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", default="1000,10000,40000")
    ap.add_argument("--seats", type=int, default=4)
    ap.add_argument("--components", type=int, default=60)
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    rng = np.random.default_rng(0)
    s, k = args.seats, args.components
    print(f"{'games':>8} {'seats':>5} {'components':>10} {'permutations':>12} {'median s':>9}")
    for g in (int(x) for x in args.games.split(",")):
        y = np.zeros((g, s))
        y[np.arange(g), rng.integers(0, s, g)] = 1.0
        x = (rng.random((g, s, k)) < rng.uniform(0.01, 0.5, k)).astype(float)
        controls = np.concatenate([np.eye(s)[None].repeat(g, 0)[:, :, 1:],
                                   np.eye(s)[rng.integers(0, s, (g, s))][:, :, 1:]], axis=2)
        times = []
        for _ in range(args.repeat):
            t0 = time.perf_counter()
            within_game_maxt(y, x, controls)
            times.append(time.perf_counter() - t0)
        print(f"{g:>8} {s:>5} {k:>10} {PERMUTATIONS:>12} {statistics.median(times):>9.2f}")


if __name__ == "__main__":
    main()
