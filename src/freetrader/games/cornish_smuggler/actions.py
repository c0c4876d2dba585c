"""Cornish Smuggler actions: one value type, ``Act``, whose notation is

    <verb> [<item>] [to <place>] [with <payment>]

e.g. ``sail off-st-levan with influence``, ``carry g07 to madron with gold``,
``land``, ``unload g07``, ``hide 2``, ``sell g07``, ``price middle with
reputation``, ``hire allen-cutler with influence``, ``place breage``.
Items and places are ids from the data files (goods pieces are ``g00``..),
officers are ``officer-N``. The verbs:

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

from freetrader.core import Action, InvalidNotation

__all__ = ["Act", "act", "parse", "VERBS"]

VERBS = frozenset(
    "ship storehouse draw keep place launch sail carry counter escort officer buy-reputation honest-work "
    "discover pass land unload done hide hire buy bribe sell price raid discard remove store unstore claim "
    "move step post motivate play decline choose".split()
)
PAYMENTS = frozenset(("influence", "gold", "reputation"))


@dataclass(frozen=True, slots=True)
class Act(Action):
    verb: str
    item: str = ""
    to: str = ""
    pay: str = ""

    def __str__(self) -> str:
        text = self.verb
        if self.item:
            text += " " + self.item
        if self.to:
            text += " to " + self.to
        if self.pay:
            text += " with " + self.pay
        return text


_INTERNED: dict[tuple[str, str, str, str], Act] = {}


def act(verb: str, item: str = "", to: str = "", pay: str = "") -> Act:
    """The one shared instance of this action (legal_actions hands out interned values)."""
    key = (verb, item, to, pay)
    a = _INTERNED.get(key)
    if a is None:
        a = _INTERNED[key] = Act(verb, item, to, pay)
    return a


_NOTATION = re.compile(r"^([a-z-]+)(?: ([a-z0-9'-]+))?(?: to ([a-z0-9'-]+))?(?: with ([a-z]+))?$")


def parse(text: str) -> Act:
    norm = " ".join(text.split()).lower()
    m = _NOTATION.match(norm)
    if m is None or m.group(1) not in VERBS or (m.group(4) and m.group(4) not in PAYMENTS):
        raise InvalidNotation(
            f"{text!r} is not a Cornish Smuggler action; write '<verb> [<item>] [to <place>] [with influence|gold|"
            f"reputation]', e.g. 'sail off-st-levan with influence' (verbs: {', '.join(sorted(VERBS))})"
        )
    return act(m.group(1), m.group(2) or "", m.group(3) or "", m.group(4) or "")
