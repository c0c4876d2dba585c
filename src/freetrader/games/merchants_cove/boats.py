"""Secret Stash Boats: the 2-seater, the two 5-seaters, and the Boat Setup cards.

Boats 1-6 are the base 4-seaters; with the new Boats in the game Boat 7 is the 2-seater (below Dragon
Island, no side: it docks at any Pier, occupied or not, fills no Pier space, and its Adventurers join
the Pier's), Boats 8 and 9 the 5-seaters (one a side, between the 4-seaters). Which Boats sail each
day: the ``boats`` option, or with Boat Setup cards the card revealed at that day's Arrival.
Numbers: ``data/stash.toml`` ``[new_boats]``, ``[boat_setup_rules]``, ``[[boat_setup]]``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from freetrader.core import BadOption

from .components import COMPONENTS as C

if TYPE_CHECKING:
    from .state import CoveState as S

NB: dict[str, int] = {k: v for k, v in C.stash["new_boats"].items() if type(v) is int}  # the numbers
TWO = C.boat_count  # index of the 2-seater
FIVES = (C.boat_count + 1, C.boat_count + 2)  # left, right
ALL = C.boat_count + 3
MODES = {"base": (False, False), "2-seater": (True, False), "5-seaters": (False, True), "both": (True, True)}


def in_game(s: S) -> bool:
    return s.options["boats"] != "base" or bool(s.options["boat_setup"])


def setup(s: S) -> None:
    """The Boats on the board; with Boat Setup cards, 3 of the 8 face down form the Boat deck."""
    if s.options["boats"] not in MODES:
        raise BadOption(f"option boats={s.options['boats']!r}: choose one of {', '.join(MODES)}")
    n = ALL if in_game(s) else C.boat_count
    s.boats = [[] for _ in range(n)]
    s.docked = [-1] * n
    s.bdeck = []
    s.bcard = -1
    if s.options["boat_setup"]:
        cards = [c.index for c in C.boat_setups]
        s.rng.shuffle(cards)
        s.bdeck = cards[: C.stash["boat_setup_rules"]["drawn"]]
    set_afloat(s, *MODES[s.options["boats"]], four=tuple(range(C.boat_count)))


def set_afloat(s: S, two: bool, five: bool, four: tuple[int, ...]) -> None:
    s.afloat = [1 if b in four else 0 for b in range(C.boat_count)]
    if len(s.boats) > C.boat_count:
        s.afloat += [int(two), int(five), int(five)]


def reveal(s: S) -> None:
    """Arrival: before placing Adventurers, reveal the top Boat Setup card and set the Boats up as shown."""
    if not s.bdeck:
        return
    s.bcard = s.bdeck.pop(0)
    card = C.boat_setups[s.bcard]
    set_afloat(s, card.two, card.five, card.four)
    s._event(f"Boat Setup card {card.id}: 4-seaters {', '.join(str(b + 1) for b in card.four)}"
             + (", the 2-seater" if card.two else "") + (", the 5-seaters" if card.five else ""))


def capacity(b: int) -> int:
    if b == TWO:
        return NB["two_capacity"]
    if b in FIVES:
        return NB["five_capacity"]
    return C.capacity


def side(b: int) -> int:
    """0 left, 1 right, -1 the 2-seater (any Pier)."""
    if b == TWO:
        return -1
    if b in FIVES:
        return FIVES.index(b)
    return C.boat_side[b]


def arrival_count(s: S, b: int) -> int:
    """4-seaters as the base game; none in the 2-seater; 5-seaters 3 with the 2-seater, else 2 (or the variant)."""
    if not s.afloat[b]:
        return 0
    if b == TWO:
        return NB["two_arrival"]
    if b in FIVES:
        two = s.afloat[TWO] and not s.options["five_seaters_two"]
        return NB["five_arrival_with_two"] if two else NB["five_arrival_without_two"]
    return C.arrival


def two_seater_open(s: S) -> bool:
    return len(s.boats) > TWO and bool(s.afloat[TWO]) and s.docked[TWO] < 0 and len(s.boats[TWO]) < capacity(TWO)
