"""CFR on Contraband's small variant: OpenSpiel's solver, its exploitability curve, and pyspiel's serializer.

    python examples/cfr_small_contraband.py [--iterations N]

The variant (``freetrader_contraband_small``, ``adapters/openspiel.py``) is not
the printed game: three seats, a designed 6-card pack (3 duty-free cards, 2
Brandy, 1 Crown Jewels), seat 0 the officer, one declaration; the deal is an
explicit chance node (60 equally likely orders of the pack). Prints, at a few
iteration counts, the average policy's NashConv (the sum over seats of what a
best response gains) and its exploitability (NashConv / seats), then checks
that ``pyspiel.serialize_game_and_state`` round-trips a state. Prints numbers
only; docs/tutorials/rl.md quotes a run.
"""

from __future__ import annotations

import argparse
import time

import pyspiel
from open_spiel.python.algorithms import cfr, exploitability

from freetrader.adapters import openspiel as fos


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--iterations", type=int, default=64)
    args = ap.parse_args(argv)
    game = fos.load_small_contraband()
    start = time.perf_counter()
    solver = cfr.CFRSolver(game)
    print(f"{game}: {game.max_chance_outcomes()} chance outcomes, {game.num_players()} seats")
    print("| CFR iterations | NashConv | exploitability | seconds |")
    print("|---:|---:|---:|---:|")
    marks = {1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024, args.iterations}
    for i in range(1, args.iterations + 1):
        solver.evaluate_and_update_policy()
        if i in marks:
            conv = exploitability.nash_conv(game, solver.average_policy())
            print(f"| {i} | {conv:.4f} | {conv / game.num_players():.4f} | {time.perf_counter() - start:.0f} |",
                  flush=True)
    state = game.new_initial_state()
    for action in (7, 0):  # a deal, then seat 1 declares nothing
        state.apply_action(action)
    text = pyspiel.serialize_game_and_state(game, state)
    again = pyspiel.deserialize_game_and_state(text)[1]
    print(f"serialize_game_and_state round trip: {str(again) == str(state)} ({len(text)} characters)")


if __name__ == "__main__":
    main()
