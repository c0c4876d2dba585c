"""What the table and the terminal show at a sale and a landing are the engine's numbers (issue 19)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from rich.console import Console

import freetrader
from freetrader.games.cornish_smuggler.components import COMPONENTS as C
from freetrader.games.cornish_smuggler.frames import Landing, landing_excess
from freetrader.games.cornish_smuggler.render import grouped_actions, render_cornish
from freetrader.games.cornish_smuggler.view import landing_risk, sale_prices
from freetrader.games.cornish_smuggler.web import components

GOLDEN = Path(__file__).parents[2] / "golden" / "cornish-smuggler-3p-seed4.txt"


def golden_record() -> dict[str, Any]:
    line = GOLDEN.read_text().splitlines()[1]
    return dict(json.loads(line[len("record "):]))


def state_before(action: str) -> Any:
    rec = golden_record()
    return freetrader.replay(dict(rec, actions=rec["actions"][: rec["actions"].index(action)]))


def text(renderable: Any) -> str:
    console = Console(width=200, record=True)
    console.print(renderable)
    return console.export_text()


def test_the_served_price_list_is_the_engines_cell_by_cell() -> None:
    served = components()["prices"]
    assert sorted(map(int, served)) == sorted(C.prices)
    for town in C.prices:
        for size in (2, 3, 4, 5):
            assert served[str(town)][str(size)] == [list(C.price(town, size, row)) for row in range(3)]
    # the columns the rulebook prints: a town lists no goods bigger than itself
    assert components()["price_columns"] == {"2": [2], "3": [2, 3], "5": [2, 3, 4, 5], "7": [2, 3, 4, 5]}


def test_sale_prices_are_the_rulebooks_cells() -> None:
    # Goods Price List, size 5 town, a 4-square shape: 4 Gold 3 Rep / 12 Gold 1 Rep / 16 Gold
    assert [(r["gold"], r["reputation"], r["cost"]) for r in sale_prices(5, 4)] == [(4, 3, 0), (12, 1, 1), (16, 0, 2)]
    # a 5-square shape in a size 3 town sells at the town's own column
    assert [(r["gold"], r["reputation"]) for r in sale_prices(3, 5)] == [(3, 2), (6, 1), (12, 0)]


def test_landing_risk_is_the_engines_landing_excess() -> None:
    # a CornishState: its frames are the engine's own; the first landing that asks how much to hide
    st = s = state_before(next(a for a in golden_record()["actions"] if a.startswith("hide ")))
    frame = s.frames[-1]
    assert isinstance(frame, Landing)
    view = st.view(st.to_act)
    sizes = {g["id"]: g["size"] for g in view["goods"]}
    r = landing_risk(view["landing"]["at"], [sizes[g] for g in view["landing"]["goods"]], view["customs"]["discovery"],
                     view["players"][st.to_act]["influence"])
    assert r["risk"] - r["discovery"] == landing_excess(s, frame)
    assert [h["influence"] for h in r["hide"]] == list(range(len(r["hide"])))
    assert all(h["customs_moves"] == r["over"] - h["influence"] for h in r["hide"])
    shown = text(render_cornish(view))
    assert f"Landing Risk {r['risk']} against Discovery Level {r['discovery']}" in shown
    assert "Your choices by kind" in shown


def test_the_terminal_shows_the_price_list_at_a_sale() -> None:
    st = state_before("price bottom with influence")
    view = st.view(st.to_act)
    shown = text(render_cornish(view))
    assert "Goods Price List for this sale" in shown
    goods = [g for g in view["goods"] if g["owner"] == st.to_act and g["where"] == "land"
             and C.locations[C.loc_by_id[g["at"]]].size]
    assert goods
    for g in goods:
        town = C.locations[C.loc_by_id[g["at"]]]
        for row in range(3):
            gold, rep = C.price(town.size, g["size"], row)
            assert any(f" {gold} " in line and f" {rep} " in line and ("top", "middle", "bottom")[row] in line
                       for line in shown.splitlines() if g["id"] in line)


def test_grouped_actions_put_payments_on_one_line() -> None:
    table = text(grouped_actions(["sail to penzance with influence", "sail to penzance with gold", "pass"]))
    assert "1,2: sail to penzance (1 Influence / 3 Gold)" in table
    assert "Pass" in table and "3: pass" in table
