"""Precious Cargo state: plain data; the rules live in ``rules.py``, views in ``view.py``."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from freetrader.core import RulesState

from . import rules, view

__all__ = ["PreciousCargoState"]

_LISTS = ("country", "home", "coins", "gov", "gov_left", "at", "sails", "moves", "holds", "chips", "stock", "occ")
_SCALARS = ("phase", "actor", "first", "turn", "used", "n_used", "cur_ship", "sell_at", "sold_demand")


class PreciousCargoState(RulesState):
    rules = rules
    views = view
    flat_fields = tuple(x for x in _LISTS if x != "holds")
    nested_fields = ("pools",)
    scalar_fields = _SCALARS
    __slots__ = _LISTS + _SCALARS + ("pools",)

    country: list[int]  # per seat: 0 Koruna, 1 Talonas (-1 before it is chosen)
    home: list[int]  # per seat: home settlement
    coins: list[int]
    gov: list[int]  # per settlement: the seat whose Governor is there, or -1
    gov_left: list[int]  # per seat: Governors not yet installed
    at: list[int]  # per ship slot (seat * 3 + k): its place, -1 if not built
    sails: list[int]
    moves: list[int]  # moves left this turn
    holds: list[tuple[int, ...]]  # per ship slot: crate codes, sorted (see rules.py)
    chips: list[int]  # per settlement: the cargo type in demand
    stock: list[int]  # the supply card: country * n_cargo + type
    occ: list[int]  # per place: ships there
    pools: list[list[int]]  # per country: face-down chips, the next drawn last (hidden order)
    phase: int
    actor: int
    first: int
    turn: int
    used: int  # bits of the actions used this turn
    n_used: int
    cur_ship: int  # the ship taking on cargo
    sell_at: int  # the settlement where cargo is being sold
    sold_demand: bool  # whether an in-demand crate was sold there this action

    # -- protocol hooks ------------------------------------------------------





    def _scores(self) -> list[float]:
        return [float(c) for c in self.coins]



    def _copy_into(self, other: Any) -> None:
        other.country = self.country[:]
        other.home = self.home[:]
        other.coins = self.coins[:]
        other.gov = self.gov[:]
        other.gov_left = self.gov_left[:]
        other.at = self.at[:]
        other.sails = self.sails[:]
        other.moves = self.moves[:]
        other.holds = self.holds[:]  # the holds themselves are tuples: shared
        other.chips = self.chips[:]
        other.stock = self.stock[:]
        other.occ = self.occ[:]
        other.pools = [self.pools[0][:], self.pools[1][:]]
        other.phase = self.phase
        other.actor = self.actor
        other.first = self.first
        other.turn = self.turn
        other.used = self.used
        other.n_used = self.n_used
        other.cur_ship = self.cur_ship
        other.sell_at = self.sell_at
        other.sold_demand = self.sold_demand

    def _extra_json(self) -> dict[str, Any]:
        return {"holds": [list(h) for h in self.holds]}

    def _load_extra(self, data: Mapping[str, Any]) -> None:
        self.holds = [tuple(int(c) for c in h) for h in data["holds"]]  # tuples: shared by clones
