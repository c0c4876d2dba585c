"""Precious Cargo state: plain data; the rules live in ``rules.py``, the decisions in ``frames.py``, views in ``view.py``."""

from __future__ import annotations

from types import ModuleType
from typing import ClassVar

from freetrader.core import Action
from freetrader.core.fields import Hidden, PerSeat
from freetrader.core.frames import FrameState

from . import rules, view
from .frames import Loading, Selling, Turn, set_up
from .phases import Phase

__all__ = ["PreciousCargoState"]


class PreciousCargoState(FrameState):
    rules: ClassVar[ModuleType] = rules
    views: ClassVar[ModuleType] = view
    #: 2: the decision is the frame stack (``frames.py``) instead of ``phase``, ``actor`` and the turn's
    #: registers (``used``, ``n_used``, ``cur_ship``, ``sell_at``, ``sold_demand``); format 1 replays.
    state_format: ClassVar[int] = 2

    country: PerSeat[list[int]]  # per seat: 0 Koruna, 1 Talonas (-1 before it is chosen)
    home: PerSeat[list[int]]  # per seat: home settlement
    coins: PerSeat[list[int]]
    gov: list[int]  # per settlement: the seat whose Governor is there, or -1
    gov_left: PerSeat[list[int]]  # per seat: Governors not yet installed
    at: list[int]  # per ship slot (seat * 3 + k): its place, -1 if not built
    sails: list[int]
    moves: list[int]  # per ship slot: moves left this turn
    holds: list[tuple[int, ...]]  # per ship slot: crate codes, sorted (see rules.py)
    chips: list[int]  # per settlement: the cargo type in demand
    stock: list[int]  # the supply card: country * n_cargo + type
    occ: list[int]  # per place: ships there
    pools: Hidden[list[list[int]]]  # per country: face-down chips, the next drawn last (hidden order)
    first: int
    turn: int
    final_turn: tuple[Turn, ...]  # once over: the turn the game ended in (the board still shows its actions)

    def _setup(self) -> None:
        super()._setup()
        set_up(self)  # the Set Up decisions, pushed here: ``frames.py`` imports the rules, not the other way

    @property
    def to_act(self) -> int | None:
        """The top frame's ``seat``: every Precious Cargo frame names the seat that decides it, read without
        a call (``to_act`` runs a few times a decision; ``actor()`` cost 6% of a random playout)."""
        f = self.frames
        return f[-1].seat if f else None  # type: ignore[attr-defined]

    # -- read from the decision stack (the views and encoders show them) -----------------------------
    @property
    def phase(self) -> Phase:
        f = self.frames
        return f[-1].phase if f else Phase.OVER  # type: ignore[attr-defined]

    @property
    def used(self) -> int:
        """The actions the turn now (or the last one, once over) has taken, as bits (``rules.BUILD`` ...)."""
        f = self.frames or self.final_turn
        turn = f[0] if f else None
        return turn.used if isinstance(turn, Turn) else 0

    @property
    def n_used(self) -> int:
        return self.used.bit_count()

    @property
    def cur_ship(self) -> int:
        """The ship taking on cargo (its slot), or -1."""
        f = self.frames
        top = f[-1] if f else None
        return top.slot if isinstance(top, Loading) else -1

    @property
    def sell_at(self) -> int:
        """The settlement where cargo is being sold, or -1."""
        f = self.frames
        top = f[-1] if f else None
        return top.place if isinstance(top, Selling) else -1

    # -- the decision: the top frame's alone (Precious Cargo has no actions "at any time") ---------------
    def _legal(self) -> tuple[Action, ...]:
        return self.frames[-1].legal(self)  # type: ignore[return-value]

    def _apply(self, action: Action) -> None:
        self.frames[-1].apply(self, action)

    def _scores(self) -> list[float]:
        return [float(c) for c in self.coins]

    def _cut_by_cap(self) -> bool:
        return rules.cut_by_cap(self)
