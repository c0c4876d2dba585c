"""Screenshots of each registered game's table, mid-game and at its results, for docs/screenshots/.

Starts a table server on a temporary SQLite database, creates a table of each
registered game (one human seat, the rest bots), plays by clicking the first
legal button, and takes a screenshot of the human seat's page in headless
Chromium (Debian's ``/usr/bin/chromium``, driven by Playwright; no browser
download) after a few moves (``<game>.png``) and once the game is over
(``<game>-results.png``), at 1280x900 (the whole page) and 390x844 (``-phone``: the screen as a player
sees it, the dock of choices along its bottom).

    python scripts/screenshots.py [--out docs/screenshots] [--chromium /usr/bin/chromium] [--games a,b]
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests" / "web"))

from liveserver import LiveServer  # noqa: E402

CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]
#: Short games, so the results come quickly (Cornish's turn cap is passed explicitly).
OPTIONS: dict[str, dict[str, Any]] = {"contraband": {"end": "turns", "turn_limit": 10},
                                      "precious-cargo": {"target": 6, "turn_limit": 6},
                                      "cornish-smuggler": {"turn_limit": 2}}
MID_GAME_CLICKS = 6
#: What a mid-game screenshot waits for, beyond a few clicks (Contraband: your own luggage face up).
MID_GAME: dict[str, str] = {"contraband": "#board .luggage .card.face"}


def _api(base: str, method: str, path: str, body: Any = None) -> Any:
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(base + path, data=data, method=method, headers={"content-type": "application/json"})
    with urllib.request.urlopen(req, timeout=10) as r:
        return json.loads(r.read())


def _click_first(page: Any) -> bool:
    """Click the first legal button if it is this seat's move; whether a move was played."""
    button = page.locator("#actions button.move:enabled").first
    if not (page.locator("#prompt.yours").count() and button.count()):
        return False
    before = page.evaluate("Number(document.body.dataset.index)")
    button.click()
    page.wait_for_function(f"Number(document.body.dataset.index) > {before} || document.body.dataset.over === '1'"
                           " || document.getElementById('error').textContent !== ''", timeout=15000)
    return True


def _play(page: Any, clicks: int | None, budget: float = 300.0) -> None:
    """Play ``clicks`` moves (``None``: to the end of the game), bots answering in between."""
    done, end = 0, time.monotonic() + budget
    while page.evaluate("document.body.dataset.over") != "1" and (clicks is None or done < clicks):
        if time.monotonic() > end:
            raise RuntimeError("the game did not end in time")
        if _click_first(page):
            done += 1
        else:
            time.sleep(0.05)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", default=str(ROOT / "docs" / "screenshots"))
    ap.add_argument("--chromium", default="/usr/bin/chromium")
    ap.add_argument("--games", default="", help="comma-separated game names (default: every game)")
    args = ap.parse_args()
    from playwright.sync_api import sync_playwright

    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    db = Path(tempfile.mkdtemp(prefix="ft-shots-")) / "shots.db"
    server = LiveServer(f"sqlite:///{db}", bot_delay=0.0).start()
    try:
        games = _api(server.url, "GET", "/api/games")
        wanted = {g for g in args.games.split(",") if g}
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=args.chromium, args=CHROMIUM_ARGS)
            for g in games:
                if wanted and g["name"] not in wanted:
                    continue
                n = max(g["min_seats"], min(3, g["max_seats"]))
                bot = "heuristic" if "heuristic" in g["bots"] else "random"
                for width, height, suffix in ((1280, 900, ""), (390, 844, "-phone")):
                    table = _api(server.url, "POST", "/api/tables",
                                 {"game": g["name"], "seats": ["human"] + [bot] * (n - 1),
                                  "options": OPTIONS.get(g["name"], {}), "name": "screenshot"})
                    tid = table["table"]["id"]
                    joined = _api(server.url, "POST", f"/api/tables/{tid}/join", {"name": "Ann"})
                    page = browser.new_page(viewport={"width": width, "height": height})
                    page.goto(server.url + joined["link"])
                    page.wait_for_selector("#board svg, #board dl", timeout=15000)
                    _play(page, MID_GAME_CLICKS)
                    wanted_mid = MID_GAME.get(g["name"])
                    for _ in range(60):
                        if not wanted_mid or page.locator(wanted_mid).count() or page.evaluate(
                                "document.body.dataset.over") == "1":
                            break
                        _play(page, 1)
                    time.sleep(0.3)
                    page.screenshot(path=str(out / f"{g['name']}{suffix}.png"), full_page=not suffix)
                    print(f"wrote {out / (g['name'] + suffix + '.png')}")
                    _play(page, None)
                    page.wait_for_selector("#results", timeout=15000)
                    page.locator("#over").scroll_into_view_if_needed()
                    time.sleep(0.3)
                    page.screenshot(path=str(out / f"{g['name']}-results{suffix}.png"), full_page=not suffix)
                    print(f"wrote {out / (g['name'] + '-results' + suffix + '.png')}")
                    page.close()
            browser.close()
    finally:
        server.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
