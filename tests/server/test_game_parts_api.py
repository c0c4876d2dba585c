"""The server gives each game's browser file and components from the game's own folder."""

from __future__ import annotations

from typing import Any

import pytest

import freetrader
from freetrader.core.registry import load_part, part_file


@pytest.mark.parametrize("name", freetrader.games())
def test_each_game_serves_its_components_and_its_renderer(client: Any, name: str) -> None:
    slug = freetrader.game(name).spec.slug
    web = load_part(name, "web")
    assert web is not None
    for key in (name, slug, name.upper()):
        r = client.get(f"/api/games/{key}/components")
        assert r.status_code == 200
        assert r.json() == {"game": slug, "components": web.components()}
    r = client.get(f"/static/games/{name}.js")
    path = part_file(name, "web.js")
    assert r.status_code == 200 and path is not None and r.text == path.read_text(encoding="utf-8")
    assert "javascript" in r.headers["content-type"]


def test_unknown_games_and_files_are_404_with_a_reason(client: Any) -> None:
    for path in ("/api/games/chess/components", "/static/games/chess.js"):
        r = client.get(path)
        assert r.status_code == 404 and "unknown game 'chess'" in r.json()["error"], (path, r.text)
    assert client.get("/static/games/generic.js").status_code == 200  # the fallback renderer stays in web/
    r = client.get("/static/games/..%2F..%2Fserver%2Fapp.py")
    assert r.status_code == 404
