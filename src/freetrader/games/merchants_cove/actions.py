"""Merchants Cove actions: one frozen dataclass per kind, each with its notation ``<verb> [<arg> [<arg>]]``.

Actions hold indices (a Boat, a colour, a good, a card of ``components``); the
notation shows them by their ids, Boats, dice, ships, workers and Staff spaces
counted from 1. The grammar is complete here: every verb, the merchants' too.

| notation | decision |
|---|---|
| ``merchant <id>`` | set-up: choose a merchant |
| ``do <space>`` | Production: move to an action space of your shop board |
| ``boat <n>`` | place the drawn adventurer on a sailing Boat |
| ``dock <slot>`` | dock a full Boat at a free pier slot |
| ``hire <townsfolk>``, ``replace <townsfolk>``, ``skip`` | Recruit/Replace Townsfolk |
| ``shield <colour>`` | Sponsor: a shield of a colour |
| ``discard <card>`` | discard a Corruption card (by kind) |
| ``return <n> <adventurer>``, ``take <n> <adventurer>`` | Sailors: an adventurer off a sailing Boat |
| ``rob <seat>`` | Robbers: the rival who draws the Corruption |
| ``sell <good> [rogues-]<pier>``, ``done`` | Market: sell a good at a pier, or stop |
| ``challenge`` | solo: complete the active Challenge card |
| ``kraken <n> <adventurer>`` | Kraken: the Customer dragged into the bay |
| ``hall <colour>`` | Doppelgangers: the Faction Hall |
| ``kill <townsfolk>`` | Assassins: the Town Square card discarded |
| ``mind <adventurer>`` | Mind Controllers: the Customer sent back to the bag |
| ``raid <townsfolk>`` | Raiders: the Town Square ability used |
| ``staff <n>`` | Officials: the Staff Ability activated |
| ``pay <card>``, ``give <good>`` | discard a Corruption card by paying its cost; a Good paying it |
| ``draw``, ``lure <adventurer> gold|corruption`` | Dragon Island Festival |
| ``pour <n>``, ``into <colour>`` | Alchemist: a marble group off the slide; the cauldron for Ichor |
| ``keep colours|none``, ``die <n>``, ``coal <colour>`` | Blacksmith |
| ``ship <n>``, ``again``, ``stop``, ``treasure <colour>`` | Captain |
| ``push <edge>``, ``worker <n> <cell>`` | Chronomancer: slide the spare tile in; a worker's step |
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from freetrader.core import Action, InvalidNotation

from .components import ADV_NAMES, COLOURS, GOOD_IDS
from .components import COMPONENTS as C

__all__ = [
    "Again", "Boat", "Challenge", "Coal", "Die", "Discard", "Do", "Dock", "Done", "Draw", "Give", "Hall", "Hire",
    "Into", "Keep", "Kill", "Kraken", "Lure", "Merchant", "Mind", "Pay", "Pour", "Push", "Raid", "Replace",
    "Return", "Rob", "Sell", "Shield", "Ship", "Skip", "Staff", "Stop", "Take", "Treasure", "Worker",
    "AGAIN", "CHALLENGE", "DONE", "DRAW", "SKIP", "STOP", "COMMON", "PIER_IDS", "SLOT_IDS", "VERBS", "parse",
    "BOATS", "DOCKS", "HIRES", "REPLACES", "SHIELDS", "DISCARDS", "RETURNS", "TAKES", "SELLS", "KRAKENS", "HALLS",
    "KILLS", "MINDS", "RAIDS", "ROBS", "STAFFS", "PAYS", "GIVES", "LURES", "INTOS", "COALS", "TREASURES", "KEEPS",
]

COMMON = ("load", "recruit", "sponsor")
SLOT_IDS = tuple(
    C.piers[p].id if len(C.piers[p].sides) == 1 else f"{C.piers[p].id}-{('left', 'right')[sd]}" for p, sd in C.slots
)
PIER_IDS = tuple(p.id for p in C.piers)
_TF = tuple(t.id for t in C.townsfolk)
_CORR = tuple(c.id for c in C.corruption)
_EDGES = ("left", "right", "top", "bottom")


# == set-up, Production, boats =========================================================================
@dataclass(frozen=True, slots=True)
class Merchant(Action):
    merchant: str

    def __str__(self) -> str:
        return f"merchant {self.merchant}"


@dataclass(frozen=True, slots=True)
class Do(Action):
    space: str  # a common action or one of the merchant's

    def __str__(self) -> str:
        return f"do {self.space}"


@dataclass(frozen=True, slots=True)
class Boat(Action):
    boat: int

    def __str__(self) -> str:
        return f"boat {self.boat + 1}"


@dataclass(frozen=True, slots=True)
class Dock(Action):
    slot: int

    def __str__(self) -> str:
        return f"dock {SLOT_IDS[self.slot]}"


@dataclass(frozen=True, slots=True)
class Hire(Action):
    townsfolk: int

    def __str__(self) -> str:
        return f"hire {_TF[self.townsfolk]}"


@dataclass(frozen=True, slots=True)
class Replace(Action):
    townsfolk: int

    def __str__(self) -> str:
        return f"replace {_TF[self.townsfolk]}"


@dataclass(frozen=True, slots=True)
class Skip(Action):
    def __str__(self) -> str:
        return "skip"


@dataclass(frozen=True, slots=True)
class Shield(Action):
    colour: int

    def __str__(self) -> str:
        return f"shield {COLOURS[self.colour]}"


@dataclass(frozen=True, slots=True)
class Discard(Action):
    card: int

    def __str__(self) -> str:
        return f"discard {_CORR[self.card]}"


@dataclass(frozen=True, slots=True)
class Return(Action):
    boat: int
    adventurer: int

    def __str__(self) -> str:
        return f"return {self.boat + 1} {ADV_NAMES[self.adventurer]}"


@dataclass(frozen=True, slots=True)
class Take(Action):
    boat: int
    adventurer: int

    def __str__(self) -> str:
        return f"take {self.boat + 1} {ADV_NAMES[self.adventurer]}"


@dataclass(frozen=True, slots=True)
class Rob(Action):
    seat: int

    def __str__(self) -> str:
        return f"rob {self.seat}"


# == Market ===========================================================================================
@dataclass(frozen=True, slots=True)
class Sell(Action):
    good: int
    pier: int
    rogues: bool  # to the Rogues at the pier (Cultists), not the good's colour

    def __str__(self) -> str:
        return f"sell {GOOD_IDS[self.good]} {'rogues-' if self.rogues else ''}{PIER_IDS[self.pier]}"


@dataclass(frozen=True, slots=True)
class Done(Action):
    def __str__(self) -> str:
        return "done"


# == Secret Stash =====================================================================================
@dataclass(frozen=True, slots=True)
class Challenge(Action):
    def __str__(self) -> str:
        return "challenge"


@dataclass(frozen=True, slots=True)
class Kraken(Action):
    boat: int
    adventurer: int

    def __str__(self) -> str:
        return f"kraken {self.boat + 1} {ADV_NAMES[self.adventurer]}"


@dataclass(frozen=True, slots=True)
class Hall(Action):
    colour: int

    def __str__(self) -> str:
        return f"hall {COLOURS[self.colour]}"


@dataclass(frozen=True, slots=True)
class Kill(Action):
    townsfolk: int

    def __str__(self) -> str:
        return f"kill {_TF[self.townsfolk]}"


@dataclass(frozen=True, slots=True)
class Mind(Action):
    adventurer: int

    def __str__(self) -> str:
        return f"mind {ADV_NAMES[self.adventurer]}"


@dataclass(frozen=True, slots=True)
class Raid(Action):
    townsfolk: int

    def __str__(self) -> str:
        return f"raid {_TF[self.townsfolk]}"


@dataclass(frozen=True, slots=True)
class Staff(Action):
    space: int

    def __str__(self) -> str:
        return f"staff {self.space + 1}"


@dataclass(frozen=True, slots=True)
class Pay(Action):
    card: int

    def __str__(self) -> str:
        return f"pay {_CORR[self.card]}"


@dataclass(frozen=True, slots=True)
class Give(Action):
    good: int

    def __str__(self) -> str:
        return f"give {GOOD_IDS[self.good]}"


@dataclass(frozen=True, slots=True)
class Draw(Action):
    def __str__(self) -> str:
        return "draw"


@dataclass(frozen=True, slots=True)
class Lure(Action):
    adventurer: int
    corruption: bool  # paid with 1 Corruption card rather than Gold

    def __str__(self) -> str:
        return f"lure {ADV_NAMES[self.adventurer]} {'corruption' if self.corruption else 'gold'}"


# == the merchants' own steps ===============================================================================
@dataclass(frozen=True, slots=True)
class Pour(Action):
    marble: int  # place on the slide, from the bottom

    def __str__(self) -> str:
        return f"pour {self.marble + 1}"


@dataclass(frozen=True, slots=True)
class Into(Action):
    colour: int

    def __str__(self) -> str:
        return f"into {COLOURS[self.colour]}"


@dataclass(frozen=True, slots=True)
class Keep(Action):
    colours: bool

    def __str__(self) -> str:
        return f"keep {'colours' if self.colours else 'none'}"


@dataclass(frozen=True, slots=True)
class Die(Action):
    die: int

    def __str__(self) -> str:
        return f"die {self.die + 1}"


@dataclass(frozen=True, slots=True)
class Coal(Action):
    colour: int

    def __str__(self) -> str:
        return f"coal {COLOURS[self.colour]}"


@dataclass(frozen=True, slots=True)
class Ship(Action):
    ship: int

    def __str__(self) -> str:
        return f"ship {self.ship + 1}"


@dataclass(frozen=True, slots=True)
class Again(Action):
    def __str__(self) -> str:
        return "again"


@dataclass(frozen=True, slots=True)
class Stop(Action):
    def __str__(self) -> str:
        return "stop"


@dataclass(frozen=True, slots=True)
class Treasure(Action):
    colour: int

    def __str__(self) -> str:
        return f"treasure {COLOURS[self.colour]}"


@dataclass(frozen=True, slots=True)
class Push(Action):
    column: bool  # a column (pushed from the top or bottom) rather than a row (from the left or right)
    line: int
    far: bool  # from the right or the bottom

    @property
    def edge(self) -> str:
        """``r1-left`` ... ``c3-bottom``."""
        return f"{'c' if self.column else 'r'}{self.line + 1}-{_EDGES[self.column * 2 + self.far]}"

    def __str__(self) -> str:
        return f"push {self.edge}"


@dataclass(frozen=True, slots=True)
class Worker(Action):
    worker: int
    cell: int

    def __str__(self) -> str:
        return f"worker {self.worker + 1} {self.cell + 1}"


SKIP, DONE, CHALLENGE, DRAW, AGAIN, STOP = Skip(), Done(), Challenge(), Draw(), Again(), Stop()

# Shared instances for the legal lists (no allocation on the hot path; ``apply`` finds them by identity).
_NB, _NA, _NG = C.boat_count + 3, len(ADV_NAMES), len(GOOD_IDS)
BOATS = tuple(Boat(b) for b in range(_NB))
DOCKS = tuple(Dock(k) for k in range(len(SLOT_IDS)))
HIRES = tuple(Hire(t) for t in range(len(_TF)))
REPLACES = tuple(Replace(t) for t in range(len(_TF)))
SHIELDS = tuple(Shield(c) for c in range(4))
DISCARDS = tuple(Discard(c) for c in range(len(_CORR)))
RETURNS = tuple(tuple(Return(b, c) for c in range(_NA)) for b in range(_NB))
TAKES = tuple(tuple(Take(b, c) for c in range(_NA)) for b in range(_NB))
SELLS = tuple(tuple((Sell(g, p, False), Sell(g, p, True)) for p in range(len(PIER_IDS))) for g in range(_NG))
KRAKENS = tuple(tuple(Kraken(b, c) for c in range(_NA)) for b in range(_NB))
HALLS = tuple(Hall(c) for c in range(4))
KILLS = tuple(Kill(t) for t in range(len(_TF)))
MINDS = tuple(Mind(c) for c in range(_NA))
RAIDS = tuple(Raid(t) for t in range(len(_TF)))
STAFFS = tuple(Staff(k) for k in range(C.staff_spaces))
PAYS = tuple(Pay(c) for c in range(len(_CORR)))
GIVES = tuple(Give(g) for g in range(_NG))
LURES = tuple((Lure(c, False), Lure(c, True)) for c in range(_NA))
INTOS = tuple(Into(c) for c in range(4))
COALS = tuple(Coal(c) for c in range(4))
TREASURES = tuple(Treasure(c) for c in range(4))
KEEPS = (Keep(False), Keep(True))
ROBS = tuple(Rob(q) for q in range(5))  # at most 4 seats and the Peddler


# == notation ===========================================================================================
class _Bad(Exception):
    pass


def _index(names: tuple[str, ...] | list[str], x: str) -> int:
    try:
        return names.index(x)
    except ValueError:
        raise _Bad(f"{x!r} is not one of {', '.join(names)}") from None


def _number(x: str, most: int) -> int:
    if not x.isdigit() or not 1 <= int(x) <= most:
        raise _Bad(f"{x!r} is not a number from 1 to {most}")
    return int(x) - 1


def _seat(x: str) -> int:
    if not x.isdigit():
        raise _Bad(f"{x!r} is not a seat number")
    return int(x)


def _choice(x: str, yes: str, no: str) -> bool:
    if x not in (yes, no):
        raise _Bad(f"{x!r} is not {yes} or {no}")
    return x == yes


def _space(x: str) -> str:
    if x in COMMON or any(x in m.actions for m in C.merchants.values()):
        return x
    raise _Bad(f"{x!r} is not an action space")


def _merchant(x: str) -> str:
    if x in C.merchants:
        return x
    raise _Bad(f"{x!r} is not one of {', '.join(sorted(C.merchants))}")


def _sell(good: str, pier: str) -> Sell:
    rogues = pier.startswith("rogues-")
    return Sell(_index(GOOD_IDS, good), _index(PIER_IDS, pier.removeprefix("rogues-")), rogues)


def _push(x: str) -> Push:
    line, _, edge = x.partition("-")
    if len(line) != 2 or line[0] not in "rc" or not line[1].isdigit() or not 1 <= int(line[1]) <= 3:
        raise _Bad(f"{x!r} is not an edge like r1-left or c2-top")
    column = line[0] == "c"
    edges = _EDGES[2:] if column else _EDGES[:2]
    return Push(column, int(line[1]) - 1, _choice(edge, edges[1], edges[0]))


_ADV = list(ADV_NAMES)
_COL4 = list(COLOURS[:4])
#: verb -> (number of arguments, how to build the action from them)
_GRAMMAR: dict[str, tuple[int, Callable[..., Action]]] = {
    "merchant": (1, lambda a: Merchant(_merchant(a))),
    "do": (1, lambda a: Do(_space(a))),
    "boat": (1, lambda a: Boat(_number(a, 99))),
    "dock": (1, lambda a: Dock(_index(SLOT_IDS, a))),
    "hire": (1, lambda a: Hire(_index(_TF, a))),
    "replace": (1, lambda a: Replace(_index(_TF, a))),
    "skip": (0, lambda: SKIP),
    "shield": (1, lambda a: Shield(_index(_COL4, a))),
    "discard": (1, lambda a: Discard(_index(_CORR, a))),
    "return": (2, lambda a, b: Return(_number(a, 99), _index(_ADV, b))),
    "take": (2, lambda a, b: Take(_number(a, 99), _index(_ADV, b))),
    "rob": (1, lambda a: Rob(_seat(a))),
    "sell": (2, _sell),
    "done": (0, lambda: DONE),
    "challenge": (0, lambda: CHALLENGE),
    "kraken": (2, lambda a, b: Kraken(_number(a, 99), _index(_ADV, b))),
    "hall": (1, lambda a: Hall(_index(_COL4, a))),
    "kill": (1, lambda a: Kill(_index(_TF, a))),
    "mind": (1, lambda a: Mind(_index(_ADV, a))),
    "raid": (1, lambda a: Raid(_index(_TF, a))),
    "staff": (1, lambda a: Staff(_number(a, 99))),
    "pay": (1, lambda a: Pay(_index(_CORR, a))),
    "give": (1, lambda a: Give(_index(GOOD_IDS, a))),
    "draw": (0, lambda: DRAW),
    "lure": (2, lambda a, b: Lure(_index(_ADV, a), _choice(b, "corruption", "gold"))),
    "pour": (1, lambda a: Pour(_number(a, 99))),
    "into": (1, lambda a: Into(_index(_COL4, a))),
    "keep": (1, lambda a: Keep(_choice(a, "colours", "none"))),
    "die": (1, lambda a: Die(_number(a, 99))),
    "coal": (1, lambda a: Coal(_index(_COL4, a))),
    "ship": (1, lambda a: Ship(_number(a, 99))),
    "again": (0, lambda: AGAIN),
    "stop": (0, lambda: STOP),
    "treasure": (1, lambda a: Treasure(_index(_COL4, a))),
    "push": (1, _push),
    "worker": (2, lambda a, b: Worker(_number(a, 2), _number(b, 9))),
}
VERBS = frozenset(_GRAMMAR)


def parse(text: str) -> Action:
    """The action a notation names; ``InvalidNotation`` saying what is wrong otherwise."""
    words = str(text).lower().split()
    rule = _GRAMMAR.get(words[0]) if words else None
    if rule is None:
        raise InvalidNotation(
            f"{text!r} is not a Merchants Cove action; write '<verb> [<arg> [<arg>]]', e.g. 'do load' or "
            f"'sell small-red square' (verbs: {', '.join(sorted(VERBS))})"
        )
    n, build = rule
    if len(words) != n + 1:
        raise InvalidNotation(f"{text!r}: '{words[0]}' takes {n} argument{'s' if n != 1 else ''}, got {len(words) - 1}")
    try:
        return build(*words[1:])
    except _Bad as exc:
        raise InvalidNotation(f"{text!r}: {exc}") from None
