"""The work of benchmarks/count_encode_instructions.sh: encode_state over fixed positions of one game.

    python benchmarks/_encode_workload.py GAME SEATS REPEATS    (REPEATS 0: the same script, no encoding)

With FREETRADER_PURE=1 the compiled encoders are hidden, so the pure-Python twins run.
"""

from __future__ import annotations

import os
import random
import sys

if os.environ.get("FREETRADER_PURE"):
    for _name in ("_contraband_fast", "_precious_cargo_fast", "_merchants_cove_fast", "_cornish_smuggler_fast"):
        sys.modules["freetrader.adapters.encoders." + _name] = None  # type: ignore[assignment]

import freetrader  # noqa: E402
from freetrader.adapters.encoders import encoder_for  # noqa: E402


def main() -> None:
    name, seats, repeats = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    game = freetrader.game(name)
    states = []
    for seed in range(2):
        state = game.new_state(seats, seed, {})
        rng = random.Random(seed)
        for _ in range(40):
            if state.is_over:
                break
            state.apply(rng.choice(state.legal_actions()))
            states.append(state.clone())
    encoder = encoder_for(game, seats)
    encoder.encode_state(states[0], 0)  # caches and imports, in both runs alike
    for _ in range(repeats):
        for state in states:
            encoder.encode_state(state, 0)
    print(len(states) * repeats)


if __name__ == "__main__":
    main()
