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
from freetrader.core.moves import Move

from . import board as B
from .board import ROW_NAMES
from .components import COMPONENTS, DECKS, PKG, Components, Hold, load_components
from .packing import arrangements

__all__ = ["ACTION_COSTS", "choice_notes", "components", "decision", "hold_packings", "moves", "price_list", "purse"]

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
        "scilly": loc[c.scilly].id,  # no Customs at a landing on the Isles of Scilly
        # how the log names what its events print by id (server/log.py): the engine writes a goods piece as
        # "g06 (size 4 l-tetromino)"; players read "goods (size 4 L Tetromino)", never a piece number they
        # cannot see (issue 34: "goods piece 6")
        "log_names": {**{f"g{i:02d}": "goods" for i in range(len(c.goods))},
                      **{sh.id: _shape_name(sh) for sh in c.shapes}},
        "drawing": load_toml(PKG, "drawing.toml", data_dir),
    }


def _shape_name(shape: Any) -> str:
    """A Goods Shape (or any id) as players call it: "L Tetromino"."""
    return " ".join(w[:1].upper() + w[1:] for w in str(getattr(shape, "id", shape)).replace("_", "-").split("-"))


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


def purse(state: Any, seat: int) -> dict[str, int]:
    """What ``seat`` holds of each resource a move's ``cost`` or ``pays`` names."""
    return {"gold": state.gold[seat], "influence": state.infl[seat], "reputation": state.rep[seat]}


def _card_cost(cost: tuple[tuple[str, int], ...], how: str) -> dict[str, int]:
    """What ``board.pay_card`` takes for a card's cost paid ``how`` ("" = its first, or only, resource)."""
    return next(({r: n} for r, n in cost if how in ("", r)), {})


def _amounts(s: Any, p: int, a: Any, quote_rows: dict[str, dict[str, Any]]) -> tuple[dict[str, int], dict[str, int]]:
    """What the action ``a`` costs and pays seat ``p`` as it is taken: the engine's prices, discounts included.

    ``ACTION_COSTS`` are the rulebook's Actions & Costs that rules.py charges; the escort, hire and bribe
    discounts are the engine's own (``board.passive``, ``hire_price``, ``bribe_cost``, ``buy_price``), and a
    Buy or Buy Reputation discount a card set (``buy_disc``) counts.
    """
    c = COMPONENTS
    verb, item, pay = a.verb, a.item, a.pay
    if verb == "price" and item in quote_rows:
        r = quote_rows[item]
        return ({} if not r["cost"] else {pay: r["cost"]}), {"gold": r["gold"] + r["bonus"], "reputation": r["reputation"]}
    if verb in ("sail", "carry", "counter", "officer", "discover") and pay:
        return {pay: ACTION_COSTS[verb][pay]}, {}
    if verb == "escort" and pay:
        return {pay: ACTION_COSTS[verb][pay] - B.passive(s, p, "escort-cost")}, {}
    if verb == "land":
        return {"influence": LAND_INFLUENCE}, {}
    if verb == "hide":
        return {"influence": int(item)}, {}
    if verb == "buy":
        return {"influence": 1, "gold": B.buy_price(s, _GOODS[item])}, {}
    if verb == "buy-reputation":
        # rules.do_buy_reputation's price: 4 Gold, less a card's discount (no rule function names it yet)
        return {"gold": 4 - s.buy_disc}, {"reputation": 1}
    if verb == "hire":
        card = _CHARS[item]
        how = {"influence": 1} if pay == "influence" else {"reputation": s.options["hire_reputation"]}
        return {**how, "gold": B.hire_price(s, p, card)}, {"reputation": c.characters[card].reputation}
    if verb == "bribe":
        return {"influence": 1, "gold": B.bribe_cost(s, p, int(item))}, {}
    if verb == "honest-work":
        return {}, {"gold": min(B.honest_work_gain(s, p), s.bank)}
    if verb == "motivate":
        return _card_cost(c.characters[_CHARS[item]].cost, pay), {}
    if verb == "play":
        return _card_cost(c.secrets[_SECRETS[item]].cost, ""), {}
    return {}, {}


_CHARS = {x.id: x.index for x in COMPONENTS.characters}
_SECRETS = {x.id: x.index for x in COMPONENTS.secrets}
_GOODS = {f"g{i:02d}": i for i in range(len(COMPONENTS.goods))}
_STORES = {x.id: x.index for x in COMPONENTS.storehouses}
_ROLE_OF_VERB = {"counter": "from", "hide": "amount", "officer": "officer", "bribe": "officer", "move": "officer"}


def _role(verb: str, item: str) -> str:
    """What kind of thing a move's item is, by the ids components() serves."""
    if verb in _ROLE_OF_VERB:
        return _ROLE_OF_VERB[verb]
    role = _ids()[0].get(item)
    if role is not None:
        return role
    return "officer" if item.isdigit() else "seat" if item.startswith("seat-") else "item"


@cache
def _ids() -> tuple[dict[str, str], dict[str, str]]:
    """Each served id's kind (role) and name: built once."""
    c = COMPONENTS
    board = load_toml(PKG, "map.toml")  # sea names are not kept by the rules
    kinds: dict[str, str] = {}
    names: dict[str, str] = {t["id"]: t["name"] for kind in ("sea", "merchant") for t in board.get(kind, [])}
    for role, things in (("place", c.locations), ("character", c.characters), ("secret", c.secrets),
                         ("ship", c.ships), ("storehouse", c.storehouses)):
        for x in things:
            kinds[x.id], names[x.id] = role, x.name
    kinds.update({x: "place" for x in c.sea_ids})
    kinds.update({x: "deck" for x in DECKS})
    kinds.update({x: "row" for x in ROW_NAMES})
    kinds.update({x: "goods" for x in _GOODS})
    return kinds, names


_WORDS = {"sail": "Sail", "carry": "Carry", "counter": "Move counter", "escort": "Escort", "officer": "Move",
          "buy-reputation": "Buy 1 Reputation", "honest-work": "Honest Work", "discover": "Discover a Secret",
          "unload": "Unload", "done": "Done", "land": "Land goods here", "store": "Store", "unstore": "Take out",
          "claim": "Claim", "hire": "Hire", "buy": "Buy", "bribe": "Bribe", "sell": "Sell", "price": "Sell at the",
          "raid": "Raid for", "motivate": "Motivate", "play": "Play", "decline": "Decline", "choose": "Choose",
          "post": "Post the new officer at", "place": "Place a counter at", "launch": "Launch at", "ship": "Take ship",
          "storehouse": "Take storehouse", "draw": "Draw from", "keep": "Keep", "move": "Move", "step": "Step to",
          "pass": "Pass", "discard": "Discard", "remove": "Remove the counter at"}


def _name(item: str, role: str) -> str:
    c = COMPONENTS
    if role == "goods":
        shape = c.shapes[c.goods[_GOODS[item]]]
        return f"{_shape_name(shape)} ({shape.size})"
    if role == "officer":
        return f"Customs Officer {item}"
    if role == "seat":
        return "Seat " + item.partition("-")[2]
    return _ids()[1].get(item) or _shape_name(item)


def _label(verb: str, item: str, role: str, to: str, card_rep: int | None) -> str:
    """A move as players say it: "Sail → Mount's Bay", "Spend 2 Influence to hide", "Sell at the top row"."""
    if verb == "hide":
        return f"Spend {item} Influence to hide" if item != "0" else "Spend no Influence"
    text = _WORDS.get(verb) or verb.replace("-", " ").capitalize()
    if verb == "price":
        text += f" {item} row"
    elif verb == "draw":
        text += f" the {item} stack"
    elif item:
        text += " " + _name(item, "place" if role == "from" else role)
    if to:
        text += (" in " if verb == "store" else " → ") + _name(to, "place")
    if card_rep is not None:
        text += f" (+{card_rep} Reputation)"
    return text


def moves(state: Any, seat: int) -> list[Move]:
    """Every legal action of ``seat`` (when it acts) as a ``Move``: verb, targets by role, cost and pay.

    The amounts are the engine's (``_amounts``); the sale's rows are ``sale_quote``'s, which the page
    draws beside them (``choice_notes``' ``"@sale"``).
    """
    if state.to_act != seat or state.is_over:
        return []
    quote = sale_quote(state)
    rows = {r["row"]: r for r in quote["rows"]} if quote else {}
    legal = state.legal_actions()
    stores = _store_choices(legal)
    out = []
    for a in legal:
        text, verb, label, targets = _described(a)
        cost, pays = _amounts(state, seat, a, rows)
        free = verb == "price" and bool(rows.get(a.item, {}).get("free_by_card"))
        note = "free by a card" if free else _crowding(state, a, stores) if verb == "store" else ""
        out.append(Move(text, verb, label, targets, cost, pays, note))
    return out


def _store_choices(legal: Any) -> dict[int, list[int]]:
    """The goods each storehouse is offered now (storehouse -> goods), from the legal ``store`` moves."""
    out: dict[int, list[int]] = {}
    for a in legal:
        if a.verb == "store":
            out.setdefault(_STORES[a.to], []).append(_GOODS[a.item])
    return out


def _crowding(state: Any, a: Any, stores: dict[int, list[int]]) -> str:
    """What storing ``a``'s goods leaves no room for: pieces offered to the same storehouse that no packing
    fits beside it (so which piece to store first is a choice the player sees, not a surprise)."""
    st = _STORES[a.to]
    out = B.crowded_out(state, st, _GOODS[a.item], stores.get(st, []))
    if not out:
        return ""
    return "leaves no room in it for " + " or ".join(_name(B.GOODS_IDS[g], "goods") for g in out)


@cache  # actions are frozen and few (legal_actions hands out interned ones): what a move names is fixed
def _described(a: Any) -> tuple[str, str, str, dict[str, str]]:
    """An action's notation, verb, label and targets by role (what does not depend on the position)."""
    verb, item, to = a.verb, a.item, a.to
    role = _role(verb, item) if item else ""
    targets = {role: item} if item else {}
    if to:
        targets["to"] = to
    if a.pay:
        targets["with"] = a.pay  # the way of paying this move was chosen with (a variant of the same move)
    rep = COMPONENTS.characters[_CHARS[item]].reputation if verb in ("keep", "hire") and item in _CHARS else None
    return str(a), verb, _label(verb, item, role, to, rep), targets


def _costs_text(amounts: dict[str, int]) -> str:
    return " + ".join(f"{n} {r.capitalize()}" for r, n in amounts.items())


def decision(state: Any, seat: int) -> dict[str, Any]:
    """What the page draws beside the acting seat's moves: the sale being priced (``sale_quote``), if any."""
    quote = sale_quote(state) if state.to_act == seat and not state.is_over else None
    return {} if quote is None else {"sale": quote}


def choice_notes(state: Any, seat: int) -> dict[str, str]:
    """What the acting seat's choices cost and pay, by notation, where the game knows before the move.

    The text of ``moves``' amounts (the terminal shows it; the browser reads ``moves`` itself). The key
    ``"@sale"`` (no notation starts with "@") carries the sale quote as JSON, so a page names the Goods
    Shape on sale and draws its rows from these numbers.
    """
    import json

    if state.to_act != seat or state.is_over:
        return {}
    s = state
    c = COMPONENTS
    out: dict[str, str] = {}
    quote = sale_quote(s)
    if quote is not None:
        out["@sale"] = json.dumps(quote, separators=(",", ":"))
    by_row = {r["row"]: r for r in quote["rows"]} if quote else {}
    for m in moves(s, seat):
        cost, pays, item = dict(m.cost), dict(m.pays), m.targets.get("row") or next(iter(m.targets.values()), "")
        if m.verb == "price" and item in by_row:
            r = by_row[item]
            text = f"pays {r['gold']} Gold, {r['reputation']} Reputation"
            if r["bonus"]:
                text += f" (+{r['bonus']} Gold, a card)"
            out[m.action] = text + ("" if not cost else f"; costs {_costs_text(cost)}") + \
                ("; free (a card)" if r["free_by_card"] else "")
        elif m.verb in ("sail", "carry", "counter", "officer", "discover", "escort", "land", "bribe") and cost:
            out[m.action] = f"costs {_costs_text(cost)}"
        elif m.verb == "buy":
            out[m.action] = f"costs {_costs_text(cost)}; {c.shapes[c.goods[_GOODS[item]]].size} squares"
        elif m.verb == "hire":
            out[m.action] = f"costs {_costs_text(cost)}; +{pays['reputation']} Reputation"
        elif m.verb == "honest-work":
            out[m.action] = f"pays {pays.get('gold', 0)} Gold"
        elif m.note:
            out[m.action] = m.note
    return out
