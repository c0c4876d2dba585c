"""Parameter sweeps: one run per value of a game option or a data-pack value, on the same seeds.

``freetrader sweep GAME --vary NAME=V1,V2,... --seats ... -n N --out DIR`` plays
game ``i`` of every point with the same seed (``derive_seed(seed, i)``), so the
points differ by the swept value (and what it changes in play), not by their
deals. ``NAME`` is a game option (``rules GAME`` lists them) or a data value,
``FILE.TABLE.KEY`` of the game's ``data/FILE.toml`` (``tracks.gold_wheel.size``),
played from a data pack the sweep writes (``packs/``) with that one value changed.

This module parses ``--vary``, writes those packs, and turns the points' result
lines into response curves: win rates by seat and by turn position (counted from
the game's ``first`` seat: ``endings``), end-trigger rates, and length in actions
and in the game's own unit, as tables (terminal, CSV, JSON) and PNG plots on one
HTML page. The command (``cli/cmd_sweep.py``) runs the points through ``simulate``.
"""

from __future__ import annotations

import html
import json
import math
import os
import re
import statistics
import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

from freetrader.core import BadOption, Game
from freetrader.core.data import pack_folder
from freetrader.core.registry import game_package

from .endings import ends_of, position
from .stats import wilson_interval
from .tables import Table, export

__all__ = ["Vary", "Point", "parse_vary", "write_pack", "sweep_tables", "terminal_rows", "write_sweep", "PLOTS"]

PLOTS = ("seats.png", "positions.png", "ends.png", "length.png")


@dataclass(frozen=True)
class Vary:
    """What a sweep varies: a game option (``kind="option"``) or a data value (``kind="data"``)."""

    name: str
    kind: str
    values: tuple[Any, ...]
    texts: tuple[str, ...]  # each value as given: labels and file names

    @property
    def data_file(self) -> str:
        return self.name.split(".", 1)[0] + ".toml"

    @property
    def data_path(self) -> tuple[str, ...]:
        return tuple(self.name.split(".")[1:])


@dataclass
class Point:
    """One value of the sweep and the result lines played at it."""

    text: str
    value: Any
    results: Sequence[Mapping[str, Any]] = field(default_factory=list)


def _data_package(game: Game) -> str:
    return game_package(game)


def _data_text(game: Game, filename: str) -> str:
    """The text of ``data/<filename>`` as the game reads it now: from the pack in use, else shipped."""
    package = _data_package(game)
    folder = pack_folder(package)
    if folder is not None and (folder / filename).is_file():
        return (folder / filename).read_text(encoding="utf-8")
    try:
        return resources.files(package).joinpath("data", filename).read_text(encoding="utf-8")
    except (FileNotFoundError, OSError):
        return ""


def _data_files(game: Game) -> list[str]:
    try:
        return sorted(p.name for p in resources.files(_data_package(game)).joinpath("data").iterdir()
                      if p.name.endswith(".toml"))
    except (FileNotFoundError, OSError):
        return []


def _lookup(doc: Mapping[str, Any], path: Sequence[str]) -> Any:
    here: Any = doc
    for key in path:
        if not isinstance(here, Mapping) or key not in here:
            raise KeyError(key)
        here = here[key]
    return here


def _toml_value(text: str, like: Any, what: str) -> Any:
    """``text`` as a TOML value of the type of ``like`` (the shipped value); ``BadOption`` if it is not one."""
    try:
        value = tomllib.loads(f"v = {text}")["v"]
    except tomllib.TOMLDecodeError:
        value = text  # a bare word: a string
    if isinstance(like, bool) or isinstance(value, bool):
        ok = isinstance(like, bool) and isinstance(value, bool)
    elif isinstance(like, float):
        ok = isinstance(value, (int, float))
        value = float(value) if ok else value
    else:
        ok = type(value) is type(like)
    if not ok:
        raise BadOption(f"--vary {what}: {text!r} is not a {type(like).__name__} like the data's {like!r}")
    return value


def parse_vary(game: Game, text: str) -> Vary:
    """``NAME=V1,V2,...``: a game option by name, else ``FILE.TABLE.KEY`` of the game's data; each value checked."""
    name, eq, rest = text.partition("=")
    name = name.strip()
    texts = tuple(v.strip() for v in rest.split(",") if v.strip())
    if not eq or not name or len(texts) < 2:
        raise BadOption(f"--vary needs NAME=V1,V2,... with at least two values, e.g. turn_limit=10,20; got {text!r}")
    if len(set(texts)) != len(texts):
        raise BadOption(f"--vary {name}: a value is given twice ({', '.join(texts)})")
    if any(o.name == name for o in game.spec.options):
        option = game.spec.option(name)
        return Vary(name, "option", tuple(option.parse_text(t) for t in texts), texts)
    options = ", ".join(o.name for o in game.spec.options) or "none"
    files = _data_files(game)
    if "." not in name:
        raise BadOption(f"{game.spec.slug} has no option {name!r} (its options: {options}); a data value is "
                        f"FILE.TABLE.KEY of its data files ({', '.join(files) or 'none'}), e.g. tracks.gold_wheel.size")
    v = Vary(name, "data", (), texts)
    if v.data_file not in files:
        raise BadOption(f"--vary {name}: {game.spec.slug} has no data file {v.data_file} (its files: "
                        f"{', '.join(files) or 'none'}) and no option {name!r} (its options: {options})")
    doc = tomllib.loads(_data_text(game, v.data_file))
    try:
        like = _lookup(doc, v.data_path)
    except KeyError as exc:
        raise BadOption(f"--vary {name}: {v.data_file} has no {'.'.join(v.data_path)} (no key {exc.args[0]!r})") from None
    if isinstance(like, (dict, list)):
        raise BadOption(f"--vary {name}: {'.'.join(v.data_path)} in {v.data_file} is a "
                        f"{'table' if isinstance(like, dict) else 'list'}; a sweep varies one number, word or flag")
    return Vary(name, "data", tuple(_toml_value(t, like, name) for t in texts), texts)


def _literal(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return repr(value)
    return json.dumps(value)  # a TOML basic string


def _set_value(text: str, path: Sequence[str], value: Any) -> str:
    """``text`` with the key ``path[-1]`` of table ``path[:-1]`` set to ``value``, comments and layout kept."""
    *table, key = path
    header = re.compile(r"^\s*\[\s*" + r"\s*\.\s*".join(re.escape(t) for t in table) + r"\s*\]\s*(#.*)?$")
    line_re = re.compile(r"^(\s*" + re.escape(key) + r"\s*=\s*)([^#\n]*?)(\s*(#.*)?)$")
    lines = text.split("\n")
    inside = not table  # a top-level key: before the first header
    for i, line in enumerate(lines):
        if re.match(r"^\s*\[", line):
            if inside and table:
                break
            inside = bool(table) and bool(header.match(line))
            if not table:
                break
            continue
        if inside and (m := line_re.match(line)):
            lines[i] = f"{m[1]}{_literal(value)}{m[3]}"
            return "\n".join(lines)
    raise BadOption(f"cannot find the line of {'.'.join(path)} to change (a key written in another layout)")


def write_pack(game: Game, vary: Vary, index: int, root: Path) -> Path:
    """Write the data pack of point ``index`` under ``root``; returns the pack's folder (for ``--data``).

    It holds the game's files of the pack in use (if any) and the varied file, with one value changed
    and checked: the changed file must read as the original with only that value different.
    """
    pack = root / f"{index}-{re.sub(r'[^A-Za-z0-9_.-]+', '_', vary.texts[index])}"
    folder = pack / game.spec.name
    folder.mkdir(parents=True, exist_ok=True)
    used = pack_folder(_data_package(game))
    if used is not None:
        for f in used.iterdir():
            if f.is_file() and f.name.endswith(".toml"):
                (folder / f.name).write_bytes(f.read_bytes())
    original = _data_text(game, vary.data_file)
    changed = _set_value(original, vary.data_path, vary.values[index])
    want = tomllib.loads(original)
    _lookup(want, vary.data_path[:-1])[vary.data_path[-1]] = vary.values[index]
    if tomllib.loads(changed) != want:
        raise BadOption(f"--vary {vary.name}: changing the line in {vary.data_file} did not change that value alone")
    (folder / vary.data_file).write_text(changed, encoding="utf-8")
    return pack


# -- the response curves ----------------------------------------------------------------------
def _share(result: Mapping[str, Any], seat: int) -> float:
    winners = result["winners"]
    return 1.0 / len(winners) if seat in winners else 0.0


def _rate(wins: float, n: int) -> list[Any]:
    low, high = wilson_interval(wins, n)
    return [wins / n if n else math.nan, low if n else math.nan, high if n else math.nan]


def _mean(xs: Sequence[float]) -> float:
    return statistics.fmean(xs) if xs else math.nan


def sweep_tables(game: Game, vary: Vary, points: Sequence[Point]) -> list[Table]:
    """The sweep's tables: a summary per value, then win rates by seat and position, ends and lengths."""
    seats = max((len(r["seats"]) for p in points for r in p.results), default=0)
    ends = list(ends_of(game))
    for p in points:
        ends += [str(r["end"]) for r in p.results if "end" in r and str(r["end"]) not in ends]
    unit = next((str(r["unit"]) for p in points for r in p.results if "unit" in r), None)
    taken = {"seat", "bots", "games", "win rate", "low", "high", "fair", "position", "end", "rate", "unit", "mean",
             "median", "p10", "p90", "truncated"}
    col = f"{vary.name} (swept)" if vary.name in taken else vary.name  # an option may be called "end"
    summary = Table(
        "sweep", f"{vary.name}: each value on the same seeds",
        [col, "games", *[f"seat {s} wins" for s in range(seats)], *[f"ended by {e}" for e in ends],
         "mean actions", "median actions", *([f"mean {unit}", f"median {unit}"] if unit else []), "truncated"],
        ["text", "int", *["pct"] * seats, *["pct"] * len(ends), "num", "num", *(["num", "num"] if unit else []), "int"],
        note="win rates share ties; a game with no winner (cut, truncated) counts in no seat's wins")
    by_seat = Table("seats", "Win rate by seat", [col, "seat", "bots", "games", "win rate", "low", "high", "fair"],
                    ["text", "int", "text", "int", "pct", "pct", "pct", "pct"], note="95% Wilson intervals")
    by_pos = Table("positions", "Win rate by turn position (0 = the game's first player)",
                   [col, "position", "games", "win rate", "low", "high", "fair"],
                   ["text", "int", "int", "pct", "pct", "pct", "pct"],
                   note="positions count clockwise from the seat the game names as its first player (ending's "
                        "first: Cornish Smuggler's First Player at the start, Contraband's first officer); games "
                        "where the game does not say are left out")
    by_end = Table("ends", "End triggers", [col, "end", "games", "rate", "low", "high"],
                   ["text", "text", "int", "pct", "pct", "pct"], note="95% Wilson intervals")
    length = Table("length", "Game length", [col, "unit", "mean", "median", "p10", "p90"],
                   ["text", "text", "num", "num", "num", "num"])
    for p in points:
        rs = p.results
        n = len(rs)
        wins = [sum(_share(r, s) for r in rs) for s in range(seats)]
        counts = {e: sum(1 for r in rs if r.get("end") == e) for e in ends}
        acts = [float(r["actions"]) for r in rs]
        units = [float(r["length"]) for r in rs if "length" in r]
        truncated = sum(1 for r in rs if r.get("truncated"))
        summary.rows.append([p.text, n, *[w / n if n else math.nan for w in wins],
                             *[counts[e] / n if n else math.nan for e in ends],
                             _mean(acts), statistics.median(acts) if acts else math.nan,
                             *([_mean(units), statistics.median(units) if units else math.nan] if unit else []),
                             truncated])
        for s in range(seats):
            bots = ", ".join(sorted({str(r["seats"][s]) for r in rs}))
            by_seat.rows.append([p.text, s, bots, n, *_rate(wins[s], n), 1.0 / seats])
        placed = [r for r in rs if r.get("first") is not None]
        for k in range(seats):
            w = sum(_share(r, s) for r in placed for s in range(seats) if position(r, s) == k)
            by_pos.rows.append([p.text, k, len(placed), *_rate(w, len(placed)), 1.0 / seats])
        for e in ends:
            by_end.rows.append([p.text, e, counts[e], *_rate(counts[e], n)])
        for name, xs in (("actions", acts), *([(unit, units)] if unit else [])):
            qs = statistics.quantiles(xs, n=10) if len(xs) >= 2 else [math.nan] * 9
            length.rows.append([p.text, name, _mean(xs), statistics.median(xs) if xs else math.nan, qs[0], qs[-1]])
    return [summary, by_seat, by_pos, by_end, length]


def terminal_rows(summary: Table) -> tuple[list[str], list[list[str]]]:
    """The summary table folded to fit a terminal: win rates and end shares each in one column."""
    c = summary.columns
    wins = [i for i, h in enumerate(c) if h.startswith("seat ")]
    ends = [i for i, h in enumerate(c) if h.startswith("ended by ")]
    rest = [i for i, h in enumerate(c) if i not in wins and i not in ends and i > 1 and h.startswith("median")]
    header = [c[0], "games", "wins by seat", "ended by", *[c[i].removeprefix("median ") for i in rest], "trunc."]
    rows = []
    for row in summary.rows:
        ended = ", ".join(f"{c[i].removeprefix('ended by ')} {row[i]:.0%}" for i in ends
                          if _finite(row[i]) and row[i] > 0)
        rows.append([str(row[0]), str(row[1]), " / ".join(_pct(row[i]) for i in wins), ended,
                     *[f"{row[i]:g}" if _finite(row[i]) else "–" for i in rest], str(row[-1])])
    return header, rows


def _pct(v: Any) -> str:
    return f"{v:.1%}" if _finite(v) else "–"


# -- the page -------------------------------------------------------------------------------------
def _xs(vary: Vary) -> tuple[list[float], list[str] | None]:
    """Plot positions: the values themselves when they are all numbers, else 0, 1, 2... with the texts."""
    if all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in vary.values):
        return [float(v) for v in vary.values], None
    return [float(i) for i in range(len(vary.values))], list(vary.texts)


def _curves(plt: Any, vary: Vary, t: Table, key: str, title: str, path: Path, ylabel: str = "win rate (95% CI)",
            rate: str = "win rate", fair: bool = True) -> None:
    xs, labels = _xs(vary)
    c = t.columns
    group = 1  # each curve table: the swept value, then the group (seat, position, end)
    r_i, lo_i, hi_i = (c.index(k) for k in (rate, "low", "high"))
    fig, ax = plt.subplots(figsize=(6.4, 3.6), dpi=100)
    names = list(dict.fromkeys(row[group] for row in t.rows))
    step = 0.012 * ((max(xs) - min(xs)) or 1.0)  # side by side, so that the intervals do not hide each other
    for j, g in enumerate(names):
        rows = [row for row in t.rows if row[group] == g]
        shift = step * (j - (len(names) - 1) / 2)
        ys = [row[r_i] for row in rows]
        err = [[max(0.0, row[r_i] - row[lo_i]) if _finite(row[lo_i], row[r_i]) else 0.0 for row in rows],
               [max(0.0, row[hi_i] - row[r_i]) if _finite(row[hi_i], row[r_i]) else 0.0 for row in rows]]
        ax.errorbar([x + shift for x in xs[: len(rows)]], ys, yerr=err, marker="o", capsize=3, label=f"{key} {g}" if fair else str(g))
    if fair and t.rows:
        ax.axhline(t.rows[0][c.index("fair")], color="#e45756", linestyle="--", linewidth=1, label="fair share")
    if labels is not None:
        ax.set_xticks(xs, labels)
    ax.set_xlabel(vary.name)
    ax.set_ylabel(ylabel)
    ax.set_ylim(0, 1)
    ax.set_title(title, fontsize=10)
    ax.legend(fontsize=7, loc="best")
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)


def _finite(*xs: Any) -> bool:
    return all(isinstance(x, (int, float)) and math.isfinite(x) for x in xs)


def _length_plot(plt: Any, vary: Vary, t: Table, path: Path) -> None:
    xs, labels = _xs(vary)
    units = list(dict.fromkeys(row[1] for row in t.rows))
    fig, axes = plt.subplots(1, len(units), figsize=(4.2 * len(units), 3.4), dpi=100, squeeze=False)
    for ax, u in zip(axes[0], units, strict=True):
        rows = [row for row in t.rows if row[1] == u]
        # the median: one truncated game of 100,000 actions would make the mean the story
        ax.plot(xs[: len(rows)], [row[3] for row in rows], marker="o", label="median")
        ax.fill_between(xs[: len(rows)], [row[4] for row in rows], [row[5] for row in rows], alpha=0.2,
                        label="10th-90th percentile")
        if labels is not None:
            ax.set_xticks(xs, labels)
        ax.set_xlabel(vary.name)
        ax.set_ylabel(u)
        ax.set_title(f"Game length in {u}", fontsize=10)
        ax.legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)


def _fact(v: Any) -> str:
    if isinstance(v, (list, tuple)):
        return ", ".join(str(x) for x in v) or "none"
    if isinstance(v, dict):
        return ", ".join(f"{k}={x}" for k, x in v.items()) or "none"
    return str(v)


def write_sweep(game: Game, vary: Vary, points: Sequence[Point], folder: str | os.PathLike[str],
                meta: Mapping[str, Any]) -> Path:
    """Write the plots, ``index.html``, one CSV per table and ``tables.json``; returns the page."""
    from .report import CSS, _pyplot, html_table

    out = Path(folder)
    out.mkdir(parents=True, exist_ok=True)
    tables = sweep_tables(game, vary, points)
    by = {t.name: t for t in tables}
    plt = _pyplot()
    _curves(plt, vary, by["seats"], "seat", "Win rate by seat", out / PLOTS[0])
    _curves(plt, vary, by["positions"], "position", "Win rate by turn position", out / PLOTS[1])
    _curves(plt, vary, by["ends"], "end", "End triggers", out / PLOTS[2], ylabel="share of games (95% CI)",
            rate="rate", fair=False)
    _length_plot(plt, vary, by["length"], out / PLOTS[3])
    export(tables, out, dict(meta))
    img = {p: f"<img src='{p}' alt='{p}'>" for p in PLOTS}
    facts = "; ".join(f"{k}: {_fact(v)}" for k, v in meta.items() if k not in ("game",))
    page = out / "index.html"
    page.write_text("\n".join([
        f"<!doctype html><html><head><meta charset='utf-8'><title>{html.escape(game.spec.title)} sweep of "
        f"{html.escape(vary.name)}</title><style>{CSS}</style></head><body>",
        f"<h1>{html.escape(game.spec.title)}: {html.escape(vary.name)} = {html.escape(', '.join(vary.texts))}</h1>",
        f"<p class='note'>{html.escape(facts)}. Game i of every value has the same seed, so the values differ "
        "by the swept setting, not by their deals. Every table is also in <a href='tables.json'>tables.json</a> "
        "and one CSV per table.</p>",
        "<h2>Summary</h2>", html_table(by["sweep"]),
        "<h2>Seats</h2>", img[PLOTS[0]], html_table(by["seats"]),
        "<h2>Turn position</h2>", img[PLOTS[1]], html_table(by["positions"]),
        "<h2>End triggers</h2>", img[PLOTS[2]], html_table(by["ends"]),
        "<h2>Length</h2>", img[PLOTS[3]], html_table(by["length"]),
        "</body></html>",
    ]) + "\n", encoding="utf-8")
    return page
