"""``scripts/cornish_homes.py`` counts what each home's player did, from the game's own events."""

from __future__ import annotations

import re
from pathlib import Path
from types import ModuleType

import freetrader
from freetrader.bots import decide, make_bot
from freetrader.core import Rng, derive_seed

ROOT = Path(__file__).resolve().parents[3]


def _script() -> ModuleType:
    from cornish_scenario import script

    return script("cornish_homes")


def test_every_game_seat_win_purchase_and_sale_is_counted_once() -> None:
    seats, n = 3, 2
    counts = _script().tally(seats, n, 31, ["heuristic"])
    buys = sells = 0
    for i in range(n):  # the same games, played again here
        game_seed = derive_seed(31, i)
        s = freetrader.game("cornish-smuggler").new_state(seats, game_seed, {"first_player": i % seats})
        bots = [make_bot("heuristic", s.game, derive_seed(game_seed, p)) for p in range(seats)]
        rngs = [Rng(derive_seed(game_seed, 1000 + p)) for p in range(seats)]
        while not s.is_over:
            s.apply(decide(bots[s.to_act], s, s.to_act, rngs[s.to_act]))
        buys += sum(bool(re.match(r"Seat \d+ buys g", e)) for e in s.events)
        sells += sum(bool(re.match(r"Seat \d+ sells g", e)) for e in s.events)
    assert sum(c["games"] for c in counts.values()) == seats * n
    assert sum(c["wins_x60"] for c in counts.values()) == 60 * n
    assert sum(v for c in counts.values() for k, v in c.items() if k.startswith("buy@")) == buys > 0
    assert sum(v for c in counts.values() for k, v in c.items() if k.startswith("sell@")) == sells > 0
    assert all(line.split()[0] in counts for line in _script().report(counts).splitlines())
