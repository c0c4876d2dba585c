"""Precious Cargo state: plain data; the rules live in ``rules.py``, views in ``view.py``."""

from __future__ import annotations

from types import ModuleType
from typing import ClassVar

from freetrader.core.fields import Hidden, PerSeat
from freetrader.core.frames import DeclaredRulesState

from . import rules, view
from .phases import Phase

__all__ = ["PreciousCargoState"]

class PreciousCargoState(DeclaredRulesState):
    rules: ClassVar[ModuleType] = rules
    views: ClassVar[ModuleType] = view

    country: PerSeat[list[int]]  # per seat: 0 Koruna, 1 Talonas (-1 before it is chosen)
    home: PerSeat[list[int]]  # per seat: home settlement
    coins: PerSeat[list[int]]
    gov: list[int]  # per settlement: the seat whose Governor is there, or -1
    gov_left: PerSeat[list[int]]  # per seat: Governors not yet installed
    at: list[int]  # per ship slot (seat * 3 + k): its place, -1 if not built
    sails: list[int]
    moves: list[int]  # moves left this turn
    holds: list[tuple[int, ...]]  # per ship slot: crate codes, sorted (see rules.py)
    chips: list[int]  # per settlement: the cargo type in demand
    stock: list[int]  # the supply card: country * n_cargo + type
    occ: list[int]  # per place: ships there
    pools: Hidden[list[list[int]]]  # per country: face-down chips, the next drawn last (hidden order)
    phase: Phase
    actor: int
    first: int
    turn: int
    used: int  # bits of the actions used this turn
    n_used: int
    cur_ship: int  # the ship taking on cargo
    sell_at: int  # the settlement where cargo is being sold
    sold_demand: bool  # whether an in-demand crate was sold there this action

    def _scores(self) -> list[float]:
        return [float(c) for c in self.coins]

    def _cut_by_cap(self) -> bool:
        return rules.cut_by_cap(self)
