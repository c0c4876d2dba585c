"""Digests of the observations of fixed positions, to prove a refactor leaves every vector unchanged.

``python -m tests.adapters._digests > tests/adapters/data/observation_digests.json`` records them
(run once, before a change that must not change the vectors); ``test_layouts.py`` recomputes them.
"""

from __future__ import annotations

import hashlib
import json
import random

import freetrader
from freetrader.adapters.encoders import encoder_for, seat_view

GAMES = {"contraband": (3, 4, 8), "cornish-smuggler": (2, 5), "merchants-cove": (1, 2, 4), "precious-cargo": (2,)}
GAMES_PER_SEATS = 2
EVERY = 7  # actions between two observed positions


def digests(fast: bool = False) -> dict[str, str]:
    """name -> sha256 of the float32 bytes of every observed position's vector (every seat and the spectator).

    ``fast``: through ``encode_state`` (the compiled twin where built) instead of ``encode(view)``.
    """
    out: dict[str, str] = {}
    for name, seat_counts in GAMES.items():
        g = freetrader.game(name)
        for n in seat_counts:
            enc = encoder_for(g, n, encoder="game")
            h = hashlib.sha256()
            for k in range(GAMES_PER_SEATS):
                rng = random.Random(f"{name}/{n}/{k}")
                s = g.new_state(n, rng.getrandbits(63))
                steps = 0
                while True:
                    if steps % EVERY == 0 or s.is_over:
                        for seat in (*range(n), None):
                            v = enc.encode_state(s, seat) if fast else enc.encode(seat_view(s, seat))
                            h.update(v.tobytes())
                    if s.is_over or steps >= 1500:
                        break
                    s.apply(rng.choice(s.legal_actions()))
                    steps += 1
            out[f"{name}/{n}"] = h.hexdigest()
    return out


if __name__ == "__main__":
    print(json.dumps(digests(), indent=1, sort_keys=True))
