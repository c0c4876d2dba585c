"""High Card in the terminal: each seat's chips, decision and card, and the pot.

A game's ``render.py`` is imported through the registry the first time the
terminal draws a view of that game; it registers ``fn(view, names)`` with
``register_renderer``. The frame around it (title, log, prompt, legal actions,
scores) is shared. Without one, the generic renderer lists the view's fields.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from freetrader.cli.render import register_renderer, render_generic, seat_label

__all__ = ["render_high_card"]


def render_high_card(view: Mapping[str, Any], names: Sequence[str] | None = None) -> RenderableType:
    try:
        return _table(view, names)
    except (KeyError, TypeError, IndexError):  # a view of another version: list its fields
        return render_generic(view, names)


def _table(view: Mapping[str, Any], names: Sequence[str] | None) -> RenderableType:
    table = Table(show_edge=True, pad_edge=False)
    for col in ("seat", "chips", "decision", "card"):
        table.add_column(col)
    for seat in range(int(view["seats"])):
        card = view["cards"][seat]
        table.add_row(seat_label(seat, names, view.get("seat")), str(view["chips"][seat]),
                      view["decisions"][seat] or "-", "?" if card is None else str(card))
    return Group(table, Text(f"Pot {view['pot']} · stake {view['stake']} · {view['deck']} cards in the deck"))


register_renderer("high-card", render_high_card)
