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
    with urllib.request.urlopen(req, timeout=60) as r:
        return r.status, json.loads(r.read())


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    budgets = {"FREETRADER_REVIEW_ITERS": "6", "FREETRADER_HINT_ITERS": "30"}  # the page is tested, not the search
    saved = {k: os.environ.get(k) for k in budgets}
    os.environ.update(budgets)
    s = LiveServer(f"sqlite:///{tmp_path_factory.mktemp('review')}/review.db", bot_delay=0.0)
    try:
        s.start(timeout=300)  # a server too slow to answer is stopped before the error
    finally:
        for k, v in saved.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v
    try:
        yield s
    finally:
        s.stop()


def test_a_reviewed_replay_shows_win_chance_lines_and_flagged_moves(browser: Any, server: LiveServer,
                                                                    tmp_path: Path) -> None:
    _, made = _api(server, "POST", "/api/tables", {"game": "contraband", "seats": ["random"] * 3, "seed": 5,
                                                   "options": {"end": "turns", "turn_limit": 6}})
    table_id = made["table"]["id"]
    end = time.monotonic() + 600
    while not _api(server, "GET", f"/api/tables/{table_id}")[1]["table"]["is_over"]:
        assert time.monotonic() < end, "the bots did not finish the game"
        time.sleep(0.1)
    page = browser.new_page(viewport={"width": 1200, "height": 900})
    try:
        page.goto(f"{server.url}/replay?table={table_id}")
        # attached, not "visible": a seat whose chance never moved draws a flat line, whose box has no height
        page.wait_for_selector("svg.winchart polyline.winline", state="attached", timeout=120_000)
        assert page.locator("svg.winchart polyline.winline").count() == 3  # one line per seat
        points = page.locator("polyline.winline").first.get_attribute("points") or ""
        assert len(points.split()) > 2
        blunders = page.locator("svg.winchart circle.blunder")
        assert blunders.count() >= 1
        assert page.locator("#flagged li a").count() == blunders.count()
        assert page.locator("#moves li.flagged").count() == blunders.count()
        page.locator("#flagged li a").first.click()
        note = page.locator("#preferred")
        note.wait_for(state="visible", timeout=120_000)
        text = note.inner_text()
        assert "The review preferred" in text and "is about to play" in text
        # the page's review is the stored one: what the API gives now without computing
        status, stored = _api(server, "GET", f"/api/tables/{table_id}/review")
        assert status == 200 and stored["status"] == "done"
        first = next(d for d in stored["review"]["decisions"] if d["flagged"])
        assert first["best_label"] in text and first["played_label"] in text  # in the table's words
        page.screenshot(path=SHOT or str(tmp_path / "review.png"), full_page=True)
    finally:
        page.close()


def test_the_hint_button_shows_the_preferred_move_at_a_table_with_hints(browser: Any, server: LiveServer) -> None:
    _, made = _api(server, "POST", "/api/tables", {"game": "contraband", "seats": ["human", "random", "random"],
                                                   "seed": 2, "hints": True,
                                                   "options": {"end": "turns", "turn_limit": 6}})
    table_id = made["table"]["id"]
    _, joined = _api(server, "POST", f"/api/tables/{table_id}/join", {"seat": 0})
    page = browser.new_page()
    try:
        page.goto(f"{server.url}/t/{table_id}#token={joined['token']}")
        page.wait_for_selector("#prompt.yours", timeout=120_000)
        legal = [b.get_attribute("data-action") for b in page.locator("#actions button.move").all()]
        page.click("#ask-hint")
        page.wait_for_function("document.getElementById('hint-text')?.textContent.startsWith('Hint: ')",
                               timeout=120_000)
        text = page.locator("#hint-text").inner_text()
        assert any(text.startswith(f"Hint: {a}:") for a in legal), text
        assert "%" in text
    finally:
        page.close()
    # a spectator sees that hints are on, but has no button
    watcher = browser.new_page()
    try:
        watcher.goto(f"{server.url}/t/{table_id}")
        watcher.wait_for_selector("#hints-on", timeout=120_000)
        assert watcher.locator("#ask-hint").count() == 0
    finally:
        watcher.close()
