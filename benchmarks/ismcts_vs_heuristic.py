"""One searching bot against the game's heuristic in every other seat: the quick strength check.

    python benchmarks/ismcts_vs_heuristic.py GAME SEATS BOT [-n 30] [--seed 7] [--workers 2] [--against heuristic]

Game ``i`` deals seed ``derive_seed(seed, i // seats)`` and puts ``BOT`` in
seat ``i % seats``, so each deal is played once from every seat. Prints the
bot's wins (a shared win counts as a fraction), its mean score margin over
the others' mean with a standard error, and seconds per game; never passes
or fails. Used while tuning IS-MCTS (docs/strength.md); the strength table
itself comes from ``freetrader tournament``.
"""

from __future__ import annotations

import argparse
import statistics
import time
from multiprocessing import Pool

from freetrader.core.rng import derive_seed
from freetrader.sim.runner import play_game

_ARGS: argparse.Namespace


def _one(i: int) -> tuple[float, float, float, int]:
    a = _ARGS
    me = i % a.seats
    specs = [a.bot if s == me else a.against for s in range(a.seats)]
    started = time.perf_counter()
    r = play_game(a.game, specs, derive_seed(a.seed, i // a.seats))
    scores = r["scores"]
    others = statistics.mean(scores[s] for s in range(a.seats) if s != me)
    win = 1.0 / len(r["winners"]) if me in r["winners"] else 0.0
    return win, scores[me] - others, time.perf_counter() - started, r["actions"]


def _init(args: argparse.Namespace) -> None:
    global _ARGS
    _ARGS = args


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("game")
    p.add_argument("seats", type=int)
    p.add_argument("bot", help='a bot spec, e.g. "ismcts:iters=300"')
    p.add_argument("-n", type=int, default=30, help="games (a multiple of SEATS is fairest)")
    p.add_argument("--seed", type=int, default=7)
    p.add_argument("--workers", type=int, default=2)
    p.add_argument("--against", default="heuristic")
    args = p.parse_args(argv)
    with Pool(args.workers, _init, (args,)) as pool:
        res = pool.map(_one, range(args.n))
    wins = sum(r[0] for r in res)
    margins = [r[1] for r in res]
    se = statistics.stdev(margins) / len(margins) ** 0.5 if len(margins) > 1 else float("nan")
    print(f"| game | seats | bot | against | games | wins | win share (fair {1 / args.seats:.0%}) "
          "| mean margin (se) | s/game |")
    print("|---|---:|---|---|---:|---:|---:|---:|---:|")
    print(f"| {args.game} | {args.seats} | `{args.bot}` | `{args.against}` | {args.n} | {wins:g} | "
          f"{wins / args.n:.1%} | {statistics.mean(margins):+.1f} ({se:.1f}) | "
          f"{statistics.mean(r[2] for r in res):.1f} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
