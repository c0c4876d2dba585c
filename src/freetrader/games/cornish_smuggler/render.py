"""Terminal drawing of a Cornish Smuggler view: the tracks, the players and their holds as grids,
the map location by location, the Merchants, the face-up Characters and your Secrets."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from freetrader.cli.render import register_renderer, seat_label

from .components import COMPONENTS as C
from .packing import hold_of_ship, hold_of_store, packing
from .view import landing_risk, sale_prices
from .web import ACTION_COSTS

_SHIPS = {sh.id: sh for sh in C.ships}
_STORES = {st.id: st for st in C.storehouses}
_SHAPES = {sh.id: sh.index for sh in C.shapes}
_CHARS = {c.id: c for c in C.characters}
_SECRETS = {x.id: x for x in C.secrets}
_LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"


def _grid(hold_index: int, rows: tuple[str, ...], pieces: list[dict[str, Any]]) -> str:
    """The hold drawn as a grid: '.' void, '·' empty, a letter per piece (legend beside it)."""
    cells = [["." if ch == "." else "·" for ch in row] for row in rows]
    shapes = [_SHAPES[g["shape"]] for g in pieces]
    found = packing(hold_index, shapes) or []
    used: list[int] = []
    legend: list[str] = []
    for shape, placed in found:
        k = next(i for i, g in enumerate(pieces) if _SHAPES[g["shape"]] == shape and i not in used)
        used.append(k)
        letter = _LETTERS[len(legend) % 26]
        legend.append(f"{letter}={pieces[k]['id']}({pieces[k]['size']})")
        for r, c in placed:
            cells[r][c] = letter
    return "\n".join("".join(row) for row in cells) + ("\n" + " ".join(legend) if legend else "")


#: The kinds the choices are grouped in (the table's side panel uses the same groups).
KINDS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("Move", ("sail", "carry", "counter", "escort", "officer", "move", "step")),
    ("Land", ("land", "unload", "done", "hide", "store", "unstore", "claim")),
    ("Sell", ("sell", "price")), ("Hire", ("hire", "place")), ("Bribe", ("bribe",)), ("Discover", ("discover",)),
    ("Buy", ("buy", "buy-reputation")), ("Cards", ("motivate", "play", "choose", "decline")),
    ("Customs", ("post", "raid", "discard", "remove")), ("Set-up", ("ship", "storehouse", "draw", "keep", "launch")),
    ("Pass", ("pass", "honest-work")),
)
_KIND_OF = {verb: kind for kind, verbs in KINDS for verb in verbs}


def grouped_actions(legal: Sequence[str]) -> Table:
    """The legal actions by kind, the ways to pay one move on one line; numbers are those of the action list."""
    groups: dict[str, dict[str, list[tuple[int, str]]]] = {}
    for i, text in enumerate(legal, 1):
        head, _, pay = text.partition(" with ")
        kind = _KIND_OF.get(head.split(" ")[0], "Other")
        groups.setdefault(kind, {}).setdefault(head, []).append((i, pay))
    out = Table(title="Your choices by kind", expand=False, show_header=False)
    out.add_column("kind", style="bold")
    out.add_column("moves (number: action, payments)")
    for kind in [k for k, _ in KINDS] + ["Other"]:
        if kind not in groups:
            continue
        lines = []
        for head, ways in groups[kind].items():
            nums = ",".join(str(i) for i, _ in ways)
            pays = " / ".join(_pay_text(head, pay) for _, pay in ways if pay)
            lines.append(f"{nums}: {head}" + (f" ({pays})" if pays else ""))
        out.add_row(kind, "\n".join(lines))
    return out


def _pay_text(head: str, pay: str) -> str:
    verb = head.split(" ")[0]
    if pay in ACTION_COSTS.get(verb, {}):
        return f"{ACTION_COSTS[verb][pay]} {pay.capitalize()}"
    if verb == "price":
        row = head.split(" ")[1] if " " in head else "top"
        return f"{C.row_cost[('top', 'middle', 'bottom').index(row)]} {pay.capitalize()}"
    return pay.capitalize()


def price_list_at_sale(view: Mapping[str, Any]) -> RenderableType | None:
    """At a sale's price choice: each row's Gold, Reputation and cost for the shapes that may be on sale."""
    legal = view.get("legal") or []
    if not any(a.startswith("price ") for a in legal):
        return None
    you = view.get("seat")
    goods = [g for g in view["goods"] if g["owner"] == you and g["where"] == "land" and g["at"] in C.loc_by_id
             and C.locations[C.loc_by_id[g["at"]]].size]
    cu = view["customs"]
    out = Table(title="Goods Price List for this sale", expand=False)
    for col in ("Goods Shape", "town (size)", "row", "cost", "Gold", "Reputation", "Gold Wheel after"):
        out.add_column(col)
    quote = (view.get("notes") or {}).get("@sale")  # the engine's quote, as the browser gets it (JSON)
    if isinstance(quote, str):
        quote = json.loads(quote)
    if isinstance(quote, Mapping):
        _quote_rows(out, quote, int(quote.get("wheel_from", cu["wheel"])))
        return out
    for g in goods:
        loc = C.locations[C.loc_by_id[g["at"]]]
        for r in sale_prices(loc.size, g["size"]):
            gold = min(r["gold"], view.get("bank", r["gold"]))
            total = cu["wheel"] + gold
            wheel = f"{cu['wheel']} -> {total % cu['wheel_size']}" + (
                f" (Customs Track +{total // cu['wheel_size']})" if total // cu["wheel_size"] else "")
            out.add_row(f"{g['id']} ({g['size']})", f"{loc.name} ({loc.size})", r["row"],
                        f"{r['cost']} Influence or Reputation" if r["cost"] else "free", str(r["gold"]),
                        str(r["reputation"]), wheel)
    return out


def _quote_rows(out: Table, quote: Mapping[str, Any], wheel: int) -> None:
    """The sale the engine is pricing (``web.sale_quote``): its one shape, with the cards' effects."""
    loc = C.locations[C.loc_by_id[quote["at"]]] if quote["at"] in C.loc_by_id else None
    where = f"{loc.name if loc else quote['at']} (sells as size {quote['town_size']})"
    for r in quote["rows"]:
        after = f"{wheel} -> {r['wheel']}" + (f" (Customs Track +{r['track']})" if r["track"] else "")
        cost = f"{r['cost']} Influence or Reputation" if r["cost"] else ("free (card)" if r["free_by_card"] else "free")
        gold = str(r["gold"]) + (f" +{r['bonus']}" if r.get("bonus") else "")
        out.add_row(f"{quote['goods']} ({quote['size']})", where, r["row"], cost, gold, str(r["reputation"]), after)


def landing_at(view: Mapping[str, Any]) -> RenderableType | None:
    """During a landing: port risk plus squares against the Discovery Level, and what hiding leaves."""
    landing = view.get("landing")
    if not landing:
        return None
    sizes = {g["id"]: g["size"] for g in view["goods"]}
    you = view.get("seat")
    infl = view["players"][you]["influence"] if isinstance(you, int) else 0
    r = landing_risk(landing["at"], [sizes[g] for g in landing["goods"]], view["customs"]["discovery"], infl)
    lines = [f"Landing at {C.locations[C.loc_by_id[r['at']]].name}: port risk +{r['port_risk']} plus {r['squares']} "
             f"squares = Landing Risk {r['risk']} against Discovery Level {r['discovery']}: {r['over']} Customs moves"]
    if any(a.startswith("hide ") for a in view.get("legal") or []):
        lines += [f"  spend {h['influence']} Influence: Landing Risk {h['risk']}, "
                  + (f"{h['customs_moves']} Customs moves" if h["customs_moves"] else "no officer moves")
                  for h in r["hide"]]
    return Text("\n".join(lines), style="yellow")


def _players_table(view: Mapping[str, Any], names: Sequence[str] | None, you: Any,
                   goods: dict[str, Any]) -> Table:
    """Each smuggler: Gold, Influence, Reputation, ship and hold, network, Characters, storehouses."""
    players = Table(title="Smugglers", expand=False)
    for col in ("seat", "Gold", "Infl", "Rep", "ship and hold", "network", "characters", "storehouses", "secrets"):
        players.add_column(col)
    for p, pl in enumerate(view["players"]):
        ship = _SHIPS.get(pl["ship"]) if pl["ship"] else None
        hold = _grid(hold_of_ship(ship.index), ship.hold.rows, [goods[g] for g in pl["hold"]]) if ship else "-"
        stores = []
        for sid in pl["storehouses"]:
            st = _STORES[sid]
            inside = [g for g in goods.values() if g["where"] == "storehouse" and g["at"] == sid]
            stores.append(f"{st.name} ({C.locations[st.location].name})\n" + _grid(hold_of_store(st.index), st.hold.rows, inside))
        label = seat_label(p, names, you) + (" (passed)" if pl["passed"] else "")
        players.add_row(
            label, str(pl["gold"]), str(pl["influence"]), str(pl["reputation"]),
            (f"{ship.name} at {pl['ship_at']}\n" if ship else "") + hold,
            ", ".join(pl["counters"]) or "-",
            "\n".join(f"{_CHARS[c].name}{' (Mob)' if _CHARS[c].mob else ''}"
                      f"{' [face down]' if c in pl.get('motivated', ()) else ''}" for c in pl["characters"]) or "-",
            "\n".join(stores) or "-",
            str(pl["secrets"]),
        )
    return players


def _board_table(view: Mapping[str, Any], goods: dict[str, Any]) -> Table:
    """Each place with something on it: counters, officers, goods, ships."""
    board = Table(title="The board", expand=False)
    for col in ("place", "kind", "counters", "officers", "goods", "ships"):
        board.add_column(col)
    ships_at: dict[str, list[str]] = {}
    for p, pl in enumerate(view["players"]):
        if pl["ship_at"]:
            ships_at.setdefault(pl["ship_at"], []).append(f"seat {p}")
    officers: dict[str, list[str]] = {}
    for o in view["officers"]:
        if o["at"]:
            officers.setdefault(o["at"], []).append(f"#{o['id']}" + (f" (seat {o['bribed_by']}'s)" if o["bribed_by"] >= 0 else ""))
    for loc in C.locations:
        counters = [str(p) for p, pl in enumerate(view["players"]) for c in pl["counters"] if c == loc.id]
        here = [f"{g['id']}({g['size']}, seat {g['owner']})" for g in goods.values() if g["where"] == "land" and g["at"] == loc.id]
        ships = ships_at.get(loc.id, [])
        if not (counters or here or ships or officers.get(loc.id)):
            continue
        kind = loc.kind + (f" size {loc.size}" if loc.size else "") + (f" +{loc.risk}" if loc.kind == "port" else "")
        board.add_row(loc.name, kind, ",".join(counters) or "", " ".join(officers.get(loc.id, [])),
                      " ".join(here), " ".join(ships))
    for node, who in sorted(ships_at.items()):
        if node not in C.loc_by_id:
            board.add_row(node, "sea", "", "", "", " ".join(who))
    return board


def render_cornish(view: Mapping[str, Any], names: Sequence[str] | None = None) -> RenderableType:
    you = view.get("seat")
    goods = {g["id"]: g for g in view["goods"]}
    cu = view["customs"]
    head = Text(
        f"Turn {view['turn']} · First Player seat {view['first_player']} · Customs Track {cu['track']}/{cu['track_end']}"
        + (f" (from {cu['track_start']})" if cu.get("track_start") else "")
        + f" · Discovery Level {cu['discovery']} · Bribe Cost {cu['bribe']} · Gold Wheel {cu['wheel']}/{cu['wheel_size']}"
        + (" · LAST TURN" if view.get("ending") else ""),
        style="bold",
    )
    players = _players_table(view, names, you, goods)
    board = _board_table(view, goods)
    merchants = Table(title="Merchants", expand=False)
    merchants.add_column("merchant")
    merchants.add_column("Goods Shapes (id size)")
    for m, merchant_node in enumerate(C.merchant_nodes):
        sea_id = C.sea_ids[merchant_node]
        stock = [f"{g['id']}({g['size']})" for g in goods.values() if g["where"] == "merchant" and g["at"] == sea_id]
        merchants.add_row(C.merchant_names[m], " ".join(stock) or "sold out")
    faceup = view["characters"]["face_up"]
    chars = Text("Face-up Characters: " + "; ".join(
        f"{deck}: {_CHARS[c].name} ({_CHARS[c].gold} Gold, Rep {_CHARS[c].reputation}{', Mob' if _CHARS[c].mob else ''})"
        if c else f"{deck}: none" for deck, c in faceup.items()))
    parts: list[RenderableType] = [head, players, board, merchants, chars]
    warehouse = [f"{g['id']}({g['size']})" for g in goods.values() if g["where"] == "warehouse"]
    if warehouse:
        parts.append(Text("Customs Warehouse (Penzance): " + " ".join(warehouse)))
    if view.get("reaction"):
        parts.append(Text(f"Reaction window: {view['reaction']['event']}", style="magenta"))
    if view.get("secrets_discarded"):
        parts.append(Text("Secrets played: " + ", ".join(view["secrets_discarded"]), style="dim"))
    if view.get("your_secrets") is not None:
        parts.append(Text("Your Secrets: " + ("; ".join(
            f"{_SECRETS[x].name} ({_SECRETS[x].timing}{', costs ' + _SECRETS[x].cost_text if _SECRETS[x].cost else ''})"
            f": {_SECRETS[x].ability}" if x in _SECRETS else x for x in view["your_secrets"]) or "none"), style="green"))
    if view.get("your_drawn"):
        parts.append(Text("You drew: " + "; ".join(
            f"{_CHARS[c].name} ({_CHARS[c].gold} Gold, Rep {_CHARS[c].reputation}): {_CHARS[c].ability}"
            for c in view["your_drawn"]), style="green"))
    for extra in (landing_at(view), price_list_at_sale(view)):
        if extra is not None:
            parts.append(extra)
    if view.get("legal"):
        parts.append(grouped_actions(view["legal"]))
    return Group(*parts)


register_renderer("cornish-smuggler", render_cornish)
