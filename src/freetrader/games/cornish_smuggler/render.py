"""Terminal drawing of a Cornish Smuggler view: the tracks, the players and their holds as grids,
the map location by location, the Merchants, the face-up Characters and your Secrets."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from freetrader.cli.render import register_renderer, seat_label

from .components import COMPONENTS as C
from .packing import hold_of_ship, hold_of_store, packing

_SHIPS = {sh.id: sh for sh in C.ships}
_STORES = {st.id: st for st in C.storehouses}
_SHAPES = {sh.id: sh.index for sh in C.shapes}
_CHARS = {c.id: c for c in C.characters}
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


def render_cornish(view: Mapping[str, Any], names: Sequence[str] | None = None) -> RenderableType:
    you = view.get("seat")
    goods = {g["id"]: g for g in view["goods"]}
    cu = view["customs"]
    head = Text(
        f"Turn {view['turn']} · First Player seat {view['first_player']} · Customs Track {cu['track']}/{cu['track_end']}"
        f" · Discovery Level {cu['discovery']} · Bribe Cost {cu['bribe']} · Gold Wheel {cu['wheel']}/{cu['wheel_size']}"
        + (" · LAST TURN" if view.get("ending") else ""),
        style="bold",
    )
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
        parts.append(Text("Your Secrets: " + (", ".join(view["your_secrets"]) or "none"), style="green"))
    if view.get("your_drawn"):
        parts.append(Text("You drew: " + ", ".join(view["your_drawn"]), style="green"))
    return Group(*parts)


register_renderer("cornish-smuggler", render_cornish)
