"""The lobby in headless Chromium: a table of every game made by clicks alone with the default options, at a
desktop and a phone width; the tables this browser sits at; the seat link; the turn timer from the first turn."""

from __future__ import annotations

import json
import os
import re
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from liveserver import LiveServer

import freetrader
import freetrader.bots
from freetrader.core.registry import load_part

VIEWPORTS = {"desktop": {"width": 1280, "height": 900}, "phone": {"width": 390, "height": 844}}
#: where the screenshots of these tests go (look at them: FREETRADER_SHOTS=dir)
SHOTS = os.environ.get("FREETRADER_SHOTS")


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    db = tmp_path_factory.mktemp("lobby") / "lobby.db"
    with LiveServer(f"sqlite:///{db}").start() as s:
        yield s


def _page(browser: Any, viewport: str) -> Any:
    context = browser.new_context(viewport=VIEWPORTS[viewport])
    page = context.new_page()
    page.script_errors = []
    page.on("pageerror", lambda exc: page.script_errors.append(str(exc)))
    return page


def _done(page: Any) -> None:
    errors = page.script_errors
    page.context.close()
    assert errors == [], f"script errors on the page: {errors}"


def _shot(page: Any, name: str) -> None:
    if SHOTS:
        Path(SHOTS).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(SHOTS) / f"{name}.png"), full_page=True)


def _first_decision(page: Any) -> None:
    """The table page is at its first decision: this seat's move buttons are there and enabled."""
    page.wait_for_selector("#prompt.yours", timeout=120_000)
    page.wait_for_selector("#actions button.move:enabled", timeout=120_000)
    assert page.locator("#conn").text_content() == "connected"
    assert page.locator("#error").text_content() == ""


@pytest.mark.parametrize("viewport", VIEWPORTS)
@pytest.mark.parametrize("game", freetrader.games())
def test_a_table_of_each_game_is_made_from_the_lobby_by_clicks(browser: Any, server: LiveServer, game: str,
                                                                viewport: str) -> None:
    page = _page(browser, viewport)
    page.goto(server.url + "/")
    page.wait_for_selector("#game option", state="attached")
    # the game menu is a <select>: choosing in it is the one step that is not a click on a button
    page.select_option("#game", game)
    page.click("#create > details > summary")  # open the options: every field drawn by its kind
    spec = freetrader.game(game).spec
    comps = load_part(freetrader.game(game), "web").components()
    words = comps["drawing"]["lobby"]
    for o in spec.options:
        node = page.locator(f"#opt-{o.name}")
        # a label and a sentence a player reads (drawing.toml [lobby]); legacy ones under "Advanced"
        row = node.locator("xpath=ancestor::div[contains(@class, 'form-row')]")
        assert row.locator("label").text_content() == words["options"][o.name]["label"] != o.name
        assert (row.locator("small").text_content() or "").startswith(words["options"][o.name]["text"])
        inside = "advanced-options" if words["options"][o.name].get("advanced") else "options"
        assert node.evaluate("(n, id) => n.closest('#' + id) !== null", inside), f"{game} {o.name} not in #{inside}"
        kind = node.get_attribute("data-kind")
        assert kind == o.kind, f"{game} {o.name}: drawn as {kind}, is {o.kind}"
        tag = node.evaluate("n => n.tagName + ':' + (n.type || '')")
        assert tag == {"choice": "SELECT:select-one", "flag": "INPUT:checkbox", "number": "INPUT:number",
                       "text": "INPUT:text"}[o.kind], f"{game} {o.name}: {tag}"
        if o.kind in ("number", "text"):
            assert node.input_value() == "" and str(o.default) in (node.get_attribute("placeholder") or "")
        if o.kind == "number":
            assert node.get_attribute("min") == str(o.minimum) and node.get_attribute("max") == str(o.maximum)
    seat_menu = [v for v in page.locator("#seat-1 option").evaluate_all("ns => ns.map(n => n.value)")]
    # the server's own registry (this test process also holds the bots other test modules register)
    with urllib.request.urlopen(server.url + "/api/games", timeout=60) as answer:
        served = next(x["bots"] for x in json.load(answer) if x["name"] == game)
    # by default the current bots only; "Offer older bots" (Advanced) adds the game's older heuristics
    current = [b for b in served if not words["bots"].get(b, {}).get("advanced")]
    assert seat_menu == ["human", *current]
    labels = page.locator("#seat-1 option").evaluate_all("ns => ns.map(n => n.textContent)")
    for b, text in zip(current, labels[1:], strict=True):
        assert text.endswith(words["bots"][b].get("strength") or "strength not measured"), text
    page.click("#advanced > summary")
    page.check("#show-old-bots")
    assert page.locator("#seat-1 option").evaluate_all("ns => ns.map(n => n.value)") == ["human", *served]
    page.uncheck("#show-old-bots")
    assert page.locator("#hints").count() == 1  # the table's hints option, offered for every game
    # a bot's long name and strength is cut inside its menu, never widening the page (it did, to 449 px)
    assert page.evaluate("document.documentElement.scrollWidth") <= VIEWPORTS[viewport]["width"] + 1
    assert served and set(served) <= set(freetrader.bots.bot_names(freetrader.game(game)))  # only bots for this game
    page.click("#create-button")
    page.wait_for_url(re.compile(r"/t/[^#]+#token="), timeout=120_000)
    _first_decision(page)
    assert page.locator("#board svg, #board dl").count() > 0
    assert page.locator("#copy-seat-link").is_visible()
    _shot(page, f"lobby-{game}-{viewport}")
    # back in the lobby, the table is among "Your tables", and Resume opens the seat again
    table_id = page.url.split("/t/")[1].split("#")[0]
    page.goto(server.url + "/")
    mine = page.locator(f'#mine li[data-mine="{table_id}"]')
    mine.wait_for(timeout=120_000)
    assert "your turn" in (mine.text_content() or "")
    mine.locator("a.resume").click()
    _first_decision(page)
    assert table_id in page.url
    _done(page)


def test_a_table_opened_without_its_token_warns_of_the_stored_seat(browser: Any, server: LiveServer) -> None:
    page = _page(browser, "desktop")
    page.goto(server.url + "/")
    page.wait_for_selector("#game option", state="attached")
    page.select_option("#game", "contraband")
    page.click("#create-button")
    page.wait_for_url(re.compile(r"#token="), timeout=120_000)
    _first_decision(page)
    table_id = page.url.split("/t/")[1].split("#")[0]
    page.goto(server.url + f"/t/{table_id}")  # as the lobby's Watch link does
    page.wait_for_selector("#stored-seat-warning", timeout=120_000)
    assert "spectator" in (page.locator("#whoami").text_content() or "")
    assert "seat 0" in (page.locator("#stored-seat-warning").text_content() or "")
    page.click("#open-my-seat")
    _first_decision(page)
    assert page.locator("#stored-seat-warning").count() == 0
    _done(page)


def test_the_turn_timer_counts_down_from_the_first_turn(browser: Any, server: LiveServer) -> None:
    page = _page(browser, "phone")
    page.goto(server.url + "/")
    page.wait_for_selector("#game option", state="attached")
    page.select_option("#game", "precious-cargo")
    page.click("#create summary")
    page.fill("#turn-seconds", "40")
    page.click("#create-button")
    page.wait_for_url(re.compile(r"#token="), timeout=120_000)
    _first_decision(page)
    timer = page.locator("#timer")
    assert timer.is_visible()
    first = int(timer.get_attribute("data-left") or "-1")
    assert 30 <= first <= 40, timer.text_content()
    assert re.search(r"Your time: \d+ s left", timer.text_content() or "")
    page.wait_for_function(f"Number(document.getElementById('timer').dataset.left) < {first}", timeout=120_000)
    _done(page)
