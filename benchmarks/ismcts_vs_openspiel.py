"""Our IS-MCTS against OpenSpiel's own Python IS-MCTS bot, the same number of iterations per move.

    python -O benchmarks/ismcts_vs_openspiel.py GAME [-n 100] [--iters 100] [--seats N] [--seed 7] [--workers 2]
        [--out FILE] [--summary] [--check N] [--openspiel-rollouts]

The outside anchor for docs/strength.md: OpenSpiel's ``ISMCTSBot`` (its own
code, ``open_spiel.python.algorithms.ismcts``, random rollouts to the end,
UCT c = 2, the most visited move, ``max_simulations`` = ``--iters``) plays
the game through our OpenSpiel adapter (``freetrader.adapters.openspiel``:
its worlds come from ``resample_from_infostate``, a determinization for the
seat), in every seat but one; ``ismcts:iters=ITERS`` (defaults otherwise)
sits in the other. Game ``i`` deals from seed ``derive_seed(seed, i //
seats)`` and puts our bot in seat ``i % seats``, so each deal is played from
every seat. Both bots decide from a determinization for their seat only.

OpenSpiel's bot gets its random rollouts from ``_rollouts``: OpenSpiel's
``RandomRolloutEvaluator`` played on our state without the pyspiel round
trip of every step, the same rollouts random number for random number
(``--check N`` searches N positions both ways and compares the root visits
and returns; ``--openspiel-rollouts`` plays with OpenSpiel's evaluator
itself). Running under ``python -O`` skips OpenSpiel's per-simulation
``assert`` that recomputes the root's information-state string; no result
changes.

Prints a Markdown row: our bot's wins (a shared win counts as a fraction)
against the fair share, a 95% interval, the mean score margin over the
others' mean, and the seconds each bot spent per move. Never passes or fails.
With ``--out`` each game is appended as it ends and a rerun plays only the
missing games; ``--summary`` prints the row of the games in the file.
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


def _rollouts(rs: Any) -> Any:
    """OpenSpiel's ``RandomRolloutEvaluator`` (one rollout), played on our state directly.

    The same rollout, random number for random number: OpenSpiel's evaluator draws
    ``rs.choice(state.legal_actions())`` (the sorted encoder indices) until ``is_terminal()``
    (over, or ``max_game_length`` actions) and returns ``state.returns()``; this one draws
    ``rs.randint(len(legal))`` into the same sorted list (the same number: numpy's uniform
    ``choice`` is that ``randint``) and reads the returns of the same position. It skips the
    pyspiel round trip of every step (a C++ call into Python for the legal actions, the
    action, the player to act and the test for the end), most of a rollout's cost.
    ``--check`` plays moves both ways and compares them.
    """
    from open_spiel.python.algorithms import mcts as os_mcts

    from freetrader.adapters import openspiel as fos

    class Rollouts(os_mcts.RandomRolloutEvaluator):  # type: ignore[misc]
        def evaluate(self, state: Any) -> Any:
            import numpy as np

            game = state._pos.game
            encoder, limit, draw = game.encoder, game.max_length, self._random_state.randint
            s = state.ft_state.clone()
            while s.to_act is not None and s.action_count < limit:
                legal = s.legal_actions()
                order = sorted(zip(encoder.legal_indices(legal), range(len(legal)), strict=True))
                s.apply_unchecked(legal[order[draw(len(order))][1]])
            return np.array(fos.FreetraderSpielState(game, fos._Position(game, s)).returns())

    return Rollouts(1, rs)


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
            evaluator = os_mcts.RandomRolloutEvaluator(1, rs) if a.openspiel_rollouts else _rollouts(rs)
            theirs[s] = os_ismcts.ISMCTSBot(game, evaluator, uct_c=2.0,
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


def _check(a: argparse.Namespace) -> int:
    """Search ``a.check`` positions of a game with both evaluators from the same random state; 1 if any differ."""
    import numpy as np
    from open_spiel.python.algorithms import ismcts as os_ismcts
    from open_spiel.python.algorithms import mcts as os_mcts

    import freetrader
    from freetrader.adapters import openspiel as fos

    seats = a.seats or freetrader.game(a.game).spec.min_seats
    state = fos.load_game(a.game, players=seats, seed=a.seed).new_initial_state()
    game = state.get_game()
    checked = differ = 0
    while checked < a.check and not state.is_terminal():
        if len(state.legal_actions()) > 1:
            policies = []
            worlds = game.rng_state()  # both searches resample the same worlds
            for kind in ("openspiel", "ours"):
                game.set_rng_state(worlds)
                rs = np.random.RandomState(checked)
                evaluator = os_mcts.RandomRolloutEvaluator(1, rs) if kind == "openspiel" else _rollouts(rs)
                bot = os_ismcts.ISMCTSBot(game, evaluator, uct_c=2.0, max_simulations=a.iters, random_state=rs)
                started = time.perf_counter()
                policies.append((bot.run_search(state), {k: (c.visits, c.return_sum) for k, c in
                                                         bot._root_node.child_info.items()},
                                 time.perf_counter() - started))
            same = policies[0][:2] == policies[1][:2]
            differ += not same
            checked += 1
            print(f"position {checked}: {'same' if same else 'DIFFERENT'} root visits and returns "
                  f"({policies[0][2]:.2f} s OpenSpiel's evaluator, {policies[1][2]:.2f} s ours)")
        state.apply_action(state.legal_actions()[0])
    return 1 if differ else 0


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
                                                "(a run cut short keeps the games it finished; a rerun plays only "
                                                "the games missing from it)")
    p.add_argument("--summary", action="store_true", help="play nothing: print the row for the games in --out")
    p.add_argument("--openspiel-rollouts", action="store_true",
                   help="give OpenSpiel's bot its own RandomRolloutEvaluator (the same rollouts, slower)")
    p.add_argument("--check", type=int, default=0, metavar="N",
                   help="play nothing: search N positions with both evaluators and compare (exit 1 if they differ)")
    args = p.parse_args(argv)
    if args.check:
        return _check(args)
    started = time.perf_counter()
    res: list[dict[str, Any]] = []
    if args.summary and not args.out:
        p.error("--summary reads the games of --out FILE; give --out")
    if args.out:
        try:
            with open(args.out, encoding="utf-8") as f:
                res = [json.loads(line) for line in f if line.strip()]
        except FileNotFoundError:
            pass
        for r in res:
            if not args.summary and r["iters"] != args.iters:
                p.error(f"{args.out} holds games at --iters {r['iters']}; use another --out for --iters {args.iters}")
    if not args.summary:
        done = {r["game"] for r in res}
        todo = [i for i in range(args.n) if i not in done]
        with Pool(args.workers, _init, (args,)) as pool:
            for r in pool.imap_unordered(_one, todo, chunksize=1):
                res.append(r)
                if args.out:
                    with open(args.out, "a", encoding="utf-8") as f:
                        f.write(json.dumps(r) + "\n")
    wall = time.perf_counter() - started
    n = len(res)
    if not n:
        print("no games")
        return 0
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
