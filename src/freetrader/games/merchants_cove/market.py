"""The Market and final scoring: sales to the customers at the piers, sponsorship, icons and Corruption (RULES.md).

The Market's order and its ``MarketTurn`` are the day's (``rules``); a seat's
sales are the ``Selling`` decision here, the Peddler's are made at once.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from freetrader.core import Action
from freetrader.core.frames import finish

from . import challenges, peddler, stash
from .actions import (
    DONE,
    SELLS,
    Sell,
)
from .board import (
    PIER_IDS,
    customers_raw,
    hall_count,
    who,
)
from .components import COLOURS, GOOD_IDS, GREY, N_GOODS
from .components import COMPONENTS as C
from .flow import Decision
from .merchants import draw_corruption, gain, pay
from .phases import Phase, Stage

if TYPE_CHECKING:
    from .state import CoveState as S

@dataclass(frozen=True, slots=True)
class Selling(Decision):
    phase = Phase.SELL

    def legal(self, s: S) -> tuple[Action, ...]:
        return (*legal_sales(s, s.actor), DONE)

    def prompt(self, s: S) -> str:
        return "sell a good at a pier, or done"

    def apply(self, s: S, action: Action) -> None:
        p = s.actor
        if isinstance(action, Sell):
            sell(s, p, action.good, action.pier, action.rogues)
            if legal_sales(s, p):
                return
        s.order.pop(0)
        finish(s, self)


def peddler_sells(s: S) -> None:
    p = s.seats
    while True:
        opts = sale_options(s, p)
        if not opts:
            return
        g, pi, _, rog = peddler.best_sale(opts)
        sell(s, p, g, pi, rog)


def customers(s: S, pier: int, colour: int) -> int:
    return stash.charlatans(s, pier, colour, customers_raw(s, pier, colour))


def sale_options(s: S, p: int) -> list[tuple[int, int, int, bool]]:
    """(good, pier, price, to_rogues) for every sale open to ``p``: a good to matching customers on a
    pier that takes its size, price = value x matching customers (MRBG, RAND); each group of customers
    buys one good from each merchant (designed). Cultists: Rogues buy any colour (RAND, MARTA)."""
    out: list[tuple[int, int, int, bool]] = []
    cultists = stash.active(s, "buy-anything")
    bit = 1 << p
    for g in range(N_GOODS):
        if s.shelf[p][g] <= 0:
            continue
        colour, size = divmod(g, 2)
        for pi, pier in enumerate(C.piers):
            if size not in pier.sizes and colour != GREY:
                continue
            n = customers(s, pi, colour)
            if n and not s.bought[pi * 5 + colour] & bit:
                out.append((g, pi, C.values[g] * n, False))
            if cultists and colour != GREY:
                r = customers(s, pi, GREY)
                if r and not s.bought[pi * 5 + GREY] & bit:
                    out.append((g, pi, C.values[g] * r, True))
    return out


def legal_sales(s: S, p: int) -> list[Action]:
    return [SELLS[g][pi][rog] for g, pi, _, rog in sale_options(s, p)]


def sell(s: S, p: int, g: int, pi: int, rogues: bool) -> None:
    colour = GREY if rogues else g // 2
    n = customers(s, pi, colour)
    price = C.values[g] * n
    s.shelf[p][g] -= 1
    if g == stash.GREY_GOOD:  # Grey Rogue Goods return to the supply near the main board
        s.grey += 1
    else:
        s.supply[p][g] += 1  # sold goods return to the merchant's supply
    s.bought[pi * 5 + colour] |= 1 << p
    gain(s, p, price)
    s._event(f"{who(s, p)} sells {GOOD_IDS[g]} to {n} {COLOURS[colour]} at {PIER_IDS[pi]} for {price} gold")
    corrupt = C.piers[pi].corruption + (1 if rogues else 0)
    if corrupt:
        draw_corruption(s, p, corrupt)


@dataclass(frozen=True, slots=True)
class FinalPay(Decision):
    """Pay off Corruption cards (the ``pay`` actions offered at every decision), or done: final scoring."""

    phase = Phase.DISCARD  # a Corruption card discarded by its cost; the phase list is fixed (the encoders')

    def legal(self, s: S) -> list[Action]:
        return [DONE]

    def prompt(self, s: S) -> str:
        return "before final scoring: pay off a Corruption card by the cost shown on it, or done"

    def apply(self, s: S, action: Action) -> None:
        finish(s, self)


# == final scoring =========================================================================
def corruption_icons(s: S, p: int) -> int:
    icons = sum(C.corruption[c].icons for c in s.corr[p])
    if p < s.seats:
        rogue_icons = sum(C.townsfolk[t].icons.count(GREY) for t in s.staff[p])
        icons -= rogue_icons * C.rogue_icon_cancels
    return max(0, icons)


def faction_icons(s: S, p: int) -> list[int]:
    out = [0] * 4
    if p < s.seats:
        for t in s.staff[p]:
            for c in C.townsfolk[t].icons:
                if c != GREY:
                    out[c] += 1
    for c in s.corr[p]:
        f = C.corruption[c].faction
        if 0 <= f < 4:
            out[f] += 1
    return out


def final_scoring(s: S) -> None:
    """After the 3rd Market: gold for non-Rogue faction icons (TOTB, MRBG); Corruption costs gold,
    more with more Rogues in the Lair (designed); most gold wins."""
    rate = C.corruption_base + (s.lair + s.lair_leaders) // C.corruption_per_lair
    icons = [faction_icons(s, p) for p in range(s.np)]
    corrupt = [corruption_icons(s, p) for p in range(s.np)]
    corrupt[0] += challenges.corruption_icons(s)
    if s.options["halls_of_plenty"]:
        stash.halls_of_plenty(s, icons)
    if s.options["lair_of_villainy"]:
        stash.lair_of_villainy(s, corrupt)
    for p in range(s.np):
        g = sum(icons[p][c] * min(hall_count(s, c), C.icon_cap) * C.icon_rate for c in range(4))
        gain(s, p, g)
        lost = pay(s, p, corrupt[p] * rate)
        s._event(f"Final scoring: {who(s, p)} +{g} for faction icons, -{lost} for Corruption")
    s.stage = Stage.OVER

SELLING, FINAL_PAY = Selling(), FinalPay()
