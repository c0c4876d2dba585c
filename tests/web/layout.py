"""What a table page looks like to a player, measured in the browser: shared by tests/web/test_layout.py and
scripts/screenshots.py.

Each check is one JavaScript function run in the page; it returns a list of faults (empty when the page is
right), each a short sentence naming the element, so a failing test says what to fix.
"""

from __future__ import annotations

import json
import time
import urllib.request
from typing import Any

#: The sizes a table is designed for (issue 34): a laptop and a phone.
SIZES: tuple[tuple[int, int], ...] = ((1280, 900), (390, 844))

#: The games and modules whose every component must be on screen: (name, game, options, seats). Short
#: games, so a test reaches several decisions quickly; Merchants Cove with every Secret Stash module that
#: adds a drawn component (boats 7-9, the new Corruption and Townsfolk, Faction Leaders, Rogues, tiles).
TABLES: tuple[tuple[str, str, dict[str, Any], int], ...] = (
    ("contraband", "contraband", {"end": "turns", "turn_limit": 10}, 3),
    ("cornish-smuggler", "cornish-smuggler", {"turn_limit": 2}, 3),
    ("precious-cargo", "precious-cargo", {"target": 6, "turn_limit": 6}, 2),
    ("merchants-cove", "merchants-cove", {}, 2),
    ("merchants-cove-secret-stash", "merchants-cove",
     {"boats": "both", "corruption": "mixed", "townsfolk": "all", "halls_of_plenty": True,
      "lair_of_villainy": True, "faction_leaders": True, "festival": True, "multiple_rogues": True, "rogue": "pirates",
      "merchants": "captain,alchemist,blacksmith"}, 3),
    ("merchants-cove-solo", "merchants-cove", {"challenges": True, "merchants": "chronomancer"}, 1),
)

#: Every drawn element of the board lies inside its panel: an SVG's shapes and texts inside the SVG's box
#: (what lies outside is cut off), an HTML element inside the board's box (what lies outside needs a
#: sideways scroll nobody makes), the side panel's inside the viewport's width.
OUTSIDE_JS = r"""() => {
  const faults = [];
  const name = (el) => {
    const t = (el.textContent || "").trim().slice(0, 40);
    const cls = typeof el.className === "string" ? el.className : (el.className && el.className.baseVal) || "";
    const g = el.closest("g[class]");
    const within = g ? " in g." + String(g.getAttribute("class")).split(" ").join(".") : "";
    return el.tagName.toLowerCase() + (cls ? "." + cls.split(" ").join(".") : "") + within + (t ? " '" + t + "'" : "");
  };
  const out = (r, b, tol) => r.left < b.left - tol || r.right > b.right + tol || r.top < b.top - tol || r.bottom > b.bottom + tol;
  const svgs = Array.from(document.querySelectorAll("#board svg")).filter((s) => !s.parentElement.closest("svg"));
  for (const svg of svgs) {
    const box = svg.getBoundingClientRect();
    if (!box.width || !box.height) continue;
    const tol = Math.max(1.5, box.width / 400);
    for (const el of svg.querySelectorAll("text, rect, circle, ellipse, path, line, polygon, polyline, image, use")) {
      const r = el.getBoundingClientRect();
      if (!r.width && !r.height) continue;
      // a map's land that goes on past the frame is cut on purpose (data-bleed), nothing else is
      if (el.closest("defs, clipPath, mask, symbol, marker, pattern, [data-bleed]")) continue;
      if (out(r, box, tol)) faults.push(name(el) + " outside its panel " + (svg.getAttribute("aria-label") || name(svg))
        + " (" + [r.left, r.top, r.right, r.bottom].map(Math.round) + " vs " + [box.left, box.top, box.right, box.bottom].map(Math.round) + ")");
    }
  }
  const board = document.getElementById("board");
  if (board && board.scrollWidth > board.clientWidth + 2 && !board.classList.contains("zoomed")
      && !board.querySelector("svg.pannable")) {
    faults.push("the board is wider than its box (" + board.scrollWidth + " > " + board.clientWidth + " px)");
  }
  if (document.documentElement.scrollWidth > window.innerWidth + 1) {
    faults.push("the page is wider than the window (" + document.documentElement.scrollWidth + " > " + window.innerWidth + " px)");
  }
  return faults.slice(0, 12);
}"""

#: Labels at least 11 px tall on screen at the default zoom: an SVG text's font size times the drawing's
#: scale, an HTML text's computed font size.
SMALL_TEXT_JS = r"""(min) => {
  const faults = [];
  // an icon with no letter or digit (a coin's ¤) is not a label
  const label = (t) => /[\p{L}\p{N}]/u.test(t || "");
  for (const el of document.querySelectorAll("#board text, #board tspan")) {
    if (!label(el.textContent)) continue;
    const r = el.getBoundingClientRect();
    if (!r.width && !r.height) continue;
    const ctm = el.getScreenCTM();
    if (!ctm) continue;
    const scale = Math.hypot(ctm.a, ctm.b);
    const px = parseFloat(getComputedStyle(el).fontSize) * scale;
    if (px < min - 0.05) faults.push("'" + el.textContent.trim().slice(0, 30) + "' is " + px.toFixed(1) + " px");
  }
  const walker = document.createTreeWalker(document.querySelector("main") || document.body, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const el = n.parentElement;
    if (!el || el.closest("svg") || !label(n.textContent)) continue;
    const r = el.getBoundingClientRect();
    if (!r.width || !r.height) continue;
    const px = parseFloat(getComputedStyle(el).fontSize);
    if (px < min - 0.05) faults.push("'" + n.textContent.trim().slice(0, 30) + "' is " + px.toFixed(1) + " px");
  }
  return faults.slice(0, 12);
}"""

#: The prompt and the choices are in view without scrolling the page: each inside the window and, when
#: the choice panel scrolls, inside its visible box.
CHOICES_IN_VIEW_JS = r"""() => {
  const faults = [];
  const vw = window.innerWidth, vh = window.innerHeight;
  const inView = (r) => r.top >= -1 && r.left >= -1 && r.bottom <= vh + 1 && r.right <= vw + 1;
  const prompt = document.getElementById("prompt");
  if (!prompt || !inView(prompt.getBoundingClientRect())) faults.push("the prompt is not in view");
  const dock = document.getElementById("dock");
  const moves = Array.from(document.querySelectorAll("#actions button, #picks button")).filter((b) => b.offsetParent);
  if (!moves.length) faults.push("no choice is shown");
  for (const b of moves) {
    const r = b.getBoundingClientRect();
    if (!inView(r)) faults.push("choice '" + b.textContent.trim().slice(0, 40) + "' is out of view at y=" + Math.round(r.top));
  }
  return faults.slice(0, 12);
}"""

#: The choice panel's box (the dock holding the prompt and the choices), rounded to whole pixels.
DOCK_BOX_JS = r"""() => {
  const d = document.getElementById("dock");
  if (!d) return null;
  const r = d.getBoundingClientRect();
  return [r.left, r.top, r.width, r.height].map(Math.round);
}"""


def api(base: str, method: str, path: str, body: Any = None) -> Any:
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(base + path, data=data, method=method, headers={"content-type": "application/json"})
    with urllib.request.urlopen(req, timeout=20) as r:
        return json.loads(r.read())


def open_table(browser: Any, base: str, game: str, options: dict[str, Any], seats: int,
               size: tuple[int, int], bot: str = "heuristic") -> Any:
    """A page at ``size`` for seat 0 of a new table (the other seats ``bot``), its board drawn."""
    table = api(base, "POST", "/api/tables", {"game": game, "seats": ["human"] + [bot] * (seats - 1),
                                             "options": options, "name": "layout"})
    joined = api(base, "POST", f"/api/tables/{table['table']['id']}/join", {"name": "Ann"})
    page = browser.new_page(viewport={"width": size[0], "height": size[1]})
    page.goto(base + joined["link"])
    page.wait_for_selector("#board svg, #board dl", timeout=30000)
    return page


def my_turn(page: Any) -> bool:
    return bool(page.evaluate("!!document.querySelector('#prompt.yours') && "
                              "!!document.querySelector('#actions button.move:enabled')"))


def wait_my_turn(page: Any, budget: float = 120.0) -> bool:
    """Wait (bots answering) until this seat has a move, or the game is over: whether it has one."""
    end = time.monotonic() + budget
    while time.monotonic() < end:
        if page.evaluate("document.body.dataset.over") == "1":
            return False
        if my_turn(page):
            time.sleep(0.15)  # the renderer's own panel is drawn in the same task; let fonts settle
            return True
        time.sleep(0.05)
    raise AssertionError("no decision for seat 0 within the budget")


def click_first(page: Any) -> None:
    """Play this seat's first move by clicking it, and wait for the table to move on."""
    before = page.evaluate("Number(document.body.dataset.index)")
    page.locator("#actions button.move:enabled").first.click()
    page.wait_for_function(f"Number(document.body.dataset.index) > {before} || document.body.dataset.over === '1'"
                           " || document.getElementById('error').textContent !== ''", timeout=30000)
