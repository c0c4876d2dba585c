"""What the browser draws Merchants Cove from: adventurers, piers, merchants and every Townsfolk card.

Served at ``GET /api/games/merchants-cove/components`` and read by ``web.js``
beside this file, which keeps no copy of any of it: all 84 Townsfolk (the
base sets and the Secret Stash's) are drawn with their names, colours, costs
and icons from ``data/townsfolk.toml``. A data pack
(``$FREETRADER_DATA/merchants_cove/`` or ``data_dir``) overrides these files as
it does for the rules; ``data/drawing.toml`` holds the drawing's colours.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from freetrader.core.data import load_toml

from .components import COLOURS, COMPONENTS, GREY, PKG, SIZES, Components, load_components

__all__ = ["components"]


def components(data_dir: str | Path | None = None) -> dict[str, Any]:
    """Every fact about the pieces and cards ``web.js`` needs, as JSON-able dicts keyed by id."""
    c: Components = COMPONENTS if data_dir is None else load_components(data_dir)
    board = load_toml(PKG, "board.toml", data_dir)  # adventurer names are not kept by the rules
    return {
        "adventurers": {t["id"]: {"name": t["name"], "count": t["count"]} for t in board.get("adventurer", [])},
        "factions": [COLOURS[k] for k in range(len(COLOURS)) if k != GREY],
        "rogue": COLOURS[GREY],
        "common": dict(c.common),
        "merchants": {m.id: {"name": m.name, "actions": dict(m.actions)} for m in c.merchants.values()},
        "piers": {
            p.id: {"name": p.name, "sizes": [SIZES[z] for z in p.sizes], "corruption": p.corruption} for p in c.piers
        },
        "townsfolk": {
            t.id: {"name": t.name, "set": t.set, "colour": COLOURS[t.colour], "cost": t.cost,
                   "icons": [COLOURS[i] for i in t.icons], "ability": t.ability, "amount": t.amount}
            for t in c.townsfolk
        },
        "drawing": load_toml(PKG, "drawing.toml", data_dir),
    }
