"""Merchants Cove state: plain data; rules in ``rules.py``, views in ``view.py``."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from freetrader.core import RulesState

from . import rules, view
from .rules import STAGES

__all__ = ["CoveState"]

_FLAT = (  # lists of ints or strings, copied by slicing
    "gold", "time", "stack", "last", "merchant", "bag", "docked", "slot_boat", "halls", "mice", "square",
    "tf_deck", "tf_bottom", "cdeck", "cdiscard", "pdeck", "pdiscard", "bought", "order",
    "rogues", "island", "bay", "hall_rogues", "chal_deck", "chal_aside",  # Secret Stash
    "afloat", "bdeck", "hall_leaders", "hall_rogue_leaders",
)
_NESTED = ("shelf", "supply", "shields", "staff", "corr", "mb", "boats", "slot_adv")  # lists of lists
_SCALARS = ("np", "day", "bank", "tick", "stage", "phase", "actor", "rogue", "lair", "drawn", "sub", "sub2",
            "tf_sets", "pcard", "grey", "picked", "pending", "resume", "chal_at", "bcard", "lair_leaders")


class CoveState(RulesState):
    rules = rules
    views = view
    flat_fields = _FLAT
    nested_fields = _NESTED
    scalar_fields = _SCALARS
    __slots__ = _FLAT + _NESTED + _SCALARS + ("tasks",)

    # per merchant (the Peddler, in solo play, is the last index)
    gold: list[int]
    time: list[int]  # Clock position of the timepiece
    stack: list[int]  # higher = nearer the top of a stack
    last: list[str]  # the action space the figure stands on
    shelf: list[list[int]]  # Sale Shelf, per good
    supply: list[list[int]]
    corr: list[list[int]]  # Corruption cards held (private)
    # per seat
    merchant: list[str]
    shields: list[list[int]]
    staff: list[list[int]]  # hired Townsfolk, in order (the first fill the Staff spaces)
    mb: list[list[int]]  # merchant board, layout owned by the merchant module
    # the board
    bag: list[int]  # adventurers per colour
    boats: list[list[int]]
    docked: list[int]  # per boat: its slot, -1 sailing
    slot_boat: list[int]
    slot_adv: list[list[int]]  # customers standing on each pier slot
    halls: list[int]
    mice: list[int]
    square: list[int]
    tf_deck: list[int]  # hidden order
    tf_bottom: list[int]  # cards put under the deck, in order (public)
    cdeck: list[int]  # hidden order
    cdiscard: list[int]
    pdeck: list[int]  # Peddler deck, hidden order
    pdiscard: list[int]
    bought: list[int]  # Market: per pier x colour, a bit per merchant that sold to that group
    order: list[int]  # Market: merchants still to sell, in order
    tasks: list[tuple[Any, ...]]
    np: int
    day: int
    bank: int
    tick: int
    stage: int
    phase: int
    actor: int
    rogue: int
    lair: int
    drawn: int
    sub: int
    sub2: int
    tf_sets: str
    pcard: int
    # Secret Stash
    rogues: list[int]  # active Rogue cards, top first (Multiple Rogues: three)
    island: list[int]  # Dragon Island Festival guests
    bay: list[int]  # per colour: Customers the Kraken took out of the game
    hall_rogues: list[int]  # per Faction Hall: Doppelgangers in it
    grey: int  # Grey Rogue Goods in the supply near the board
    picked: int  # Officials: Staff Abilities activated (bits)
    pending: int  # the Corruption card whose Goods cost is being paid
    resume: int  # the decision to return to after paying it
    chal_deck: list[int]  # solo Challenge deck, the active card first
    chal_aside: list[int]  # Challenge cards set aside face-up
    chal_at: int  # the Challenge Timepiece, in Hours counted across days
    afloat: list[int]  # per Boat: 1 if it sails this day (Boat Setup cards, new Boats)
    bdeck: list[int]  # Boat Setup cards still face down
    bcard: int  # the Boat Setup card revealed this day
    hall_leaders: list[int]  # Faction Leaders in their Faction Hall (also counted in halls)
    hall_rogue_leaders: list[int]  # the Rogue Leader in a Hall as a Doppelganger (also in hall_rogues)
    lair_leaders: int  # Faction Leaders in the Lair (also counted in lair)






    def _scores(self) -> list[float]:
        """Most gold wins (DTN, BGUK); solo: gold minus the Peddler's gold (designed)."""
        if self.np > self.seats:
            return [float(self.gold[0] - self.gold[self.seats])]
        return [float(g) for g in self.gold[: self.seats]]



    def _copy_into(self, other: Any) -> None:
        other.gold = self.gold[:]
        other.time = self.time[:]
        other.stack = self.stack[:]
        other.last = self.last[:]
        other.merchant = self.merchant[:]
        other.bag = self.bag[:]
        other.docked = self.docked[:]
        other.slot_boat = self.slot_boat[:]
        other.halls = self.halls[:]
        other.mice = self.mice[:]
        other.square = self.square[:]
        other.tf_deck = self.tf_deck[:]
        other.tf_bottom = self.tf_bottom[:]
        other.cdeck = self.cdeck[:]
        other.cdiscard = self.cdiscard[:]
        other.pdeck = self.pdeck[:]
        other.pdiscard = self.pdiscard[:]
        other.bought = self.bought[:]
        other.order = self.order[:]
        other.shelf = [x[:] for x in self.shelf]
        other.supply = [x[:] for x in self.supply]
        other.shields = [x[:] for x in self.shields]
        other.staff = [x[:] for x in self.staff]
        other.corr = [x[:] for x in self.corr]
        other.mb = [x[:] for x in self.mb]
        other.boats = [x[:] for x in self.boats]
        other.slot_adv = [x[:] for x in self.slot_adv]
        other.tasks = self.tasks[:]
        other.np = self.np
        other.day = self.day
        other.bank = self.bank
        other.tick = self.tick
        other.stage = self.stage
        other.phase = self.phase
        other.actor = self.actor
        other.rogue = self.rogue
        other.lair = self.lair
        other.drawn = self.drawn
        other.sub = self.sub
        other.sub2 = self.sub2
        other.tf_sets = self.tf_sets
        other.pcard = self.pcard
        other.rogues = self.rogues[:]
        other.island = self.island[:]
        other.bay = self.bay[:]
        other.hall_rogues = self.hall_rogues[:]
        other.grey = self.grey
        other.picked = self.picked
        other.pending = self.pending
        other.resume = self.resume
        other.chal_deck = self.chal_deck[:]
        other.chal_aside = self.chal_aside[:]
        other.chal_at = self.chal_at
        other.afloat = self.afloat[:]
        other.bdeck = self.bdeck[:]
        other.bcard = self.bcard
        other.hall_leaders = self.hall_leaders[:]
        other.hall_rogue_leaders = self.hall_rogue_leaders[:]
        other.lair_leaders = self.lair_leaders

    def _extra_json(self) -> dict[str, Any]:
        return {"stage": STAGES[self.stage], "tasks": [list(t) for t in self.tasks]}

    def _load_extra(self, data: Mapping[str, Any]) -> None:
        self.stage = STAGES.index(data["stage"])
        self.tasks = [tuple(t) for t in data["tasks"]]
