"""Scenario helpers for Merchants Cove: a real set-up, then pieces moved, never invented."""

from __future__ import annotations

import freetrader
from freetrader.games.merchants_cove import rules as R
from freetrader.games.merchants_cove.components import COLOURS
from freetrader.games.merchants_cove.components import COMPONENTS as C
from freetrader.games.merchants_cove.flow import go_on

GAME = freetrader.game("merchants-cove")


def new(seats: int = 2, merchants: str | None = None, seed: int = 1, **options):
    """A game past set-up (merchants dealt in seat order) at the first Production decision."""
    if merchants is None:
        merchants = ",".join(["alchemist", "blacksmith", "captain", "chronomancer"][:seats])
    options.setdefault("rogue", "criminals")
    return GAME.new_state(seats, seed, {"merchants": merchants, **options})


def fresh(s) -> None:
    """Forget cached legal actions after editing a state by hand."""
    s._legal_cache = None


def turn(s, p: int) -> None:
    """Make it seat ``p``'s Production decision (as if its timepiece were furthest behind)."""
    s.actor, s.stage = p, R.ST_PROD
    s.frames = (R.CLOCK, R.TURN)
    fresh(s)


def holding(s, c: int, p: int | None = None) -> None:
    """Seat ``p`` (the active player by default) has drawn adventurer ``c`` and must place it now."""
    if p is not None:
        s.actor = p
    s.drawn = c
    s.frames = s.frames + (R.PLACE_ANY,)
    fresh(s)


def then(s, *work) -> None:
    """This work (``rules`` Effect frames) is next, as if an action had just set it off; let it go on."""
    s.frames = s.frames + tuple(reversed(work))
    go_on(s)
    fresh(s)


def texts(s) -> list[str]:
    return [str(a) for a in s.legal_actions()]


def colour(name: str) -> int:
    return COLOURS.index(name)


def set_boat(s, b: int, names: list[str]) -> None:
    """Put these adventurers (taken from the bag) on boat ``b`` (0-based); the old ones go back."""
    for c in s.boats[b]:
        s.bag[c] += 1
    s.boats[b] = []
    for n in names:
        c = colour(n)
        s.bag[c] -= 1
        s.boats[b].append(c)
    fresh(s)


def set_slot(s, k: int, names: list[str]) -> None:
    """Customers (from the bag) standing on pier slot ``k`` as if a boat had docked there."""
    for c in s.slot_adv[k]:
        s.bag[c] += 1
    s.slot_adv[k] = []
    for n in names:
        c = colour(n)
        s.bag[c] -= 1
        s.slot_adv[k].append(c)
    s.slot_boat[k] = 5 if not names else s.slot_boat[k]
    fresh(s)


def give_goods(s, p: int, good: str, n: int = 1) -> None:
    g = R.GOOD_IDS.index(good)
    s.supply[p][g] -= n
    s.shelf[p][g] += n
    fresh(s)


def set_gold(s, p: int, gold: int) -> None:
    s.bank += s.gold[p] - gold
    s.gold[p] = gold
    fresh(s)


def give_corruption(s, p: int, card_id: str, n: int = 1) -> None:
    c = R.CORR_BY_ID[card_id]
    for _ in range(n):
        s.cdeck.remove(c)
        s.corr[p].append(c)
    fresh(s)


def to_market(s) -> None:
    """Every timepiece to the Market token, then let the rules run into the Market."""
    s.time = [C.market] * s.np
    s.frames = (R.CLOCK,)
    R.CLOCK.next_turn(s)
    fresh(s)


def play_out(s, pick=lambda legal: legal[0]) -> None:
    while not s.is_over:
        s.apply(pick(s.legal_actions()))
