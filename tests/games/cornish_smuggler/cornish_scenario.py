"""Scenario helpers for Cornish Smuggler: a real set-up, then pieces moved, never invented."""

from __future__ import annotations

import freetrader
from freetrader.games.cornish_smuggler import rules as R
from freetrader.games.cornish_smuggler.components import COMPONENTS as C

GAME = freetrader.game("cornish-smuggler")


def loc(name: str) -> int:
    return C.loc_by_id[name]


def node(name: str) -> int:
    return C.sea_by_id[name]


def after_setup(seats: int = 3, seed: int = 1):
    """Play the set-up with the first legal choice each time; returns a state at the first Action."""
    s = GAME.new_state(seats, seed)
    while s.phase != R.MAIN:
        s.apply(s.legal_actions()[0])
    return s


def piece(s, size: int, exclude=()) -> int:
    """A Goods Shape piece of this size still at a Merchant."""
    for g in range(len(C.goods)):
        if g not in exclude and s.g_where[g] == R.MERCHANT and C.shapes[C.goods[g]].size == size:
            return g
    raise LookupError(f"no piece of size {size} at a merchant")


def give_hold(s, p: int, pieces: list[int]) -> None:
    for g in pieces:
        s.g_where[g] = R.SHIP
        s.g_at[g] = p
        s.g_owner[g] = p
        s.hold[p].append(g)


def put_on_land(s, p: int, g: int, where: str) -> None:
    s.g_where[g] = R.LAND
    s.g_at[g] = loc(where)
    s.g_owner[g] = p


def set_gold(s, p: int, gold: int) -> None:
    """Move Gold between the seat and the bank (the supply stays whole)."""
    s.bank += s.gold[p] - gold
    s.gold[p] = gold


def officers_at(s, *places: str) -> None:
    """Put the officers on the board at these places (others wait on the track)."""
    s.off_at = [loc(x) for x in places] + [-1] * (R.N_OFFICERS - len(places))
    s.off_bribe = [-1] * R.N_OFFICERS


def fitting_ship(sizes: list[int], shapes_by_size) -> int:
    from freetrader.games.cornish_smuggler.packing import fits

    for ship in range(len(C.ships)):
        if fits(ship, [shapes_by_size[z] for z in sizes]):
            return ship
    raise LookupError("no ship fits")


def touch(s) -> None:
    """After editing a position by hand, drop the cached legal actions."""
    s._legal_cache = None


def act(s, *texts: str) -> None:
    touch(s)
    for t in texts:
        s.apply(t)
