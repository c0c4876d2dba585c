"""IS-MCTS speed: iterations per second per game and configuration, on one core.

    python benchmarks/bench_bots.py [--ms 300] [--positions 12] [--games contraband,...]
                                    [--configs "depth=20;playout=random" ...] [--json FILE]

For every registered game (seats: 4 for Contraband, else the game's minimum),
the bot decides at ``--positions`` positions taken from random playouts at
evenly spread points of the game, each with a ``--ms`` budget; the table
gives the iterations/s over all of them (total iterations / total time) and
the slowest position's rate. Prints numbers; never passes or fails.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import time
from typing import Any

from freetrader.bots.ismcts import IsmctsBot
from freetrader.core import Game, Rng, State
from freetrader.core import game as find_game
from freetrader.core import games as registered_games

DEFAULT_SEATS = {"contraband": 4}
DEFAULT_CONFIGS = (
    "",  # the bot's defaults: heuristic rollouts where the game has a heuristic
    "playout=random;depth=20",
    "playout=random;depth=0",
    "playout=heuristic;depth=20",
    "playout=random;depth=20;opponents=policy",
)


def positions(g: Game, seats: int, count: int, seed: int = 0) -> list[State]:
    """``count`` positions with a real choice, spread over random games."""
    lengths = []
    for k in range(3):
        s = g.new_state(seats, seed + k)
        rng = Rng(k)
        while not s.is_over:
            s.apply(rng.choice(s.legal_actions()))
        lengths.append(s.action_count)
    typical = sorted(lengths)[1]
    out: list[State] = []
    for i in range(count):
        s = g.new_state(seats, seed + 100 + i)
        rng = Rng(i)
        stop = typical * i // max(1, count)
        while not s.is_over and (s.action_count < stop or len(s.legal_actions()) < 2):
            s.apply(rng.choice(s.legal_actions()))
        if not s.is_over:
            out.append(s)
    return out


def measure(g: Game, states: list[State], config: str, ms: int) -> dict[str, Any]:
    params: dict[str, Any] = {"ms": ms}
    for part in config.split(";"):
        if part:
            key, _, value = part.partition("=")
            params[key] = int(value) if value.isdigit() else value
    bot = IsmctsBot(g, 0, **params)
    total_iters, total_time, slowest = 0, 0.0, float("inf")
    for s in states:
        seat = s.to_act
        assert seat is not None
        world = s.determinize(seat, Rng(1))
        started = time.perf_counter()
        bot.choose(world, seat)
        elapsed = time.perf_counter() - started
        if bot.last_iterations:
            total_iters += bot.last_iterations
            total_time += elapsed
            slowest = min(slowest, bot.last_iterations / elapsed)
    rate = total_iters / total_time if total_time else 0.0
    return {"playout": bot.playout, "config": config, "iters_per_s": rate, "slowest_per_s": slowest, "positions": len(states)}


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--ms", type=int, default=300, help="budget per decision (default 300)")
    p.add_argument("--positions", type=int, default=12)
    p.add_argument("--games", help="comma-separated game names (default: all registered)")
    p.add_argument("--seats", type=int)
    p.add_argument("--configs", nargs="*", default=list(DEFAULT_CONFIGS))
    p.add_argument("--json", metavar="FILE")
    args = p.parse_args(argv)
    names = args.games.split(",") if args.games else registered_games()
    print(f"# IS-MCTS iterations/s, one core: Python {platform.python_version()}, {platform.machine()}, "
          f"{os.cpu_count()} CPUs, {args.ms} ms per decision, {args.positions} positions per game")
    print(f"{'game':<18} {'seats':>5}  {'configuration':<44} {'it/s':>8} {'slowest':>8}")
    rows = []
    for name in names:
        g = find_game(name)
        seats = args.seats or DEFAULT_SEATS.get(g.spec.name, g.spec.min_seats)
        states = positions(g, seats, args.positions)
        for config in args.configs:
            row = measure(g, states, config, args.ms)
            row.update(game=g.spec.name, seats=seats)
            rows.append(row)
            if not config:
                label = f"default (playout={row['playout']})"
            elif "heuristic" in config and row["playout"] != "heuristic":
                label = config + " (no heuristic: random)"
            else:
                label = config
            print(f"{g.spec.name:<18} {seats:>5}  {label:<44} {row['iters_per_s']:>8,.0f} {row['slowest_per_s']:>8,.0f}")
            sys.stdout.flush()
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump(rows, f, indent=2)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
