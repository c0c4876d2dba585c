"""Drawing a Precious Cargo view in the terminal: the route board, then ports, ships and players.

Found by ``render.py`` (it imports every ``render_<game>`` module), which
this module answers by registering ``render`` for ``precious-cargo``. The board is drawn from the view alone (settlement and dot positions, route
lines), so a data pack with another board draws too.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rich.console import Group, RenderableType
from rich.markup import escape
from rich.table import Table
from rich.text import Text

from freetrader.cli.render import register_renderer, render_generic

__all__ = ["render"]

_CELL = 6  # characters between grid columns
_STYLE = {"koruna": "bold red", "talonas": "bold yellow"}
_LETTER = {"koruna": "K", "talonas": "T"}


def render(view: Mapping[str, Any], names: Sequence[str] | None = None) -> RenderableType:
    """The Precious Cargo table; falls back to the generic drawing for a view it does not understand."""
    try:
        return _render(view, names)
    except (KeyError, TypeError, ValueError, IndexError, AttributeError):
        return render_generic(view, names)


def _ship_label(token: str, country_of_seat: dict[int, str]) -> tuple[str, str]:
    owner, number = token.split(":")
    country = country_of_seat.get(int(owner), "")
    return f"{_LETTER.get(country, owner)}{number}", _STYLE.get(country, "bold")


def _board(view: Mapping[str, Any], country_of_seat: dict[int, str]) -> Text:
    places: dict[str, tuple[int, int]] = {}
    for p in view["settlements"]:
        places[p["id"]] = (p["x"], p["y"])
    for d in view["dots"]:
        places[d["id"]] = (d["x"], d["y"])
    max_x = max(x for x, _ in places.values())
    max_y = max(y for _, y in places.values())
    left = max((len(p["name"]) for p in view["settlements"] if p["x"] == 0), default=0) + 10
    width = left + max_x * _CELL + 3 + 30
    height = max_y * 2 + 2  # a line under the bottom settlements for their labels
    grid = [[(" ", "")] * width for _ in range(height)]

    def put(row: int, col: int, text: str, style: str = "") -> None:
        for i, ch in enumerate(text):
            if 0 <= col + i < width:
                grid[row][col + i] = (ch, style)

    def centre(x: int) -> int:
        return left + x * _CELL + 1

    for a, b in view["routes"]:
        (xa, ya), (xb, yb) = sorted((places[a], places[b]))
        if ya == yb:
            put(ya * 2, centre(xa) + 2, "─" * (_CELL - 3), "blue")
        elif xa == xb:
            put(min(ya, yb) * 2 + 1, centre(xa), "│", "blue")
        else:
            put(min(ya, yb) * 2 + 1, centre(xa) + _CELL // 2, "╲" if yb > ya else "╱", "blue")
    for d in view["dots"]:
        col, row = centre(d["x"]), d["y"] * 2
        if d["ship"]:
            label, style = _ship_label(d["ship"], country_of_seat)
            put(row, col - 1, f"{label:^3}", style + " reverse")
        else:
            put(row, col - 1, f"{d['id']:^3}"[:3], "dim")  # the id, as moves are written
    for s in view["settlements"]:
        col, row = centre(s["x"]), s["y"] * 2
        style = _STYLE.get(s["country"], "bold")
        put(row, col - 1, " ◆ ", style)
        docks = [_ship_label(t, country_of_seat) for t in s["ships"]]
        docks += [("··", "dim")] * (s["docks"] - len(docks))
        gov = s["governor"]
        gov_text = f"G:{_LETTER.get(country_of_seat.get(gov, ''), '?')}" if gov is not None else "   "
        wants = s["wants"] or "?"
        if s["x"] == 0:
            label = f"{s['name']} "
            put(row, max(0, col - 8 - len(label)), label, style)
            c = col - 8
            for text, st in docks:
                put(row, c, text, st)
                c += 3
            sub = f"{gov_text} wants {wants}"
            put(row + 1, max(0, col - 3 - len(sub)), sub, "")
        else:
            c = col + 3
            for text, st in docks:
                put(row, c, text, st)
                c += 3
            put(row, c + 1, s["name"], style)
            put(row + 1, col + 3, f"{gov_text} wants {wants}", "")
    out = Text()
    for r, line in enumerate(grid):
        if r:
            out.append("\n")
        last = len(line)
        while last and line[last - 1][0] == " ":
            last -= 1
        for ch, st in line[:last]:
            out.append(ch, style=st or None)
    return out


def _render(view: Mapping[str, Any], names: Sequence[str] | None) -> RenderableType:
    you = view.get("seat")
    country_of_seat = {p["seat"]: p["country"] for p in view["players"] if p["country"]}
    parts: list[RenderableType] = []
    head = Text()
    for c in view["countries"]:
        head.append(f"{c['name']} ({c['color']}, {c['emblem']})", style=_STYLE.get(c["id"], "bold"))
        head.append(f": seat {c['leader']}   " if c["leader"] is not None else ": not chosen yet   ")
    head.append(f"turn {view['turn']} · first to {view['target']} coins wins")
    parts.append(head)
    parts.append(_board(view, country_of_seat))

    players = Table(show_edge=True, pad_edge=False)
    for col in ("seat", "player", "country", "home", "coins", "governors left"):
        players.add_column(col, justify="right" if col in ("seat", "coins", "governors left") else "left")
    for p in view["players"]:
        seat = p["seat"]
        name = names[seat] if names is not None and seat < len(names) else ""
        if seat == you:
            name = f"{name} (you)" if name else "you"
        marker = "▶ " if seat == view.get("to_act") else ""
        style = _STYLE.get(p["country"] or "", "")
        players.add_row(f"{marker}{seat}", escape(name), Text(p["country"] or "-", style=style), p["home"] or "-",
                        str(p["coins"]), str(p["governors_left"]))
    parts.append(players)

    ships = Table(title="Ships", title_justify="left", show_edge=True, pad_edge=False)
    for col in ("ship", "at", "sails", "cargo", "moves left"):
        ships.add_column(col)
    for sh in view["ships"]:
        label, style = _ship_label(f"{sh['owner']}:{sh['number']}", country_of_seat)
        ships.add_row(Text(label, style=style), sh["at"], "▲" * sh["sails"] or "-",
                      ", ".join(sh["cargo"]) or "empty", str(sh["moves_left"]))
    if view["ships"]:
        parts.append(ships)

    supply = "; ".join(
        f"{cid}: " + ", ".join(f"{k} {n}" for k, n in stock.items()) for cid, stock in view["supply"].items()
    )
    chips = ", ".join(f"{c} {n}" for c, n in view["face_down_chips"].items())
    parts.append(Text(f"Supply card: {supply}", style="dim"))
    parts.append(Text(f"Face-down chips: {chips} · bank {view['bank']} coins", style="dim"))
    if view["phase"] in ("actions", "loading", "selling"):
        used = ", ".join(view["actions_used"]) or "none"
        parts.append(Text(f"Actions used this turn: {used} ({view['actions_left']} left)"))
    return Group(*parts)


register_renderer("precious-cargo", render)
