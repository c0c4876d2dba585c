"""Merchants Cove state: plain data declared once (``core.fields``); rules in ``rules.py``, views in ``view.py``.

The pending decision is the top frame of ``frames`` (``flow.py``). Per
merchant means one entry per seat and, in solo play against the Peddler, one
more (the Peddler is index ``seats``).
"""

from __future__ import annotations

from collections.abc import Sequence
from types import ModuleType
from typing import ClassVar

from freetrader.core import Action
from freetrader.core.fields import Hidden, PerSeat
from freetrader.core.frames import FrameState

from . import rules, stash, view
from .phases import Phase, Stage

__all__ = ["CoveState"]


class CoveState(FrameState):
    # format 1 kept the work in a tuple queue and phase/scratch registers; format 2 keeps frames; format 3
    # breaks Clean-Up's gold ties by the stack (option stack_ties), so older saves replay with the seat tie;
    # format 4 runs the work on core's stack (an answered decision leaves ANSWERED in its place): older saves
    # replay (``Game._migrate``)
    state_format = 4
    rules: ClassVar[ModuleType] = rules
    views: ClassVar[ModuleType] = view

    # per merchant (the Peddler, in solo play, is the last index)
    gold: list[int]
    time: list[int]  # Clock position of the timepiece
    stack: list[int]  # higher = nearer the top of a stack
    last: list[str]  # the action space the figure stands on
    shelf: list[list[int]]  # Sale Shelf, per good
    supply: list[list[int]]
    corr: Hidden[list[list[int]]]  # Corruption cards held (private)
    # per seat
    merchant: PerSeat[list[str]]
    shields: PerSeat[list[list[int]]]
    staff: PerSeat[list[list[int]]]  # hired Townsfolk, in order (the first fill the Staff spaces)
    mb: PerSeat[list[list[int]]]  # merchant board, layout owned by the merchant module
    # the board
    bag: list[int]  # adventurers per colour (its make-up is public; a draw is random)
    boats: list[list[int]]
    docked: list[int]  # per boat: its slot, -1 sailing
    slot_boat: list[int]
    slot_adv: list[list[int]]  # customers standing on each pier slot
    halls: list[int]
    mice: list[int]
    square: list[int]
    tf_deck: Hidden[list[int]]
    tf_bottom: list[int]  # cards put under the deck, in order (public)
    cdeck: Hidden[list[int]]
    cdiscard: list[int]
    pdeck: Hidden[list[int]]  # Peddler deck
    pdiscard: list[int]
    bought: list[int]  # Market: per pier x colour, a bit per merchant that sold to that group
    order: list[int]  # Market: merchants still to sell, in order
    np: int  # merchants on the Clock: the seats and the Peddler
    day: int
    bank: int
    tick: int  # stacking counter
    stage: Stage
    actor: int  # the active player: whose timepiece acts, or who sells; every decision of a turn is theirs
    rogue: int  # the top Rogue card
    lair: int
    drawn: int  # the adventurer drawn (or taken off a Boat) and not yet placed, -1 none
    tf_sets: str
    pcard: int  # the Peddler's card revealed last
    # Secret Stash
    rogues: list[int]  # active Rogue cards, top first (Multiple Rogues: three)
    island: list[int]  # Dragon Island Festival guests
    bay: list[int]  # per colour: Customers the Kraken took out of the game
    hall_rogues: list[int]  # per Faction Hall: Doppelgangers in it
    grey: int  # Grey Rogue Goods in the supply near the board
    chal_deck: Hidden[list[int]]  # solo Challenge deck, the active card first
    chal_aside: list[int]  # Challenge cards set aside face-up
    chal_at: int  # the Challenge Timepiece, in Hours counted across days
    afloat: list[int]  # per Boat: 1 if it sails this day (Boat Setup cards, new Boats)
    bdeck: Hidden[list[int]]  # Boat Setup cards still face down
    bcard: int  # the Boat Setup card revealed this day
    hall_leaders: list[int]  # Faction Leaders in their Faction Hall (also counted in halls)
    hall_rogue_leaders: list[int]  # the Rogue Leader in a Hall as a Doppelganger (also in hall_rogues)
    lair_leaders: int  # Faction Leaders in the Lair (also counted in lair)

    @property
    def phase(self) -> Phase:
        """The kind of the pending decision; ``OVER`` once the game has ended."""
        frames = self.frames
        return frames[-1].phase if frames else Phase.OVER  # type: ignore[attr-defined]

    def _anytime(self, seat: int) -> Sequence[Action]:
        return stash.pay_at_any_decision(self, seat)

    def _take_anytime(self, action: Action) -> None:
        stash.pay_by_action(self, action)

    def _scores(self) -> list[float]:
        """Most gold wins (DTN, BGUK); solo: gold minus the Peddler's gold (designed)."""
        if self.np > self.seats:
            return [float(self.gold[0] - self.gold[self.seats])]
        return [float(g) for g in self.gold[: self.seats]]
