"""How episodes end: for every game and seat count, random, first-legal and last-legal play, at the adapters' bound.

    python benchmarks/episode_ends.py [--games contraband,...] [--random N] [--fixed N]

For every game and seat count at the game's default options, ``--random``
games of uniform-random play and ``--fixed`` games each of two fixed policies
(always the first legal action; always the last), every game stopped at the
bound the adapters truncate an episode at
(``freetrader.adapters.limits.default_max_actions``). Prints, per row, how
many games finished by the rules and how many were truncated at the bound,
and the median, 90th percentile and longest finished game in actions (all
seats' decisions). Prints numbers only; the README's episode-length table is
this script's output.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from game_lengths import each_game_and_seats  # the script beside this one (benchmarks/)

import freetrader
from freetrader.adapters.limits import default_max_actions

POLICIES = ("random", "first", "last")
COLUMNS = ("game", "seats", "policy", "finished", "truncated", "median", "p90", "longest", "bound")


def play(name: str, seats: int, seed: int, policy: str, bound: int) -> int | None:
    """Actions in one game, or ``None`` when it reached ``bound`` unfinished (truncated)."""
    state = freetrader.game(name).new_state(seats, seed)
    pick = random.Random(seed)
    while not state.is_over:
        if state.action_count >= bound:
            return None
        legal = state.legal_actions()
        state.apply_unchecked(legal[0] if policy == "first" else legal[-1] if policy == "last" else pick.choice(legal))
    return state.action_count


def row(name: str, seats: int, policy: str, games: int) -> str:
    bound = default_max_actions(name, seats)
    start = time.perf_counter()
    lengths = sorted(n for n in (play(name, seats, 7919 * i + seats, policy, bound) for i in range(games))
                     if n is not None)
    truncated = games - len(lengths)
    if lengths:
        p90 = lengths[min(len(lengths) - 1, int(0.9 * len(lengths)))]
        figures = f"{statistics.median(lengths):,.0f} | {p90:,} | {lengths[-1]:,}"
    else:
        figures = "- | - | -"
    return (f"| {name} | {seats} | {policy} | {len(lengths)} | {truncated} | {figures} | {bound:,} |"
            f"  <!-- {time.perf_counter() - start:.1f} s -->")


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", default="")
    ap.add_argument("--random", type=int, default=20)
    ap.add_argument("--fixed", type=int, default=3)
    args = ap.parse_args(argv)
    print("| " + " | ".join(COLUMNS) + " |\n|---|---:|---|" + "---:|" * (len(COLUMNS) - 3))
    for name, seats in each_game_and_seats(args.games):
        for policy in POLICIES:
            print(row(name, seats, policy, args.random if policy == "random" else args.fixed), flush=True)


if __name__ == "__main__":
    main()
