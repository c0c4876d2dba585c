"""Contraband state: plain data; the rules live in ``rules.py``, views in ``view.py``."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from freetrader.core import RulesState

from . import rules, view

__all__ = ["ContrabandState", "PHASES"]

from .rules import PHASES

_LISTS = (
    "cash", "loans", "retired", "been_officer", "pack", "discard_hidden", "discard_shown",
    "luggage", "claim", "declared", "caught", "cleared", "searches", "waved", "informs",
)
_SCALARS = (
    "unused", "officer", "holder", "declarer", "examined", "bag_claim", "phase", "actor",
    "after", "after_seat", "officer_out", "round", "reshuffles", "declarations",
)


class ContrabandState(RulesState):
    rules = rules
    views = view
    flat_fields = _LISTS
    scalar_fields = _SCALARS
    __slots__ = _LISTS + _SCALARS + ("pending",)

    cash: list[int]  # per seat, dollars
    loans: list[int]  # loans[borrower * seats + lender]: what borrower owes lender
    retired: list[bool]
    been_officer: list[bool]
    pack: list[int]  # article indices; the top card is the last
    discard_hidden: list[int]  # discarded face down (par. 5)
    discard_shown: list[int]  # impounded after a search: seen by the table
    luggage: list[int]
    claim: list[int]  # article indices declared so far, in non-decreasing order
    # Public tallies the table can remember (used by bots that read the table).
    declared: list[int]
    caught: list[int]  # searches that found contraband, per smuggler
    cleared: list[int]  # searches that found none, per traveller
    searches: list[int]  # per seat, as Customs Officer
    waved: list[int]
    informs: list[int]
    unused: int  # money left over after the equal split (par. 1)
    officer: int
    holder: int  # seat holding the luggage, -1 if none
    declarer: int  # seat whose declaration is being dealt with
    examined: bool  # whether the holder has looked at the luggage
    bag_claim: bool
    phase: int
    actor: int
    after: int
    after_seat: int
    officer_out: bool  # the officer retired: the round ends at the next turn
    round: int
    reshuffles: int
    declarations: int
    pending: list[tuple[int, int, int]]  # (payer, payee, amount) still to pay, in order

    # -- protocol hooks ------------------------------------------------------





    def _scores(self) -> list[float]:
        return [float(v) for v in rules.net_worth(self)]



    def _copy_into(self, other: Any) -> None:
        for name in _LISTS:
            setattr(other, name, getattr(self, name)[:])
        for name in _SCALARS:
            setattr(other, name, getattr(self, name))
        other.pending = self.pending[:]

    def _extra_json(self) -> dict[str, Any]:
        return {"pending": [list(p) for p in self.pending]}

    def _load_extra(self, data: Mapping[str, Any]) -> None:
        self.pending = [(int(a), int(b), int(c)) for a, b, c in data["pending"]]
