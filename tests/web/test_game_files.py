"""The browser's game files copy no game data: they read it from GET /api/games/{game}/components.

Every id and name the server's components hold (places, cards, ships, pieces)
is looked for in each game's ``web.js`` as a quoted string or as the key of an
object literal holding data; none may be there, so neither may a hand-copied
card table, place list or id array.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest

import freetrader
from freetrader.core.registry import load_part, part_file

_QUOTED = re.compile(r'"((?:[^"\\\n]|\\.)*)"|\'((?:[^\'\\\n]|\\.)*)\'')
# `key: <data>` in an object literal: the value starts a string, number, array or object
_DATA_KEY = re.compile(r'(?:[{,]\s*)([A-Za-z_$][\w$-]*|"[^"\n]+"|\'[^\'\n]+\')\s*:\s*(?=["\'\d\[{-])')
# a comment: from // at the start of a line or after a space (so not the // of "http://")
_COMMENT = re.compile(r"(?:^|(?<=\s))//[^\n]*", re.M)


def _strings(js: str) -> set[str]:
    """Quoted strings and data keys of object literals in ``js`` (comments left out)."""
    code = _COMMENT.sub("", js)
    found = {a or b for a, b in _QUOTED.findall(code)}
    found |= {k.strip("\"'") for k in _DATA_KEY.findall(code)}
    return found


def _names(comps: Any, depth: int = 0) -> Iterator[str]:
    """Ids (the keys of each section's entries) and names anywhere in the components, without the drawing."""
    if isinstance(comps, dict):
        for key, value in comps.items():
            if depth == 0 and key == "drawing":
                continue
            if depth == 1 and isinstance(value, dict):  # an entry of a section, by its id
                yield str(key)
            if key == "name" and isinstance(value, str):
                yield value
            yield from _names(value, depth + 1)
    elif isinstance(comps, list):
        for value in comps:
            yield from _names(value, depth + 1)


def data_in(js: str, comps: dict[str, Any]) -> list[str]:
    """The ids and names of ``comps`` that a browser file ``js`` holds itself."""
    known = {n for n in _names(comps) if len(n) > 2}
    return sorted(known & _strings(js))


GAMES = [g for g in freetrader.games() if part_file(g, "web.js") is not None]


def test_every_game_draws_in_the_browser_from_its_own_folder() -> None:
    assert sorted(GAMES) == sorted(freetrader.games())
    for g in GAMES:
        assert load_part(g, "web") is not None, f"{g} has a web.js but no web.py giving its components"


@pytest.mark.parametrize("game", GAMES)
def test_browser_game_file_holds_no_card_or_place_list(game: str) -> None:
    path = part_file(game, "web.js")
    assert path is not None
    web = load_part(game, "web")
    assert web is not None
    comps = web.components()
    assert list(_names(comps)), "the components name nothing: the scan would prove nothing"
    js = path.read_text(encoding="utf-8")
    assert "init(" in js, f"{path.name} should take its data in init(components), from the components endpoint"
    assert data_in(js, comps) == [], f"{game}: web.js copies game data; read it from the components instead"


def test_the_scan_finds_a_hand_copied_list() -> None:
    """What the game files used to hold is caught: a card table, a place list, an id array."""
    comps = {"townsfolk": {"baker": {"name": "Baker"}, "fishwife": {"name": "Fishwife"}},
             "locations": {"st-ives": {"name": "St Ives"}}}
    assert data_in('  const TF = { baker: ["red", 2], fishwife: ["green", 2] };', comps) == ["baker", "fishwife"]
    assert data_in('  const POS = { "st-ives": [560, 152] };', comps) == ["st-ives"]
    assert data_in('  label: "St Ives Bay", x: 1, name: "St Ives"', comps) == ["St Ives"]
    assert data_in('  const SETS = ["fishwife", "baker"];', comps) == ["baker", "fishwife"]
    # code keyed by an id (a drawing function per board) and comments are not data
    assert data_in('  const BOARDS = { baker: drawBaker };  // baker: "the Baker"\n  // "st-ives"', comps) == []


def test_components_follow_a_data_pack(tmp_path: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """A user's data pack ($FREETRADER_DATA/<game>/) changes what the server gives the browser, as it does the rules."""
    import json
    import urllib.error
    import urllib.request
    from importlib import resources

    from liveserver import LiveServer

    pack = tmp_path / "pack" / "merchants-cove"  # the game's name, as the docs say
    pack.mkdir(parents=True)
    text = resources.files("freetrader.games.merchants_cove").joinpath("data", "townsfolk.toml").read_text("utf-8")
    assert 'name = "Baker"' in text
    (pack / "townsfolk.toml").write_text(text.replace('name = "Baker"', 'name = "Master Baker"'), encoding="utf-8")
    web = load_part("merchants-cove", "web")
    assert web is not None
    assert web.components(data_dir=pack)["townsfolk"]["baker"]["name"] == "Master Baker"
    assert web.components()["townsfolk"]["baker"]["name"] == "Baker"
    monkeypatch.setenv("FREETRADER_DATA", str(tmp_path / "pack"))
    server = LiveServer(f"sqlite:///{tmp_path}/pack.db").start()
    try:
        with urllib.request.urlopen(server.url + "/api/games/merchants-cove/components", timeout=60) as r:
            served = json.loads(r.read())
        assert served["game"] == "merchants-cove-v1"
        assert served["components"]["townsfolk"]["baker"] == {**web.components()["townsfolk"]["baker"],
                                                               "name": "Master Baker"}
        with pytest.raises(urllib.error.HTTPError) as err:
            urllib.request.urlopen(server.url + "/api/games/no-such-game/components", timeout=60)
        assert err.value.code == 404 and "unknown game 'no-such-game'" in json.loads(err.value.read())["error"]
    finally:
        server.stop()
