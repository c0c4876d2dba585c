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
from .components import ADV_NAMES, GOOD_IDS
from .components import COMPONENTS as C

if TYPE_CHECKING:
    from .state import CoveState as S

__all__ = ["take_turn", "decide", "gain_goods", "sell_all", "location_icon"]


def location_icon(s: S) -> int:
    """The Location icon of the Peddler's current card: a Boat index (Secret Stash notes use it for halls too)."""
    return C.peddler_cards[s.pcard].boat if s.pcard >= 0 else 0


def take_turn(s: S) -> None:
    if not s.pdeck:
        s.pdeck, s.pdiscard = s.pdiscard, []
        s.rng.shuffle(s.pdeck)
    s.pcard = s.pdeck.pop()
    s.pdiscard.append(s.pcard)
    card = C.peddler_cards[s.pcard]
    s._event(f"The Peddler reveals {card.id}: boat {card.boat + 1}, loads {card.load}, "
             f"gains {', '.join(GOOD_IDS[g] for g in card.goods)}, {card.hours} h")
    s.tasks[0:0] = [("place",)] * card.load + [("pgoods",), ("advance", card.hours)]


def gain_goods(s: S) -> None:
    from .merchants import produce

    for g in C.peddler_cards[s.pcard].goods:
        produce(s, s.seats, g)


def decide(s: S) -> None:
    """The Peddler's small decisions, made at once: which Boat, which slot, which rival."""
    from . import rules as R

    ph = s.phase
    if ph == R.PLACE:
        options = stash.peddler_boats(s, stash.place_targets(s, R.sailing_open(s, s.sub)))
        start = location_icon(s)
        b = min(options, key=lambda x: (x - start) % len(s.boats))
        if s.pcard >= 0 and C.peddler_cards[s.pcard].arrows and boats.TWO in options:
            b = boats.TWO  # the two-arrow icon: always the Sailing 2-seater Boat
        R.place_on_boat(s, b)
    elif ph == R.DOCK:
        R.dock(s, s.sub, R.free_slots(s, s.sub)[0])
    elif ph == R.ROB:
        R.rob(s, 0, s.sub)
    elif ph == R.KRAKEN:  # not recommended for solo; the Location icon picks the Boat
        opts = stash.kraken_targets(s)
        start = location_icon(s)
        a = min(opts, key=lambda x: (int(x.a) - 1 - start) % len(s.boats))
        stash.kraken_take(s, int(a.a) - 1, ADV_NAMES.index(a.b))
    elif ph == R.HALL:  # Doppelgangers: the Location icon picks the Faction Hall
        stash.doppelganger_hall(s, location_icon(s) % 4)
    elif ph == R.ASSASSIN:  # Assassins: the Location icon picks the Townsfolk card
        stash.assassinate(s, s.square[location_icon(s) % len(s.square)])
    else:  # nothing else reaches the Peddler; never leave it stuck
        s.phase = R.RUN


def sell_all(s: S) -> None:
    from . import rules as R

    p = s.seats
    while True:
        opts = R.sale_options(s, p)
        if not opts:
            return
        g, pi, _, rog = max(opts, key=lambda o: (o[2], -o[1], o[0]))
        R.sell(s, p, g, pi, rog)
