"""Small, fast settings per game for the adapter tests (future games use their defaults)."""

from __future__ import annotations

from typing import Any

import pytest

import freetrader
from freetrader.adapters.encoders import encoder_names

# Short games: the adapters are under test here, not the rules.
SHORT: dict[str, dict[str, Any]] = {
    "contraband": {"end": "turns", "turn_limit": 8},
    "cornish-smuggler": {"turn_limit": 3},
    "precious-cargo": {"target": 5, "turn_limit": 30},
}


def short_options(name: str) -> dict[str, Any]:
    """The short settings the game accepts (an option it lacks is left out)."""
    spec = freetrader.game(name).spec
    known = {o.name for o in spec.options}
    opts = {k: v for k, v in SHORT.get(name, {}).items() if k in known}
    if not opts and "turn_limit" in known:
        o = spec.option("turn_limit")
        opts["turn_limit"] = max(o.minimum or 1, 5)
    return opts


def small_seats(name: str) -> int:
    spec = freetrader.game(name).spec
    return max(spec.min_seats, min(2, spec.max_seats))


GAMES = freetrader.games()
# Games with their own encoder (not the generic one): found, not listed, so a new encoder is tested at once.
DEDICATED = tuple(encoder_names())


@pytest.fixture(params=GAMES)
def game_name(request: pytest.FixtureRequest) -> str:
    return str(request.param)
