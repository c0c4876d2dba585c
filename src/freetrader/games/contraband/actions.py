"""Contraband actions and their notation.

| notation              | who                      | meaning                                          |
|-----------------------|--------------------------|--------------------------------------------------|
| ``claim <article>``   | luggage holder           | add one article to the declaration (par. 3)      |
| ``claim diplomatic-bag`` | luggage holder        | declare a Diplomatic Bag; ends the declaration   |
| ``declare``           | luggage holder           | end the declaration; duty is paid (List A)       |
| ``search``            | Customs Officer          | search the luggage just declared (par. 3-4)      |
| ``wave``              | Customs Officer          | let it through unsearched                        |
| ``accept``            | next player              | take the luggage (par. 5)                        |
| ``inform``            | next player              | become an Informer (par. 6)                      |
| ``discard <article>`` | player who accepted      | discard one card, then draw one (par. 5, 8)      |
| ``borrow <seat>``     | player short of funds    | borrow the shortfall from that seat (par. 7)     |
| ``retire``            | player short of funds    | pay what is left and retire from the game        |
"""

from __future__ import annotations

from dataclasses import dataclass

from freetrader.core import Action, InvalidNotation

from .components import COMPONENTS

__all__ = [
    "Claim", "Declare", "Search", "Wave", "Accept", "Inform", "Discard", "Borrow", "Retire",
    "DECLARE", "SEARCH", "WAVE", "ACCEPT", "INFORM", "RETIRE", "CLAIMS", "DISCARDS", "borrow", "parse",
]


@dataclass(frozen=True, slots=True)
class Claim(Action):
    article: str

    def __str__(self) -> str:
        return f"claim {self.article}"


@dataclass(frozen=True, slots=True)
class Declare(Action):
    def __str__(self) -> str:
        return "declare"


@dataclass(frozen=True, slots=True)
class Search(Action):
    def __str__(self) -> str:
        return "search"


@dataclass(frozen=True, slots=True)
class Wave(Action):
    def __str__(self) -> str:
        return "wave"


@dataclass(frozen=True, slots=True)
class Accept(Action):
    def __str__(self) -> str:
        return "accept"


@dataclass(frozen=True, slots=True)
class Inform(Action):
    def __str__(self) -> str:
        return "inform"


@dataclass(frozen=True, slots=True)
class Discard(Action):
    article: str

    def __str__(self) -> str:
        return f"discard {self.article}"


@dataclass(frozen=True, slots=True)
class Borrow(Action):
    lender: int

    def __str__(self) -> str:
        return f"borrow {self.lender}"


@dataclass(frozen=True, slots=True)
class Retire(Action):
    def __str__(self) -> str:
        return "retire"


# Interned instances: legal_actions hands out these, so apply's check is an identity test.
DECLARE, SEARCH, WAVE, ACCEPT, INFORM, RETIRE = Declare(), Search(), Wave(), Accept(), Inform(), Retire()
CLAIMS: tuple[Claim, ...] = tuple(Claim(a.id) for a in COMPONENTS.articles)  # by article index
DISCARDS: tuple[Discard, ...] = tuple(Discard(a.id) for a in COMPONENTS.articles)
_BORROWS: dict[int, Borrow] = {}


def borrow(seat: int) -> Borrow:
    b = _BORROWS.get(seat)
    if b is None:
        b = _BORROWS[seat] = Borrow(seat)
    return b


_SIMPLE: dict[str, Action] = {str(a): a for a in (DECLARE, SEARCH, WAVE, ACCEPT, INFORM, RETIRE)}
_SIMPLE.update({str(a): a for a in CLAIMS if COMPONENTS.articles[COMPONENTS.by_id[a.article]].dutiable or a.article == COMPONENTS.articles[COMPONENTS.bag].id})
_SIMPLE.update({str(a): a for a in DISCARDS})


def parse(text: str) -> Action:
    """The action named by ``text``; ``InvalidNotation`` with the accepted forms otherwise."""
    norm = " ".join(text.split()).lower()
    found = _SIMPLE.get(norm)
    if found is not None:
        return found
    word, _, rest = norm.partition(" ")
    if word == "borrow" and rest.isdigit():
        return borrow(int(rest))
    articles = ", ".join(a.id for a in COMPONENTS.articles)
    raise InvalidNotation(
        f"{text!r} is not a Contraband action; write one of: claim <article>, declare, search, wave, "
        f"accept, inform, discard <article>, borrow <seat>, retire (articles: {articles})"
    )
