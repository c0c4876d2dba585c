"""Precious Cargo's phases: a leaf module (it imports nothing of the game)."""

from __future__ import annotations

from enum import IntEnum

__all__ = ["PHASES", "Phase"]


class Phase(IntEnum):
    """The decision pending; saved and shown by its name in lower case."""

    COUNTRY = 0
    """Set-up: a player chooses Koruna or Talonas."""
    FIRST = 1
    """Set-up: who plays first."""
    HOME = 2
    """Set-up: each player chooses a home settlement."""
    MOVE = 3
    """How to Play: a ship moves before or between the actions."""
    ACTIONS = 4
    """How to Play: the player takes one of the six actions (two a turn)."""
    LOADING = 5
    """Taking cargo: the player chooses the crates a ship loads."""
    SELLING = 6
    """Selling cargo: the player chooses the crates to sell."""
    OVER = 7
    """The game has ended (the first to 25 coins)."""


#: Phase names as views and saved states spell them, in phase order.
PHASES = tuple(p.name.lower() for p in Phase)
