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

from .board import ROW_NAMES
from .components import COMPONENTS, DECKS, PKG, Components, load_components

__all__ = ["ACTION_COSTS", "components", "price_list"]

#: Actions & Costs (rulebook, Quick Reference): what each way of paying an Action costs before any card's
#: discount. rules.py charges these amounts; the table shows them beside each payment ("1 Influence").
ACTION_COSTS: dict[str, dict[str, int]] = {
    "sail": {"influence": 1, "gold": 3},
    "carry": {"influence": 1, "gold": 2},
    "counter": {"influence": 1, "gold": 2},
    "escort": {"influence": 3, "gold": 5},
    "officer": {"influence": 4, "gold": 6},
    "discover": {"influence": 2, "gold": 2},
    "hire": {"influence": 1},  # "with reputation" costs the table's hire_reputation option
}


def price_list(c: Components = COMPONENTS) -> dict[str, dict[str, list[list[int]]]]:
    """The Goods Price List as the rules read it: ``{town size: {goods size: [[gold, rep] per row]}}``.

    Each cell is ``Components.price`` itself, so a bigger shape sold in a smaller town shows the town's column.
    """
    sizes = sorted({sh.size for sh in c.shapes} | {2, 3, 4, 5})
    return {str(town): {str(g): [list(c.price(town, g, row)) for row in range(len(c.row_cost))] for g in sizes}
            for town in sorted(c.prices)}


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
                    "rep": ch.reputation, "text": ch.ability, "mob": ch.mob,
                    "cost": " / ".join(f"{n} {r.capitalize()}" for r, n in ch.cost), "use": ch.event}
            for ch in c.characters
        },
        "decks": list(DECKS),
        "track": {"discovery": list(c.discovery), "bribe": list(c.bribe), "new_officer": list(c.new_officer)},
        "secrets": {x.id: {"name": x.name, "timing": x.timing, "text": x.ability, "cost": x.cost_text,
                           "use": x.event} for x in c.secrets},
        "prices": price_list(c),  # the engine's own cells: web.js looks them up, never recomputes them
        # the goods sizes each town's column prints (bigger shapes sell at the town's own size)
        "price_columns": {str(town): [g for g, cell in enumerate(c.prices[town][0]) if cell != (0, 0)]
                          for town in sorted(c.prices)},
        "row_cost": list(c.row_cost),
        "rows": list(ROW_NAMES),
        "costs": [dict(pays, verb=verb) for verb, pays in ACTION_COSTS.items()],  # a list: verbs are not board ids
        "scilly": loc[c.scilly].id,  # no Customs at a landing on the Isles of Scilly
        # how the log names the goods pieces its events print by id (server/log.py)
        "log_names": {f"g{i:02d}": f"goods piece {i}" for i in range(len(c.goods))},
        "drawing": load_toml(PKG, "drawing.toml", data_dir),
    }
