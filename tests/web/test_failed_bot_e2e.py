"""A bot that raises at a table, in Chromium: the table shows which bot failed and why (the exception's type,
never its message), the seated player clicks "let the random bot make this move", then "Replace", and the
game goes on to its end."""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import Any

import pytest
from liveserver import LiveServer
from test_e2e import api, index, is_over

SECRET = "hand-of-the-raising-bot"
#: Loaded by the server's Python at start (PYTHONPATH): registers a Contraband bot that always raises,
#: its message holding its seat's whole view, which the table must never show.
PLUGIN = f'''
from freetrader.bots import register_bot
from freetrader.bots.random_bot import RandomBot


class RaisingBot(RandomBot):
    name = "raising-e2e"

    def choose(self, state, seat):
        raise KeyError("{SECRET} " + str(state.view(seat)))


register_bot("raising-e2e", RaisingBot, game="contraband")
'''
AGREED = {"end": "turns", "turn_limit": 4, "first_officer": "agreement"}  # seat 0, the bot, is the officer


@pytest.fixture
def server(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Any:
    (tmp_path / "sitecustomize.py").write_text(PLUGIN, encoding="utf-8")
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join(filter(None, [str(tmp_path), os.environ.get("PYTHONPATH")])))
    with LiveServer(f"sqlite:///{tmp_path}/failed.db", bot_delay=0.0).start(timeout=300) as s:
        yield s


def test_a_raising_bot_shows_its_failure_and_the_players_click_the_game_on(browser: Any, server: LiveServer) -> None:
    tid = api(server, "POST", "/api/tables", {"game": "contraband", "seats": ["raising-e2e", "human", "random"],
                                              "options": AGREED})["table"]["id"]
    link = api(server, "POST", f"/api/tables/{tid}/join", {"seat": 1, "name": "Ann"})["link"]
    page = browser.new_context(viewport={"width": 390, "height": 844}).new_page()
    page.set_default_timeout(20000)
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(server.url + link)
    # Ann declares; then the officer (the raising bot) is to act, fails three times and is marked failed
    page.wait_for_selector('#actions button.move:enabled[data-action="declare"]').click()
    notice = page.wait_for_selector('.bot-failure[data-seat="0"]', timeout=120_000)
    text = notice.inner_text()
    assert "raising-e2e bot at seat 0 failed: it raised KeyError" in text, text
    assert SECRET not in page.content()
    before = index(page)
    page.click(".bot-failure .fallback-button")
    page.wait_for_function(f"Number(document.body.dataset.index) > {before}")
    assert page.locator('.bot-failure[data-seat="0"]').count() == 1  # the failure stays until replaced
    # replace it with another of the game's bots: the notice goes, and the game plays on to its end
    page.locator(".bot-failure select.replace-bot").select_option("random")
    page.click(".bot-failure .replace-bot-button")
    page.wait_for_selector(".bot-failure", state="detached")
    assert "Seat 0 · random bot" in page.inner_text("#seats")
    end = time.monotonic() + 900
    while not is_over(page):
        assert time.monotonic() < end, "the game did not end"
        button = page.locator("#actions button.move:enabled").first
        if page.locator("#prompt.yours").count() and button.count():
            at = index(page)
            button.click()
            page.wait_for_function(f"Number(document.body.dataset.index) > {at} || document.body.dataset.over === '1'"
                                   " || document.getElementById('error').textContent !== ''")
        else:
            time.sleep(0.05)
    page.wait_for_selector("#results .result-row")
    assert page.locator("#results .result-row").count() == 3
    assert SECRET not in page.content()
    assert not errors, errors
    page.context.close()
