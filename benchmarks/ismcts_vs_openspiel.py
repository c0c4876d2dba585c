"""Our IS-MCTS against OpenSpiel's own Python IS-MCTS bot, the same number of iterations per move.

    python benchmarks/ismcts_vs_openspiel.py GAME [-n 100] [--iters 100] [--seats N] [--seed 7] [--workers 2]

The outside anchor for docs/strength.md: OpenSpiel's ``ISMCTSBot`` (its own
code, ``open_spiel.python.algorithms.ismcts``, random rollouts to the end,
UCT c = 2, the most visited move, ``max_simulations`` = ``--iters``) plays
the game through our OpenSpiel adapter (``freetrader.adapters.openspiel``:
its worlds come from ``resample_from_infostate``, a determinization for the
seat), in every seat but one; ``ismcts:iters=ITERS`` (defaults otherwise)
sits in the other. Game ``i`` deals from seed ``derive_seed(seed, i //
seats)`` and puts our bot in seat ``i % seats``, so each deal is played from
every seat. Both bots decide from a determinization for their seat only.

Prints a Markdown row: our bot's wins (a shared win counts as a fraction)
against the fair share, a 95% interval, the mean score margin over the
others' mean, and the seconds each bot spent per move. Never passes or fails.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import statistics
import time
from multiprocessing import Pool
from typing import Any

_ARGS: argparse.Namespace


def _one(i: int) -> dict[str, Any]:
    import numpy as np
    from open_spiel.python.algorithms import ismcts as os_ismcts
    from open_spiel.python.algorithms import mcts as os_mcts

    import freetrader
    from freetrader.adapters import openspiel as fos
    from freetrader.bots import decide, make_bot
    from freetrader.core import Rng
    from freetrader.core.rng import derive_seed

    a = _ARGS
    g = freetrader.game(a.game)
    seats = a.seats or g.spec.min_seats
    me = i % seats
    deal = derive_seed(a.seed, i // seats)
    game = fos.load_game(a.game, players=seats, seed=deal % (2**31))
    state = game.new_initial_state()
    ours = make_bot(f"ismcts:iters={a.iters}", g, derive_seed(a.seed, 10_000 + i))
    rng = Rng(derive_seed(a.seed, 20_000 + i))
    theirs = {}
    for s in range(seats):
        if s != me:
            rs = np.random.RandomState(derive_seed(a.seed, 30_000 + 100 * i + s) % (2**31))
            theirs[s] = os_ismcts.ISMCTSBot(game, os_mcts.RandomRolloutEvaluator(1, rs), uct_c=2.0,
                                            max_simulations=a.iters, random_state=rs)
    spent = {"ours": 0.0, "theirs": 0.0}
    moves = {"ours": 0, "theirs": 0}
    while not state.is_terminal():
        p = state.current_player()
        legal = state.legal_actions()
        started = time.perf_counter()
        if len(legal) == 1:
            index = legal[0]
        elif p == me:
            action = decide(ours, state.ft_state, p, rng)
            index = next(k for k, v in state._legal().items() if v == action)
        else:
            index = theirs[p].step(state)
        who = "ours" if p == me else "theirs"
        if len(legal) > 1:
            spent[who] += time.perf_counter() - started
            moves[who] += 1
        state.apply_action(index)
    ft = state.ft_state
    scores = ft.scores()
    winners = ft.winners() if ft.is_over else []
    others = statistics.mean(scores[s] for s in range(seats) if s != me)
    return {"game": i, "iters": a.iters, "win": 1.0 / len(winners) if me in winners else 0.0, "margin": scores[me] - others,
            "over": ft.is_over, "seats": seats, **{f"{k}_s": spent[k] for k in spent},
            **{f"{k}_moves": moves[k] for k in moves}}


def _wilson(p: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson interval of a share ``p`` of ``n`` games (sensible at 0%, 100% and small n)."""
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def _init(args: argparse.Namespace) -> None:
    global _ARGS
    _ARGS = args
    random.seed(0)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("game")
    p.add_argument("-n", type=int, default=100, help="games (a multiple of the seat count is fairest)")
    p.add_argument("--iters", type=int, default=100, help="iterations (simulations) per move for both bots")
    p.add_argument("--seats", type=int, default=0, help="seats (default the game's minimum)")
    p.add_argument("--seed", type=int, default=7)
    p.add_argument("--workers", type=int, default=2)
    p.add_argument("--out", metavar="FILE", help="also append each game's result to this JSON Lines file as it ends "
                                                "(a run cut short keeps the games it finished)")
    p.add_argument("--summary", action="store_true", help="play nothing: print the row for the games in --out")
    args = p.parse_args(argv)
    started = time.perf_counter()
    res: list[dict[str, Any]] = []
    if args.summary:
        with open(args.out, encoding="utf-8") as f:
            res = [json.loads(line) for line in f if line.strip()]
    else:
        with Pool(args.workers, _init, (args,)) as pool:
            for r in pool.imap_unordered(_one, range(args.n), chunksize=1):
                res.append(r)
                if args.out:
                    with open(args.out, "a", encoding="utf-8") as f:
                        f.write(json.dumps(r) + "\n")
    wall = time.perf_counter() - started
    n = len(res)
    seats = res[0]["seats"]
    wins = sum(r["win"] for r in res)
    share = wins / n
    lo, hi = _wilson(share, n)
    iters = res[0].get("iters", args.iters)
    margins = [r["margin"] for r in res]
    se = statistics.stdev(margins) / n**0.5 if n > 1 else float("nan")
    per_move = {k: sum(r[f"{k}_s"] for r in res) / max(1, sum(r[f"{k}_moves"] for r in res)) for k in ("ours", "theirs")}
    unfinished = sum(1 for r in res if not r["over"])
    print(f"| game | seats | iterations per move | games | our wins | win share (fair {1 / seats:.0%}) [95% CI] "
          "| mean margin (se) | s/move ours | s/move OpenSpiel | unfinished |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    print(f"| {args.game} | {seats} | {iters} | {n} | {wins:g} | {share:.1%} [{lo:.0%}, "
          f"{hi:.0%}] | {statistics.mean(margins):+.1f} ({se:.1f}) | {per_move['ours']:.3f} | "
          f"{per_move['theirs']:.3f} | {unfinished} |")
    if not args.summary:
        print(f"(wall {wall:.0f} s with {args.workers} workers)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
