"""Contraband's phases and what follows a settlement: a leaf module (it imports nothing of the game)."""

from __future__ import annotations

from enum import IntEnum

__all__ = ["PHASES", "Phase", "Then"]


class Phase(IntEnum):
    """The decision pending; saved and shown by its name in lower case."""

    DECLARE = 0
    """The traveller holding the luggage names an article or declares (par. 3-4)."""
    SEARCH = 1
    """The Customs Officer searches the declared luggage or waves it through (par. 5)."""
    RECEIVE = 2
    """A waved traveller accepts, or informs against the declaration (par. 7)."""
    DISCARD = 3
    """The holder discards cards from the luggage face down (par. 5)."""
    BROKE = 4
    """A payer short of money borrows or sells to settle what is owed (par. 8-9)."""
    OVER = 5
    """The game has ended (par. 10)."""


class Then(IntEnum):
    """What happens once the pending payments are settled."""

    NOTHING = 0
    DUTY = 1
    """Duty was paid on a declaration: the next traveller draws."""
    SEARCH = 2
    """A search was settled: the seat in ``after_seat`` draws next."""


#: Phase names as views and saved states spell them, in phase order.
PHASES = tuple(p.name.lower() for p in Phase)
