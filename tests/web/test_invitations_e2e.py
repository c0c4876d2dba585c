"""Issue 34 items 4 and 8 in headless Chromium: inviting a friend, starting with bots, declining by itself.

A table with two human seats made in the lobby waits: the friend opens the table's link, gives a name and
sits down, and the game starts; or the host starts it with bots. A Cornish seat at a reaction window with
nothing to answer ticks "Decline by myself ..." and the server declines for it.
"""

from __future__ import annotations

import json
import re
import time
import urllib.request
from collections.abc import Iterator
from typing import Any

import pytest
from liveserver import LiveServer

DESKTOP = {"width": 1280, "height": 900}
OUTER = 300.0  # only ends a stuck test


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    db = tmp_path_factory.mktemp("invite") / "invite.db"
    with LiveServer(f"sqlite:///{db}", bot_delay=0.0).start() as s:
        yield s


def _page(browser: Any) -> Any:
    page = browser.new_context(viewport=DESKTOP).new_page()
    page.script_errors = []
    page.on("pageerror", lambda exc: page.script_errors.append(str(exc)))
    return page


def _done(*pages: Any) -> None:
    errors = [e for p in pages for e in p.script_errors]
    for p in pages:
        p.context.close()
    assert errors == [], f"script errors on the page: {errors}"


def _api(server: LiveServer, method: str, path: str, body: dict[str, Any] | None = None) -> Any:
    req = urllib.request.Request(server.url + path, method=method, data=None if body is None else json.dumps(body).encode(),
                                 headers={"content-type": "application/json"})
    with urllib.request.urlopen(req, timeout=60) as answer:
        return json.load(answer)


def _create_for_two(page: Any, server: LiveServer) -> str:
    """The host makes a Contraband table in the lobby: seats 0 and 1 human, seat 2 the default bot."""
    page.goto(server.url + "/")
    page.wait_for_selector("#game option", state="attached")
    page.select_option("#game", "contraband")
    page.select_option("#seat-1", "human")
    page.fill("#name", "Ann")
    page.click("#create-button")
    page.wait_for_url(re.compile(r"/t/[^#]+#token="), timeout=120_000)
    page.wait_for_selector("body[data-waiting='1']", timeout=120_000)
    return str(page.url.split("/t/")[1].split("#")[0])


@pytest.mark.e2e
def test_a_friend_opens_the_link_gives_a_name_and_the_game_starts(browser: Any, server: LiveServer) -> None:
    host = _page(browser)
    tid = _create_for_two(host, server)
    assert "Waiting for players: seat 1 is free" in (host.locator("#prompt").text_content() or "")
    assert host.locator("#start-with-bots").is_visible() and host.locator("#copy-invite").is_visible()
    assert host.evaluate("document.body.dataset.index") == "0"
    friend = _page(browser)
    friend.goto(server.url + f"/t/{tid}")  # the invitation link: the table's page without a seat link
    friend.wait_for_selector("button.take-seat[data-seat='1']", timeout=120_000)
    friend.click("button.take-seat[data-seat='1']")
    assert "Give your name" in (friend.locator("#seat-error").text_content() or "")
    friend.fill("#seat-name", "Bea")
    friend.click("button.take-seat[data-seat='1']")
    friend.wait_for_function("document.getElementById('whoami')?.textContent === 'You are Bea (seat 1).'",
                             timeout=120_000)
    # every seat taken: the game starts for both, and the host's page names the friend
    for page in (host, friend):
        page.wait_for_selector("body[data-waiting='0']", timeout=120_000)
    host.wait_for_function("document.getElementById('seats')?.textContent.includes('Bea (seat 1)')", timeout=120_000)
    assert host.locator("#start-with-bots").count() == 0
    _done(host, friend)


@pytest.mark.e2e
def test_the_host_starts_with_bots_and_the_lobby_asks_a_joiner_for_a_name(browser: Any, server: LiveServer) -> None:
    host = _page(browser)
    tid = _create_for_two(host, server)
    visitor = _page(browser)
    visitor.goto(server.url + "/")
    join = visitor.locator(f'#tables li[data-table="{tid}"] button[data-join="1"]')
    join.wait_for(timeout=120_000)
    assert "waiting for players" in (visitor.locator(f'#tables li[data-table="{tid}"]').text_content() or "")
    join.click()
    visitor.click("#join-button")  # no name: asked for one, nothing sent
    assert "Give your name" in (visitor.locator("#join-error").text_content() or "")
    visitor.click("#join-cancel")
    host.click("#start-with-bots")
    host.wait_for_selector("body[data-waiting='0']", timeout=120_000)
    host.wait_for_function("document.getElementById('seats')?.textContent.includes('Seat 1 · heuristic bot')",
                           timeout=120_000)
    _done(host, visitor)


@pytest.mark.e2e
def test_a_cornish_seat_ticks_decline_by_itself_and_the_server_declines(browser: Any, server: LiveServer) -> None:
    made = _api(server, "POST", "/api/tables", {"game": "cornish-smuggler", "seats": ["human", "random", "random"],
                                                "seed": 5})
    tid = made["table"]["id"]
    token = _api(server, "POST", f"/api/tables/{tid}/join", {"seat": 0, "name": "Ann"})["token"]
    # the seat plays by the API (first legal move) up to its first window with nothing to answer
    end = time.monotonic() + OUTER
    while True:
        assert time.monotonic() < end, "no window with nothing to answer came"
        msg = _api(server, "GET", f"/api/tables/{tid}/view?token={token}")
        legal = msg["view"].get("legal") or []
        if msg["view"]["to_act"] != 0 or not legal:
            time.sleep(0.01)
            continue
        if legal == ["decline"]:
            break
        _api(server, "POST", f"/api/tables/{tid}/actions", {"token": token, "action": legal[0], "seq": msg["seq"]})
    page = _page(browser)
    page.goto(server.url + f"/t/{tid}#token={token}")
    box = page.locator("#auto-decline")
    box.wait_for(timeout=120_000)
    assert "none of my cards can answer" in (page.locator("label.auto-decline").text_content() or "")
    before = int(page.evaluate("Number(document.body.dataset.index)"))
    box.check()
    # the server declines for the seat (after its pause), and the setting is the seat's from then on
    page.wait_for_function(f"Number(document.body.dataset.index) > {before}", timeout=120_000)
    assert _api(server, "GET", f"/api/tables/{tid}/view?token={token}")["you"]["auto_decline"] is True
    assert _api(server, "GET", f"/api/tables/{tid}/view")["you"]["auto_decline"] is False
    _done(page)
