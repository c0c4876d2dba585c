"""Balance statistics of a results file, built to keep causes apart.

- **Seats** and **bots**: win rates with Wilson intervals, tested against the fair
  share; with ``simulate --rotate`` every bot sits in every seat, so the two are
  balanced against each other.
- **First player**: its own table only when the first player changed between
  games (``simulate --random-first``); otherwise a note says it is the same as a seat.
- **Components** (what a seat was dealt or drafted at set-up) and **chosen
  actions** (what it did in play: associations with winning, not causes) are
  estimated with the seat held fixed: a linear probability model of a seat's win
  share on the component, seat dummies (and bot dummies when bots differ), with
  game fixed effects (every variable centred within its game) and standard errors
  clustered by deal (statsmodels OLS). A component is flagged when it was nearly
  always at one seat, with one bot, or together with another component.
- p-values in every table are adjusted with Holm's method within that table.

Components come from ``register_components``, called by each game's own ``analysis``
part (``games/<game>/analysis.py``, imported through the game registry); games may
also register per-seat metrics (``metrics.py``: income by source, end triggers).
statsmodels, scipy, pandas and numpy are the ``analysis`` extra.
"""

from __future__ import annotations

import json
import math
import os
import statistics
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import freetrader
from freetrader.core.errors import BadRecord
from freetrader.core.record import pack_mismatch
from freetrader.core.registry import load_part

from .results import RESULT_KEYS, ResultFileError
from .stats import median, wilson_interval
from .tables import Table

__all__ = [
    "ComponentFn",
    "MetricFn",
    "Analysis",
    "ACTION_PREFIXES",
    "analyze",
    "first_actor",
    "load_results",
    "register_components",
    "register_metrics",
    "holm",
]

ComponentFn = Callable[[Mapping[str, Any]], dict[int, list[str]]]
#: ``fn(result) -> {seat: {metric: value}}``; seat ``-1`` holds game-level metrics.
MetricFn = Callable[[Mapping[str, Any]], dict[int, dict[str, float]]]
_COMPONENTS: dict[str, ComponentFn] = {}
_METRICS: dict[str, MetricFn] = {}

#: Component names that are chosen actions in play, not set-up components.
ACTION_PREFIXES = ("played ", "hire ")
#: A component whose occurrences sit this much at one seat (or with one bot, or with another component).
CONFOUND_SHARE = 0.9
_SEAT_COMPONENT = "first player"  # the first player has its own section


def register_components(game_name: str, fn: ComponentFn) -> None:
    """How a game's results name each seat's components (by the game's name, any version)."""
    _COMPONENTS[game_name] = fn


def register_metrics(game_name: str, fn: MetricFn) -> None:
    """Per-seat (and game-level, seat -1) numbers the report averages, e.g. income by source."""
    _METRICS[game_name] = fn


def load_results(path: str | os.PathLike[str]) -> list[dict[str, Any]]:
    """The results of a ``simulate`` or ``tournament`` JSON Lines file (a cut-off last line is ignored)."""
    name = os.fspath(path)
    with open(name, "rb") as f:
        data = f.read()
    out = []
    lines = data.split(b"\n")
    if lines and lines[-1].strip():
        lines = lines[:-1]  # a write cut short
    for i, raw in enumerate(lines, 1):
        if not raw.strip():
            continue
        try:
            obj = json.loads(raw)
        except (json.JSONDecodeError, UnicodeDecodeError) as exc:
            raise ResultFileError(f"{name} line {i} is not valid JSON ({exc})") from None
        if not isinstance(obj, dict) or any(k not in obj for k in RESULT_KEYS):
            raise ResultFileError(f"{name} line {i} is not a simulate result (needs {', '.join(RESULT_KEYS)})")
        out.append(obj)
    if not out:
        raise ResultFileError(f"{name} holds no results")
    mismatch = pack_mismatch(out[0]["record"])
    if mismatch:  # made with other components: if its games do not replay here, say which pack they need
        try:
            freetrader.replay(out[0]["record"])
        except BadRecord:
            raise ResultFileError(f"{name}: {mismatch}") from None
    return out


def holm(pvalues: Sequence[float]) -> list[float]:
    """Holm-adjusted p-values (statsmodels ``multipletests``); ``nan`` stays ``nan``."""
    from statsmodels.stats.multitest import multipletests  # type: ignore[import-untyped,unused-ignore]

    idx = [i for i, p in enumerate(pvalues) if not math.isnan(p)]
    out = [math.nan] * len(pvalues)
    if idx:
        adjusted = multipletests([pvalues[i] for i in idx], method="holm")[1]
        for i, a in zip(idx, adjusted, strict=True):
            out[i] = float(a)
    return out


def _share(result: Mapping[str, Any], seat: int) -> float:
    winners = result["winners"]
    return 1.0 / len(winners) if seat in winners else 0.0


def first_actor(result: Mapping[str, Any]) -> int | None:
    """The game's first player, as its public view names it, else the seat that decided first.

    The view's ``first_player`` at set-up (Cornish Smuggler's marker), or ``first`` once the
    set-up has chosen it (Precious Cargo); otherwise whoever made the first decision.
    """
    rec = result["record"]
    state = freetrader.game(rec["game"]).new_state(rec["seats"], rec["seed"], rec.get("options"))
    start = state.view(None)
    if isinstance(start.get("first_player"), int):
        return int(start["first_player"])
    if "first" in start:
        chosen = freetrader.replay(rec).view(None).get("first")
        if isinstance(chosen, int):
            return chosen
    return state.to_act


@dataclass
class Analysis:
    game: str
    seats: int
    games: int
    deals: int
    rotated: bool
    first_varies: bool
    tables: dict[str, Table]
    scores: list[list[float]]  # per seat
    lengths: list[int]
    warnings: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    components_source: str = ""
    #: The raw values behind each compared metric ("win rate: seat 0" -> one win share a game), for ``compare``.
    samples: dict[str, list[float]] = field(default_factory=dict)

    def table_list(self) -> list[Table]:
        return list(self.tables.values())

    def meta(self) -> dict[str, Any]:
        return {"game": self.game, "seats": self.seats, "games": self.games, "deals": self.deals,
                "rotated": self.rotated, "first_player_varies": self.first_varies,
                "warnings": self.warnings, "notes": self.notes}


# -- the tables ------------------------------------------------------------------------------
RATE_COLUMNS = ["games", "wins", "win rate", "low", "high", "fair", "p", "p (Holm)", "significant"]
RATE_KINDS = ["int", "int", "pct", "pct", "pct", "pct", "p", "p", "flag"]


def _rate_test(wins: float, n: int, fair: float) -> float:
    """Score test of a win rate against the fair share (statsmodels ``proportions_ztest``)."""
    from statsmodels.stats.proportion import proportions_ztest  # type: ignore[import-untyped,unused-ignore]

    if n == 0:
        return math.nan
    _, p = proportions_ztest(wins, n, value=fair, prop_var=fair)
    return float(p)


def _rate_rows(labels: list[list[Any]], counts: list[tuple[float, int]], fair: float) -> list[list[Any]]:
    ps = [_rate_test(w, n, fair) for w, n in counts]
    adj = holm(ps)
    rows = []
    for label, (w, n), p, a in zip(labels, counts, ps, adj, strict=True):
        low, high = wilson_interval(w, n)
        rows.append([*label, n, w, w / n if n else math.nan, low, high, fair, p, a, a < 0.05])
    return rows


def _mean_ci(values: Sequence[float]) -> tuple[float, float, float]:
    from statsmodels.stats.weightstats import DescrStatsW  # type: ignore[import-untyped,unused-ignore]

    if len(values) < 2:
        m = float(values[0]) if values else math.nan
        return m, math.nan, math.nan
    d = DescrStatsW(list(values))
    low, high = d.tconfint_mean()
    return float(d.mean), float(low), float(high)


@dataclass
class _Frame:
    """One row per seat of every game: what the models read."""

    game: list[int]
    deal: list[int]
    seat: list[int]
    bot: list[str]
    first: list[bool]
    win: list[float]
    items: list[set[str]]


def _effect_table(name: str, title: str, note: str, fr: _Frame, kind: str, seats: int, mixed: bool,
                  first_varies: bool, min_n: int, warnings: list[str]) -> Table:
    """Each component's win-rate effect with the seat (and bot) held fixed; flags confounding."""
    import numpy as np  # type: ignore[import-untyped,unused-ignore]
    import pandas as pd  # type: ignore[import-untyped,unused-ignore]
    import statsmodels.api as sm  # type: ignore[import-untyped,unused-ignore]

    columns = [kind, "seat-games with", "win rate with", "win rate without", "effect (seat held)", "low", "high",
               "p", "p (Holm)", "significant", "warning"]
    kinds = ["text", "int", "pct", "pct", "signed_pct", "signed_pct", "signed_pct", "p", "p", "flag", "text"]
    table = Table(name, title, columns, kinds, note=note)
    rows_n = len(fr.win)
    counts: dict[str, int] = {}
    for its in fr.items:
        for c in its:
            counts[c] = counts.get(c, 0) + 1
    kept = sorted(c for c, n in counts.items() if n >= min_n and rows_n - n >= min_n)
    if not kept:
        return table
    df = pd.DataFrame({"game": fr.game, "deal": fr.deal, "seat": fr.seat, "bot": fr.bot, "win": fr.win,
                       "first": [float(f) for f in fr.first]})
    controls = pd.get_dummies(df["seat"], prefix="seat", drop_first=True, dtype=float)
    if mixed:
        controls = controls.join(pd.get_dummies(df["bot"], prefix="bot", drop_first=True, dtype=float))
    if first_varies:
        controls["first"] = df["first"]
    groups = df["game"]

    def centred(frame: Any) -> Any:
        return frame - frame.groupby(groups).transform("mean")

    y = centred(df[["win"]])["win"]
    occurs = {c: np.array([c in its for its in fr.items], dtype=float) for c in kept}
    raw: list[list[Any]] = []
    for c in kept:
        has = occurs[c].astype(bool)
        w_with = float(df["win"][has].mean())
        w_without = float(df["win"][~has].mean())
        flags = []
        seat_counts = df["seat"][has].value_counts()
        top_seat, top_n = int(seat_counts.idxmax()), int(seat_counts.max())
        if seats > 1 and top_n >= CONFOUND_SHARE * has.sum():
            flags.append(f"at seat {top_seat} in {top_n / has.sum():.0%} of its seat-games")
        if mixed:
            bot_counts = df["bot"][has].value_counts()
            if bot_counts.max() >= CONFOUND_SHARE * has.sum():
                flags.append(f"held by bot {bot_counts.idxmax()} in {bot_counts.max() / has.sum():.0%}")
        x = pd.DataFrame({"x": occurs[c]}).join(controls) if len(controls.columns) else pd.DataFrame({"x": occurs[c]})
        xcen = centred(x)
        est = lo = hi = p = math.nan
        if np.linalg.matrix_rank(xcen.to_numpy()) < xcen.shape[1] or float((xcen["x"] ** 2).sum()) < 1e-12:
            flags.append("not estimable: it never varies within a game apart from seat or bot")
        else:
            fit = sm.OLS(y, xcen).fit(cov_type="cluster", cov_kwds={"groups": df["deal"]})
            est = float(fit.params["x"])
            ci = fit.conf_int().loc["x"]
            lo, hi, p = float(ci.iloc[0]), float(ci.iloc[1]), float(fit.pvalues["x"])
        raw.append([c, int(has.sum()), w_with, w_without, est, lo, hi, p, flags])
    # always chosen together: near-identical occurrence sets
    sets = {c: frozenset(np.flatnonzero(occurs[c]).tolist()) for c in kept}
    together: dict[str, list[str]] = {c: [] for c in kept}
    for i, a in enumerate(kept):
        for b in kept[i + 1:]:
            inter = len(sets[a] & sets[b])
            if inter and inter >= CONFOUND_SHARE * len(sets[a] | sets[b]):
                together[a].append(b)
                together[b].append(a)
                warnings.append(f"{a} and {b} were held together in {inter / len(sets[a] | sets[b]):.0%} of "
                                "their seat-games: their effects cannot be told apart")
    adj = holm([r[7] for r in raw])
    for r, q in zip(raw, adj, strict=True):
        flags = r[8] + [f"held together with {o}" for o in together[r[0]]]
        for f in r[8]:
            if not f.startswith("not estimable"):
                warnings.append(f"{r[0]}: {f}: its effect cannot be told apart from that seat or bot")
        table.rows.append([*r[:8], q, (q < 0.05) if not math.isnan(q) else False, "; ".join(flags)])
    table.rows.sort(key=lambda row: (-(row[4] if not math.isnan(row[4]) else -9), row[0]))
    return table


def analyze(results: Sequence[Mapping[str, Any]], min_component_games: int = 5) -> Analysis:
    """Statistics of results of one game and seat count (the most common one if mixed)."""
    if not results:
        raise ResultFileError("no results to analyse")
    groups: dict[tuple[str, int], list[Mapping[str, Any]]] = {}
    for r in results:
        groups.setdefault((r["game"], len(r["seats"])), []).append(r)
    (slug, seats), chosen = max(groups.items(), key=lambda kv: len(kv[1]))
    notes: list[str] = []
    warnings: list[str] = []
    if len(groups) > 1:
        notes.append(f"{len(results) - len(chosen)} results of other games or seat counts were left out")
    n = len(chosen)
    fair = 1.0 / seats
    name = freetrader.game(slug).spec.name
    from . import metrics as _metrics  # noqa: F401  (registers the per-game metrics)

    load_part(slug, "analysis")  # the game's component functions register themselves

    comp_fn = _COMPONENTS.get(name)
    metric_fn = _METRICS.get(name)
    rotated = all("rotation" in r for r in chosen)
    deals = len({r.get("deal", i) for i, r in enumerate(chosen)}) if rotated else n
    bots_all = sorted({b for r in chosen for b in r["seats"]})
    mixed = len(bots_all) > 1
    firsts = [first_actor(r) for r in chosen]
    first_seats = {f for f in firsts if f is not None}
    first_varies = len(first_seats) > 1
    tables: dict[str, Table] = {}
    samples: dict[str, list[float]] = {}
    for seat in range(seats):
        samples[f"win rate: seat {seat}"] = [_share(r, seat) for r in chosen]
    for seat in range(seats):
        samples[f"mean score: seat {seat}"] = [float(r["scores"][seat]) for r in chosen]
    for b in bots_all if mixed else []:
        samples[f"win rate: bot {b}"] = [_share(r, s) for r in chosen for s, x in enumerate(r["seats"]) if x == b]
    if first_varies:
        samples["win rate: first player"] = [_share(r, f) for r, f in zip(chosen, firsts, strict=True)
                                             if f is not None]

    # seats
    seat_labels, seat_counts = [], []
    for seat in range(seats):
        specs = sorted({r["seats"][seat] for r in chosen})
        seat_labels.append([seat, specs[0] if len(specs) == 1 else f"{len(specs)} bots (rotated)" if rotated
                            else f"{len(specs)} bots"])
        seat_counts.append((sum(_share(r, seat) for r in chosen), n))
    tables["seats"] = Table("seats", "Win rate by seat", ["seat", "bots", *RATE_COLUMNS], ["int", "text", *RATE_KINDS],
                            _rate_rows(seat_labels, seat_counts, fair),
                            "95% Wilson intervals; p: score test against the fair share; Holm over the seats")
    if first_varies:
        w = sum(_share(r, f) for r, f in zip(chosen, firsts, strict=True) if f is not None)
        m = sum(1 for f in firsts if f is not None)
        fp = _rate_rows([["first to act"]], [(w, m)], fair)
        by_seat = [[f"seat {s} when first"] for s in sorted(first_seats)]
        by_counts = [(sum(_share(r, s) for r, f in zip(chosen, firsts, strict=True) if f == s),
                      sum(1 for f in firsts if f == s)) for s in sorted(first_seats)]
        tables["first_player"] = Table("first_player", "First player", ["who", *RATE_COLUMNS], ["text", *RATE_KINDS],
                                       fp + _rate_rows(by_seat, by_counts, fair),
                                       "the first player changed between games; per-seat rows show each seat "
                                       "when it started")
    elif first_seats:
        only = next(iter(first_seats))
        notes.append(f"Seat {only} acted first in every game: the first-player effect is seat {only}'s row "
                     "(simulate --random-first separates them where the rules allow)")

    # bots
    if mixed:
        labels, counts = [], []
        for b in bots_all:
            labels.append([b])
            counts.append((sum(_share(r, s) for r in chosen for s, x in enumerate(r["seats"]) if x == b),
                           sum(1 for r in chosen for x in r["seats"] if x == b)))
        tables["bots"] = Table("bots", "Win rate by bot", ["bot", *RATE_COLUMNS], ["text", *RATE_KINDS],
                               _rate_rows(labels, counts, fair),
                               "seat-games: every seat a bot held; " + (
                                   "rotated, so every bot sat in every seat equally often" if rotated
                                   else "not rotated: a bot's rate mixes in its seat's"))

    # scores and length
    score_cols = [[float(r["scores"][s]) for r in chosen] for s in range(seats)]
    srows = []
    for s in range(seats):
        mean, lo, hi = _mean_ci(score_cols[s])
        srows.append([s, mean, lo, hi, float(median(score_cols[s])), min(score_cols[s]), max(score_cols[s])])
    tables["scores"] = Table("scores", "Final score by seat", ["seat", "mean", "low", "high", "median", "min", "max"],
                             ["int", "num", "num", "num", "num", "num", "num"], srows, "95% t intervals of the mean")
    lengths = [int(r["actions"]) for r in chosen]
    mean, lo, hi = _mean_ci([float(x) for x in lengths])
    tables["length"] = Table("length", "Game length (actions)", ["games", "mean", "low", "high", "median", "min", "max"],
                             ["int", "num", "num", "num", "num", "int", "int"],
                             [[n, mean, lo, hi, float(median(lengths)), min(lengths), max(lengths)]])

    # components and actions
    frame = _Frame([], [], [], [], [], [], [])
    act_items: list[set[str]] = []
    for i, (r, f) in enumerate(zip(chosen, firsts, strict=True)):
        comps = comp_fn(r) if comp_fn else {}
        for s in range(seats):
            names = set(comps.get(s, [])) - {_SEAT_COMPONENT}
            frame.game.append(i)
            frame.deal.append(int(r.get("deal", i)) if rotated else i)
            frame.seat.append(s)
            frame.bot.append(r["seats"][s])
            frame.first.append(f == s)
            frame.win.append(_share(r, s))
            frame.items.append({c for c in names if not c.startswith(ACTION_PREFIXES)})
            act_items.append({c for c in names if c.startswith(ACTION_PREFIXES)})
    model = ("linear probability model of a seat's win share, game fixed effects, seat dummies"
             + (", bot dummies" if mixed else "") + (", first-player dummy" if first_varies else "")
             + "; 95% intervals clustered by deal; Holm over the rows")
    tables["components"] = _effect_table(
        "components", "Set-up components (dealt or drafted): effect on winning, seat held fixed",
        model, frame, "component", seats, mixed, first_varies, min_component_games, warnings)
    frame_items = frame.items
    frame.items = act_items
    tables["actions"] = _effect_table(
        "actions", "Chosen actions: associations with winning (not causes)",
        "what a seat chose in play depends on how its game went; " + model,
        frame, "action", seats, mixed, first_varies, min_component_games, warnings)

    # per-game metrics (income by source, end triggers)
    if metric_fn is not None:
        per_seat: dict[str, list[list[float]]] = {}
        per_game: dict[str, list[float]] = {}
        for r in chosen:
            values = metric_fn(r)
            for s, d in values.items():
                for k, v in d.items():
                    if s < 0:
                        per_game.setdefault(k, []).append(float(v))
                    else:
                        per_seat.setdefault(k, [[] for _ in range(seats)])[s].append(float(v))
        mrows = []
        for k, cols in per_seat.items():
            every = [v for c in cols for v in c]
            mean, lo, hi = _mean_ci(every)
            mrows.append([k, "seat-game", len(every), mean, lo, hi, float(median(every)) if every else math.nan])
        for k, vals in per_game.items():
            mean, lo, hi = _mean_ci(vals)
            mrows.append([k, "game", len(vals), mean, lo, hi, float(median(vals))])
        tables["metrics"] = Table("metrics", "Game metrics", ["metric", "over", "n", "mean", "low", "high", "median"],
                                  ["text", "text", "int", "num", "num", "num", "num"], mrows,
                                  "95% t intervals of the mean; a % metric is 100 or 0 per game, so its mean is how often it happened")
        for k, cols in per_seat.items():
            samples[k] = [v for c in cols for v in c]
        samples.update(per_game)
    source = "game components" if comp_fn else "no game components"
    samples["game length (actions)"] = [float(x) for x in lengths]
    for item_rows in (frame_items,):  # set-up components only: chosen actions are outcomes, not settings
        seen = sorted({c for its in item_rows for c in its})
        for c in seen:
            samples[f"win rate with {c}"] = [w for w, its in zip(frame.win, item_rows, strict=True) if c in its]
    return Analysis(slug, seats, n, deals, rotated, first_varies, tables, score_cols, lengths,
                    list(dict.fromkeys(warnings)), notes, source, samples)


def summary_line(a: Analysis) -> str:
    """The run in one line: game, games, seats and design."""
    design = ["rotated" if a.rotated else "seats fixed", "random first player" if a.first_varies
              else "first player fixed"]
    return f"{a.game}: {a.games} games ({a.deals} deals), {a.seats} seats; {', '.join(design)}"


def mean_of(values: Sequence[float]) -> float:
    return statistics.fmean(values) if values else math.nan
