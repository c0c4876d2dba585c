"""High Card actions and their notation.

| notation | who              | meaning                                   |
|----------|------------------|-------------------------------------------|
| ``stake``| the seat to act  | put the stake in the pot and stay in      |
| ``fold`` | the seat to act  | drop out; the card stays hidden           |
"""

from __future__ import annotations

from dataclasses import dataclass

from freetrader.core import Action, InvalidNotation

__all__ = ["Stake", "Fold", "STAKE", "FOLD", "parse"]


@dataclass(frozen=True, slots=True)
class Stake(Action):
    def __str__(self) -> str:
        return "stake"


@dataclass(frozen=True, slots=True)
class Fold(Action):
    def __str__(self) -> str:
        return "fold"


# Interned: legal_actions hands these out, so the checked apply matches them by identity.
STAKE, FOLD = Stake(), Fold()
_BY_TEXT: dict[str, Action] = {"stake": STAKE, "fold": FOLD}


def parse(text: str) -> Action:
    """The action named by ``text``; ``InvalidNotation`` naming the accepted forms otherwise."""
    found = _BY_TEXT.get(" ".join(text.split()).lower())
    if found is None:
        raise InvalidNotation(f"{text!r} is not a High Card action; write 'stake' or 'fold'")
    return found
