"""Cornish Smuggler's game shape under its designed values: a sweep, run on the engine directly.

    nice python scripts/cornish_sweep.py -n 300 --seats 2,3,4,5 --vary wheel=8,10,12 --plot docs/cornish
    nice python scripts/cornish_sweep.py -n 1000 --seats 2,3,4,5 --bots heuristic --json out.json

Every point of a sweep plays the same deals (``derive_seed(seed, i)``) at every seat count, with
the First Player rotated (game ``i`` starts with seat ``i % seats``), so seat and turn position
are separated. A swept value is a data-pack value: the script writes a data pack (a copy of the
shipped ``cornish-smuggler`` data with the value changed) and the worker processes, started fresh
(``spawn``), read it through ``$FREETRADER_DATA``. The values (all designed, none printed):

- ``wheel``: Gold Wheel spaces (``tracks.toml [gold_wheel] size``);
- ``lead``: the Customs Track spaces only 5-player games play (2-4 players start after them;
  shipped: 10), each with the first space's Discovery Level and Bribe Cost;
- ``track``: Customs Track spaces; the shipped Discovery Levels and Bribe Costs are stretched to
  the new length, and the new-officer spaces keep their share of the track (the first stays, for
  the Gold Wheel example's officer, as the track moves from 1 to 3);
- ``new-officers``: the new-officer spaces, joined by ``+`` (``2+8+18``);
- ``officers``: how many highlighted (new-officer) spaces, spread evenly over the track;
- ``bribe``: added to every Bribe Cost;
- ``goods``: Goods Shapes kept at each Merchant, as a share in percent (the smallest are dropped
  first from the end of each Merchant's list);
- ``homes``: where the START storehouses stand (issue 30's turn-position diagnosis). 0: as shipped;
  1: all at Ludgvan, an inland village, so that no home is worth more than another (a control, not
  a design); 2: the three designed ones in selling Ports moved out of them (The Botallack Adit from
  St Just to Pendeen, The Pilchard Palace from St Ives to Newlyn, The Net Loft from Porthleven to
  Mousehole), leaving the printed Behind The Turks Head (Penzance) the only home in a market;
  3-5: other layouts (``HOMES_MOVED``);
- ``turks``: a hold for Behind The Turks Head (``TURKS_HOLDS``);
- ``hold-<storehouse>``: a storehouse's hold, rows joined by ``/``, e.g. ``hold-the-net-loft=###/##.``;
- ``size-<town>``: a town's selling size (2, 3, 5 or 7; a size-2 town buys only pieces of size 2),
  e.g. ``size-penzance=5``; ``risk-<town>``: a Port's printed landing risk, likewise;
- ``sea-<port>``: the sea spaces a Port (or a Merchant) opens onto, joined by ``+``, e.g.
  ``sea-penzance=mounts-bay-west+mounts-bay-east``;
- ``goods-<merchant>``: a Merchant's whole list of Goods Shapes, joined by ``+``, e.g.
  ``goods-ireland=domino+i-tromino+l-tetromino`` (the shapes' counts follow);
- ``home-<storehouse>``: the town a storehouse stands in, e.g. ``home-the-glebe-barn=porthleven``
  (run at 5 seats alone, a START card moved into play there is what a 5-seat-only card would be);
- ``players-<storehouse>``: the player counts whose games deal a START card, joined by ``+``, e.g.
  ``players-the-pilchard-palace=2+3+4`` (it stays out of 5-player games);

Per game it records the Turns played, the actions, which end fired, the winners by seat and by
turn position (position 0 starts with the First Player marker), the Price List row of every
sale, each position's START storehouse town and first Network Counter, and who held the First Player
marker in the last Turn (``--by-start`` prints win rates by the town a position's network started in
and by place in the last Turn's order: the turn-position diagnosis of issue 30). It prints a table per point, writes JSON (``--json``) and plots (``--plot DIR``, needs
matplotlib, the ``analysis`` extra). Plots: end-trigger rates, Turns, and seat and position win
rates against each swept value.
"""

from __future__ import annotations

import argparse
import json
import math
import multiprocessing as mp
import os
import re
import shutil
import statistics
import tempfile
import tomllib
from collections.abc import Iterable
from pathlib import Path
from typing import Any

DATA = Path(__file__).resolve().parents[1] / "src" / "freetrader" / "games" / "cornish_smuggler" / "data"
ROWS = ("top", "middle", "bottom")
#: ``homes=N`` (N >= 2): where designed START storehouses move (from town -> to town)
HOMES_MOVED = {
    # out of the selling Ports to a Port or village nearby
    2: {"st-just": "pendeen", "st-ives": "newlyn", "porthleven": "mousehole"},
    # a home in each of the five selling Ports of size 3 or more: St Just's (size 2, sells only 2s)
    # goes to Marazion, Lelant's to Hayle next door
    3: {"st-just": "marazion", "lelant": "hayle"},
    # Lelant's to Hayle next door, so that the five best START homes are selling Ports
    4: {"lelant": "hayle"},
    # St Just's to Hayle: four homes in selling Ports, the fifth seat starts where it likes
    5: {"st-just": "hayle"},
    # on today's data (issue 30's layout 3 shipped): a sixth home in a selling Port, so that the
    # last chooser at 5 seats is not left Behind The Turks Head beside the Marazion home
    6: {"ludgvan": "st-just"},
}
MAX_ACTIONS = 5_000
KNOBS = ("wheel", "lead", "track", "new-officers", "officers", "bribe", "goods", "homes", "size-<town>", "risk-<town>", "sea-<port>", "goods-<merchant>", "hold-<storehouse>", "home-<storehouse>", "players-<storehouse>", "turks")
PLACE_KNOBS = ("size-", "risk-", "sea-")
#: knobs whose value is a name (or names joined by ``+``), not a number
NAME_KNOBS = ("sea-", "goods-", "hold-", "home-", "players-", "new-officers")
Knobs = dict[str, "int | str"]


def _knob_value(knob: str, value: str) -> int | str:
    """A knob's value: sea spaces are names, every other knob a number."""
    return value if knob.startswith(NAME_KNOBS) else int(value)
#: ``turks=N``: holds tried for Behind The Turks Head (Penzance), the home left to the last chooser at 5 seats
TURKS_HOLDS = {1: ["####", ".###"], 2: ["####", "####"], 3: ["###", "###"]}


# -- the data pack ---------------------------------------------------------------------------------------
def _stretch(values: list[int], n: int) -> list[int]:
    """``values`` resampled to ``n`` entries, first and last kept (nearest entry)."""
    if n == len(values):
        return list(values)
    return [values[round(i * (len(values) - 1) / (n - 1))] for i in range(n)]


def _array(name: str, values: Iterable[int]) -> str:
    return f"{name} = [{', '.join(str(v) for v in values)}]"


def write_pack(root: Path, knobs: Knobs) -> Path:
    """A data pack at ``root`` with the shipped Cornish data and ``knobs`` applied; returns ``root``."""
    folder = root / "cornish-smuggler"
    shutil.copytree(DATA, folder, ignore=shutil.ignore_patterns("*.md"))
    tracks_path = folder / "tracks.toml"
    text = tracks_path.read_text()
    tracks = tomllib.loads(text)
    track = tracks["customs_track"]
    discovery, bribe, new = list(track["discovery"]), list(track["bribe"]), list(track["new_officer"])
    if "lead" in knobs:  # the spaces only 5 players play, before the space 2-4 players start on
        start = dict(track.get("start_space", {})).get("4", 0)
        lead = int(knobs["lead"])
        discovery = [discovery[start]] * lead + discovery[start:]
        bribe = [bribe[start]] * lead + bribe[start:]
        # the officers of the lead spaces (only 5 players meet them) stay where they are; the rest move with it
        new = [x if x < start else x - start + lead for x in new]
        text = re.sub(r"^start_space = .*$", f"start_space = {{ 2 = {lead}, 3 = {lead}, 4 = {lead} }}", text,
                      flags=re.M)
    n = len(discovery)
    if "track" in knobs:
        m = int(knobs["track"])
        # the first highlighted space stays: the Gold Wheel example's officer appears as the track moves 1 -> 3
        new = sorted({new[0]} | {max(1, min(m - 2, round(x * (m - 1) / (n - 1)))) for x in new[1:]})
        discovery, bribe, n = _stretch(discovery, m), _stretch(bribe, m), m
    if "new-officers" in knobs:  # the new-officer spaces, joined by +
        new = sorted(int(x) for x in str(knobs["new-officers"]).split("+"))
    if "officers" in knobs:
        k = int(knobs["officers"])
        new = sorted({max(1, round((i + 1) * (n - 1) / (k + 1))) for i in range(k)})
    if "bribe" in knobs:
        bribe = [max(0, b + int(knobs["bribe"])) for b in bribe]
    text = re.sub(r"^discovery = .*$", _array("discovery", discovery), text, flags=re.M)
    text = re.sub(r"^bribe\s+= .*$", _array("bribe    ", bribe), text, flags=re.M)
    text = re.sub(r"^new_officer = .*$", _array("new_officer", new), text, flags=re.M)
    if "wheel" in knobs:
        text = re.sub(r"(\[gold_wheel\]\nsize = )\d+", rf"\g<1>{int(knobs['wheel'])}", text)
    tracks_path.write_text(text)
    if "goods" in knobs or any(k.startswith("goods-") for k in knobs):
        goods_path = folder / "goods.toml"
        goods_path.write_text(_goods(goods_path.read_text(), knobs))
    places = {(k.partition("-")[0], k.partition("-")[2]): v for k, v in knobs.items()
              if k.startswith(PLACE_KNOBS)}
    if places:
        map_path = folder / "map.toml"
        blocks = map_path.read_text().split("[[location]]")
        for i, b in enumerate(blocks):
            town = re.search(r'^id = "([a-z-]+)"$', b, flags=re.M)
            for (field, at), v in places.items():
                if town and town.group(1) == at and field == "sea":
                    seas = ", ".join(f'"{x}"' for x in str(v).split("+"))
                    b = blocks[i] = re.sub(r"^sea = \[.*\]$", f"sea = [{seas}]", b, count=1, flags=re.M)
                elif town and town.group(1) == at:
                    b = blocks[i] = re.sub(rf"^{field} = \d+$", f"{field} = {v}", b, count=1, flags=re.M)
        text = "[[location]]".join(blocks)
        for (field, at), v in places.items():  # a Merchant's sea spaces are its ``adjacent`` list
            if field == "sea" and f'[[merchant]]\nid = "{at}"' in text:
                text = _merchant_seas(text, at, str(v).split("+"))
        map_path.write_text(text)
    holds = {k.removeprefix("hold-"): str(v).split("/") for k, v in knobs.items() if k.startswith("hold-")}
    if knobs.get("turks"):
        holds["behind-the-turks-head"] = TURKS_HOLDS[int(knobs["turks"])]
    if holds:
        stores_path = folder / "storehouses.toml"
        text = stores_path.read_text()
        for store, rows in holds.items():
            hold = "hold = [" + ", ".join(f'"{r}"' for r in rows) + "]"
            text = re.sub(rf'(id = "{store}"(?:.*\n)*?)hold = \[[^\]]*\]', lambda m, hold=hold: m.group(1) + hold, text, count=1)
        stores_path.write_text(text)
    moved = {k.removeprefix("home-"): str(v) for k, v in knobs.items() if k.startswith("home-")}
    if moved:
        stores_path = folder / "storehouses.toml"
        text = stores_path.read_text()
        for store, town in moved.items():
            text = re.sub(rf'(id = "{store}"\n(?:.*\n)*?)location = "[a-z-]+"', rf'\g<1>location = "{town}"',
                          text, count=1)
        stores_path.write_text(text)
    dealt = {k.removeprefix("players-"): str(v).split("+") for k, v in knobs.items() if k.startswith("players-")}
    if dealt:
        stores_path = folder / "storehouses.toml"
        blocks = stores_path.read_text().split("[[storehouse]]")
        for i, b in enumerate(blocks[1:], 1):
            at = re.search(r'^id = "([a-z-]+)"', b, flags=re.M)
            if at and at.group(1) in dealt:
                line = f"players = [{', '.join(str(int(n)) for n in dealt[at.group(1)])}]"
                b = re.sub(r"^players = \[[^\]]*\]\n", "", b, flags=re.M)
                blocks[i] = re.sub(r"^(start = true)$", rf"\g<1>\n{line}", b, count=1, flags=re.M)
        stores_path.write_text("[[storehouse]]".join(blocks))
    if knobs.get("homes"):
        stores_path = folder / "storehouses.toml"
        blocks = stores_path.read_text().split("[[storehouse]]")
        moves = HOMES_MOVED.get(int(knobs["homes"]), {})
        for i, b in enumerate(blocks[1:], 1):
            if re.search(r"^start = true", b, flags=re.M):
                at = re.search(r'^location = "([a-z-]+)"', b, flags=re.M)
                to = "ludgvan" if knobs["homes"] == 1 else moves.get(at.group(1), at.group(1)) if at else ""
                blocks[i] = re.sub(r'^location = "[a-z-]+"', f'location = "{to}"', b, flags=re.M)
        stores_path.write_text("[[storehouse]]".join(blocks))
    return root


def _merchant_seas(text: str, merchant: str, seas: list[str]) -> str:
    """map.toml with ``merchant`` beside exactly ``seas``: its own ``adjacent`` list, and the sea spaces'."""
    listed = ", ".join(f'"{x}"' for x in seas)
    text = re.sub(rf'(\[\[merchant\]\]\nid = "{merchant}"\n(?:.*\n)*?)adjacent = \[.*\]',
                  lambda m: m.group(1) + f"adjacent = [{listed}]", text, count=1)
    blocks = text.split("[[sea]]")
    for i, b in enumerate(blocks[1:], 1):
        sea = re.search(r'^id = "([a-z-]+)"$', b, flags=re.M)
        if sea and sea.group(1) not in seas:  # a sea space names its Merchants too
            blocks[i] = re.sub(rf'(^adjacent = \[.*?)(, "{merchant}"|"{merchant}", )(.*\]$)', r"\1\3", b,
                               count=1, flags=re.M)
    return "[[sea]]".join(blocks)


def _goods(text: str, knobs: Knobs) -> str:
    """goods.toml with ``goods`` (a share of each Merchant's list) and ``goods-<merchant>`` (a whole
    list, shapes joined by ``+``) applied, and every shape's count made the number of its pieces."""
    share = int(knobs.get("goods", 100)) / 100
    placed: dict[str, int] = {}
    blocks = text.split("[[merchant]]")
    for i, b in enumerate(blocks[1:], 1):
        at = re.search(r'^id = "([a-z-]+)"$', b, flags=re.M)
        listed = knobs.get(f"goods-{at.group(1)}") if at else None
        shipped = re.search(r"goods = \[(.*?)\]", b, flags=re.S)
        items = str(listed).split("+") if listed else re.findall(r'"([^"]+)"', shipped.group(1) if shipped else "")
        # above 100%, each Merchant's list is repeated from its start
        want = len(items) if listed else max(1, round(len(items) * share))
        kept = [items[k % len(items)] for k in range(want)]
        blocks[i] = re.sub(r"goods = \[(.*?)\]", "goods = [" + ", ".join(f'"{x}"' for x in kept) + "]", b,
                           count=1, flags=re.S)
        # every list of the Merchant counts, its pieces of some player counts only (``extra``) too
        for listed_now in re.findall(r"goods = \[(.*?)\]", blocks[i], flags=re.S):
            for x in re.findall(r'"([^"]+)"', listed_now):
                placed[x] = placed.get(x, 0) + 1
    # a shape's count is the number of its pieces on the Merchants (the data check)
    shapes = "[[merchant]]".join(blocks).split("[[shape]]")
    for i, b in enumerate(shapes[1:], 1):
        gid = re.search(r'^id = "([a-z-]+)"$', b, flags=re.M)
        if gid:
            shapes[i] = re.sub(r"^count = \d+$", f"count = {placed.get(gid.group(1), 0)}", b, count=1, flags=re.M)
    return "[[shape]]".join(shapes)


# -- one game (in a worker) ------------------------------------------------------------------------------
def _init(pack: str | None) -> None:
    if pack:
        os.environ["FREETRADER_DATA"] = pack
    else:
        os.environ.pop("FREETRADER_DATA", None)


def play(task: tuple[int, int, int, tuple[str, ...]]) -> dict[str, Any]:
    """Game ``index`` of a run: its shape, its winners by seat and by position, its Price List rows."""
    import freetrader
    from freetrader.bots import decide, make_bot
    from freetrader.core import Rng, derive_seed
    from freetrader.games.cornish_smuggler.components import COMPONENTS

    seed, index, seats, bots = task
    g = freetrader.game("cornish-smuggler")
    game_seed = derive_seed(seed, index)
    first = index % seats
    s: Any = g.new_state(seats, game_seed, {"first_player": first})
    players = [make_bot(bots[(p - first) % len(bots)], g, derive_seed(game_seed, p)) for p in range(seats)]
    rngs = [Rng(derive_seed(game_seed, 1000 + p)) for p in range(seats)]
    while not s.is_over:
        if s.action_count >= MAX_ACTIONS:  # a bot loop: counted, never hidden
            return {"seats": seats, "first": first, "turns": s.turn, "actions": s.action_count, "trigger": "stall",
                    "winners": [], "positions": [], "rows": [0, 0, 0], "scores": s.scores(), "seed": game_seed}
        p = s.to_act
        s.apply(decide(players[p], s, p, rngs[p]))
    trigger = next((e for e in s.events if "end of the game is triggered" in e), "")
    rows = [0, 0, 0]
    for a in s.record()["actions"]:
        if a.startswith("price "):
            rows[ROWS.index(a.split()[1])] += 1
    winners = s.winners()
    by_pos = [(first + q) % seats for q in range(seats)]
    homes = [COMPONENTS.locations[COMPONENTS.storehouses[s.stores[p][0]].location].id if s.stores[p] else "-"
             for p in by_pos]
    starts = ["-"] * seats
    for e in s.events:  # the set-up's "Seat N places a Network Counter in X" comes first for every seat
        m = re.match(r"Seat (\d+) places a Network Counter in (.+)$", e)
        if m and starts[(int(m.group(1)) - first) % seats] == "-":
            starts[(int(m.group(1)) - first) % seats] = m.group(2)
    ships = [COMPONENTS.ships[s.ship_card[p]].id if s.ship_card[p] >= 0 else "-" for p in by_pos]
    return {
        "homes": homes, "starts": starts, "ships": ships, "last_first": (s.first - first) % seats,
        "seats": seats, "first": first, "turns": s.turn, "actions": s.action_count,
        "trigger": "goods" if "Goods Shape" in trigger else "track" if "Customs" in trigger else "cut",
        "winners": winners, "positions": [(w - first) % seats for w in winners], "rows": rows,
        "scores": s.scores(),
    }


# -- statistics ------------------------------------------------------------------------------------------
def wilson(k: float, n: int, z: float = 1.96) -> tuple[float, float]:
    if n == 0:
        return (0.0, 1.0)
    p = k / n
    den = 1 + z * z / n
    mid = (p + z * z / (2 * n)) / den
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / den
    return (max(0.0, mid - half), min(1.0, mid + half))


def summarize(games: list[dict[str, Any]]) -> dict[str, Any]:
    """Turns, actions, end triggers, seat and position win rates (shared wins split), row shares."""
    n = len(games)
    seats = games[0]["seats"]
    seat_wins, pos_wins = [0.0] * seats, [0.0] * seats
    for r in games:
        for w, q in zip(r["winners"], r["positions"], strict=True):
            seat_wins[w] += 1 / len(r["winners"])
            pos_wins[q] += 1 / len(r["winners"])
    turns = sorted(r["turns"] for r in games)
    rows = [sum(r["rows"][i] for r in games) for i in range(3)]
    sales = max(1, sum(rows))

    def rate(k: float) -> dict[str, float]:
        lo, hi = wilson(k, n)
        return {"rate": k / n, "lo": lo, "hi": hi}

    return {
        "seats": seats, "games": n,
        "turns_median": statistics.median(turns), "turns_p10": turns[int(0.1 * (n - 1))],
        "turns_p90": turns[int(0.9 * (n - 1))],
        "all_first": sum(r["turns"] >= seats for r in games) / n,
        "actions_median": statistics.median(r["actions"] for r in games),
        "actions_p90": sorted(r["actions"] for r in games)[int(0.9 * (n - 1))],
        "track": rate(sum(r["trigger"] == "track" for r in games)),
        "goods": rate(sum(r["trigger"] == "goods" for r in games)),
        "stalled": [r["seed"] for r in games if r["trigger"] == "stall"],
        "seat": [rate(k) for k in seat_wins], "position": [rate(k) for k in pos_wins],
        "rows": [k / sales for k in rows], "sales_per_game": sum(rows) / n,
        "by_start": _by_place(games, "starts"), "by_home": _by_place(games, "homes"),
        "by_ship": _by_place(games, "ships"),
        "after_last_first": [rate(k) for k in _after_last_first(games, seats)],
    }


def _after_last_first(games: list[dict[str, Any]], seats: int) -> list[float]:
    """Wins by place in the last Turn's order (0: held the First Player marker in the Turn the game ended)."""
    wins = [0.0] * seats
    for r in games:
        for q in r["positions"]:
            wins[(q - r.get("last_first", 0)) % seats] += 1 / len(r["positions"])
    return wins


def _by_place(games: list[dict[str, Any]], key: str) -> dict[str, dict[str, Any]]:
    """Win rate by (position, place): where each position's network started or its START storehouse stood,
    or which Ship Card it chose."""
    out: dict[str, dict[str, Any]] = {}
    for r in games:
        for q, place in enumerate(r.get(key, [])):
            cell = out.setdefault(f"{q} {place}", {"games": 0, "wins": 0.0})
            cell["games"] += 1
            if q in r["positions"]:
                cell["wins"] += 1 / len(r["positions"])
    for cell in out.values():
        lo, hi = wilson(cell["wins"], cell["games"])
        cell.update(rate=cell["wins"] / cell["games"], lo=lo, hi=hi)
    return dict(sorted(out.items()))


def by_start_table(summary: dict[str, Any]) -> str:
    """Position, START storehouse town, first Network Counter, Ship Card: games and win rate (in 5%+ of games)."""
    lines = ["    by place in the last Turn's order (0: held the marker): "
             + " / ".join(f"{r['rate']:.1%} ({r['lo']:.1%}-{r['hi']:.1%})" for r in summary["after_last_first"])]
    for key in ("by_home", "by_start", "by_ship"):
        for place, c in summary.get(key, {}).items():
            if c["games"] >= 0.05 * summary["games"]:
                lines.append(f"    {key[3:]:5} position {place}: {c['games']} games, "
                             f"won {c['rate']:.1%} ({c['lo']:.1%}-{c['hi']:.1%})")
    return "\n".join(lines)


def table(summary: dict[str, Any], label: str) -> str:
    s = summary
    fair = 1 / s["seats"]

    def cells(rates: list[dict[str, float]]) -> str:
        return " / ".join(f"{r['rate']:.1%} ({r['lo']:.1%}-{r['hi']:.1%})" for r in rates)

    worst = max(max(abs(r["lo"] - fair), abs(r["hi"] - fair)) for r in s["seat"] + s["position"])
    return (
        f"{label} | {s['seats']} seats | {s['games']} games | Turns median {s['turns_median']} "
        f"(10% {s['turns_p10']}, 90% {s['turns_p90']}) | every player First Player: {s['all_first']:.1%} | "
        f"actions median {s['actions_median']} (90% {s['actions_p90']}) | ends: track {s['track']['rate']:.1%}, "
        f"goods {s['goods']['rate']:.1%} ({s['goods']['lo']:.1%}-{s['goods']['hi']:.1%}) | rows top/middle/bottom "
        + "/".join(f"{x:.0%}" for x in s["rows"]) + f" of {s['sales_per_game']:.1f} sales a game\n"
        f"    seat: {cells(s['seat'])}\n    position: {cells(s['position'])}\n"
        + (f"    STALLED (no end in {MAX_ACTIONS} actions): {len(s['stalled'])} games, seeds {s['stalled'][:5]}\n"
           if s["stalled"] else "")
        + f"    farthest 95% bound from fair {fair:.1%}: {worst:.1%} points"
    )


def markdown(results: list[dict[str, Any]]) -> str:
    """The summaries as the Markdown tables of DESIGNED.md: the shape, then win rates by seat and position."""

    def pct(r: dict[str, float]) -> str:
        return f"{100 * r['rate']:.1f} ({100 * r['lo']:.1f}-{100 * r['hi']:.1f})"

    out = ["| design | seats | games | Turns median (10%-90%) | every player First Player | actions median (90%) "
           "| ended by Track | ended by Goods | sales top/middle/bottom row |",
           "|---|---|---|---|---|---|---|---|---|"]
    for r in results:
        label = ", ".join(f"{k}={v}" for k, v in r["knobs"].items()) or "shipped"
        for s in r["summaries"]:
            out.append(f"| {label} | {s['seats']} | {s['games']} | {s['turns_median']:g} ({s['turns_p10']}-{s['turns_p90']}) "
                       f"| {100 * s['all_first']:.1f}% | {s['actions_median']:g} ({s['actions_p90']}) | {pct(s['track'])} "
                       f"| {pct(s['goods'])} | " + " / ".join(f"{100 * x:.0f}%" for x in s["rows"])
                       + f" of {s['sales_per_game']:.1f} |")
    out += ["", "| design | seats | by | 0 | 1 | 2 | 3 | 4 |", "|---|---|---|---|---|---|---|---|"]
    for r in results:
        label = ", ".join(f"{k}={v}" for k, v in r["knobs"].items()) or "shipped"
        for s in r["summaries"]:
            for key in ("seat", "position"):
                cells = [pct(x) for x in s[key]] + [""] * (5 - s["seats"])
                out.append(f"| {label} | {s['seats']} | {key} | " + " | ".join(cells) + " |")
    return "\n".join(out)


# -- the run ---------------------------------------------------------------------------------------------
def run_point(knobs: Knobs, seat_counts: list[int], n: int, seed: int, bots: tuple[str, ...],
              workers: int) -> dict[int, list[dict[str, Any]]]:
    with tempfile.TemporaryDirectory(prefix="cornish-pack-") as tmp:
        pack = str(write_pack(Path(tmp), knobs)) if knobs else None
        ctx = mp.get_context("spawn")
        with ctx.Pool(workers, initializer=_init, initargs=(pack,)) as pool:
            out = {}
            for k in seat_counts:
                tasks = [(seed, i, k, bots) for i in range(n)]
                out[k] = pool.map(play, tasks, chunksize=4)
            return out


def plot(results: list[dict[str, Any]], knob: str, folder: Path) -> Path:
    """Response curves of one swept value: end triggers, Turns, actions; position and seat win rates."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    folder.mkdir(parents=True, exist_ok=True)
    counts = sorted({s["seats"] for r in results for s in r["summaries"]})
    xs = [r["knobs"][knob] for r in results]

    def at(k: int) -> list[dict[str, Any]]:
        return [next(s for s in r["summaries"] if s["seats"] == k) for r in results]

    fig, axes = plt.subplots(3, 4, figsize=(16, 11))
    ax = axes[0][0]
    for k in counts:
        ax.plot(xs, [s["goods"]["rate"] for s in at(k)], "o-", label=f"{k} seats: last Goods Shape")
        ax.plot(xs, [s["track"]["rate"] for s in at(k)], "x--", label=f"{k} seats: Customs Track")
    ax.axhline(0.10, color="grey", lw=0.5)
    ax.set_title("share of games ended by each trigger")
    ax = axes[0][1]
    for k in counts:
        ax.plot(xs, [s["turns_median"] for s in at(k)], "o-", label=f"{k} seats: median")
        ax.plot(xs, [s["turns_p10"] for s in at(k)], "x:", label=f"{k} seats: 10th percentile")
    ax.set_title("Turns")
    ax = axes[0][2]
    for k in counts:
        ax.plot(xs, [s["all_first"] for s in at(k)], "o-", label=f"{k} seats")
    ax.axhline(0.9, color="grey", lw=0.5)
    ax.set_title("every player held the First Player marker", fontsize=9)
    ax = axes[0][3]
    for k in counts:
        ax.plot(xs, [s["actions_median"] for s in at(k)], "o-", label=f"{k} seats: median")
        ax.plot(xs, [s["actions_p90"] for s in at(k)], "x:", label=f"{k} seats: 90th percentile")
    ax.set_title("length in actions")
    for ax in axes[0]:
        ax.set_xlabel(knob)
        ax.legend(fontsize=6)
    for row, key in ((1, "position"), (2, "seat")):
        for col, k in enumerate(counts[:4]):
            ax = axes[row][col]
            for j in range(k):
                ss = at(k)
                ax.errorbar([x + 0.08 * j for x in xs], [s[key][j]["rate"] for s in ss],
                            yerr=[[s[key][j]["rate"] - s[key][j]["lo"] for s in ss],
                                  [s[key][j]["hi"] - s[key][j]["rate"] for s in ss]],
                            fmt="o-", ms=3, capsize=2, label=f"{key} {j}")
            ax.axhline(1 / k, color="black", lw=0.8)
            ax.axhspan(1 / k - 0.08, 1 / k + 0.08, color="grey", alpha=0.15)
            ax.set_title(f"{k} seats: win rate by {key}", fontsize=9)
            ax.set_xlabel(knob)
            ax.legend(fontsize=6)
    fig.suptitle(f"Cornish Smuggler: response to {knob} (heuristic seats; 95% Wilson intervals; grey band: fair +/- 8)")
    fig.tight_layout()
    path = folder / f"sweep-{knob}.png"
    fig.savefig(path, dpi=72)
    plt.close(fig)
    return path


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("-n", type=int, default=200, help="games per seat count and point")
    ap.add_argument("--seats", default="2,3,4,5", help="seat counts, e.g. 2,3,4,5")
    ap.add_argument("--seed", type=int, default=30)
    ap.add_argument("--bots", default="heuristic", help="bot specs, cycled from the First Player round the table")
    ap.add_argument("--set", action="append", default=[], metavar="KNOB=V", help=f"a fixed value ({', '.join(KNOBS)})")
    ap.add_argument("--vary", default="", metavar="KNOB=V1,V2", help="the swept value")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--by-start", action="store_true", help="also print win rates by each position's home and start")
    ap.add_argument("--json", type=Path, help="write the summaries here")
    ap.add_argument("--plot", type=Path, help="write the response-curve PNG into this folder")
    ap.add_argument("--markdown", type=Path, metavar="JSON", help="print a run's --json as Markdown tables")
    ap.add_argument("--replot", type=Path, metavar="JSON", help="only draw the plot of a run's --json (with --plot)")
    args = ap.parse_args(argv)
    if args.markdown:
        print(markdown(json.loads(args.markdown.read_text())["results"]))
        return
    if args.replot:
        saved = json.loads(args.replot.read_text())
        knob = saved["args"]["vary"].partition("=")[0]
        print("wrote", plot(saved["results"], knob, args.plot or Path(".")))
        return
    fixed: Knobs = {}
    for item in args.set:
        k, _, v = item.partition("=")
        if k not in KNOBS and not k.startswith(PLACE_KNOBS + NAME_KNOBS):
            ap.error(f"--set {item}: the values are {', '.join(KNOBS)}")
        fixed[k] = _knob_value(k, v)
    points: list[Knobs] = [dict(fixed)]
    knob = ""
    if args.vary:
        knob, _, values = args.vary.partition("=")
        if knob not in KNOBS and not knob.startswith(PLACE_KNOBS + NAME_KNOBS):
            ap.error(f"--vary {args.vary}: the values are {', '.join(KNOBS)}")
        points = [{**fixed, knob: _knob_value(knob, v)} for v in values.split(",")]
    seat_counts = [int(x) for x in args.seats.split(",")]
    bots = tuple(args.bots.split(","))
    results = []
    for knobs in points:
        games = run_point(knobs, seat_counts, args.n, args.seed, bots, args.workers)
        summaries = [summarize(games[k]) for k in seat_counts]
        label = ", ".join(f"{k}={v}" for k, v in knobs.items()) or "shipped"
        for s in summaries:
            print(table(s, label), flush=True)
            if args.by_start:
                print(by_start_table(s), flush=True)
        results.append({"knobs": knobs, "summaries": summaries})
    if args.json:
        args.json.write_text(json.dumps({"args": {k: (str(v) if isinstance(v, Path) else v) for k, v in vars(args).items()},
                                         "results": results}, indent=1))
    if args.plot and knob:
        print("wrote", plot(results, knob, args.plot))


if __name__ == "__main__":
    main()
