"""Merchants Cove actions: one value type, ``Act``, whose notation is ``<verb> [<arg> [<arg>]]``.

Examples: ``merchant alchemist``, ``do load``, ``boat 3``, ``dock square-left``, ``hire baker``,
``shield blue``, ``discard c2``, ``sell large-blue bazaar``, ``rob 2``, ``done``; the merchants add
their own verbs (``pour 2``, ``into red``, ``die 1``, ``coal red``, ``again``, ``push r1-left``, ``worker 1 4``).

| verb | decision |
|---|---|
| ``merchant`` | set-up: choose a merchant |
| ``do`` | Production: move to an action space of your shop board |
| ``boat`` | place the drawn adventurer on a sailing Boat (1-6) |
| ``dock`` | dock a full Boat at a free pier slot |
| ``hire``, ``replace``, ``skip`` | Recruit/Replace Townsfolk |
| ``shield`` | Sponsor: a shield of a colour |
| ``discard`` | discard a Corruption card (by kind) |
| ``return``, ``take`` | Sailors: an adventurer off a sailing Boat (``return 3 red``, ``take 3 red``) |
| ``rob`` | Robbers: the rival who draws the Corruption |
| ``sell``, ``done`` | Market: sell a good at a pier, or stop |
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from freetrader.core import Action, InvalidNotation

__all__ = ["Act", "act", "parse", "VERBS", "register_verbs"]

VERBS = set("merchant do boat dock hire replace skip shield discard return take rob sell done".split())


def register_verbs(*verbs: str) -> None:
    """Merchants (and expansions) add the verbs of their own small decisions."""
    VERBS.update(verbs)


@dataclass(frozen=True, slots=True)
class Act(Action):
    verb: str
    a: str = ""
    b: str = ""

    def __str__(self) -> str:
        return " ".join(x for x in (self.verb, self.a, self.b) if x)


_INTERNED: dict[tuple[str, str, str], Act] = {}


def act(verb: str, a: object = "", b: object = "") -> Act:
    """The one shared instance of this action."""
    key = (verb, str(a), str(b))
    x = _INTERNED.get(key)
    if x is None:
        x = _INTERNED[key] = Act(*key)
    return x


_NOTATION = re.compile(r"^([a-z-]+)(?: ([a-z0-9-]+))?(?: ([a-z0-9-]+))?$")


def parse(text: str) -> Act:
    norm = " ".join(str(text).split()).lower()
    m = _NOTATION.match(norm)
    if m is None or m.group(1) not in VERBS:
        raise InvalidNotation(
            f"{text!r} is not a Merchants Cove action; write '<verb> [<arg> [<arg>]]', e.g. 'do load' or "
            f"'sell small-red square' (verbs: {', '.join(sorted(VERBS))})"
        )
    return act(m.group(1), m.group(2) or "", m.group(3) or "")
