"""End to end in headless Chromium: two people and a bot play Contraband through a server crash."""

from __future__ import annotations

import json
import random
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import pytest
from liveserver import LiveServer

import freetrader
import freetrader.bots
from freetrader.server.tables import view_from

SHORT = {"end": "turns", "turn_limit": 6}
#: Options that make a game short enough to play through the browser in a test (default options otherwise).
SHORT_OPTIONS: dict[str, dict[str, Any]] = {"contraband": SHORT, "precious-cargo": {"target": 5, "turn_limit": 8},
                                         "cornish-smuggler": {"turn_limit": 8}}
BOARD = "#board svg, #board dl"


def api(server: LiveServer, method: str, path: str, body: Any = None) -> Any:
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(server.url + path, data=data, method=method,
                                 headers={"content-type": "application/json"})
    try:
        with urllib.request.urlopen(req, timeout=60) as r:
            return json.loads(r.read())
    except urllib.error.HTTPError as exc:
        raise AssertionError(f"{method} {path} -> {exc.code}: {exc.read().decode()}") from None


def index(page: Any) -> int:
    return int(page.evaluate("Number(document.body.dataset.index || -1)"))


def is_over(page: Any) -> bool:
    return bool(page.evaluate("document.body.dataset.over === '1'"))


def my_turn(page: Any) -> bool:
    return page.locator("#prompt.yours").count() > 0 and page.locator("#actions button.move:enabled").count() > 0


def play_one(page: Any, rng: random.Random, how: str) -> None:
    """Play one legal move on ``page`` by clicking, by keyboard, or by typing its notation."""
    before = index(page)
    buttons = page.locator("#actions button.move:enabled")
    choice = buttons.nth(rng.randrange(buttons.count()))
    if how == "type":
        page.fill("#notation-input", choice.get_attribute("data-action"))
        page.press("#notation-input", "Enter")
    elif how == "keyboard":
        choice.focus()
        page.keyboard.press("Enter")
    else:
        choice.click()
    page.wait_for_function(
        f"Number(document.body.dataset.index) > {before} || document.getElementById('error').textContent !== ''",
        timeout=120_000)


@pytest.mark.e2e
@pytest.mark.parametrize("game", freetrader.games())
def test_two_people_and_a_bot_play_a_game_through_a_crash(browser: Any, tmp_path: Path, game: str) -> None:
    spec = freetrader.game(game).spec
    bots = freetrader.bots.bot_names(freetrader.game(game))
    bot = "heuristic" if "heuristic" in bots else "random"
    # two people, and a bot when the game takes three or more
    seats = ["human", "human"] + [bot] * max(0 if spec.max_seats < 3 else 1, spec.min_seats - 2)
    server = LiveServer(f"sqlite:///{tmp_path}/e2e.db").start()
    try:
        # no seed: a table of two people refuses a chosen one (issue 16)
        tid = api(server, "POST", "/api/tables", {"game": game, "seats": seats,
                                                  "options": SHORT_OPTIONS.get(game, {})})["table"]["id"]
        links = [api(server, "POST", f"/api/tables/{tid}/join", {"name": n})["link"] for n in ("Ann", "Bob")]
        players = []
        for link in links:
            page = browser.new_context().new_page()
            page.goto(server.url + link)
            players.append(page)
        spectator = browser.new_context().new_page()
        frames: list[str] = []
        player_frames: list[str] = []
        spectator.on("websocket", lambda ws: ws.on("framereceived", lambda f: frames.append(str(f))))
        for page in players:  # the deal is not seeded: which of the two holds luggage varies
            page.on("websocket", lambda ws: ws.on("framereceived", lambda f: player_frames.append(str(f))))
            page.reload()
        spectator.goto(f"{server.url}/t/{tid}")
        for page in players + [spectator]:
            page.wait_for_selector(BOARD, timeout=120_000)
            page.wait_for_selector("#conn.ok", timeout=120_000)
        rng = random.Random(3)
        # mid-game: after 5 moves, or after the first in a game too short for 5 (High Card's 3 seats: 8 at most)
        longest = spec.longest_game(len(seats))
        crash_after = 5 if longest is None or longest >= 20 else 1
        moves, crashed = 0, False
        deadline = time.monotonic() + 900  # a stalled game, not a timing
        while not is_over(spectator):
            assert time.monotonic() < deadline, "the game did not end in time"
            for page in players:
                if not is_over(page) and my_turn(page):
                    play_one(page, rng, ("click", "keyboard", "type")[moves % 3])
                    moves += 1
            if moves >= crash_after and not crashed:
                server.kill()  # SIGKILL mid-game
                for page in players + [spectator]:
                    page.wait_for_selector("#conn.bad", timeout=120_000)
                at_crash = index(spectator)
                server.start()
                for page in players + [spectator]:
                    page.wait_for_selector("#conn.ok", timeout=120_000)
                assert index(spectator) >= at_crash  # nothing committed was lost
                crashed = True
            time.sleep(0.05)
        assert crashed and moves >= crash_after
        for page in players:
            page.wait_for_selector("#over:not([hidden])", timeout=120_000)
            assert "Game over" in page.inner_text("#over")
        record = api(server, "GET", f"/api/tables/{tid}/record")
        by = [m["by"] for m in record["table"]["moves"]]
        assert by.count("human") == moves and ("bot" in by or "human" not in seats[2:3])
        # the spectator never received anyone's luggage or legal moves; the player did see its own
        assert frames and not any('"legal"' in f for f in frames)
        states = [json.loads(f) for f in frames if f.startswith('{"type": "state"')]
        assert states and all(m["you"]["seat"] is None for m in states)
        held = None  # each view as the page rebuilt it (a view goes whole, or as its changes over the last)
        for m in states:
            seen = view_from(m, held)
            assert seen is not None and seen["seat"] is None, "changes came over a view the page did not hold"
            held = (m["seq"], seen)
        if game == "contraband":
            assert not any("your_luggage" in f for f in frames)
            assert any("your_luggage" in f for f in player_frames)  # a player did see its own
        # the finished game replays step by step in the browser
        page = players[0]
        page.click("#replay-link")
        page.wait_for_selector(BOARD, timeout=120_000)
        page.click("#next")
        page.wait_for_function("document.getElementById('where')?.textContent.startsWith('after 1 of')")
        page.click("#last")
        page.wait_for_function(f"document.getElementById('where').textContent === 'after {len(record['actions'])} of {len(record['actions'])} actions'")
        assert "your_luggage" not in page.content()
    finally:
        server.stop()


def test_lobby_creates_a_table_and_the_table_works_at_phone_width(browser: Any, tmp_path: Path) -> None:
    server = LiveServer(f"sqlite:///{tmp_path}/lobby.db").start()
    try:
        page = browser.new_context(viewport={"width": 390, "height": 844}).new_page()
        page.goto(server.url + "/")
        page.wait_for_selector("#seat-0")
        page.select_option("#seat-1", "random")
        page.select_option("#seat-2", "human")
        page.fill("#name", "Cleo")
        page.click("#create-button")
        page.wait_for_selector("#board svg", timeout=120_000)
        assert "#token=" in page.url
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= 392, f"the table page scrolls sideways at phone width ({width}px)"
        # a second person joins the free seat from the lobby
        other = browser.new_context().new_page()
        other.goto(server.url + "/")
        other.wait_for_selector("#tables button", timeout=120_000)
        other.click("#tables button")
        other.fill("#join-name", "Dan")  # the lobby asks the joiner's name (issue 34 item 8)
        other.click("#join-button")
        other.wait_for_selector("#board svg", timeout=120_000)
        assert "You are Dan (seat 2)" in other.inner_text("#whoami")
        tables = api(server, "GET", "/api/tables")["tables"]
        assert [s["taken"] for s in tables[0]["seats"]] == [True, True, True]
        assert [tables[0]["seats"][i]["name"] for i in (0, 2)] == ["Cleo", "Dan"]
    finally:
        server.stop()


@pytest.mark.parametrize("game", ["cornish-smuggler", "merchants-cove", "precious-cargo"])
def test_a_board_hot_spot_plays_a_move(browser: Any, tmp_path: Path, game: str) -> None:
    """Clicking a highlighted piece of the board plays its move, or opens the chooser of its moves."""
    seats = ["human"] + ["random"] * max(1, freetrader.game(game).spec.min_seats - 1)
    server = LiveServer(f"sqlite:///{tmp_path}/hot.db").start()
    try:
        tid = api(server, "POST", "/api/tables", {"game": game, "seats": seats, "seed": 4})["table"]["id"]
        link = api(server, "POST", f"/api/tables/{tid}/join", {"name": "Ann"})["link"]
        page = browser.new_context().new_page()
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(server.url + link)
        page.wait_for_selector("#board svg .hot", timeout=120_000)
        before = index(page)
        page.locator("#board svg .hot").first.click()
        page.wait_for_function(
            f"Number(document.body.dataset.index) > {before} || document.querySelector('button.pick') !== null",
            timeout=120_000)
        pick = page.locator("button.pick")
        if pick.count():
            pick.first.click()
            page.wait_for_function(f"Number(document.body.dataset.index) > {before}", timeout=120_000)
        assert index(page) > before and not errors
    finally:
        server.stop()


def test_secret_stash_townsfolk_are_drawn_with_their_names_and_costs_from_the_server(browser: Any, tmp_path: Path) -> None:
    """The Town Square's Townsfolk, Secret Stash sets included, carry the names and costs of data/townsfolk.toml."""
    from freetrader.games.merchants_cove.components import COMPONENTS

    cards = {t.id: t for t in COMPONENTS.townsfolk}
    server = LiveServer(f"sqlite:///{tmp_path}/tf.db").start()
    try:
        comps = api(server, "GET", "/api/games/merchants-cove/components")["components"]["townsfolk"]
        assert {k: (v["name"], v["cost"]) for k, v in comps.items()} == {k: (t.name, t.cost) for k, t in cards.items()}
        table = api(server, "POST", "/api/tables", {"game": "merchants-cove", "seats": ["human", "random"], "seed": 2,
                                                    "options": {"townsfolk": "artisans+legends"}})["table"]
        link = api(server, "POST", f"/api/tables/{table['id']}/join", {"name": "Ann"})["link"]
        square = api(server, "GET", f"/api/tables/{table['id']}/view")["view"]["town_square"]
        assert square and all(cards[t].set in ("artisans", "legends") for t in square)  # Secret Stash sets only
        page = browser.new_context().new_page()
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(server.url + link)
        page.wait_for_selector("#board svg g.tf", timeout=120_000)
        titles = page.eval_on_selector_all("#board svg g.tf > title", "ts => ts.map((t) => t.textContent)")
        for t in square:
            assert any(x.startswith(f"{cards[t].name} · costs {cards[t].cost} gold") for x in titles), (t, titles)
        assert not errors
    finally:
        server.stop()
