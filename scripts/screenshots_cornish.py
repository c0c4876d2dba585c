"""Screenshots of Cornish Smuggler at the table, for docs/screenshots/cornish-*.png (issue 19).

Plays 3-seat games (one person, two heuristic bots; uncapped from the Isles of Scilly, turn_limit 6 from St Ives) on a temporary server, the person's moves
chosen by the scripted policy of tests/web/test_cornish_table.py and made by clicking; a second page on the
same seat at phone width follows. Both are photographed at a landing (the risk and what hiding leaves), a sale
(the Price List), a reaction window the person cannot answer, and the results:

    cornish-landing.png  cornish-sale.png  cornish-reaction.png  cornish-results.png   (1280 px wide)
    cornish-*-phone.png                                                              (390 px wide)

    python scripts/screenshots_cornish.py [--out docs/screenshots] [--chromium /usr/bin/chromium]
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests" / "web"))

import test_cornish_table as play  # noqa: E402
from liveserver import LiveServer  # noqa: E402

CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]
#: where the person keeps its network: the Isles of Scilly first (no Customs: goods landed there are sure to reach
#: a sale), then St Ives (a port with Customs: the landing shows what hiding leaves)
HOMES = [("scilly", "scilly-sound"), ("st-ives", "st-ives-bay")]


def shoot(pages: list[tuple[Any, str]], index: int, name: str, out: Path, done: dict[str, bool]) -> None:
    if done.get(name):
        return
    for page, suffix in pages:
        page.wait_for_selector(f'#actions[data-index="{index}"]', timeout=10000)
        time.sleep(0.3)
        path = out / f"cornish-{name}{suffix}.png"
        page.screenshot(path=str(path), full_page=suffix == "")
        print(f"wrote {path}")
    done[name] = True


def ready(page: Any, index: int) -> None:
    """Wait for the panel of decision ``index``; on a loaded machine a page may miss an update: reload it once."""
    try:
        page.wait_for_selector(f'#actions[data-index="{index}"] button:enabled', timeout=20000)
    except Exception:
        page.reload()
        page.wait_for_selector(f'#actions[data-index="{index}"] button:enabled', timeout=30000)


def one_game(browser: Any, server: LiveServer, seed: int, out: Path, done: dict[str, bool],
             options: dict[str, Any]) -> None:
    table = play.api(server, "POST", "/api/tables", {"game": "cornish-smuggler", "seats": ["human", "heuristic", "heuristic"],
                                                     "seed": seed, "options": options, "name": "screenshot"})
    tid = table["table"]["id"]
    link = play.api(server, "POST", f"/api/tables/{tid}/join", {"name": "You"})["link"]
    token = link.split("#token=")[1]
    wide = browser.new_page(viewport={"width": 1280, "height": 900})
    phone = browser.new_page(viewport={"width": 390, "height": 844})
    for page in (wide, phone):
        page.set_default_timeout(10000)
        page.goto(server.url + link)
        page.wait_for_selector("#board svg", timeout=15000)
    pages = [(wide, ""), (phone, "-phone")]
    seen: list[int] = []
    end = time.monotonic() + 420
    while time.monotonic() < end:
        msg = play.api(server, "GET", f"/api/tables/{tid}/view?token={token}")
        view = msg["view"]
        if view["is_over"]:
            for page, _ in pages:
                page.wait_for_selector("#over:not([hidden])")
            if not done.get("results"):
                for page, suffix in pages:
                    page.locator("#over").scroll_into_view_if_needed()
                    path = out / f"cornish-results{suffix}.png"
                    page.screenshot(path=str(path))
                    print(f"wrote {path}")
                done["results"] = True
            break
        if view["to_act"] != 0 or not view.get("legal"):
            time.sleep(0.05)
            continue
        ready(wide, msg["index"])
        legal = view["legal"]
        # a landing with Influence to spend on hiding (there are none on the Isles of Scilly: no Customs)
        if any(a.startswith("hide ") for a in legal):
            shoot(pages, msg["index"], "landing", out, done)
        if any(a.startswith("price ") for a in legal):
            shoot(pages, msg["index"], "sale", out, done)
        if legal == ["decline"] and view.get("reaction"):
            shoot(pages, msg["index"], "reaction", out, done)
        n = play.policy(view)
        how = play.click_move(wide, n, seen)
        try:
            wide.wait_for_function(f"Number(document.body.dataset.index) > {msg['index']}", timeout=4000)
        except Exception:
            print(f"{n!r} ({how}) did not play at {msg['index']}: clicking again")
            if play.api(server, "GET", f"/api/tables/{tid}/view?token={token}")["index"] == msg["index"]:
                play.click_move(wide, n, seen)
            wide.wait_for_function(f"Number(document.body.dataset.index) > {msg['index']}")
    wide.close()
    phone.close()


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", default=str(ROOT / "docs" / "screenshots"))
    ap.add_argument("--chromium", default="/usr/bin/chromium")
    ap.add_argument("--only", default="landing,sale,reaction,results", help="which pictures to take (comma-separated)")
    args = ap.parse_args()
    from playwright.sync_api import sync_playwright

    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    db = Path(tempfile.mkdtemp(prefix="ft-cornish-shots-")) / "shots.db"
    server = LiveServer(f"sqlite:///{db}", bot_delay=0.0).start(timeout=60)
    done: dict[str, bool] = {k: k not in args.only.split(",") for k in ("landing", "sale", "reaction", "results")}
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=args.chromium, args=CHROMIUM_ARGS)
            for home, sea in HOMES:
                play.HOME, play.HOME_SEA = home, sea
                for seed in (5, 6, 7):
                    if all(done.get(k) for k in ("landing", "sale", "reaction", "results")):
                        break
                    # on the Isles of Scilly the game is played to its end (the results); the St Ives games,
                    # for a landing with Customs, stop after six Turns
                    one_game(browser, server, seed, out, done, {} if home == "scilly" else play.OPTIONS)
            browser.close()
    finally:
        server.stop()
    missing = [k for k in ("landing", "sale", "reaction", "results") if not done.get(k)]
    if missing:
        print("no screenshot of: " + ", ".join(missing))
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main())
