"""What kind of decision is pending (a leaf module: it imports nothing of the game).

The decision itself is the top frame of the state's stack (``frames.py``,
``rules.py``); its ``phase`` names the kind, for views, bots and the
observation encoder. The values are the order of the set-up and of a Turn,
kept stable because encoders one-hot them.
"""

from __future__ import annotations

import enum

__all__ = ["Phase", "PHASES", "MERCHANT", "SHIP", "LAND", "STORE", "WAREHOUSE", "SOLD", "OUT", "WHERE"]


class Phase(enum.IntEnum):
    """The kind of decision pending; ``label`` is the name views show."""

    label: str

    def __new__(cls, value: int, label: str, doc: str) -> Phase:
        member = int.__new__(cls, value)
        member._value_ = value
        member.label = label
        member.__doc__ = doc
        return member

    SETUP_SHIP = 0, "setup-ship", "Set-up: choose a Ship card (drafted clockwise from the First Player)."
    SETUP_STORE = 1, "setup-storehouse", "Set-up: choose a START storehouse (anticlockwise from the last player)."
    SETUP_DRAW = 2, "setup-draw", "Set-up: draw a face-down Character card (two different stacks)."
    SETUP_KEEP = 3, "setup-keep", "Set-up: keep one of the two Character cards drawn."
    SETUP_COUNTER = 4, "setup-counter", "Set-up: place the first Network Counter on any land space."
    SETUP_LAUNCH = 5, "setup-launch", "Set-up: put the ship on a Sea Space or a Merchant Space."
    MAIN = 6, "action", ("Take one Action, make free moves, or pass; or, after an Action or before a choice "
                         "inside one, free moves on their own (done goes on).")
    LAND_SELECT = 7, "land-unload", "Landing Goods: choose the Goods Shapes to unload."
    LAND_HIDE = 8, "land-hide", "Landing Risk: spend Influence to cancel Customs moves."
    LAND_STORE = 9, "land-store", "Storing landed goods straight into a storehouse there."
    PLACE = 10, "place-counter", "Hire Character: place the new Network Counter."
    PRICE = 11, "sell-price", "Selling Goods: choose the price row."
    CUSTOMS_OFFICER = 12, "customs-officer", "Customs Movement: the player with least Gold picks the officer."
    CUSTOMS_STEP = 13, "customs-step", "Customs Movement: where the officer steps (least Gold, or Yew boy!)."
    POST = 14, "post-officer", "A new Customs Officer: the player with least Gold places it."
    RAID_DISCARD = 15, "raid-discard", "Raid the Customs House: discard a Mob character."
    RAID_REMOVE = 16, "raid-remove", "Raid the Customs House: remove a Network Counter."
    REACT = 17, "react", "A reaction window: play a card on the event, or decline."
    EFFECT = 18, "effect", "A card's own choices (targets, places, how to pay)."
    PROTECT = 19, "protect", "Squire Polglase may keep a Character a rival's card would take."
    LOSE_COUNTER = 20, "lose-counter", "A lost Character: remove one of your Network Counters."
    OVER = 21, "over", "The game is over."


PHASES = tuple(p.label for p in Phase)

# Where a Goods Shape is (``g_where``); ``g_at`` is then the merchant, seat, location or storehouse.
# OUT: a piece of a player count other than this game's (goods.toml ``extra``), never in play; ``g_at`` -1.
MERCHANT, SHIP, LAND, STORE, WAREHOUSE, SOLD, OUT = range(7)
WHERE = ("merchant", "ship", "land", "storehouse", "warehouse", "sold", "out")
