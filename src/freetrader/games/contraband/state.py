"""Contraband state: plain data; the rules live in ``rules.py``, views in ``view.py``."""

from __future__ import annotations

from types import ModuleType
from typing import ClassVar

from freetrader.core.fields import Hidden, PerSeat
from freetrader.core.frames import DeclaredRulesState

from . import rules, view
from .phases import PHASES, Phase, Then

__all__ = ["ContrabandState", "PHASES"]


class ContrabandState(DeclaredRulesState):
    rules: ClassVar[ModuleType] = rules
    views: ClassVar[ModuleType] = view
    state_format = 3  # 2: ``after`` saved by name; 3: ``trace``

    cash: PerSeat[list[int]]  # dollars
    loans: list[int]  # loans[borrower * seats + lender]: what borrower owes lender
    retired: PerSeat[list[bool]]
    been_officer: PerSeat[list[bool]]
    pack: Hidden[list[int]]  # article indices; the top card is the last
    discard_hidden: Hidden[list[int]]  # discarded face down (par. 5)
    discard_shown: list[int]  # impounded after a search: seen by the table
    luggage: Hidden[list[int]]
    trace: Hidden[list[tuple[int, ...]]]  # this round's card movements (``rules.SAW`` ...), for determinization
    claim: list[int]  # article indices declared so far, in non-decreasing order
    # Public tallies the table can remember (used by bots that read the table).
    declared: PerSeat[list[int]]
    caught: PerSeat[list[int]]  # searches that found contraband, per smuggler
    cleared: PerSeat[list[int]]  # searches that found none, per traveller
    searches: PerSeat[list[int]]  # as Customs Officer
    waved: PerSeat[list[int]]
    informs: PerSeat[list[int]]
    unused: int  # money left over after the equal split (par. 1)
    officer: int
    holder: int  # seat holding the luggage, -1 if none
    declarer: int  # seat whose declaration is being dealt with
    examined: bool  # whether the holder has looked at the luggage
    bag_claim: bool
    phase: Phase
    actor: int
    after: Then
    after_seat: int
    officer_out: bool  # the officer retired: the round ends at the next turn
    round: int
    reshuffles: int
    declarations: int
    pending: list[tuple[int, int, int]]  # (payer, payee, amount) still to pay, in order

    def _scores(self) -> list[float]:
        return [float(v) for v in rules.net_worth(self)]
