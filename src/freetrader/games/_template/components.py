"""The cards and the starting chips, read once from ``data/cards.toml``."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from freetrader.core import DataError
from freetrader.core.data import Table, load_toml

__all__ = ["Card", "Components", "load_components", "COMPONENTS", "MAX_SEATS"]

MAX_SEATS = 4


@dataclass(frozen=True)
class Card:
    """One kind of card: its id and name (what the browser and the log call it), value and copies."""

    id: str
    name: str
    value: int
    count: int


@dataclass(frozen=True)
class Components:
    start_chips: int
    cards: tuple[Card, ...]
    deck: tuple[int, ...]  # one entry per card: its value


def load_components(data_dir: str | Path | None = None) -> Components:
    raw = load_toml(__package__ or "freetrader.games._template", "cards.toml", data_dir)
    top = Table(raw, "cards.toml")
    chips = Table(top.get("chips", dict), "cards.toml [chips]")
    start = chips.get("start", int)
    chips.provenance()
    chips.done()
    if start < 1:
        raise DataError(f"cards.toml [chips]: start must be at least 1, got {start}")
    cards: list[Card] = []
    for i, entry in enumerate(top.get("card", list)):
        t = Table(entry, f"cards.toml card {i + 1}")
        card = Card(t.get("id", str), t.get("name", str), t.get("value", int), t.get("count", int))
        t.provenance()
        t.done()
        if card.value < 1 or card.count < 1:
            raise DataError(f"{t.where}: value and count must be at least 1, got value={card.value} count={card.count}")
        if any(c.id == card.id for c in cards):
            raise DataError(f"{t.where}: the id {card.id!r} is used twice")
        cards.append(card)
    deck = [c.value for c in cards for _ in range(c.count)]
    top.done()
    # Every seat is dealt one card, so a smaller deck could not start a full table.
    if len(deck) < MAX_SEATS:
        raise DataError(f"cards.toml: the deck needs at least {MAX_SEATS} cards (one per seat), it has {len(deck)}")
    return Components(start_chips=start, cards=tuple(cards), deck=tuple(deck))


COMPONENTS = load_components()
