"""Scenario helpers for Precious Cargo: positions built from a real set-up, pieces moved, never invented.

Crates are taken from the supply card and chips swapped with the face-down
pile, so every scenario still holds exactly the game's components.
"""

from __future__ import annotations

from freetrader.games.precious_cargo import GAME
from freetrader.games.precious_cargo.components import COMPONENTS as C
from freetrader.games.precious_cargo.components import FOOD

__all__ = ["GAME", "C", "new", "put_ship", "set_chip", "crate", "legal", "play", "to_actions", "coins_in_play"]

KORUNA, TALONAS = 0, 1


def new(seed: int = 1, koruna_home: str = "zlatobrad", talonas_home: str = "garra", **options):
    """Seat 0 leads Koruna and goes first; homes chosen; seat 0 is about to move."""
    options.setdefault("countries", "seat0-koruna")
    options.setdefault("first_player", "seat0")
    s = GAME.new_state(2, seed, options)
    s.apply(f"home {koruna_home}")
    s.apply(f"home {talonas_home}")
    return s


def crate(kind: str, bought_at: str | None = None) -> int:
    k = C.cargo_by_id[kind]
    return C.by_id[bought_at] if k == FOOD else k << 3


def put_ship(s, seat: int, number: int, place: str, sails: int = 1, cargo: tuple[tuple[str, str | None], ...] = ()):
    """Put ``seat``'s ship ``number`` (building it if needed) at ``place`` with crates from the supply."""
    slot = seat * 3 + number - 1
    if s.at[slot] >= 0:
        s.occ[s.at[slot]] -= 1
        for code in s.holds[slot]:
            k = FOOD if code < 8 else code >> 3
            origin = C.country_of[code] if code < 8 else C.cargo[k].country
            s.stock[origin * C.n_cargo + k] += 1
    p = C.by_id[place]
    s.at[slot] = p
    s.occ[p] += 1
    s.sails[slot] = sails
    codes = []
    for kind, bought_at in cargo:
        code = crate(kind, bought_at)
        k = C.cargo_by_id[kind]
        origin = C.country_of[C.by_id[bought_at]] if k == FOOD else C.cargo[k].country
        s.stock[origin * C.n_cargo + k] -= 1
        assert s.stock[origin * C.n_cargo + k] >= 0
        codes.append(code)
    s.holds[slot] = tuple(sorted(codes))
    s.moves[slot] = sails if s.to_act == seat and s.view(None)["phase"] == "move" else 0
    s._legal_cache = None


def set_chip(s, settlement: str, kind: str) -> None:
    """Show ``kind`` at ``settlement`` by swapping chips with the face-down pile."""
    p = C.by_id[settlement]
    k = C.cargo_by_id[kind]
    if s.chips[p] == k:
        return
    pool = s.pools[C.country_of[p]]
    i = pool.index(k)
    pool[i], s.chips[p] = s.chips[p], k
    s._legal_cache = None


def to_actions(s) -> None:
    """Finish the movement (if any) so the seat to act chooses actions."""
    if s.view(None)["phase"] == "move":
        s.apply("stop")


def legal(s) -> set[str]:
    return {str(a) for a in s.legal_actions()}


def play(s, *notations: str) -> None:
    for text in notations:
        s.apply(text)


def coins_in_play(s) -> int:
    return sum(s.coins)
