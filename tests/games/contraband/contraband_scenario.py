"""Scenario helpers: positions built from a real set-up, cards moved, never invented."""

from __future__ import annotations

import freetrader
from freetrader.games.contraband.components import COMPONENTS as C

GAME = freetrader.game("contraband")


def k(article_id: str) -> int:
    return C.by_id[article_id]


def new(seats: int = 4, seed: int = 1, **options):
    """A fresh game with seat 0 as officer (by agreement) unless options say otherwise."""
    options.setdefault("first_officer", "agreement")
    return GAME.new_state(seats, seed, options)


def set_luggage(s, *article_ids: str) -> None:
    """Swap the holder's luggage for the named cards, taken from the pack (cards stay conserved)."""
    s.pack.extend(s.luggage)
    s.luggage = []
    for aid in article_ids:
        s.pack.remove(k(aid))
        s.luggage.append(k(aid))


def put_on_top(s, *article_ids: str) -> None:
    """Move the named cards to the top of the pack, first named drawn first."""
    for aid in reversed(article_ids):
        s.pack.remove(k(aid))
    for aid in reversed(article_ids):
        s.pack.append(k(aid))


def play(s, *notations: str) -> None:
    for text in notations:
        s.apply(text)


def money(s) -> int:
    return sum(s.cash) + s.unused


