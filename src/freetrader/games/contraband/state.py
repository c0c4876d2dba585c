"""Contraband state: plain data; the rules (and the decision frames) live in ``rules.py``, views in ``view.py``."""

from __future__ import annotations

from types import ModuleType
from typing import ClassVar

from freetrader.core import Action
from freetrader.core.fields import Hidden, PerSeat
from freetrader.core.frames import FrameState

from . import rules, view
from .phases import PHASES, Phase

__all__ = ["ContrabandState", "PHASES"]


class ContrabandState(FrameState):
    """One position. The pending decision is the top of ``frames`` (``rules.py``); the rest is the table."""

    rules: ClassVar[ModuleType] = rules
    views: ClassVar[ModuleType] = view
    #: 2: ``after`` saved by name; 3: ``trace``; 4: decision frames replace ``phase``, ``actor``, ``after``,
    #: ``after_seat``, ``pending`` and ``officer_out``, and ``loans`` is one row per borrower (formats 1-3
    #: load by replaying their record).
    state_format = 4

    cash: PerSeat[list[int]]  # dollars
    loans: PerSeat[list[tuple[int, ...]]]  # loans[borrower][lender]: what borrower owes lender
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
    round: int
    reshuffles: int
    declarations: int

    # -- read from the top frame (views, bots and the encoders read these names) ------------------------
    @property
    def phase(self) -> Phase:
        """The kind of decision pending (``Phase.OVER`` once the game is over)."""
        f = self.frames
        return f[-1].phase if f else Phase.OVER  # type: ignore[attr-defined]

    @property
    def actor(self) -> int:
        """The seat to act, -1 once the game is over."""
        f = self.frames
        return f[-1].actor(self) if f else -1

    @property
    def pending(self) -> list[tuple[int, int, int]]:
        """Payments still to make, (payer, payee, amount) in order: only while a payer is asked to find the money."""
        f = self.frames
        return list(f[-1].owed) if f and type(f[-1]) is rules.Payments else []

    # Contraband offers no action outside the top frame's: asked straight, without ``FrameState``'s extras.
    def _legal(self) -> tuple[Action, ...]:
        return self.frames[-1].legal(self)  # type: ignore[return-value]

    def _apply(self, action: Action) -> None:
        self.frames[-1].apply(self, action)

    def _scores(self) -> list[float]:
        return [float(v) for v in rules.net_worth(self)]
