"""Precious Cargo data: every entry has provenance; a broken data pack fails with a clear line."""

from __future__ import annotations

import tomllib
from importlib import resources

import pytest

import freetrader
from freetrader.games.precious_cargo.components import load_components

PKG = "freetrader.games.precious_cargo"
BOARD = resources.files(PKG).joinpath("data", "board.toml").read_text()
CARGO = resources.files(PKG).joinpath("data", "cargo.toml").read_text()


def test_every_entry_has_provenance_rulebook_or_designed():
    for text in (BOARD, CARGO):
        raw = tomllib.loads(text)
        for key, value in raw.items():
            entries = value if isinstance(value, list) else [value]
            for e in entries:
                assert e["provenance"] in ("rulebook", "designed"), (key, e)
    c = load_components()
    assert {p.provenance for p in c.places} == {"designed"}


def test_board_routes_cross_only_at_dots_and_reach_everywhere():
    c = load_components()
    assert all(d >= 0 for row in c.dist for d in row)
    centre = c.by_id["d3"]
    assert len(c.neighbors[centre]) == 8  # the strait: four routes cross there


@pytest.mark.parametrize(
    "file,edit,message",
    [
        ("board.toml", lambda t: t.replace('path = ["b1", "c1", "d1", "e1", "f1"]', 'path = ["b1", "d1", "e1", "f1"]'),
         "are not grid neighbours"),
        ("board.toml", lambda t: t.replace('id = "vidrava"', 'id = "vidrava"\nharbour = 1'), "unknown key(s) 'harbour'"),
        ("board.toml", lambda t: t.replace('path = ["d1", "d2", "d3", "d4", "d5"]', 'path = ["d1", "d2", "q9"]'),
         "unknown place 'q9'"),
        ("board.toml", lambda t: t + '[[route]]\nname = "x"\npath = ["c1", "b3"]\nprovenance = "designed"\n',
         "are not grid neighbours"),
        ("board.toml", lambda t: t + '[[route]]\nname = "x"\npath = ["c1", "d2"]\nprovenance = "designed"\n'
         '[[route]]\nname = "y"\npath = ["d1", "c2"]\nprovenance = "designed"\n', "crosses another line"),
        ("cargo.toml", lambda t: t.replace("count = 4\nprovenance", "count = 5\nprovenance", 1), "holds 20 crates"),
        ("cargo.toml", lambda t: t.replace('provenance = "rulebook"', 'provenance = "guess"', 1), "provenance 'guess'"),
        ("cargo.toml", lambda t: t.replace('country = "talonas"\ncargo = "food"\ncount = 2',
                                           'country = "talonas"\ncargo = "sugar"\ncount = 2'), "not sugar"),
    ],
)
def test_broken_data_pack_is_refused_with_a_clear_line(tmp_path, file, edit, message):
    (tmp_path / "board.toml").write_text(BOARD)
    (tmp_path / "cargo.toml").write_text(CARGO)
    (tmp_path / file).write_text(edit((tmp_path / file).read_text()))
    with pytest.raises(freetrader.DataError, match=message.replace("(", r"\(").replace(")", r"\)")):
        load_components(tmp_path)
