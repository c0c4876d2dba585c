"""The terminal's Price List at a sale is the engine's quote for the shape on sale (issue 19, item 7)."""

from __future__ import annotations

import io

from rich.console import Console
from test_cornish_notes import sale_by_engine, states_before

from freetrader.cli.play import seat_view
from freetrader.cli.render import render_view
from freetrader.games.cornish_smuggler.web import sale_quote


def _drawn(view: dict) -> str:
    out = io.StringIO()
    Console(file=out, width=200, color_system=None).print(render_view(view))
    return out.getvalue()


def test_the_terminal_price_list_shows_the_shape_on_sale_with_the_engines_numbers() -> None:
    sales = states_before("price")
    assert sales, "the golden game has sales"
    for s, action in sales:
        quote = sale_quote(s)
        assert quote is not None
        text = _drawn(seat_view(s, s.to_act))
        table = text[text.index("Goods Price List for this sale"):]
        lines = [ln for ln in table.splitlines() if f"{quote['goods']} ({quote['size']})" in ln]
        assert len(lines) == len(quote["rows"]), table  # only the shape on sale, one line per row
        _size, row, gold, rep = sale_by_engine(s, action)
        played = next(ln for ln in lines if f" {row} " in ln)
        cells = [c.strip() for c in played.split("│") if c.strip()]
        assert f"sells as size {quote['town_size']}" in cells[1]
        assert int(cells[4].split(" +")[0]) + sum(int(b) for b in cells[4].split(" +")[1:]) == gold
        assert int(cells[5]) == rep


def test_a_seat_that_does_not_act_gets_no_notes() -> None:
    s, _action = states_before("price")[0]
    other = (s.to_act + 1) % s.seats
    assert "notes" not in seat_view(s, other)
