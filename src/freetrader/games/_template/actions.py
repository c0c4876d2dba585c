"""High Card actions and their notation.

| notation  | who                         | meaning                                         |
|-----------|-----------------------------|-------------------------------------------------|
| ``stake`` | the seat to bet             | put the stake in the pot and stay in            |
| ``fold``  | the seat to bet             | drop out; the card stays hidden                 |
| ``raise`` | the seat to bet             | stake, then raise (a second decision: by how much) |
| ``by N``  | the raiser                  | raise by N chips (1 or 2)                       |
| ``call``  | an earlier staker, asked    | pay the raise and stay in                       |
| ``decline`` | an earlier staker, asked  | do not pay: leave the showdown                  |
"""

from __future__ import annotations

from dataclasses import dataclass

from freetrader.core import Action, InvalidNotation

__all__ = ["Call", "Decline", "Fold", "Raise", "RaiseBy", "Stake", "CALL", "DECLINE", "FOLD", "RAISE", "STAKE",
           "RAISES", "parse"]

MAX_RAISE = 2


@dataclass(frozen=True, slots=True)
class Stake(Action):
    def __str__(self) -> str:
        return "stake"


@dataclass(frozen=True, slots=True)
class Fold(Action):
    def __str__(self) -> str:
        return "fold"


@dataclass(frozen=True, slots=True)
class Raise(Action):
    def __str__(self) -> str:
        return "raise"


@dataclass(frozen=True, slots=True)
class RaiseBy(Action):
    chips: int

    def __str__(self) -> str:
        return f"by {self.chips}"


@dataclass(frozen=True, slots=True)
class Call(Action):
    def __str__(self) -> str:
        return "call"


@dataclass(frozen=True, slots=True)
class Decline(Action):
    def __str__(self) -> str:
        return "decline"


# Interned: legal_actions hands these out, so the checked apply matches them by identity.
STAKE, FOLD, RAISE, CALL, DECLINE = Stake(), Fold(), Raise(), Call(), Decline()
RAISES = tuple(RaiseBy(n) for n in range(1, MAX_RAISE + 1))
_BY_TEXT: dict[str, Action] = {str(a): a for a in (STAKE, FOLD, RAISE, CALL, DECLINE, *RAISES)}


def parse(text: str) -> Action:
    """The action named by ``text``; ``InvalidNotation`` naming the accepted forms otherwise."""
    found = _BY_TEXT.get(" ".join(text.split()).lower())
    if found is None:
        forms = ", ".join(repr(t) for t in _BY_TEXT)
        raise InvalidNotation(f"{text!r} is not a High Card action; write one of {forms}")
    return found
