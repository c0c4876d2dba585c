"""What kind of decision is pending (a leaf module: it imports nothing of the game).

The decision itself is the top frame of the state's stack (``rules.py``); its
``phase`` names the kind, for views, bots and the observation encoder, which
one-hots it (so the values stay as they are).
"""

from __future__ import annotations

from enum import IntEnum

__all__ = ["PHASES", "Phase"]


class Phase(IntEnum):
    """The kind of decision pending; shown by its name in lower case."""

    DECLARE = 0
    """The traveller holding the luggage names an article or declares (par. 3-4)."""
    SEARCH = 1
    """The Customs Officer searches the declared luggage or waves it through (par. 3-5)."""
    RECEIVE = 2
    """The next traveller accepts the waved luggage unseen, or informs against it (par. 5-6)."""
    DISCARD = 3
    """Who accepted the luggage discards one card face down and draws one (par. 5, 8)."""
    BROKE = 4
    """A payer short of money borrows the shortfall or retires (par. 7)."""
    OVER = 5
    """The game has ended (par. 10)."""


#: Phase names as views spell them, in phase order.
PHASES = tuple(p.name.lower() for p in Phase)
