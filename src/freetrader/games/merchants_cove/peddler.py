"""The Peddler: the solo opponent, an automaton driven by Location icons (designed).

The base box has a Peddler for solo play (SMP, TOTB) but its procedure is not
public. The Secret Stash rulebook's Peddler notes presuppose that it loads
Boats guided by Location icons, docks the Boats it fills, and takes Rogue
effects; this automaton does exactly that. It is one more timepiece on the
Clock (index ``s.seats``). On its turn it reveals the top card of its hidden
deck (``data/peddler.toml``): it draws and places ``load`` adventurers on the
Boat the card's Location icon shows (the next sailing Boat with room, counting
on from it), docks a Boat it fills at the first free slot, gains the card's
goods, and advances its timepiece. In the Market it sells every good it can,
best price first. Its gold at the end is the player's target.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from . import boats, stash
from .board import location_icon, sailing_open
from .components import COMPONENTS as C
from .components import GOOD_IDS, PeddlerCard
from .merchants import produce

if TYPE_CHECKING:
    from .state import CoveState as S

__all__ = ["best_sale", "gain_goods", "location_icon", "place_choice", "reveal"]


def reveal(s: S) -> PeddlerCard:
    """The Peddler's turn: the top card of its deck (the discards reshuffled when it runs out)."""
    if not s.pdeck:
        s.pdeck, s.pdiscard = s.pdiscard, []
        s.rng.shuffle(s.pdeck)
    s.pcard = s.pdeck.pop()
    s.pdiscard.append(s.pcard)
    card = C.peddler_cards[s.pcard]
    s._event(f"The Peddler reveals {card.id}: boat {card.boat + 1}, loads {card.load}, "
             f"gains {', '.join(GOOD_IDS[g] for g in card.goods)}, {card.hours} h")
    return card


def gain_goods(s: S) -> None:
    for g in C.peddler_cards[s.pcard].goods:
        produce(s, s.seats, g)


def place_choice(s: S, exclude: int) -> int:
    """The Boat its Location icon shows, or the next one with room; the two-arrow icon: the 2-seater."""
    options = stash.peddler_boats(s, stash.place_targets(s, sailing_open(s, exclude)))
    start = location_icon(s)
    b = min(options, key=lambda x: (x - start) % len(s.boats))
    if s.pcard >= 0 and C.peddler_cards[s.pcard].arrows and boats.TWO in options:
        b = boats.TWO  # the two-arrow icon: always the Sailing 2-seater Boat
    return b


def best_sale(options: list[tuple[int, int, int, bool]]) -> tuple[int, int, int, bool]:
    """In the Market it sells every good it can, the best price first."""
    return max(options, key=lambda o: (o[2], -o[1], o[0]))
