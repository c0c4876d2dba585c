"""Merchants Cove phases and stages: what kind of decision is pending, and which part of the day it is.

A leaf module: it imports nothing of the game. The pending decision is the top
frame of ``state.frames``; each frame class names its ``Phase``. The member
values are the places of the observation's one-hot (``adapters/encoders``), so
they never change; the names a view shows are ``PHASES`` and ``STAGES``.
"""

from __future__ import annotations

import enum

__all__ = ["PHASES", "STAGES", "Phase", "Stage"]


class Phase(enum.IntEnum):
    """The kind of the pending decision (the top frame's), or ``OVER``."""

    #: set-up: choose a merchant (the draft)
    SETUP = 0
    #: Production: move to an action space of your shop board
    MAIN = 1
    #: place the drawn adventurer on a sailing Boat
    PLACE = 2
    #: dock a full Boat at a free pier slot
    DOCK = 3
    #: Recruit/Replace Townsfolk: hire, replace or skip
    RECRUIT = 4
    #: Sponsor: a shield of a colour
    SPONSOR = 5
    #: discard a Corruption card
    DISCARD = 6
    #: Sailors: send an adventurer on a sailing Boat back to the bag
    RETURN = 7
    #: Sailors: take an adventurer off a sailing Boat to place it elsewhere
    TAKE = 8
    #: Robbers: the rival who draws the Corruption
    ROB = 9
    #: a step of a merchant's own multi-step action
    MERCH = 10
    #: Market: sell a good at a pier, or stop
    SELL = 11
    #: the game is over (no frame is left)
    OVER = 12
    #: work in progress with no decision: never the phase of a state at rest
    RUN = 13
    #: Kraken: the Customer dragged into the bay
    KRAKEN = 14
    #: Doppelgangers: the Faction Hall the Rogue joins
    HALL = 15
    #: Assassins: the Townsfolk discarded from the Town Square
    ASSASSIN = 16
    #: Mind Controllers: a Customer back to the bag for 1 Corruption, or skip
    MIND = 17
    #: Raiders: a Town Square ability for 1 Corruption, or skip
    RAID = 18
    #: Officials: a Staff Ability to activate
    STAFF = 19
    #: a Good from the Sale Shelf paying a Corruption card's cost
    PAYGOOD = 20
    #: Dragon Island Festival: draw from the bag or lure a guest
    FESTIVAL = 21


#: The name a view shows for each phase, in member order.
PHASES = ("merchant", "action", "place", "dock", "recruit", "sponsor", "discard", "return", "take", "rob",
          "merchant-step", "sell", "over", "run",
          "kraken", "hall", "assassin", "mind", "raid", "staff", "pay-good", "festival")


class Stage(enum.IntEnum):
    """The part of the game: set-up, a day's Production or Market, or over."""

    #: the merchant draft
    SETUP = 0
    #: Arrival is done; the Clock runs
    PRODUCTION = 1
    #: every timepiece reached the Market token; merchants sell in order
    MARKET = 2
    #: final scoring is done
    OVER = 3


#: The name a view shows for each stage, in member order.
STAGES = ("setup", "production", "market", "over")
