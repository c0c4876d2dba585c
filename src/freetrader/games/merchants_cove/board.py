"""Merchants Cove board facts and plain moves that ask no one: shared by ``rules``, ``stash`` and the Peddler.

Adventurers are indices (``components.ADV_NAMES``): colour ``c % 5``, a Faction
Leader (Secret Stash) ``5 + colour``. Nothing here pushes a frame.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from . import boats
from .actions import PIER_IDS, SLOT_IDS
from .components import COMPONENTS as C
from .components import GREY
from .merchants import gain, merchant_of

if TYPE_CHECKING:
    from .state import CoveState as S

__all__ = [
    "CORR_BY_ID", "PIER_IDS", "ROGUE_BY_ID", "SLOT_IDS", "TF_BY_ID", "customers_raw", "discard_corruption",
    "draw_adventurer", "free_slots", "hall_count", "has_rogue", "kind", "location_icon", "refill_square", "sailing_open",
    "staff_ability", "weight", "who",
]

TF_BY_ID = {t.id: t.index for t in C.townsfolk}
CORR_BY_ID = {c.id: c.index for c in C.corruption}
ROGUE_BY_ID = {r.id: r.index for r in C.rogues}
# the slots of each pier, and the first: where the 2-seater's Adventurers stand when it docks there
_SLOTS_OF = tuple(tuple(k for k, (pi, _) in enumerate(C.slots) if pi == pier) for pier in range(len(C.piers)))
_PIER_SLOT = tuple(C.slots.index(next(sl for sl in C.slots if sl[0] == pi)) for pi in range(len(C.piers)))


def location_icon(s: S) -> int:
    """The Location icon of the Peddler's current card: a Boat index (Secret Stash notes use it for halls too)."""
    return C.peddler_cards[s.pcard].boat if s.pcard >= 0 else 0


def kind(c: int) -> int:
    """The colour of an adventurer (a Faction Leader is its colour's)."""
    return c % 5


def weight(c: int) -> int:
    """Faction Leaders count as two of their colour for buying, Sponsorship and Final Scoring."""
    return 2 if c >= 5 else 1


def has_rogue(xs: list[int]) -> bool:
    return any(c % 5 == GREY for c in xs)


def who(s: S, p: int) -> str:
    return "The Peddler" if p >= s.seats else f"Seat {p}"


def draw_adventurer(s: S) -> int:
    """One adventurer drawn at random from the bag (hidden until drawn); -1 if the bag is empty."""
    total = sum(s.bag)
    if total == 0:
        return -1
    r = s.rng.below(total)
    for c in range(len(s.bag)):
        if r < s.bag[c]:
            s.bag[c] -= 1
            return c
        r -= s.bag[c]
    raise AssertionError("bag draw out of range")


def sailing_open(s: S, exclude: int = -1) -> list[int]:
    return [b for b in range(len(s.boats))
            if s.afloat[b] and s.docked[b] < 0 and len(s.boats[b]) < boats.capacity(b) and b != exclude]


def free_slots(s: S, b: int) -> list[int]:
    side = boats.side(b)
    if side < 0:  # the 2-seater: any Pier, whether or not a Boat is Docked there
        return list(_PIER_SLOT)
    return [k for k, (_, sd) in enumerate(C.slots) if sd == side and s.slot_boat[k] < 0]


def customers_raw(s: S, pier: int, colour: int) -> int:
    """Customers of ``colour`` at the pier's slots, a Faction Leader counting two (``weight``)."""
    n = 0
    adv = s.slot_adv
    for k in _SLOTS_OF[pier]:
        for c in adv[k]:
            if c % 5 == colour:  # kind(c), inline: the Market asks this for every good, pier and colour
                n += 2 if c >= 5 else 1
    return n


def hall_count(s: S, c: int) -> int:
    """Adventurers in a Faction Hall, a Doppelganger among them."""
    return s.halls[c] + s.hall_rogues[c] + s.hall_leaders[c] + s.hall_rogue_leaders[c]


def refill_square(s: S) -> None:
    while len(s.square) < C.square:
        if s.tf_deck:
            s.square.append(s.tf_deck.pop())
        elif s.tf_bottom:
            s.square.append(s.tf_bottom.pop(0))
        else:
            break


def discard_corruption(s: S, p: int, c: int) -> None:
    s.corr[p].remove(c)
    s.cdiscard.append(c)
    s._event(f"{who(s, p)} discards a Corruption card ({C.corruption[c].icons} icon)")


def staff_ability(s: S, p: int, space: int) -> None:
    """A Staff space with a Townsfolk assigned: its ability (on hiring, and at each later day's start)."""
    what, n = C.merchants[s.merchant[p]].staff[space]
    if what == "gold":
        gain(s, p, n)
        s._event(f"Staff: Seat {p} gains {n} gold")
    elif what == "discard":
        for _ in range(n):
            if s.corr[p]:
                worst = max(s.corr[p], key=lambda c: (C.corruption[c].icons, -C.corruption[c].faction))
                discard_corruption(s, p, worst)
    else:
        merchant_of(s, p).staff(s, p, n)
