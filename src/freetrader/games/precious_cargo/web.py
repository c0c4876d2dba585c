"""What the browser draws Precious Cargo from: the countries, the places and the commodities.

Served at ``GET /api/games/precious-cargo/components`` and read by ``web.js``
beside this file, which keeps no copy of any of it. A data pack
(``$FREETRADER_DATA/precious_cargo/`` or ``data_dir``) overrides these files as
it does for the rules; ``data/drawing.toml`` holds the drawing's colours.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from freetrader.core.data import load_toml

from .components import COMPONENTS, Components, load_components

__all__ = ["components"]

_PKG = __package__ or "freetrader.games.precious_cargo"


def components(data_dir: str | Path | None = None) -> dict[str, Any]:
    """The countries, places (with their grid x/y) and commodities, as JSON-able dicts keyed by id."""
    c: Components = COMPONENTS if data_dir is None else load_components(data_dir)

    def country(k: int) -> str | None:
        return c.countries[k].id if k >= 0 else None

    return {
        "countries": {k.id: {"name": k.name, "color": k.color, "emblem": k.emblem} for k in c.countries},
        "places": {
            p.id: {"name": p.name, "country": country(p.country), "x": p.x, "y": p.y, "capacity": p.capacity}
            for p in c.places
        },
        "cargo": {g.id: {"name": g.name, "color": g.color, "value": g.value, "country": country(g.country)}
                  for g in c.cargo},
        "drawing": load_toml(_PKG, "drawing.toml", data_dir),
    }
