"""Small, fast settings per game for the adapter tests (future games use their defaults)."""

from __future__ import annotations

from typing import Any

import pytest

import freetrader
from freetrader.adapters.encoders import encoder_names


def short_options(name: str) -> dict[str, Any]:
    """Short games (the game's ``short_game``): the adapters are under test here, not the rules."""
    spec = freetrader.game(name).spec
    known = {o.name for o in spec.options}
    opts = dict(spec.short_game)
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
