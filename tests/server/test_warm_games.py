"""The server fills each game's shared caches as it starts (issue 35, item 8).

A profile of the paced-load benchmark showed Cornish hold packings computed on the event loop, a few
milliseconds each, the first time any table asked where a piece fits. The server now fills them as it
starts, before its worker pools fork.
"""

from __future__ import annotations

from pathlib import Path

from fastapi.testclient import TestClient

from freetrader.games.cornish_smuggler import SPEC, packing
from freetrader.server.app import create_app


def test_the_server_fills_the_cornish_packing_cache_as_it_starts(tmp_path: Path) -> None:
    packing._placements.cache_clear()
    assert packing._placements.cache_info().currsize == 0
    assert SPEC.warm is packing.warm
    with TestClient(create_app(f"sqlite:///{tmp_path / 'warm.db'}")) as client:
        assert client.get("/api/games").status_code == 200
        holds = len(packing.C.ships) + len(packing.C.storehouses)
        assert packing._placements.cache_info().currsize == holds * len(packing.C.shapes) * 2
