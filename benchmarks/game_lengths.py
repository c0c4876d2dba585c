"""Game lengths in actions (all seats' decisions), the data behind the adapters' default truncation.

    python benchmarks/game_lengths.py [--games contraband,...] [--random N] [--heuristic N] [--cap A]

For every game and seat count, at the game's default options: N games of
``random`` bots and N of the game's ``heuristic`` bot in every seat, and 10 of
two fixed-preference policies (always the first legal action; always the
last), each stopped at ``--cap`` actions. Prints the median, 99th percentile and maximum of the
finished games, how many hit the cap, and the bound the adapters use
(``freetrader.adapters.limits.default_max_actions``) beside them, so that a
bound below a measured length shows at once. Prints numbers only.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Iterator

import freetrader
from freetrader.adapters.limits import default_max_actions
from freetrader.bots import decide, make_bot
from freetrader.core import Rng


def play(name: str, seats: int, seed: int, policy: str, cap: int) -> int | None:
    """Actions in one game, or ``None`` when it reached ``cap`` unfinished."""
    g = freetrader.game(name)
    state = g.new_state(seats, seed)
    rng = Rng(seed)
    pick = random.Random(seed)
    bots = [make_bot(policy, g, seed=seed + i) for i in range(seats)] if policy in ("random", "heuristic") else []
    while not state.is_over:
        if state.action_count >= cap:
            return None
        who = state.to_act
        assert who is not None
        if policy == "first":
            state.apply(state.legal_actions()[0])
        elif policy == "last":
            state.apply(state.legal_actions()[-1])
        elif policy == "random":
            state.apply(pick.choice(state.legal_actions()))
        else:
            state.apply(decide(bots[who], state, who, rng), seat=who)
    return state.action_count


def each_game_and_seats(games: str) -> Iterator[tuple[str, int]]:
    """(game, seats) for every seat count of the comma-separated ``games`` (all registered when empty)."""
    for name in [n.strip() for n in games.split(",") if n.strip()] or freetrader.games():
        spec = freetrader.game(name).spec
        for seats in range(max(spec.min_seats, 1), spec.max_seats + 1):
            yield name, seats


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", default="")
    ap.add_argument("--random", type=int, default=200)
    ap.add_argument("--heuristic", type=int, default=30)
    ap.add_argument("--first", type=int, default=10)
    ap.add_argument("--cap", type=int, default=20_000)
    args = ap.parse_args(argv)
    print("| game | seats | policy | games | median | p99 | max | hit cap | bound |")
    print("|---|---:|---|---:|---:|---:|---:|---:|---:|")
    for name, seats in each_game_and_seats(args.games):
        bound = default_max_actions(name, seats)
        policies = (("random", args.random), ("heuristic", args.heuristic), ("first", args.first), ("last", args.first))
        for policy, count in policies:
            start = time.perf_counter()
            lengths: list[int] = []
            capped = 0
            for i in range(count):
                n = play(name, seats, 7919 * i + seats, policy, args.cap)
                if n is None:
                    capped += 1
                else:
                    lengths.append(n)
            if lengths:
                lengths.sort()
                p99 = lengths[min(len(lengths) - 1, int(0.99 * len(lengths)))]
                figures = f"{statistics.median(lengths):.0f} | {p99} | {lengths[-1]}"
            else:
                figures = "- | - | -"
            print(f"| {name} | {seats} | {policy} | {count} | {figures} | {capped} | {bound} |"
                  f"  <!-- {time.perf_counter() - start:.1f} s -->", flush=True)


if __name__ == "__main__":
    main()
