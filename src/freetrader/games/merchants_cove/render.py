"""Terminal drawing of a Merchants Cove view: the Clock, boats, piers, halls and Lair, the Town Square,
and each merchant's shop board, Sale Shelf and shields."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from freetrader.cli.render import register_renderer, render_generic, seat_label

_STYLE = {"red": "red", "green": "green", "blue": "blue", "yellow": "yellow", "grey": "bright_black"}


def _dots(colours: Sequence[str]) -> Text:
    t = Text()
    for c in colours:
        t.append("●", style=_STYLE.get(c, ""))
    return t if colours else Text("-", style="dim")


def _goods(goods: Mapping[str, int]) -> str:
    return ", ".join(f"{n}×{g}" for g, n in goods.items()) or "-"


def _board(board: Mapping[str, Any]) -> str:
    parts = []
    for k, v in board.items():
        if isinstance(v, Mapping):
            v = " ".join(f"{a}:{b if not isinstance(b, Mapping) else '/'.join(str(x) for x in b.values())}"
                         for a, b in v.items())
        elif isinstance(v, list):
            v = " | ".join(" ".join(map(str, r)) if isinstance(r, list) else
                           (str(r) if not isinstance(r, Mapping) else "/".join(str(x) for x in r.values()))
                           for r in v)
        parts.append(f"{k.replace('_', ' ')}: {v}")
    return "\n".join(parts)


def render_merchants_cove(view: Mapping[str, Any], names: Sequence[str] | None = None) -> RenderableType:
    try:
        return _render(view, names)
    except (KeyError, TypeError, ValueError, IndexError, AttributeError):
        return render_generic(view, names)


def _render(view: Mapping[str, Any], names: Sequence[str] | None) -> RenderableType:
    you = view.get("seat")
    rc = view["rogue_card"]
    clock = view["clock"]
    head = Text(f"Day {view['day']}/{view['days']} · {view['stage']} · Rogue card {rc['number']} {rc['name']} · "
                f"Townsfolk {view['townsfolk_sets']} · Market token at hour {clock['market']} · "
                f"Mice at {', '.join(map(str, clock['mice'])) or '-'}", style="bold")
    players = view["players"]
    order = []
    for p in clock["order"]:
        if p < len(players):
            order.append(f"{seat_label(p, names)} h{players[p]['hour']}")
        elif view.get("peddler"):
            order.append(f"Peddler h{view['peddler']['hour']}")
    clock_line = Text("Clock (next first): " + " → ".join(order))

    sea = Table(title="Boats", expand=False)
    for col in ("boat", "side", "adventurers", "docked at"):
        sea.add_column(col)
    for i, b in enumerate(view["boats"]):
        if b.get("sailing") is False:
            continue
        seats = f" ({b['capacity']} seats)" if b.get("capacity", 4) != 4 else ""
        sea.add_row(str(i + 1) + seats, b["side"], _dots(b["adventurers"]), b["docked_at"] or "sailing")
    piers = Table(title="Piers", expand=False)
    for col in ("slot", "boat", "customers"):
        piers.add_column(col)
    for k, v in view["piers"].items():
        piers.add_row(k, str(v["boat"] or "-"), _dots(v["customers"]))
    town = Text.assemble(
        ("Faction Halls: ", "bold"),
        *[(f"{c} {n}  ", _STYLE[c]) for c, n in view["halls"].items()],
        ("· Lair ", "bold"), (f"{view['lair']} Rogues", "bright_black"),
        f"  · bag {sum(view['bag'].values())}",
    )
    square = Text(f"Town Square: {', '.join(view['town_square']) or '-'} · Townsfolk deck {view['townsfolk_deck']}"
                  f" · Corruption deck {view['corruption_deck']}")
    shops = Table(title="Merchants", expand=False)
    for col in ("seat", "merchant", "gold", "hour", "on", "Sale Shelf", "shields", "Townsfolk", "corr.", "board"):
        shops.add_column(col)
    for p, pl in enumerate(players):
        mark = "▶ " if view.get("to_act") == p else ""
        shields = " ".join(f"{c[0]}{n}" for c, n in pl["shields"].items() if n) or "-"
        shops.add_row(mark + seat_label(p, names, you), pl["merchant"] or "?", str(pl["gold"]), str(pl["hour"]),
                      pl["on_action"] or "-", _goods(pl["shelf"]), shields, ", ".join(pl["townsfolk"]) or "-",
                      str(pl["corruption_cards"]), _board(pl["board"]))
    lines: list[RenderableType] = [head, clock_line, Group(sea, piers), town, square, shops]
    ped = view.get("peddler")
    if ped:
        lines.append(Text(f"Peddler: gold {ped['gold']}, hour {ped['hour']}, shelf {_goods(ped['shelf'])}, "
                          f"card {ped['card'] or '-'}, deck {ped['deck']}"))
    lines += _stash_lines(view)
    if view.get("drawn"):
        lines.append(Text.assemble("Drawn adventurer: ", ("●", _STYLE[view["drawn"]]), f" {view['drawn']}"))
    if view.get("your_corruption") is not None:
        lines.append(Text(f"Your Corruption cards: {', '.join(view['your_corruption']) or 'none'}", style="magenta"))
    return Group(*lines)


def _stash_lines(view: Mapping[str, Any]) -> list[RenderableType]:
    """The Secret Stash modules in play: Multiple Rogues, Dragon Island, Grey Goods, Challenges, Boat Setup."""
    out: list[RenderableType] = []
    cards = view.get("rogue_cards") or []
    if len(cards) > 1:
        out.append(Text("Rogue cards: " + ", ".join(f"{c['number']} {c['name']}" for c in cards)))
    if view.get("dragon_island"):
        out.append(Text.assemble("Dragon Island: ", _dots(view["dragon_island"])))
    if view.get("grey_goods_supply"):
        out.append(Text(f"Grey Rogue Goods in the supply: {view['grey_goods_supply']}", style="bright_black"))
    ch = view.get("challenge")
    if ch:
        out.append(Text(f"Challenge: {ch['active'] or '-'} · deck {ch['deck']} · set aside {ch['set_aside']} · "
                        f"Challenge Timepiece at hour {ch['timepiece_hour']}"))
    bs = view.get("boat_setup") or {}
    if bs.get("card"):
        out.append(Text(f"Boat Setup card {bs['card']} · {bs['deck']} left"))
    return out


register_renderer("merchants-cove", render_merchants_cove)
