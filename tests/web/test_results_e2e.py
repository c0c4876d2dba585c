"""Each game played to its end in Chromium by clicking, at desk and phone width: the results panel and the log.

A human seat clicks the first legal button each time; the other seats are
bots. The end shows every seat's rank, score and breakdown, the game's length
and a replay link; the log reads with names; nothing on the page scrolls
sideways or overlaps the board at either width.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest
from liveserver import LiveServer
from test_e2e import api, index, is_over

import freetrader
import freetrader.bots

#: Options that keep a clicked game short: Cornish's turn cap is passed explicitly (it may be off by default).
OPTIONS: dict[str, dict[str, Any]] = {
    "contraband": {"end": "turns", "turn_limit": 4},
    "precious-cargo": {"target": 6, "turn_limit": 6},
    "cornish-smuggler": {"turn_limit": 2},
    "merchants-cove": {},
}
SIZES = {"desk": (1280, 900), "phone": (390, 844)}


def _seats(game: str) -> list[str]:
    g = freetrader.game(game)
    bots = freetrader.bots.bot_names(g)
    bot = "heuristic" if "heuristic" in bots else "random"
    n = max(g.spec.min_seats, min(3, g.spec.max_seats))
    return ["human"] + [bot] * (n - 1)


def play_to_the_end(page: Any, budget: float = 300.0) -> int:
    """Click the first legal button whenever it is this seat's move, until the game is over."""
    clicks = 0
    end = time.monotonic() + budget
    while not is_over(page):
        assert time.monotonic() < end, f"the game did not end within {budget:g} s ({clicks} clicks)"
        button = page.locator("#actions button.move:enabled").first
        assert not page.evaluate(OVERLAP), "a seat box covers a luggage card"
        if page.locator("#prompt.yours").count() and button.count():
            before = index(page)
            button.click()
            clicks += 1
            page.wait_for_function(
                f"Number(document.body.dataset.index) > {before} || document.body.dataset.over === '1'"
                " || document.getElementById('error').textContent !== ''", timeout=120_000)
        else:
            time.sleep(0.05)
    return clicks


OVERLAP = """(() => {
  // Contraband: a seat's box must not cover a luggage card (it covered the fourth at three seats)
  const boxes = [...document.querySelectorAll('#board .seat .seat-box')].map((e) => e.getBoundingClientRect());
  const cards = [...document.querySelectorAll('#board .luggage .card')].map((e) => e.getBoundingClientRect());
  return cards.some((c) => boxes.some((b) => c.left < b.right - 1 && b.left < c.right - 1
                                              && c.top < b.bottom - 1 && b.top < c.bottom - 1));
})()"""


def no_sideways_scroll(page: Any, width: int) -> None:
    scroll = page.evaluate("document.documentElement.scrollWidth")
    assert scroll <= width + 2, f"the page scrolls sideways at {width}px ({scroll}px wide)"
    # a drawing widened for 11-px labels (table.js legible: class "pannable") pans inside the board's box:
    # then the box itself must fit the screen
    board = page.evaluate("(() => { const s = document.querySelector('#board svg'); if (!s) return null;"
                          " const b = s.classList.contains('pannable') ? document.getElementById('board') : s;"
                          " const r = b.getBoundingClientRect(); return [r.left, r.right]; })()")
    if board is not None:
        assert board[0] >= -1 and board[1] <= width + 1, f"the board is cropped at {width}px: {board}"


@pytest.mark.e2e
@pytest.mark.parametrize("size", list(SIZES))
@pytest.mark.parametrize("game", freetrader.games())
def test_a_game_played_by_clicking_ends_with_each_seats_results(browser: Any, tmp_path: Path, game: str,
                                                                 size: str) -> None:
    width, height = SIZES[size]
    server = LiveServer(f"sqlite:///{tmp_path}/res.db", bot_delay=0.0).start()
    try:
        seats = _seats(game)
        tid = api(server, "POST", "/api/tables", {"game": game, "seats": seats,
                                                  "options": OPTIONS.get(game, {})})["table"]["id"]
        link = api(server, "POST", f"/api/tables/{tid}/join", {"name": "Ann"})["link"]
        page = browser.new_context(viewport={"width": width, "height": height}).new_page()
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(server.url + link)
        page.wait_for_selector("#board svg, #board dl", timeout=120_000)
        no_sideways_scroll(page, width)
        # a refused move says why and links to the rule of the decision it was refused in
        page.wait_for_selector("#notation-input:enabled", timeout=120_000)
        page.fill("#notation-input", "fly to the moon")
        page.press("#notation-input", "Enter")
        page.wait_for_selector("#error-rule", timeout=120_000)
        assert page.locator("#error-rule").get_attribute("href").startswith(f"/rules/{game}")
        assert page.locator("#rules-link").get_attribute("href").startswith(f"/rules/{game}#phase-")
        play_to_the_end(page)
        page.wait_for_selector("#results .result-row", timeout=120_000)
        rows = page.locator("#results .result-row")
        assert rows.count() == len(seats)
        final = api(server, "GET", f"/api/tables/{tid}/view")
        res = final["results"]
        for i in range(rows.count()):
            row = rows.nth(i)
            seat = int(row.get_attribute("data-seat"))
            mine = res["seats"][seat]
            assert int(row.get_attribute("data-rank")) == mine["rank"]
            parts = row.locator("li.part")
            assert parts.count() == len(mine["parts"]) >= 1
            assert all(p["label"] in row.inner_text() for p in mine["parts"])
        assert "Ann" in page.inner_text("#results")
        assert res["length"] in page.inner_text("#results-length")
        assert page.locator("#replay-link").get_attribute("href") == f"/replay?table={tid}"
        log = page.inner_text("#log")
        assert "Ann" in log and "Seat 0 " not in log
        numbers = page.evaluate("[...document.querySelectorAll('#log li .n')].map((n) => Number(n.textContent))")
        assert numbers == list(range(1, len(numbers) + 1))
        no_sideways_scroll(page, width)
        assert not errors, errors
    finally:
        server.stop()


def test_the_rules_page_has_a_section_for_every_decision(browser: Any, tmp_path: Path) -> None:
    """Each game's /rules page names its designed components and holds the section each phase links to."""
    import importlib

    from freetrader.core.registry import game_package

    server = LiveServer(f"sqlite:///{tmp_path}/rules.db").start()
    try:
        page = browser.new_context(viewport={"width": 390, "height": 844}).new_page()
        for game in freetrader.games():
            phases = importlib.import_module(game_package(freetrader.game(game)) + ".phases")
            page.goto(f"{server.url}/rules/{game}")
            assert page.locator("#designed").count() == 1
            for phase in phases.PHASES:
                if game == "merchants-cove" and phase in ("setup", "production", "market"):
                    continue
                assert page.locator(f"#phase-{phase}").count() == 1, f"{game}: no rules section for {phase}"
            no_sideways_scroll(page, 390)
        assert "designed" in page.inner_text("#designed")
        page.goto(f"{server.url}/rules/no-such-game")
        assert "no-such-game" in page.inner_text("body")
    finally:
        server.stop()
