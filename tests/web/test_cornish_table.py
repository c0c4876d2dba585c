"""Cornish Smuggler at the table (issue 19): a whole 3-seat game played by pointing and grouped entries only.

One person and two heuristic bots. The whole-game test starts in the lobby: the game, the seat count, the two
bots and the person's name are chosen there by clicks and typing, and Create opens the table. Only the seed is
pinned, by adding it to the lobby's own request on its way to the server, so the game is the same every run. The person's moves are picked by a small scripted policy (sail to a Merchant, buy, sail to the
Isles of Scilly, land, sell) that reads the seat's own view over HTTP; every move is then made in the browser by
clicking: the ship and then a lit sea space on the map, or the side panel's grouped entries (a kind, a piece,
a payment). At every panel the person sees, the test checks that it shows at most 15 entries; at each sale
that the Price List rows for the Goods Shape on sale are the engine's (``Components.price``), and at each
landing that the risk figures are the engine's (``view.landing_risk``, the formula of ``frames.landing_excess``).
"""

from __future__ import annotations

import json
import re
import time
import urllib.request
from collections import deque
from pathlib import Path
from typing import Any

import pytest
from liveserver import LiveServer

from freetrader.games.cornish_smuggler.components import COMPONENTS as C
from freetrader.games.cornish_smuggler.view import landing_risk

MAX_ENTRIES = 15
HOME = "scilly"           # the Isles of Scilly: a size 2 town with no Customs, goods landed there sell there
HOME_SEA = "scilly-sound"
OPTIONS = {"turn_limit": 6}
SEED = 5


def api(server: LiveServer, method: str, path: str, body: Any = None) -> Any:
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(server.url + path, data=data, method=method, headers={"content-type": "application/json"})
    with urllib.request.urlopen(req, timeout=60) as r:
        return json.loads(r.read())


def sea_graph() -> dict[str, set[str]]:
    g: dict[str, set[str]] = {}
    for node, nbs in enumerate(C.sea_adj):
        for nb in nbs:
            g.setdefault(C.sea_ids[node], set()).add(C.sea_ids[nb])
            g.setdefault(C.sea_ids[nb], set()).add(C.sea_ids[node])
    return g


GRAPH = sea_graph()
MERCHANTS = {C.sea_ids[m] for m in C.merchant_nodes}


def next_step(start: str, goals: set[str]) -> str | None:
    """The first sea step on a shortest route from ``start`` to any of ``goals``."""
    prev: dict[str, str | None] = {start: None}
    todo = deque([start])
    while todo:
        x = todo.popleft()
        if x in goals and x != start:
            while prev[x] != start:
                x = prev[x]  # type: ignore[assignment]
            return x
        for y in sorted(GRAPH.get(x, ())):
            if y not in prev:
                prev[y] = x
                todo.append(y)
    return None


def policy(view: dict[str, Any]) -> str:
    """A plain smuggler: buy at a Merchant, land on the Isles of Scilly, sell there at the dearest row it can pay for."""
    legal: list[str] = view["legal"]
    me = view["players"][view["seat"]]
    by: dict[str, list[str]] = {}
    for a in legal:
        by.setdefault(a.split(" ")[0], []).append(a)
    for row in ("price bottom with influence", "price middle with influence", "price bottom with reputation"):
        if row in legal:
            return row
    for verb in ("price", "unload", "sell", "post", "move", "step", "choose", "discard", "remove", "keep", "draw",
                 "ship", "storehouse"):
        if verb in by:
            return by[verb][0]
    if "hide" in by:
        return by["hide"][-1]  # hide as much as Influence allows
    if "place" in by:
        return f"place {HOME}" if f"place {HOME}" in legal else by["place"][0]
    if "launch" in by:
        return f"launch {HOME_SEA}" if f"launch {HOME_SEA}" in legal else by["launch"][0]
    if "done" in by:
        return "done"
    if "land" in by and me["ship_at"] == HOME:
        return "land"
    if "buy" in by and len(me["hold"]) < 2:
        return by["buy"][0]
    if "sail" in by and me["ship_at"]:
        goal = MERCHANTS if not me["hold"] else {HOME}
        if me["ship_at"] not in goal or (me["hold"] and me["ship_at"] != HOME):
            step = next_step(me["ship_at"], goal)
            for pay in ("influence", "gold"):
                if step and f"sail to {step} with {pay}" in legal:
                    return f"sail to {step} with {pay}"
    if "decline" in by:
        return "decline"
    return "pass" if "pass" in legal else legal[0]


def entries(page: Any) -> int:
    return int(page.locator("#actions button").count())


def check_panel(page: Any, seen: list[int]) -> None:
    n = entries(page)
    seen.append(n)
    assert n <= MAX_ENTRIES, f"the side panel shows {n} entries: {page.inner_text('#actions')[:400]}"


def click_move(page: Any, notation: str, seen: list[int]) -> str:
    """Make ``notation`` by clicking only: the map for a ship's move, else the grouped side panel. Returns how."""
    if notation.startswith("sail to "):
        to = notation.split(" ")[2]
        page.locator("#board g.ship.hot").first.click()
        before = int(page.evaluate("Number(document.body.dataset.index)"))
        page.locator(f'#board g[data-place="{to}"] > .clickable').first.click()
        # one way to pay plays at once; several open the chooser of payments, each with its amount
        page.wait_for_function(f"Number(document.body.dataset.index) > {before} || !!document.querySelector('.cs-pick.cs-paying')")
        if page.locator(".cs-pick.cs-paying").count():
            pays = page.locator(".cs-pick.cs-paying button.pick")
            assert all(any(w in t for w in ("Influence", "Gold")) for t in pays.all_inner_texts()), pays.all_inner_texts()
            page.locator(f'.cs-pick.cs-paying button.pick[data-action="{notation}"]').click()
        return "map"
    for _ in range(10):
        check_panel(page, seen)
        direct = page.locator(f'#actions button.move[data-action="{notation}"]')
        if direct.count():
            direct.first.click()
            return "panel"
        opened = False
        for b in page.locator("#actions button.cs-open").all():
            if notation in (b.get_attribute("data-actions") or "").split("|"):
                b.click()
                opened = True
                break
        if not opened:
            more = page.locator("#actions button.cs-page:has-text('More'):enabled")
            assert more.count(), f"no entry leads to {notation!r}: {page.inner_text('#actions')[:400]}"
            more.first.click()
    raise AssertionError(f"{notation!r} is more than ten clicks deep")


def check_sale(page: Any, view: dict[str, Any], notes: dict[str, Any]) -> None:
    """The sale view names the Goods Shape on sale and shows each row's Gold and Reputation: the server's quote
    (web.py sale_quote, tested against the engine in test_cornish_notes.py), whose cells are the Price List's."""
    box = page.locator("#details .cs-sale")
    assert box.count() == 1
    quote = notes["@sale"]  # the decision's context beside the moves (web.py decision, server/log.py)
    gid = box.get_attribute("data-goods")
    assert gid == quote["goods"]
    goods = next(g for g in view["goods"] if g["id"] == gid)
    assert quote["size"] == goods["size"] and quote["at"] == goods["at"]
    head = box.locator("strong").first.inner_text().lower()  # "Selling Domino (2) in Isles of Scilly (a size 2 town)"
    assert head.startswith("selling " + quote["shape"].replace("-", " ")), head
    for row, r in enumerate(quote["rows"]):
        gold, rep = C.price(quote["town_size"], goods["size"], row)
        assert r["printed_gold"] == gold
        tr = box.locator(f'table.cs-this-sale tr[data-row="{r["row"]}"]')
        assert tr.locator("td.gold").inner_text() == str(r["gold"]) + (f" + {r['bonus']}" if r["bonus"] else ""), r
        assert tr.locator("td.rep").inner_text() == str(r["reputation"]), r
    # the whole list as printed: every town size, three rows each
    assert box.locator("table.cs-price-list tr[data-town]").count() == 3 * len(C.prices)


def check_rearranging(page: Any) -> bool:
    """A click on a hold with several served packings draws another one, and plays no move."""
    holds = page.locator('#board g.hold[data-packings]:not([data-packings="0"]):not([data-packings="1"])')
    if not holds.count():
        return False
    hold = holds.first.get_attribute("data-hold")
    spot = f'#board g.hold[data-hold="{hold}"]'
    before = page.locator(spot).first.inner_html()
    index = page.evaluate("document.body.dataset.index")
    pieces = page.locator(f"{spot} g.piece.rearrange rect")  # a piece you cannot act with: the click rearranges
    (pieces.first if pieces.count() else page.locator(f"{spot} g.hold-grid rect").first).click()
    page.wait_for_function(f"document.querySelector('{spot}').innerHTML !== {json.dumps(before)}")
    assert page.evaluate("document.body.dataset.index") == index
    return True


def check_landing(page: Any, view: dict[str, Any]) -> None:
    box = page.locator("#details .cs-landing")
    assert box.count() == 1
    landing = view["landing"]
    sizes = {g["id"]: g["size"] for g in view["goods"]}
    me = view["players"][view["seat"]]
    r = landing_risk(landing["at"], [sizes[g] for g in landing["goods"]], view["customs"]["discovery"], me["influence"])
    assert int(box.get_attribute("data-port-risk")) == r["port_risk"]
    assert int(box.get_attribute("data-squares")) == r["squares"]
    assert f"Landing Risk {r['risk']} against Discovery Level {r['discovery']}" in box.inner_text()
    hides = [a for a in view["legal"] if a.startswith("hide ")]
    for h in r["hide"] if hides else []:
        tr = box.locator(f'table.cs-hide tr[data-hide="{h["influence"]}"]')
        assert tr.locator("td.risk").inner_text() == str(h["risk"])
        moves = tr.locator("td.moves").inner_text()
        assert moves.startswith(str(h["customs_moves"])) if h["customs_moves"] else "no officer moves" in moves


@pytest.mark.e2e
def test_a_person_plays_a_whole_game_by_pointing(browser: Any, tmp_path: Path) -> None:
    server = LiveServer(f"sqlite:///{tmp_path}/cs.db", bot_delay=0.0).start(timeout=300)
    try:
        page = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
        page.set_default_timeout(120_000)
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))

        def pin_seed(route: Any) -> None:  # the lobby's own request, with a seed so every run plays one game
            if route.request.method != "POST":
                route.continue_()
                return
            body = json.loads(route.request.post_data or "{}")
            assert body["game"] == "cornish-smuggler" and body["seats"] == ["human", "heuristic", "heuristic"], body
            route.continue_(post_data=json.dumps(dict(body, seed=SEED)))

        page.route("**/api/tables", pin_seed)
        page.goto(server.url + "/")
        page.wait_for_selector("#game option", state="attached")
        page.select_option("#game", "cornish-smuggler")
        page.fill("#nseats", "3")
        page.dispatch_event("#nseats", "change")
        page.select_option("#seat-0", "human")
        page.select_option("#seat-1", "heuristic")
        page.select_option("#seat-2", "heuristic")
        page.fill("#name", "Ann")
        page.click("#create-button")
        page.wait_for_url(re.compile(r"/t/[^#]+#token="), timeout=120_000)
        tid = page.url.split("/t/")[1].split("#")[0]
        token = page.url.split("#token=")[1]
        page.wait_for_selector("#board svg", timeout=120_000)
        seen: list[int] = []
        ways: dict[str, int] = {}
        verbs: dict[str, int] = {}
        sales = landings = 0
        rearranged = False
        trail: list[tuple[str, bool]] = []
        deadline = time.monotonic() + 600  # an uncapped game: about 2 min alone, much more on a loaded machine
        while True:
            assert time.monotonic() < deadline, f"the game did not end in time ({verbs})"
            msg = api(server, "GET", f"/api/tables/{tid}/view?token={token}")
            view = msg["view"]
            if view["is_over"]:
                break
            if view["to_act"] != 0 or not view.get("legal"):
                time.sleep(0.05)
                continue
            page.wait_for_selector(f'#actions[data-index="{msg["index"]}"] button:enabled')
            check_panel(page, seen)
            n = policy(view)
            if not rearranged:
                rearranged = check_rearranging(page)
            if n.startswith("price "):
                check_sale(page, view, msg["notes"])
                sales += 1
            if view.get("landing") and any(a.split(" ")[0] in ("unload", "done", "hide") for a in view["legal"]):
                check_landing(page, view)
                landings += "hide 0" in view["legal"] or n == "done"
            trail.append((n, bool(view.get("landing"))))
            how = click_move(page, n, seen)
            ways[how] = ways.get(how, 0) + 1
            verbs[n.split(" ")[0]] = verbs.get(n.split(" ")[0], 0) + 1
            try:
                page.wait_for_function(
                    f"Number(document.body.dataset.index) > {msg['index']} || document.getElementById('error').textContent !== ''")
            except Exception as exc:
                raise AssertionError(f"{n!r} ({how}) did not play: {trail[-4:]} {page.inner_text('#actions')[:300]}") from exc
            assert not page.inner_text("#error"), page.inner_text("#error")
        page.wait_for_selector("#over:not([hidden])", timeout=120_000)
        assert not errors, errors
        assert max(seen) <= MAX_ENTRIES and len(seen) > 20
        assert ways.get("map", 0) >= 3 and ways.get("panel", 0) >= 10, ways
        assert sales >= 1 and landings >= 1, json.dumps(verbs) + str(trail[-60:])  # the game reached a sale and a landing: their views were checked
        assert rearranged, "no hold was ever drawn with a choice of packings"
        results = api(server, "GET", f"/api/tables/{tid}/view?token={token}")["results"]
        assert results and not results["cut"], results  # ended by a rulebook trigger, not by a cap
    finally:
        server.stop()


@pytest.mark.parametrize("width", [1280, 390])
def test_the_side_panel_is_short_and_the_page_fits(browser: Any, tmp_path: Path, width: int) -> None:
    """Set-up's 'place your first counter anywhere' has dozens of choices: pages of at most 15 entries."""
    server = LiveServer(f"sqlite:///{tmp_path}/cs2.db", bot_delay=0.0).start(timeout=300)
    try:
        tid = api(server, "POST", "/api/tables", {"game": "cornish-smuggler", "seats": ["human", "heuristic", "heuristic"],
                                                  "seed": 5, "options": OPTIONS})["table"]["id"]
        link = api(server, "POST", f"/api/tables/{tid}/join", {"name": "Ann"})["link"]
        token = link.split("#token=")[1]
        page = browser.new_context(viewport={"width": width, "height": 900}).new_page()
        page.goto(server.url + link)
        page.wait_for_selector("#board svg", timeout=120_000)
        seen: list[int] = []
        for _ in range(40):  # through set-up to the first placement of a counter
            msg = api(server, "GET", f"/api/tables/{tid}/view?token={token}")
            view = msg["view"]
            if view["to_act"] != 0 or not view.get("legal"):
                time.sleep(0.05)
                continue
            page.wait_for_selector(f'#actions[data-index="{msg["index"]}"] button:enabled')
            if view["legal"][0].startswith("place "):
                break
            click_move(page, policy(view), seen)
            page.wait_for_function(f"Number(document.body.dataset.index) > {msg['index']}", timeout=120_000)
        assert len(view["legal"]) > MAX_ENTRIES  # the case this test is about
        check_panel(page, seen)
        assert page.locator("#actions button.cs-page").count() == 2
        page.locator("#actions button.cs-page:has-text('More')").click()
        check_panel(page, seen)
        assert page.evaluate("document.documentElement.scrollWidth") <= width + 2
    finally:
        server.stop()


def test_the_customs_track_shows_the_spaces_this_game_plays(browser: Any, tmp_path: Path) -> None:
    """2-4 players start the Customs Counter on space 10 of 48 (DESIGNED.md "Five players"): their panel draws
    the 38 spaces they play, a 5-player panel all 48, each in two rows a person can read."""
    server = LiveServer(f"sqlite:///{tmp_path}/track.db", bot_delay=0.0).start(timeout=300)
    try:
        seen = {}
        for seats in (3, 5):
            tid = api(server, "POST", "/api/tables", {"game": "cornish-smuggler",
                                                      "seats": ["human"] + ["heuristic"] * (seats - 1)})["table"]["id"]
            link = api(server, "POST", f"/api/tables/{tid}/join", {"name": "Ann"})["link"]
            page = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
            page.goto(server.url + link)
            panel = page.locator("svg[aria-label='Customs Track and Gold Wheel']")
            panel.wait_for(timeout=120_000)
            boxes = panel.locator("rect[height='44']")
            rows = {round(float(y)) for y in boxes.evaluate_all("els => els.map(e => e.getAttribute('y'))")}
            widths = boxes.evaluate_all("els => els.map(e => e.getBBox().width)")
            seen[seats] = (boxes.count(), len(rows), min(widths), panel.text_content())
        assert seen[3][:2] == (38, 2) and seen[5][:2] == (48, 2)
        assert min(seen[3][2], seen[5][2]) >= 17  # wide enough for "$10" at the panel's scale
        facts = {k: re.sub(r"\s", "", v[3]) for k, v in seen.items()}  # the panel wraps its lines anywhere
        assert "CustomsTrack:space10of47(thisgamestartedonspace10)" in facts[3]
        assert "CustomsTrack:space0of47" in facts[5] and "startedon" not in facts[5]
    finally:
        server.stop()
