"""Cost of a draw: SplitMix64 (``Rng``) beside the keyed BLAKE2b generator (``KeyedRng``).

Prints a table of medians over several runs, measured side by side in one
process, and the cost of a whole Contraband random playout under each
generator (what a hosted game pays in practice).

    python benchmarks/bench_rng.py [--draws N] [--repeats R] [--games G]
"""

from __future__ import annotations

import argparse
import platform
import random
import statistics
import time
from collections.abc import Callable

import freetrader
from freetrader.core import KeyedRng, Rng, new_key_seed


def _per_call_ns(fn: Callable[[], object], n: int) -> float:
    t0 = time.perf_counter_ns()
    for _ in range(n):
        fn()
    return (time.perf_counter_ns() - t0) / n


def _draw_figures(draws: int, repeats: int) -> dict[str, tuple[float, float]]:
    split = Rng(12345)
    keyed = KeyedRng(bytes(range(32)))
    deck = list(range(60))
    rows: dict[str, tuple[list[float], list[float]]] = {
        "next64()": ([], []), "below(60)": ([], []), "shuffle(60 cards), per card": ([], []),
    }
    for _ in range(repeats):
        for i, rng in enumerate((split, keyed)):
            rows["next64()"][i].append(_per_call_ns(rng.next64, draws))
            rows["below(60)"][i].append(_per_call_ns(lambda r=rng: r.below(60), draws))  # type: ignore[misc]
            rows["shuffle(60 cards), per card"][i].append(
                _per_call_ns(lambda r=rng: r.shuffle(deck), max(1, draws // 60)) / 60)  # type: ignore[misc]
    return {k: (statistics.median(a), statistics.median(b)) for k, (a, b) in rows.items()}


def _playout_ms(seed: object, n_games: int) -> float:
    g = freetrader.game("contraband")
    pick = random.Random(7)
    t0 = time.perf_counter()
    for i in range(n_games):
        s = g.new_state(4, seed if isinstance(seed, str) else i)  # type: ignore[arg-type]
        while not s.is_over:
            s.apply(pick.choice(s.legal_actions()))
    return (time.perf_counter() - t0) * 1000 / n_games


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--draws", type=int, default=200_000, help="draws per timed run")
    ap.add_argument("--repeats", type=int, default=5, help="runs per figure (the median is shown)")
    ap.add_argument("--games", type=int, default=20, help="Contraband playouts per run")
    args = ap.parse_args()
    print(f"Python {platform.python_version()} on {platform.platform()}; median of {args.repeats} runs")
    print()
    print(f"{'draw':32} {'SplitMix64 ns':>14} {'BLAKE2b keyed ns':>17} {'ratio':>6}")
    for name, (a, b) in _draw_figures(args.draws, args.repeats).items():
        print(f"{name:32} {a:14.0f} {b:17.0f} {b / a:6.2f}")
    key = new_key_seed()
    split_ms = statistics.median(_playout_ms(0, args.games) for _ in range(args.repeats))
    keyed_ms = statistics.median(_playout_ms(key, args.games) for _ in range(args.repeats))
    print()
    print(f"{'whole game':32} {'SplitMix64 ms':>14} {'BLAKE2b keyed ms':>17} {'ratio':>6}")
    print(f"{'Contraband 4 seats, random play':32} {split_ms:14.2f} {keyed_ms:17.2f} {keyed_ms / split_ms:6.2f}")


if __name__ == "__main__":
    main()
