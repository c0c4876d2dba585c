"""Precious Cargo actions and their notation.

Ships are numbered 1 to 3 for each player, in the order they were built; a
place is a settlement id (``garra``) or a dot id (``d3``); a crate is a cargo
id, or ``food@<settlement>`` for food, which remembers where it was bought.

| notation                  | when                | meaning                                          |
|---------------------------|---------------------|--------------------------------------------------|
| ``country <country>``     | set-up              | choose the country you lead (Set Up)             |
| ``first <seat>``          | set-up              | choose the player who goes first                 |
| ``home <settlement>``     | set-up              | your home settlement: Governor and first ship    |
| ``move <ship> <place>``   | moving              | sail one space along a line (How to Play)        |
| ``stop``                  | moving              | end the movement; go on to the actions           |
| ``build <settlement>``    | actions             | Build a New Hull there (pay 3)                   |
| ``sails <ship> <n>``      | actions             | Add n Sails to a Ship (pay n)                    |
| ``governor <settlement>`` | actions             | Install a Governor there                         |
| ``take <ship> <cargo>``   | actions, loading    | Take On Cargo: one crate onto that ship          |
| ``sell <ship> <crate>``   | actions, selling    | Sell Cargo: one crate from that ship             |
| ``done``                  | loading, selling    | finish taking on or selling cargo                |
| ``again <ship> <place>``  | actions             | Move One Ship Again: one more space              |
| ``end``                   | actions             | end the turn (up to two actions are allowed)     |
"""

from __future__ import annotations

from dataclasses import dataclass

from freetrader.core import Action, InvalidNotation

from .components import COMPONENTS as C
from .components import FOOD

__all__ = [
    "ChooseCountry", "ChooseFirst", "ChooseHome", "Move", "Stop", "Build", "AddSails", "Install", "Take", "Sell",
    "Done", "Again", "EndTurn", "STOP", "DONE", "END", "COUNTRY", "FIRST", "HOME", "MOVE", "AGAIN", "BUILD",
    "INSTALL", "SAILS", "TAKE", "SELL", "crate_token", "parse",
]

SHIPS = 3


@dataclass(frozen=True, slots=True)
class ChooseCountry(Action):
    country: str

    def __str__(self) -> str:
        return f"country {self.country}"


@dataclass(frozen=True, slots=True)
class ChooseFirst(Action):
    seat: int

    def __str__(self) -> str:
        return f"first {self.seat}"


@dataclass(frozen=True, slots=True)
class ChooseHome(Action):
    settlement: str

    def __str__(self) -> str:
        return f"home {self.settlement}"


@dataclass(frozen=True, slots=True)
class Move(Action):
    ship: int
    to: str

    def __str__(self) -> str:
        return f"move {self.ship} {self.to}"


@dataclass(frozen=True, slots=True)
class Stop(Action):
    def __str__(self) -> str:
        return "stop"


@dataclass(frozen=True, slots=True)
class Build(Action):
    settlement: str

    def __str__(self) -> str:
        return f"build {self.settlement}"


@dataclass(frozen=True, slots=True)
class AddSails(Action):
    ship: int
    n: int

    def __str__(self) -> str:
        return f"sails {self.ship} {self.n}"


@dataclass(frozen=True, slots=True)
class Install(Action):
    settlement: str

    def __str__(self) -> str:
        return f"governor {self.settlement}"


@dataclass(frozen=True, slots=True)
class Take(Action):
    ship: int
    cargo: str

    def __str__(self) -> str:
        return f"take {self.ship} {self.cargo}"


@dataclass(frozen=True, slots=True)
class Sell(Action):
    ship: int
    crate: str

    def __str__(self) -> str:
        return f"sell {self.ship} {self.crate}"


@dataclass(frozen=True, slots=True)
class Done(Action):
    def __str__(self) -> str:
        return "done"


@dataclass(frozen=True, slots=True)
class Again(Action):
    ship: int
    to: str

    def __str__(self) -> str:
        return f"again {self.ship} {self.to}"


@dataclass(frozen=True, slots=True)
class EndTurn(Action):
    def __str__(self) -> str:
        return "end"


def crate_token(code: int) -> str:
    """A crate's notation: ``food@<settlement>`` (below 8: food from that settlement) or its cargo id."""
    if code < 8:
        return f"{C.cargo[FOOD].id}@{C.places[code].id}"
    return C.cargo[code >> 3].id


# Interned instances, indexed by numbers the rules use: legal_actions hands
# these out, so apply's check is an identity test.
_S = range(C.n_settlements)
_P = range(len(C.places))
_CRATES = list(range(C.n_settlements)) + [k << 3 for k in range(1, C.n_cargo)]
STOP, DONE, END = Stop(), Done(), EndTurn()
COUNTRY = tuple(ChooseCountry(c.id) for c in C.countries)
FIRST = (ChooseFirst(0), ChooseFirst(1))
HOME = tuple(ChooseHome(C.places[p].id) for p in _S)
BUILD = tuple(Build(C.places[p].id) for p in _S)
INSTALL = tuple(Install(C.places[p].id) for p in _S)
MOVE = tuple(tuple(Move(k + 1, C.places[p].id) for p in _P) for k in range(SHIPS))  # [ship k][place]
AGAIN = tuple(tuple(Again(k + 1, C.places[p].id) for p in _P) for k in range(SHIPS))
SAILS = tuple(tuple(AddSails(k + 1, n) for n in range(C.max_sails + 1)) for k in range(SHIPS))  # [ship k][n]
TAKE = tuple(tuple(Take(k + 1, c.id) for c in C.cargo) for k in range(SHIPS))  # [ship k][type]
SELL = tuple({code: Sell(k + 1, crate_token(code)) for code in _CRATES} for k in range(SHIPS))  # [ship k][crate]

_BY_TEXT: dict[str, Action] = {}
for _a in (STOP, DONE, END, *COUNTRY, *FIRST, *HOME, *BUILD, *INSTALL):
    _BY_TEXT[str(_a)] = _a
for _k in range(SHIPS):
    for _a in (*MOVE[_k], *AGAIN[_k], *SAILS[_k][1:], *TAKE[_k], *SELL[_k].values()):
        _BY_TEXT[str(_a)] = _a


def parse(text: str) -> Action:
    """The action named by ``text``; ``InvalidNotation`` with the accepted forms otherwise."""
    found = _BY_TEXT.get(" ".join(text.split()).lower())
    if found is None:
        raise InvalidNotation(
            f"{text!r} is not a Precious Cargo action; write one of: country <country>, first <seat>, "
            "home <settlement>, move <ship> <place>, stop, build <settlement>, sails <ship> <1-3>, "
            "governor <settlement>, take <ship> <cargo>, sell <ship> <crate>, done, again <ship> <place>, end "
            "(ships 1-3; a place is a settlement or dot id; food crates are written food@<settlement>)"
        )
    return found
