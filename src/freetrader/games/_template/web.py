"""What the browser draws High Card from: the cards and the starting chips, and the drawing's own words.

A game's ``web.py`` gives ``components(data_dir=None)``: every fact about the
game's pieces and cards that its ``web.js`` draws, as JSON-able data built
from the same data files the rules read (a data pack overrides them as it does
for the rules). The server serves it at ``GET /api/games/{game}/components``
and the browser hands it to the renderer's ``init``; ``web.js`` copies none of it.

Each section of pieces is keyed by id and each entry has its ``name``
(``tests/web/test_game_files.py`` looks for them in ``web.js`` to prove it
copies no data). ``drawing`` is ``data/drawing.toml``: what the drawing and
the lobby form add (words a player reads for each option).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from freetrader.core.data import load_toml
from freetrader.core.moves import Move, plain

from .components import COMPONENTS, Components, load_components

__all__ = ["components", "moves"]


def components(data_dir: str | Path | None = None) -> dict[str, Any]:
    c: Components = COMPONENTS if data_dir is None else load_components(data_dir)
    return {
        "cards": {card.id: {"name": card.name, "value": card.value, "count": card.count} for card in c.cards},
        "start_chips": c.start_chips,
        "drawing": load_toml(__package__ or "freetrader.games._template", "drawing.toml", data_dir),
    }


def moves(state: Any, seat: int) -> list[Move]:
    """Every legal action of the seat to act as data for the page (``core.moves.Move``): its verb, the ids it
    names by role, what it costs and pays (from the rules' own functions). High Card's are plain."""
    if state.to_act != seat or state.is_over:
        return []
    return [plain(a) for a in state.legal_actions()]
