"""Time each game's browser renderer drawing one position, in headless Chromium; print a table.

    python benchmarks/bench_web_draw.py                  # the game files of this checkout
    python benchmarks/bench_web_draw.py --against REV    # beside the files of git revision REV

The renderer gets its components as the table page gives them (``init``),
then draws the same view (a position after 60 random actions, seat to act)
``--draws`` times; the table shows the median of ``--repeats`` runs in ms per
draw and the SVG/HTML node count (equal counts: the same drawing). Needs the
``web`` test extras (Playwright) and Debian's ``chromium``.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import subprocess
import tempfile
from pathlib import Path
from typing import Any

import freetrader
from freetrader.core.registry import load_part, part_file

ROOT = Path(__file__).resolve().parents[1]
WEB = ROOT / "src" / "freetrader" / "web"
CHROMIUM = os.environ.get("FREETRADER_CHROMIUM", "/usr/bin/chromium")
_DRAW = """([name, view, comps, n]) => {
    const r = FT.renderers[name];
    if (r.init) r.init(comps);
    const ctx = { seat: view.seat, legal: new Set(view.legal), act: () => {}, table: null, seatLabel: (s) => "Seat " + s };
    const root = document.getElementById("board");
    r.draw(root, view, ctx);
    const t0 = performance.now();
    for (let i = 0; i < n; i++) r.draw(root, view, ctx);
    return [(performance.now() - t0) / n, root.querySelectorAll("*").length];
}"""


def _old_files(rev: str, name: str, into: Path) -> tuple[Path, Path] | None:
    """common.js and the game's JS at ``rev`` (before the move: web/games/<name>.js), if it had them."""
    out = []
    for path in ("src/freetrader/web/common.js", f"src/freetrader/web/games/{name}.js",
                 f"src/freetrader/games/{name.replace('-', '_')}/web.js"):
        proc = subprocess.run(["git", "show", f"{rev}:{path}"], cwd=ROOT, capture_output=True, text=True)
        if proc.returncode == 0:
            f = into / path.replace("/", "_")
            f.write_text(proc.stdout, encoding="utf-8")
            out.append(f)
    return (out[0], out[1]) if len(out) >= 2 else None


def _view(name: str) -> dict[str, Any]:
    g = freetrader.game(name)
    state = g.new_state(max(g.spec.min_seats, min(3, g.spec.max_seats)), 3)
    rng = random.Random(2)
    for _ in range(60):
        if state.is_over:
            break
        state.apply(rng.choice(state.legal_actions()))
    view = state.view(state.to_act)
    view["legal"] = [str(a) for a in state.legal_actions()]
    return view


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--against", metavar="REV", help="also time the game files of this git revision")
    ap.add_argument("--draws", type=int, default=30)
    ap.add_argument("--repeats", type=int, default=3)
    args = ap.parse_args()
    from playwright.sync_api import sync_playwright

    rows = []
    with tempfile.TemporaryDirectory() as tmp, sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=["--headless", "--no-sandbox"])
        for name in freetrader.games():
            js = part_file(name, "web.js")
            web = load_part(name, "web")
            if js is None or web is None:
                continue
            comps, view = web.components(), _view(name)
            variants = [("this checkout", WEB / "common.js", js)]
            old = _old_files(args.against, name, Path(tmp)) if args.against else None
            if old:
                variants.append((args.against, old[0], old[1]))
            for label, common, script in variants:
                times, nodes = [], 0
                for _ in range(args.repeats):
                    page = browser.new_page()
                    page.set_content("<div id=board></div>")
                    page.add_script_tag(path=str(common))
                    page.add_script_tag(path=str(script))
                    ms, nodes = page.evaluate(_DRAW, [name, view, comps, args.draws])
                    times.append(ms)
                    page.close()
                rows.append((name, label, statistics.median(times), nodes))
        browser.close()
    print(f"{'game':<18} {'files':<16} {'ms/draw':>8} {'nodes':>6}")
    for name, label, ms, nodes in rows:
        print(f"{name:<18} {label:<16} {ms:>8.1f} {nodes:>6}")


if __name__ == "__main__":
    main()
