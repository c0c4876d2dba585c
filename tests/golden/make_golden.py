"""Regenerate the golden records: ``python tests/golden/make_golden.py [GAME ...]``.

Run it only when a rule change is intended, and say so in the commit: the
golden test exists to catch changes nobody meant to make.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import freetrader
from freetrader.bots import decide, make_bot
from freetrader.core import Rng, derive_seed

HERE = Path(__file__).parent
CASES = [("contraband", ["heuristic", "random", "heuristic"], 3), ("contraband", ["heuristic"] * 5, 5),
         ("contraband", ["random", "heuristic"] * 4, 8),
         ("cornish-smuggler", ["heuristic", "random", "heuristic"], 4),
         ("cornish-smuggler", ["heuristic"] * 5, 6),
         ("merchants-cove", ["heuristic", "random", "heuristic", "heuristic"], 2)]



def fingerprint(state: freetrader.State) -> str:
    return hashlib.sha256(json.dumps(state.to_json(), sort_keys=True).encode()).hexdigest()


def main() -> None:
    import sys

    wanted = set(sys.argv[1:])  # game names to regenerate; none: all
    for name, seats, seed in CASES:
        if wanted and name not in wanted:
            continue
        game = freetrader.game(name)
        state = game.new_state(len(seats), seed)
        bots = [make_bot(b, game, derive_seed(seed, i)) for i, b in enumerate(seats)]
        rngs = [Rng(derive_seed(seed, 1000 + i)) for i in range(len(seats))]
        while not state.is_over:
            p = state.to_act
            assert p is not None
            state.apply(decide(bots[p], state, p, rngs[p]))
        out = {"record": state.record(), "scores": state.scores(), "winners": state.winners(),
               "last_event": state.events[-1], "sha256": fingerprint(state)}
        path = HERE / f"{name}-{len(seats)}p-seed{seed}.json"
        path.write_text(json.dumps(out, indent=1) + "\n")
        print(path.name, state.action_count, "actions")


if __name__ == "__main__":
    main()
