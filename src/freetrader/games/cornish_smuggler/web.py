"""What the browser draws Cornish Smuggler from: the board and cards, from the same data files the rules read.

Served at ``GET /api/games/cornish-smuggler/components`` and read by
``web.js`` beside this file, which keeps no copy of any of it. A data pack
(``$FREETRADER_DATA/cornish_smuggler/`` or ``data_dir``) overrides these files
as it does for the rules; ``data/drawing.toml`` holds the drawing's own
positions and colours.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from freetrader.core.data import load_toml

from .components import COMPONENTS, DECKS, PKG, Components, load_components

__all__ = ["components"]


def components(data_dir: str | Path | None = None) -> dict[str, Any]:
    """Every board and card fact ``web.js`` needs, as JSON-able dicts keyed by id."""
    c: Components = COMPONENTS if data_dir is None else load_components(data_dir)
    board = load_toml(PKG, "map.toml", data_dir)  # sea names are not kept by the rules
    loc = c.locations
    seas = {t["id"]: {"name": t["name"], "adj": list(t.get("adjacent", []))} for t in board.get("sea", [])}
    for t in board.get("merchant", []):
        seas[t["id"]] = {"name": t["name"], "adj": list(t.get("adjacent", [])), "merchant": True}
    return {
        "locations": {
            t["id"]: {"name": t["name"], "kind": t["kind"], "size": t["size"], "risk": t["risk"],
                      "land": list(t.get("land", [])), "sea": list(t.get("sea", []))}
            for t in board.get("location", [])
        },
        "seas": seas,
        "warehouse": loc[c.penzance].id,  # the Customs Warehouse stands in Penzance (rulebook)
        "ships": {s.id: {"name": s.name, "hold": list(s.hold.rows)} for s in c.ships},
        "storehouses": {
            h.id: {"name": h.name, "at": loc[h.location].id, "hold": list(h.hold.rows)} for h in c.storehouses
        },
        "shapes": {g.id: list(g.rows) for g in c.shapes},
        "characters": {
            ch.id: {"name": ch.name, "job": ch.occupation, "deck": DECKS[ch.deck], "gold": ch.gold,
                    "rep": ch.reputation, "text": ch.ability}
            for ch in c.characters
        },
        "decks": list(DECKS),
        "track": {"discovery": list(c.discovery), "bribe": list(c.bribe), "new_officer": list(c.new_officer)},
        "secrets": {x.id: {"name": x.name, "timing": x.timing, "text": x.ability} for x in c.secrets},
        # how the log names the goods pieces its events print by id (server/log.py)
        "log_names": {f"g{i:02d}": f"goods piece {i}" for i in range(len(c.goods))},
        "drawing": load_toml(PKG, "drawing.toml", data_dir),
    }
