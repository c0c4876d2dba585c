"""Write the Precious Cargo golden record: ``python tests/games/precious_cargo/make_pc_golden.py``.

Same format as ``tests/golden/make_golden.py`` (replayed by ``tests/golden/test_golden.py``).
Run it only when a rule change is intended, and say so in the commit.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from freetrader.bots import decide, make_bot
from freetrader.core import Rng, derive_seed
from freetrader.games.precious_cargo import GAME

OUT = Path(__file__).resolve().parents[2] / "golden"
CASES = [(["heuristic", "random"], 7), (["heuristic", "heuristic"], 11)]


def main() -> None:
    for seats, seed in CASES:
        state = GAME.new_state(2, seed)
        bots = [make_bot(b, GAME, derive_seed(seed, i)) for i, b in enumerate(seats)]
        rngs = [Rng(derive_seed(seed, 1000 + i)) for i in range(2)]
        while not state.is_over:
            p = state.to_act
            assert p is not None
            state.apply(decide(bots[p], state, p, rngs[p]))
        out = {"record": state.record(), "scores": state.scores(), "winners": state.winners(),
               "last_event": state.events[-1],
               "sha256": hashlib.sha256(json.dumps(state.to_json(), sort_keys=True).encode()).hexdigest()}
        path = OUT / f"precious-cargo-{'-'.join(seats)}-seed{seed}.json"
        path.write_text(json.dumps(out, indent=1) + "\n")
        print(path.name, state.action_count, "actions")


if __name__ == "__main__":
    main()
