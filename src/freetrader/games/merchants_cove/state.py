"""Merchants Cove state: plain data declared once (``core.fields``); rules in ``rules.py``, views in ``view.py``.

The pending decision is the top frame of ``frames`` (``flow.py``). Per
merchant means one entry per seat and, in solo play against the Peddler, one
more (the Peddler is index ``seats``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from types import ModuleType
from typing import Any, ClassVar

from freetrader.core import Action, BadRecord
from freetrader.core.fields import Hidden, PerSeat
from freetrader.core.frames import FrameState

from . import rules, stash, view
from .merchants import Board, board_from_json
from .phases import Phase, Stage

__all__ = ["CoveState"]


class _Fields(FrameState):
    """Every field but the merchant boards, declared for ``core.fields`` (copy, JSON, checks on load)."""

    # format 1 kept the work in a tuple queue and phase/scratch registers; format 2 keeps frames; format 3
    # breaks Clean-Up's gold ties by the stack (option stack_ties), so older saves replay with the seat tie;
    # format 4 runs the work on core's stack (an answered decision waits below its work's frames) and saves
    # each merchant board by its declared field names: older saves replay (``Game._migrate``)
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



class CoveState(_Fields):
    """The fields, and per seat its merchant's board: a ``merchants.Board`` whose own fields are declared in its
    merchant's module (so a new merchant is a module and a data entry); copied and saved through them."""

    __slots__ = ("mb", "mb_own")
    mb: list[Board | None]  # per seat: its merchant's board (None before the merchant is chosen)
    #: A bit per seat whose board this state may change in place. A clone shares the boards and neither
    #: copy owns them; ``Merchant.board`` copies a board before its first use (clone costs no board copy).
    mb_own: int

    def _copy_into(self, other: Any) -> None:
        _Fields._copy_into(self, other)
        other.mb = self.mb[:]
        other.mb_own = self.mb_own = 0

    def _game_json(self) -> dict[str, Any]:
        return {**_Fields._game_json(self), "mb": [b.to_json() if b is not None else None for b in self.mb]}

    def _load_game_json(self, data: Mapping[str, Any]) -> None:
        boards = data.get("mb")
        if not isinstance(boards, list) or len(boards) != self.seats:
            raise BadRecord(f"saved state field 'mb' must list one merchant board per seat ({self.seats}), "
                            f"got {boards!r}")
        _Fields._load_game_json(self, {k: v for k, v in data.items() if k != "mb"})
        self.mb = [board_from_json(m, b, f"saved state field 'mb' (seat {p})")
                   for p, (m, b) in enumerate(zip(self.merchant, boards, strict=True))]
        self.mb_own = (1 << self.seats) - 1

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
