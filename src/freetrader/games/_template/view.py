"""What one seat may see, and determinization for that seat.

A seat sees the chips, the pot, every decision so far, the deck size and its
own card; at the showdown the stakers' cards are shown to everyone. Folded
cards, and the cards of stakers who left the showdown, are never shown.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from freetrader.core import Rng
from freetrader.core.results import Part, Results
from freetrader.core.results import results as make_results

from .phases import BETTING, OVER

if TYPE_CHECKING:
    from .state import HighCardState as S


def sees_card(s: S, seat: int | None, owner: int) -> bool:
    return owner == seat or (not s.frames and s.staked[owner])


def view(s: S, seat: int | None) -> dict[str, Any]:
    n = s.seats
    return {
        "phase": BETTING if s.frames else OVER,
        "stake": s.options["stake"],
        "chips": s.chips[:],
        "pot": s.pot,
        "deck": len(s.deck),
        "decisions": [d or None for d in s.decision],
        "cards": [s.hands[i] if sees_card(s, seat, i) else None for i in range(n)],
    }


def determinize(s: S, seat: int, seed: int) -> None:
    """Shuffle every card ``seat`` cannot see (deck and hidden hands) and deal them back."""
    hidden = [i for i in range(s.seats) if not sees_card(s, seat, i)]
    pool = s.deck + [s.hands[i] for i in hidden]
    Rng(seed).shuffle(pool)
    for i in hidden:
        s.hands[i] = pool.pop()
    s.deck = pool


def results(s: S) -> Results:
    """Chips in hand plus the pot's share won: the two parts of each seat's score."""
    parts: list[list[Part]] = []
    for p in range(s.seats):
        share = s.pot / len(s.pot_winners) if p in s.pot_winners else 0.0
        parts.append([{"label": "Chips in hand", "value": float(s.chips[p])},
                      {"label": "Share of the pot", "value": float(share)}])
    return make_results("Chips", "tied players share the pot", "one hand", s.scores(), s.winners(), parts)
