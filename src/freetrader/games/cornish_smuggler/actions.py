"""Cornish Smuggler actions: one value type, ``Act``, whose notation is

    <verb> [<item>] [to <place>] [with <payment>]

e.g. ``sail to off-st-levan with influence``, ``carry g07 to madron with gold``,
``land``, ``unload g07``, ``hide 2``, ``sell g07``, ``price middle with
reputation``, ``hire allen-cutler with influence``, ``place breage``.
Items and places are ids from the data files (goods pieces are ``g00``..),
officers are numbers. Each verb is its own frozen dataclass holding indices
(``Sail(node, pay)``, ``Carry(goods, loc, pay)``...), so a rule reads typed
fields; ``verb``, ``item``, ``to`` and ``pay`` give the notation's parts
back as text (for bots and tables), and ``parse(str(a)) == a``. The verbs:

| verb | when | rulebook |
|---|---|---|
| ``ship``, ``storehouse``, ``draw``, ``keep``, ``place``, ``launch`` | set-up choices | Setup |
| ``sail`` | Move Ship one sea space | Actions & Costs |
| ``carry`` | Move one Goods Shape one space | Actions & Costs |
| ``counter`` | Move one Network Counter one space (``counter <from> to <to>``) | Actions & Costs |
| ``escort`` | Move Goods and Network Counter together | Actions & Costs |
| ``officer`` | Move a Customs Officer one space | Actions & Costs |
| ``buy-reputation``, ``honest-work``, ``discover``, ``pass`` | | Actions & Costs |
| ``land``, ``unload``, ``done``, ``hide`` | Land Goods and the Landing Risk | Landing Goods |
| ``hire``, ``place`` | Hire Character, then the new Network Counter | Characters |
| ``buy`` | Buy One Goods Shape | Goods |
| ``bribe`` | Bribe Customs | Customs |
| ``sell``, ``price`` | Sell Goods: choose a price | Selling Goods |
| ``raid``, ``discard``, ``remove`` | Raid the Customs House | Customs |
| ``store``, ``unstore``, ``claim`` | free: storehouses, abandoned goods | Storehouse Locations, Abandoned Goods |
| ``move``, ``step``, ``post`` | choices of the player with least Gold: which officer moves, which way, where a new one goes | Ties, Customs |
| ``motivate <character> [with <payment>]`` | Motivate a Character: as the Action, or on an event | Characters, Motivating Cards |
| ``play <secret>`` | play a Secrets card: as the Action, free on your turn, or on an event | Secrets Cards |
| ``decline`` | let a reaction window pass (writes no event) | Out-of-turn play |
| ``choose <thing> [to <place>]`` | a card's targets: a seat (``seat-2``), goods, a place, an officer and where it goes | |
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import ClassVar

from freetrader.core import Action, InvalidNotation

from .components import COMPONENTS as C

__all__ = [
    "Act", "BuyReputation", "Bribe", "Buy", "Carry", "Choose", "Claim", "CounterMove", "Decline", "Discard",
    "Discover", "Done", "Draw", "Escort", "Hide", "Hire", "HonestWork", "Keep", "Land", "Launch", "Motivate",
    "Move", "OfficerAction", "Pass", "Place", "Play", "Post", "Price", "Raid", "Remove", "Sail", "Sell", "Ship",
    "Step", "Store", "Storehouse", "Unload", "Unstore", "VERBS", "act", "parse",
]

PAYMENTS = frozenset(("influence", "gold", "reputation"))
_GOODS = tuple(f"g{i:02d}" for i in range(len(C.goods)))
_LOCS = tuple(loc.id for loc in C.locations)
_DECKS = ("religious", "trade", "unskilled", "official")
_ROWS = ("top", "middle", "bottom")


class Act(Action):
    """Base of every Cornish Smuggler action: ``<verb> [<item>] [to <place>] [with <payment>]``."""

    __slots__ = ()
    verb: ClassVar[str] = ""

    @property
    def item(self) -> str:
        return ""

    @property
    def to(self) -> str:
        return ""

    @property
    def pay(self) -> str:
        return ""

    def __str__(self) -> str:
        text = self.verb
        if self.item:
            text += " " + self.item
        if self.to:
            text += " to " + self.to
        if self.pay:
            text += " with " + self.pay
        return text


# -- set-up -------------------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Ship(Act):
    ship: int
    verb = "ship"

    @property
    def item(self) -> str:
        return C.ships[self.ship].id


@dataclass(frozen=True, slots=True)
class Storehouse(Act):
    store: int
    verb = "storehouse"

    @property
    def item(self) -> str:
        return C.storehouses[self.store].id


@dataclass(frozen=True, slots=True)
class Draw(Act):
    deck: int
    verb = "draw"

    @property
    def item(self) -> str:
        return _DECKS[self.deck]


@dataclass(frozen=True, slots=True)
class Keep(Act):
    card: int
    verb = "keep"

    @property
    def item(self) -> str:
        return C.characters[self.card].id


@dataclass(frozen=True, slots=True)
class Place(Act):
    """A Network Counter placed: the first one at set-up, or a hired Character's."""

    loc: int
    verb = "place"

    @property
    def item(self) -> str:
        return _LOCS[self.loc]


@dataclass(frozen=True, slots=True)
class Launch(Act):
    node: int
    verb = "launch"

    @property
    def item(self) -> str:
        return C.sea_ids[self.node]


# -- the Action/Cost table ------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Sail(Act):
    node: int
    pay: str
    verb = "sail"

    @property
    def to(self) -> str:
        return C.sea_ids[self.node]


@dataclass(frozen=True, slots=True)
class Carry(Act):
    goods: int
    loc: int
    pay: str
    verb = "carry"

    @property
    def item(self) -> str:
        return _GOODS[self.goods]

    @property
    def to(self) -> str:
        return _LOCS[self.loc]


@dataclass(frozen=True, slots=True)
class Escort(Act):
    goods: int
    loc: int
    pay: str
    verb = "escort"

    @property
    def item(self) -> str:
        return _GOODS[self.goods]

    @property
    def to(self) -> str:
        return _LOCS[self.loc]


@dataclass(frozen=True, slots=True)
class CounterMove(Act):
    frm: int
    loc: int
    pay: str
    verb = "counter"

    @property
    def item(self) -> str:
        return _LOCS[self.frm]

    @property
    def to(self) -> str:
        return _LOCS[self.loc]


@dataclass(frozen=True, slots=True)
class OfficerAction(Act):
    """Move a Customs Officer one space (the paid Action)."""

    officer: int
    loc: int
    pay: str
    verb = "officer"

    @property
    def item(self) -> str:
        return str(self.officer)

    @property
    def to(self) -> str:
        return _LOCS[self.loc]


@dataclass(frozen=True, slots=True)
class BuyReputation(Act):
    verb = "buy-reputation"


@dataclass(frozen=True, slots=True)
class HonestWork(Act):
    verb = "honest-work"


@dataclass(frozen=True, slots=True)
class Discover(Act):
    pay: str
    verb = "discover"


@dataclass(frozen=True, slots=True)
class Pass(Act):
    verb = "pass"


@dataclass(frozen=True, slots=True)
class Land(Act):
    verb = "land"


@dataclass(frozen=True, slots=True)
class Unload(Act):
    goods: int
    verb = "unload"

    @property
    def item(self) -> str:
        return _GOODS[self.goods]


@dataclass(frozen=True, slots=True)
class Done(Act):
    verb = "done"


@dataclass(frozen=True, slots=True)
class Hide(Act):
    influence: int
    verb = "hide"

    @property
    def item(self) -> str:
        return str(self.influence)


@dataclass(frozen=True, slots=True)
class Hire(Act):
    card: int
    pay: str
    verb = "hire"

    @property
    def item(self) -> str:
        return C.characters[self.card].id


@dataclass(frozen=True, slots=True)
class Buy(Act):
    goods: int
    verb = "buy"

    @property
    def item(self) -> str:
        return _GOODS[self.goods]


@dataclass(frozen=True, slots=True)
class Bribe(Act):
    officer: int
    verb = "bribe"

    @property
    def item(self) -> str:
        return str(self.officer)


@dataclass(frozen=True, slots=True)
class Sell(Act):
    goods: int
    verb = "sell"

    @property
    def item(self) -> str:
        return _GOODS[self.goods]


@dataclass(frozen=True, slots=True)
class Price(Act):
    row: int  # 0 top, 1 middle, 2 bottom
    pay: str
    verb = "price"

    @property
    def item(self) -> str:
        return _ROWS[self.row]


@dataclass(frozen=True, slots=True)
class Raid(Act):
    goods: int
    verb = "raid"

    @property
    def item(self) -> str:
        return _GOODS[self.goods]


@dataclass(frozen=True, slots=True)
class Discard(Act):
    card: int
    verb = "discard"

    @property
    def item(self) -> str:
        return C.characters[self.card].id


@dataclass(frozen=True, slots=True)
class Remove(Act):
    loc: int
    verb = "remove"

    @property
    def item(self) -> str:
        return _LOCS[self.loc]


@dataclass(frozen=True, slots=True)
class Store(Act):
    goods: int
    store: int
    verb = "store"

    @property
    def item(self) -> str:
        return _GOODS[self.goods]

    @property
    def to(self) -> str:
        return C.storehouses[self.store].id


@dataclass(frozen=True, slots=True)
class Unstore(Act):
    goods: int
    verb = "unstore"

    @property
    def item(self) -> str:
        return _GOODS[self.goods]


@dataclass(frozen=True, slots=True)
class Claim(Act):
    goods: int
    verb = "claim"

    @property
    def item(self) -> str:
        return _GOODS[self.goods]


@dataclass(frozen=True, slots=True)
class Move(Act):
    """Customs Movement: which of the equally near officers moves."""

    officer: int
    verb = "move"

    @property
    def item(self) -> str:
        return str(self.officer)


@dataclass(frozen=True, slots=True)
class Step(Act):
    loc: int
    verb = "step"

    @property
    def item(self) -> str:
        return _LOCS[self.loc]


@dataclass(frozen=True, slots=True)
class Post(Act):
    loc: int
    verb = "post"

    @property
    def item(self) -> str:
        return _LOCS[self.loc]


# -- cards -------------------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Motivate(Act):
    card: int
    pay: str
    verb = "motivate"

    @property
    def item(self) -> str:
        return C.characters[self.card].id


@dataclass(frozen=True, slots=True)
class Play(Act):
    secret: int
    verb = "play"

    @property
    def item(self) -> str:
        return C.secrets[self.secret].id


@dataclass(frozen=True, slots=True)
class Decline(Act):
    verb = "decline"


@dataclass(frozen=True, slots=True)
class Choose(Act):
    """A card's own choice: a seat (``seat-2``), goods, a place, an officer and where it goes, ``pay``...

    The card's handler reads ``item`` and ``to`` by the kind of target it asked for.
    """

    item: str
    to: str = ""
    verb = "choose"


# == notation ==========================================================================================
def _index(ids: dict[str, int], text: str, what: str) -> int:
    i = ids.get(text)
    if i is None:
        raise InvalidNotation(f"{text!r} is not a Cornish Smuggler {what}")
    return i


def _number(text: str, what: str) -> int:
    if not text.isdigit():
        raise InvalidNotation(f"{text!r} is not a number of {what}")
    return int(text)


_GOODS_ID = {g: i for i, g in enumerate(_GOODS)}
_LOC_ID = {x: i for i, x in enumerate(_LOCS)}
_SEA_ID = {x: i for i, x in enumerate(C.sea_ids)}
_SHIP_ID = {x.id: x.index for x in C.ships}
_STORE_ID = {x.id: x.index for x in C.storehouses}
_CHAR_ID = {x.id: x.index for x in C.characters}
_SECRET_ID = {x.id: x.index for x in C.secrets}
_DECK_ID = {x: i for i, x in enumerate(_DECKS)}
_ROW_ID = {x: i for i, x in enumerate(_ROWS)}


def _goods(t: str) -> int:
    return _index(_GOODS_ID, t, "Goods Shape (g00..)")


def _loc(t: str) -> int:
    return _index(_LOC_ID, t, "land space")


def _build(verb: str, item: str, to: str, pay: str) -> Act:
    """The action these notation parts name (ids checked); ``InvalidNotation`` if none."""
    if verb == "ship":
        return Ship(_index(_SHIP_ID, item, "Ship card"))
    if verb == "storehouse":
        return Storehouse(_index(_STORE_ID, item, "storehouse"))
    if verb == "draw":
        return Draw(_index(_DECK_ID, item, "Character stack"))
    if verb == "keep":
        return Keep(_index(_CHAR_ID, item, "Character"))
    if verb == "place":
        return Place(_loc(item))
    if verb == "launch":
        return Launch(_index(_SEA_ID, item, "sea space"))
    if verb == "sail":
        return Sail(_index(_SEA_ID, to, "sea space"), pay)
    if verb == "carry":
        return Carry(_goods(item), _loc(to), pay)
    if verb == "escort":
        return Escort(_goods(item), _loc(to), pay)
    if verb == "counter":
        return CounterMove(_loc(item), _loc(to), pay)
    if verb == "officer":
        return OfficerAction(_number(item, "a Customs Officer"), _loc(to), pay)
    if verb == "discover":
        return Discover(pay)
    if verb == "unload":
        return Unload(_goods(item))
    if verb == "hide":
        return Hide(_number(item, "Influence"))
    if verb == "hire":
        return Hire(_index(_CHAR_ID, item, "Character"), pay)
    if verb == "buy":
        return Buy(_goods(item))
    if verb == "bribe":
        return Bribe(_number(item, "a Customs Officer"))
    if verb == "sell":
        return Sell(_goods(item))
    if verb == "price":
        return Price(_index(_ROW_ID, item, "price row (top, middle, bottom)"), pay)
    if verb == "raid":
        return Raid(_goods(item))
    if verb == "discard":
        return Discard(_index(_CHAR_ID, item, "Character"))
    if verb == "remove":
        return Remove(_loc(item))
    if verb == "store":
        return Store(_goods(item), _index(_STORE_ID, to, "storehouse"))
    if verb == "unstore":
        return Unstore(_goods(item))
    if verb == "claim":
        return Claim(_goods(item))
    if verb == "move":
        return Move(_number(item, "a Customs Officer"))
    if verb == "step":
        return Step(_loc(item))
    if verb == "post":
        return Post(_loc(item))
    if verb == "motivate":
        return Motivate(_index(_CHAR_ID, item, "Character"), pay)
    if verb == "play":
        return Play(_index(_SECRET_ID, item, "Secrets card"))
    if verb == "choose":
        return Choose(item, to)
    return _PLAIN[verb]


_PLAIN: dict[str, Act] = {k.verb: k() for k in (BuyReputation, HonestWork, Pass, Land, Done, Decline)}
VERBS = frozenset(
    "ship storehouse draw keep place launch sail carry counter escort officer buy-reputation honest-work "
    "discover pass land unload done hide hire buy bribe sell price raid discard remove store unstore claim "
    "move step post motivate play decline choose".split()
)
_INTERNED: dict[tuple[str, str, str, str], Act] = {}


def act(verb: str, item: str = "", to: str = "", pay: str = "") -> Act:
    """The one shared instance of the action these notation parts name (legal_actions hands out interned values)."""
    key = (verb, item, to, pay)
    a = _INTERNED.get(key)
    if a is None:
        a = _INTERNED[key] = _build(verb, item, to, pay)
    return a


_NOTATION = re.compile(r"^([a-z-]+)(?: ([a-z0-9'-]+))?(?: to ([a-z0-9'-]+))?(?: with ([a-z]+))?$")


def parse(text: str) -> Act:
    norm = " ".join(text.split()).lower()
    m = _NOTATION.match(norm)
    if m is None or m.group(1) not in VERBS or (m.group(4) and m.group(4) not in PAYMENTS):
        raise InvalidNotation(
            f"{text!r} is not a Cornish Smuggler action; write '<verb> [<item>] [to <place>] [with influence|gold|"
            f"reputation]', e.g. 'sail to off-st-levan with influence' (verbs: {', '.join(sorted(VERBS))})"
        )
    a = act(m.group(1), m.group(2) or "", m.group(3) or "", m.group(4) or "")
    if str(a) != norm:
        raise InvalidNotation(f"{text!r} is not a Cornish Smuggler action: {m.group(1)} is written like '{a}'")
    return a
