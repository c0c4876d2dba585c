"""Play one whole game by clicking, in headless Chromium at a phone's size, and say what the page did.

Starts a table server on a temporary SQLite database, sits one person (this script) at a table with bots,
and plays every decision of that seat by clicking a button in the dock (a move, a group that opens, or a
piece's choice), as a player would, until the game is over. At each decision it runs the layout checks of
tests/web/layout.py (every drawn element inside its panel, labels of 11 px or more, the prompt and the
choices in view, the dock's box unchanged) and prints every fault with the decision it was found at, the
number of decisions, and the slowest waits for the bots. Screenshots of a few decisions go to --shots.

    python scripts/play_phone.py [--game cornish-smuggler] [--seats 3] [--seed 1] [--shots /tmp/phone]
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests" / "web"))

from layout import CHOICES_IN_VIEW_JS, DOCK_BOX_JS, OUTSIDE_JS, SMALL_TEXT_JS, open_table  # noqa: E402
from liveserver import LiveServer  # noqa: E402

ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]
CLICKABLE = ("#picks button.pick:enabled, #picks button.move:enabled, #actions button.move:enabled, "
             "#actions button.cs-open:enabled, #actions button.open-group:enabled")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--game", default="cornish-smuggler")
    ap.add_argument("--seats", type=int, default=3)
    ap.add_argument("--options", default="{}", help="the table's options as JSON")
    ap.add_argument("--seed", type=int, default=1, help="seeds this script's choice of button")
    ap.add_argument("--shots", default="", help="a folder for screenshots of every --every-th decision and of each with a fault")
    ap.add_argument("--every", type=int, default=10, help="screenshot every N-th decision (1: every one)")
    ap.add_argument("--chromium", default="/usr/bin/chromium")
    ap.add_argument("--budget", type=float, default=900.0, help="seconds before giving up")
    ap.add_argument("--size", default="390x844", help="the window, WIDTHxHEIGHT (1280x900: a laptop)")
    args = ap.parse_args()
    from playwright.sync_api import sync_playwright

    rng = random.Random(args.seed)
    width, height = (int(v) for v in args.size.lower().split("x"))
    shots = Path(args.shots) if args.shots else None
    if shots:
        shots.mkdir(parents=True, exist_ok=True)
    db = Path(tempfile.mkdtemp(prefix="ft-phone-")) / "phone.db"
    faults: list[str] = []
    waits: list[float] = []
    clicks = decisions = 0
    server = LiveServer(f"sqlite:///{db}", bot_delay=0.0).start()
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=args.chromium, args=ARGS)
            page = open_table(browser, server.url, args.game, json.loads(args.options), args.seats, (width, height))
            dock = None
            end = time.monotonic() + args.budget
            seen = -1
            while page.evaluate("document.body.dataset.over") != "1":
                if time.monotonic() > end:
                    faults.append("the game did not end within the budget")
                    break
                t0 = time.monotonic()
                while not page.locator("#prompt.yours").count() or not page.locator(CLICKABLE).count():
                    if page.evaluate("document.body.dataset.over") == "1" or time.monotonic() > end:
                        break
                    time.sleep(0.05)
                if page.evaluate("document.body.dataset.over") == "1":
                    break
                index = int(page.evaluate("Number(document.body.dataset.index)"))
                if index != seen:  # a new decision (not a group opened within one)
                    waits.append(time.monotonic() - t0)
                    seen = index
                    decisions += 1
                    time.sleep(0.1)
                    found = page.evaluate(OUTSIDE_JS) + page.evaluate(SMALL_TEXT_JS, 11) + page.evaluate(CHOICES_IN_VIEW_JS)
                    box = page.evaluate(DOCK_BOX_JS)
                    if dock is not None and box != dock:
                        found.append(f"the dock moved: {dock} -> {box}")
                    dock = box
                    faults += [f"decision {decisions} ({page.inner_text('#prompt')[:60]}): {f}" for f in found]
                    if shots and (found or (decisions - 1) % args.every == 0):  # every fault is seen, not only counted
                        page.screenshot(path=str(shots / f"{args.game}-{decisions:03d}.png"))
                buttons = page.locator(CLICKABLE)
                buttons.nth(rng.randrange(buttons.count())).click()
                clicks += 1
                page.wait_for_function(f"Number(document.body.dataset.index) > {index} || document.body.dataset.over === '1'"
                                       " || document.getElementById('error').textContent !== '' || true", timeout=30000)
                time.sleep(0.05)
                error = page.inner_text("#error")
                if error:
                    faults.append(f"decision {decisions}: refused: {error}")
            if shots:
                page.screenshot(path=str(shots / f"{args.game}-over.png"))
            browser.close()
    finally:
        server.stop()
    waits.sort()
    print(f"{args.game}, {args.seats} seats at {width}x{height}: {decisions} decisions, {clicks} clicks, "
          f"game over: {not any('budget' in f for f in faults)}")
    if waits:
        print(f"wait for the next decision: median {waits[len(waits) // 2]:.2f} s, slowest {waits[-1]:.2f} s")
    print(f"{len(faults)} faults" + (":" if faults else ""))
    for f in faults[:40]:
        print("  " + f)
    return 1 if faults else 0


if __name__ == "__main__":
    sys.exit(main())
