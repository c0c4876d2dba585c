"""Screenshots of each registered game's table, for docs/screenshots/<game>.png.

Starts a table server on a temporary SQLite database, creates a table of each
registered game (one human seat, the rest bots), plays a few moves and takes
a screenshot of the human seat's page in headless Chromium (Debian's
``/usr/bin/chromium``, driven by Playwright; no browser download).

    python scripts/screenshots.py [--out docs/screenshots] [--chromium /usr/bin/chromium]
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


def _api(base: str, method: str, path: str, body: Any = None) -> Any:
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(base + path, data=data, method=method, headers={"content-type": "application/json"})
    with urllib.request.urlopen(req, timeout=10) as r:
        return json.loads(r.read())


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", default=str(ROOT / "docs" / "screenshots"))
    ap.add_argument("--chromium", default="/usr/bin/chromium")
    ap.add_argument("--width", type=int, default=1280)
    ap.add_argument("--height", type=int, default=860)
    ap.add_argument("--phone", action="store_true", help="also a 390 px wide screenshot per game (<game>-phone.png)")
    args = ap.parse_args()
    from playwright.sync_api import sync_playwright

    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    db = Path(tempfile.mkdtemp(prefix="ft-shots-")) / "shots.db"
    server = LiveServer(f"sqlite:///{db}", bot_delay=0.0).start()
    try:
        games = _api(server.url, "GET", "/api/games")
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=args.chromium, args=CHROMIUM_ARGS)
            for g in games:
                n = max(g["min_seats"], min(4, g["max_seats"]))
                bot = "heuristic" if "heuristic" in g["bots"] else "random"
                table = _api(server.url, "POST", "/api/tables",
                             {"game": g["name"], "seats": ["human"] + [bot] * (n - 1), "seed": 7, "name": "screenshot"})
                tid = table["table"]["id"]
                joined = _api(server.url, "POST", f"/api/tables/{tid}/join", {"name": "You"})
                shots = [(args.width, args.height, f"{g['name']}.png")]
                if args.phone:
                    shots.append((390, 844, f"{g['name']}-phone.png"))
                for width, height, name in shots:
                    page = browser.new_page(viewport={"width": width, "height": height})
                    page.goto(server.url + joined["link"])
                    page.wait_for_selector("#board svg, #board dl", timeout=15000)
                    time.sleep(0.5)
                    page.screenshot(path=str(out / name), full_page=True)
                    page.close()
                    print(f"wrote {out / name}")
            browser.close()
    finally:
        server.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
