"""In Chromium: the replay of a reviewed game shows each seat's win-chance line and the flagged moves."""

from __future__ import annotations

import json
import os
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from liveserver import LiveServer

SHOT = os.environ.get("FREETRADER_REVIEW_SHOT")  # where to keep the screenshot (for a person to look at)


def _api(server: LiveServer, method: str, path: str, body: Any = None) -> tuple[int, Any]:
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(server.url + path, data=data, method=method,
                                 headers={"content-type": "application/json"})
    with urllib.request.urlopen(req, timeout=10) as r:
        return r.status, json.loads(r.read())


@pytest.fixture
def server(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[LiveServer]:
    monkeypatch.setenv("FREETRADER_REVIEW_ITERS", "6")  # a fast review: the page, not the search, is tested
    s = LiveServer(f"sqlite:///{tmp_path}/review.db", bot_delay=0.0).start(timeout=60)
    try:
        yield s
    finally:
        s.stop()


def test_a_reviewed_replay_shows_win_chance_lines_and_flagged_moves(browser: Any, server: LiveServer,
                                                                    tmp_path: Path) -> None:
    _, made = _api(server, "POST", "/api/tables", {"game": "contraband", "seats": ["random"] * 3, "seed": 5,
                                                   "options": {"end": "turns", "turn_limit": 6}})
    table_id = made["table"]["id"]
    end = time.monotonic() + 60
    while not _api(server, "GET", f"/api/tables/{table_id}")[1]["table"]["is_over"]:
        assert time.monotonic() < end, "the bots did not finish the game"
        time.sleep(0.1)
    page = browser.new_page(viewport={"width": 1200, "height": 900})
    try:
        page.goto(f"{server.url}/replay?table={table_id}")
        page.wait_for_selector("svg.winchart polyline.winline", timeout=90_000)
        assert page.locator("svg.winchart polyline.winline").count() == 3  # one line per seat
        points = page.locator("polyline.winline").first.get_attribute("points") or ""
        assert len(points.split()) > 2
        blunders = page.locator("svg.winchart circle.blunder")
        assert blunders.count() >= 1
        assert page.locator("#flagged li a").count() == blunders.count()
        assert page.locator("#moves li.flagged").count() == blunders.count()
        page.locator("#flagged li a").first.click()
        note = page.locator("#preferred")
        note.wait_for(state="visible", timeout=10_000)
        text = note.inner_text()
        assert "The review preferred" in text and "is about to play" in text
        # the page's review is the stored one: what the API gives now without computing
        status, stored = _api(server, "GET", f"/api/tables/{table_id}/review")
        assert status == 200 and stored["status"] == "done"
        first = next(d for d in stored["review"]["decisions"] if d["flagged"])
        assert first["best"] in text and first["played"] in text
        page.screenshot(path=SHOT or str(tmp_path / "review.png"), full_page=True)
    finally:
        page.close()
