"""What the browser draws Cornish Smuggler from: the board and cards, from the same data files the rules read.

Served at ``GET /api/games/cornish-smuggler/components`` and read by
``web.js`` beside this file, which keeps no copy of any of it. A data pack
(``$FREETRADER_DATA/cornish_smuggler/`` or ``data_dir``) overrides these files
as it does for the rules; ``data/drawing.toml`` holds the drawing's own
positions and colours.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any

from freetrader.core.data import load_toml

from .board import ROW_NAMES
from .components import COMPONENTS, DECKS, PKG, Components, Hold, load_components
from .packing import arrangements

__all__ = ["ACTION_COSTS", "choice_notes", "components", "hold_packings", "price_list"]

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
#: Land Goods: 1 Influence, one way only (rules.begin_landing charges it; the button said nothing: issue 34)
LAND_INFLUENCE = 1


def price_list(c: Components = COMPONENTS) -> dict[str, dict[str, list[list[int]]]]:
    """The Goods Price List as the rules read it: ``{town size: {goods size: [[gold, rep] per row]}}``.

    Each cell is ``Components.price`` itself, so a bigger shape sold in a smaller town shows the town's column.
    """
    sizes = sorted({sh.size for sh in c.shapes} | {2, 3, 4, 5})
    return {str(town): {str(g): [list(c.price(town, g, row)) for row in range(len(c.row_cost))] for g in sizes}
            for town in sorted(c.prices)}


def _code(k: int) -> str:
    return "0123456789abcdefghijklmnopqrstuvwxyz"[k]


def hold_packings(hold: Hold, c: Components = COMPONENTS) -> dict[str, list[str]]:
    """Holds: how every set of Goods Shapes that fits this hold can be drawn packed in it (``packing.arrangements``).

    Keyed by the shapes' ids sorted and joined by spaces; each packing is one character per cell of the hold
    (its cells in row-major order): the piece's index in the key, or ``.`` for an empty cell. The page draws
    the first, and a click on the hold shows the next: the rulebook lets Goods Shapes be repositioned at any
    time, so which packing is drawn is the player's to choose and no Action. Only unflipped packings are
    served (the search takes about a second; flipped ones would double it): under the ``flip_goods`` option a
    set that fits only flipped is drawn as squares beside the hold.
    """
    counts = [0] * len(c.shapes)
    for shape in c.goods:
        counts[shape] += 1
    return dict(_packings_of(hold.cells, tuple((x.id, x.cells, counts[x.index]) for x in c.shapes)))


@cache  # the search takes a second or two: once per hold and set of shapes, whichever Components asks
def _packings_of(hold: frozenset[tuple[int, int]],
                 kinds: tuple[tuple[str, frozenset[tuple[int, int]], int], ...]) -> dict[str, list[str]]:
    cells = sorted(hold)
    index = {cell: i for i, cell in enumerate(cells)}
    order = sorted(range(len(kinds)), key=lambda i: kinds[i][0])
    out: dict[str, list[str]] = {}

    def grow(start: int, chosen: list[int], used: int) -> None:
        for pos in range(start, len(order)):
            shape = order[pos]
            size = len(kinds[shape][1])
            if used + size > len(cells) or chosen.count(shape) >= kinds[shape][2]:
                continue
            now = chosen + [shape]
            shapes = [kinds[x][1] for x in now]
            found = arrangements(hold, shapes)
            if not found:
                continue  # nor does any set that holds these
            drawn = []
            for packed in found:
                code = ["."] * len(cells)
                for k, piece in enumerate(packed):
                    for cell in piece:
                        code[index[cell]] = _code(k)
                drawn.append("".join(code))
            out[" ".join(kinds[x][0] for x in now)] = drawn
            grow(pos, now, used + size)

    grow(0, [], 0)
    return out


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
        # how each hold's Goods Shapes are drawn: the engine's packings (packing.py), never searched in web.js
        "packings": {**{s.id: hold_packings(s.hold, c) for s in c.ships},
                     **{h.id: hold_packings(h.hold, c) for h in c.storehouses}},
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
        # how the log names what its events print by id (server/log.py): the engine writes a goods piece as
        # "g06 (size 4 l-tetromino)"; players read "goods (size 4 L Tetromino)", never a piece number they
        # cannot see (issue 34: "goods piece 6")
        "log_names": {**{f"g{i:02d}": "goods" for i in range(len(c.goods))},
                      **{sh.id: _shape_name(sh) for sh in c.shapes}},
        "drawing": load_toml(PKG, "drawing.toml", data_dir),
    }


def _shape_name(shape: Any) -> str:
    """A Goods Shape as players call it: "L Tetromino"."""
    return " ".join(w[:1].upper() + w[1:] for w in str(shape.id).replace("_", "-").split("-"))


def _sale_frame(state: Any) -> Any:
    from .frames import Sale
    from .phases import Phase

    top = state.frames[-1] if getattr(state, "frames", None) else None
    return top if isinstance(top, Sale) and top.stage == Phase.PRICE else None


def sale_quote(state: Any) -> dict[str, Any] | None:
    """Selling Goods at the price decision: the shape on sale and what each Price List row pays, as the sale will.

    The numbers are the engine's: the town size ``board.town_size`` (a card such as "sell as a size N town"
    sets it), the cell ``Components.price``, the bank's limit ``gain_gold`` applies, a passive Reputation on
    the top row, the Forged Cocket's free bottom row, Elizabeth Quick's extra Gold, and the Gold Wheel move
    ``advance_gold_wheel`` makes. ``None`` when no price is being chosen.
    """
    from . import board as B

    f = _sale_frame(state)
    if f is None:
        return None
    s, p, g = state, f.seat, f.goods
    c = COMPONENTS
    loc = s.g_at[g]
    shape = c.shapes[c.goods[g]]
    size = B.town_size(s, loc)
    rows = []
    for row, name in enumerate(ROW_NAMES):
        gold, rep = c.price(size, shape.size, row)
        got = min(gold, s.bank)
        if row == 0:
            rep += B.passive(s, p, "top-price-reputation")
        free = row == 0 or (row == len(ROW_NAMES) - 1 and bool(s.free_row))
        total = s.wheel + got
        rows.append({"row": name, "gold": got, "printed_gold": gold, "reputation": rep,
                     "cost": 0 if free else c.row_cost[row], "free_by_card": free and row > 0,
                     "bonus": min(s.sale_bonus, s.bank - got), "wheel": total % c.wheel, "track": total // c.wheel})
    return {"goods": B.GOODS_IDS[g], "shape": shape.id, "size": shape.size, "at": c.locations[loc].id,
            "town_size": size, "printed_town_size": c.locations[loc].size, "column": min(shape.size, size),
            "wheel_from": s.wheel, "rows": rows}


def _amounts(pay: str, influence: int, gold: int) -> str:
    return f"costs {influence} Influence" if pay == "influence" else f"costs {gold} Gold"


def choice_notes(state: Any, seat: int) -> dict[str, str]:
    """What the acting seat's choices cost and pay, by notation, where the game knows before the move.

    Payments follow the rulebook's Actions & Costs (``ACTION_COSTS``, what rules.py charges, with the
    escort discount of a Character); a purchase, a hire and a bribe their engine prices; each price row
    what the sale pays (``sale_quote``). The key ``"@sale"`` (no notation starts with "@") carries the
    quote itself as JSON, so the page names the Goods Shape on sale and draws its rows from these numbers.
    """
    import json

    from . import actions as A
    from . import board as B

    if state.to_act != seat or state.is_over:
        return {}
    s, p = state, seat
    c = COMPONENTS
    out: dict[str, str] = {}
    quote = sale_quote(s)
    if quote is not None:
        out["@sale"] = json.dumps(quote, separators=(",", ":"))
    by_row = {r["row"]: r for r in quote["rows"]} if quote else {}
    for a in s.legal_actions():
        key = str(a)
        if isinstance(a, A.Price) and a.item in by_row:
            r = by_row[a.item]
            text = f"pays {r['gold']} Gold, {r['reputation']} Reputation"
            if r["bonus"]:
                text += f" (+{r['bonus']} Gold, a card)"
            out[key] = text + ("" if not r["cost"] else f"; costs {r['cost']} {a.pay.capitalize()}") + \
                ("; free (a card)" if r["free_by_card"] else "")
        elif isinstance(a, (A.Sail, A.Carry, A.CounterMove, A.OfficerAction, A.Discover)) and a.pay:
            cost = ACTION_COSTS[a.verb]
            out[key] = _amounts(a.pay, cost["influence"], cost["gold"])
        elif isinstance(a, A.Escort) and a.pay:
            cut = B.passive(s, p, "escort-cost")
            out[key] = _amounts(a.pay, 3 - cut, 5 - cut)
        elif key == "land":
            out[key] = f"costs {LAND_INFLUENCE} Influence"  # the form the notes test checks against the engine
        elif isinstance(a, A.Buy):
            out[key] = f"costs 1 Influence + {B.buy_price(s, a.goods)} Gold; {c.shapes[c.goods[a.goods]].size} squares"
        elif isinstance(a, A.Hire):
            ch = c.characters[a.card]
            how = "1 Influence" if a.pay == "influence" else f"{s.options['hire_reputation']} Reputation"
            out[key] = f"costs {how} + {B.hire_price(s, p, a.card)} Gold; +{ch.reputation} Reputation"
        elif isinstance(a, A.Bribe):
            out[key] = f"costs 1 Influence + {B.bribe_cost(s, p, a.officer)} Gold"  # Bribing Customs: both
        elif isinstance(a, A.HonestWork):
            out[key] = f"pays {min(B.honest_work_gain(s, p), s.bank)} Gold"
    return out
