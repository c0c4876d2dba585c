"""One searching bot against the game's heuristic in every other seat: the quick strength check.

    python benchmarks/ismcts_vs_heuristic.py GAME SEATS BOT [-n 30] [--seed 7] [--workers 2] [--against heuristic]
        [--out FILE] [--summary]

Game ``i`` deals seed ``derive_seed(seed, i // seats)`` and puts ``BOT`` in
seat ``i % seats``, so each deal is played once from every seat. Prints the
bot's wins (a shared win counts as a fraction) with a 95% Wilson interval,
its mean score margin over the others' mean with a standard error, and
seconds per game; never passes or fails. With ``--out`` each game's result
is appended to a JSON Lines file as it ends, and a rerun with the same file
plays only the games not in it (a run cut short keeps what it finished);
``--summary`` prints the row of the games in the file. Used while tuning
IS-MCTS (docs/strength.md); the strength table itself comes from
``freetrader tournament``.
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import time
from multiprocessing import Pool
from typing import Any

from freetrader.core.rng import derive_seed
from freetrader.sim.runner import play_game

_ARGS: argparse.Namespace


def _one(i: int) -> dict[str, Any]:
    a = _ARGS
    me = i % a.seats
    specs = [a.bot if s == me else a.against for s in range(a.seats)]
    started = time.perf_counter()
    r = play_game(a.game, specs, derive_seed(a.seed, i // a.seats))
    scores = r["scores"]
    others = statistics.mean(scores[s] for s in range(a.seats) if s != me)
    win = 1.0 / len(r["winners"]) if me in r["winners"] else 0.0
    return {"name": a.game, "game": i, "seat": me, "bot": a.bot, "against": a.against, "seats": a.seats, "win": win,
            "margin": scores[me] - others, "s": time.perf_counter() - started, "actions": r["actions"],
            "cut": bool(r.get("cut", False))}


def wilson(share: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson interval of a share of ``n`` games (sensible at 0%, 100% and small n)."""
    centre = (share + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(share * (1 - share) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def _init(args: argparse.Namespace) -> None:
    global _ARGS
    _ARGS = args


def _read(path: str) -> list[dict[str, Any]]:
    try:
        with open(path, encoding="utf-8") as f:
            return [json.loads(line) for line in f if line.strip()]
    except FileNotFoundError:
        return []


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("game")
    p.add_argument("seats", type=int)
    p.add_argument("bot", help='a bot spec, e.g. "ismcts:iters=300"')
    p.add_argument("-n", type=int, default=30, help="games (a multiple of SEATS is fairest)")
    p.add_argument("--seed", type=int, default=7)
    p.add_argument("--workers", type=int, default=2)
    p.add_argument("--against", default="heuristic")
    p.add_argument("--out", metavar="FILE", help="append each game's result to this JSON Lines file as it ends; "
                                                "a rerun plays only the games missing from it")
    p.add_argument("--summary", action="store_true", help="play nothing: print the row for the games in --out")
    args = p.parse_args(argv)
    if args.summary and not args.out:
        p.error("--summary reads the games of --out FILE; give --out")
    res = _read(args.out) if args.out else []
    for r in res:
        if (r["name"], r["bot"], r["against"], r["seats"]) != (args.game, args.bot, args.against, args.seats):
            p.error(f"{args.out} holds {r['name']} games of {r['bot']!r} against {r['against']!r} at "
                    f"{r['seats']} seats; use another --out for this run")
    if not args.summary:
        done = {r["game"] for r in res}
        todo = [i for i in range(args.n) if i not in done]
        with Pool(args.workers, _init, (args,)) as pool:
            for r in pool.imap(_one, todo):
                res.append(r)
                if args.out:
                    with open(args.out, "a", encoding="utf-8") as f:
                        f.write(json.dumps(r) + "\n")
    n = len(res)
    if not n:
        print("no games")
        return 0
    wins = sum(r["win"] for r in res)
    lo, hi = wilson(wins / n, n)
    margins = [r["margin"] for r in res]
    se = statistics.stdev(margins) / n**0.5 if n > 1 else float("nan")
    cut = sum(r.get("cut", False) for r in res)
    print(f"| game | seats | bot | against | games | wins | win share (fair {1 / args.seats:.0%}) [95% Wilson] "
          "| mean margin (se) | s/game | cut |")
    print("|---|---:|---|---|---:|---:|---:|---:|---:|---:|")
    print(f"| {args.game} | {args.seats} | `{args.bot}` | `{args.against}` | {n} | {wins:g} | "
          f"{wins / n:.1%} [{lo:.1%}, {hi:.1%}] | {statistics.mean(margins):+.1f} ({se:.1f}) | "
          f"{statistics.mean(r['s'] for r in res):.1f} | {cut} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
