"""What-if: two runs (options, data pack or bots differ) compared metric by metric.

Two runs made from the same seeds (``simulate --seed S`` twice, one setting changed) play
the same deals, so they are **paired**: every metric with one value per game is compared
by its per-seed difference B - A (a paired t interval; for the median game length a
bootstrap over seeds and the Wilcoxon signed-rank test). The deal's own luck then cancels,
and a real change shows with far fewer games. Runs whose seeds differ are compared as
independent samples: means by Welch's t (statsmodels ``CompareMeans``), the median game
length by a bootstrap of the difference of medians and a Mann-Whitney test (scipy). Win
rates with a component are always unpaired (who holds it differs between the runs). Holm's
method adjusts the p-values over all rows; the ``test`` column says which test each row used.
"""

from __future__ import annotations

import html
import math
import os
import warnings
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .analysis import MIN_GAMES, Analysis, analyze, holm, summary_line
from .results import ResultFileError
from .stats import median
from .tables import Table, export

__all__ = ["Comparison", "compare", "write_compare", "pairing"]

_MEDIAN_LENGTH = "median game length (actions)"
_LENGTH = "game length (actions)"


@dataclass
class Comparison:
    a: Analysis
    b: Analysis
    table: Table
    paired: bool = False
    #: One sentence: paired on how many seeds, or why the runs could not be paired.
    pairing: str = ""


def _welch(x: Sequence[float], y: Sequence[float]) -> tuple[float, float, float]:
    """(low, high, p) of mean(y) - mean(x)."""
    from statsmodels.stats.weightstats import CompareMeans, DescrStatsW  # type: ignore[import-untyped,unused-ignore]

    if len(x) < 2 or len(y) < 2:
        return math.nan, math.nan, math.nan
    cm = CompareMeans(DescrStatsW(list(y)), DescrStatsW(list(x)))
    with warnings.catch_warnings():  # both samples constant: nan, handled below
        warnings.simplefilter("ignore", RuntimeWarning)
        low, high = cm.tconfint_diff(usevar="unequal")
        _, p, _ = cm.ttest_ind(usevar="unequal")
    if not math.isfinite(p):  # both constant: no difference can be shown
        same = _mean(x) == _mean(y)
        return (0.0, 0.0, 1.0) if same else (math.nan, math.nan, 0.0)
    return float(low), float(high), float(p)


def _paired_t(x: Sequence[float], y: Sequence[float]) -> tuple[float, float, float]:
    """(low, high, p) of the mean per-seed difference y - x (a one-sample t on the differences)."""
    from statsmodels.stats.weightstats import DescrStatsW  # type: ignore[import-untyped,unused-ignore]

    d = [b - a for a, b in zip(x, y, strict=True)]
    if len(d) < 2:
        return math.nan, math.nan, math.nan
    if max(d) - min(d) <= 1e-12:  # every seed moved by the same amount: no spread to test against
        return (d[0], d[0], 1.0 if abs(d[0]) <= 1e-12 else 0.0)
    stats = DescrStatsW(d)
    low, high = stats.tconfint_mean()
    _, p, _ = stats.ttest_mean(0.0)
    return float(low), float(high), float(p)


def _medians(x: Sequence[float], y: Sequence[float], paired: bool) -> tuple[float, float, float]:
    """(low, high, p) of median(y) - median(x): bootstrap interval (over seeds when paired) and a rank test."""
    import numpy as np
    from scipy import stats  # type: ignore[import-untyped,unused-ignore]

    if len(x) < 2 or len(y) < 2:
        return math.nan, math.nan, math.nan
    if paired:
        d = np.asarray(y) - np.asarray(x)
        if not np.any(d):
            return 0.0, 0.0, 1.0
        res = stats.bootstrap((np.asarray(y), np.asarray(x)), lambda b, a, axis=-1: np.median(b, axis=axis)
                              - np.median(a, axis=axis), n_resamples=999, vectorized=True, random_state=0,
                              method="percentile", paired=True)
        p = float(stats.wilcoxon(d).pvalue)
    else:
        res = stats.bootstrap((np.asarray(y), np.asarray(x)), lambda b, a, axis=-1: np.median(b, axis=axis)
                              - np.median(a, axis=axis), n_resamples=999, vectorized=True, random_state=0,
                              method="percentile")
        p = float(stats.mannwhitneyu(y, x, alternative="two-sided").pvalue)
    return float(res.confidence_interval.low), float(res.confidence_interval.high), p


def _mean(v: Sequence[float]) -> float:
    return sum(v) / len(v) if v else math.nan


def pairing(a: Analysis, b: Analysis) -> tuple[list[int], list[int], str]:
    """Game indexes of A and of B that share a seed (in A's order), and a sentence saying so or why not.

    The runs pair when every game of the shorter one has its seed (and rotation) in the other:
    the same ``--seed`` and design, whatever else changed. Empty lists when they do not.
    """
    ka, kb = a.game_keys, b.game_keys
    if len(set(ka)) != len(ka) or len(set(kb)) != len(kb):
        return [], [], "unpaired: a run holds the same seed twice (results of two runs in one file?)"
    where_b = {k: i for i, k in enumerate(kb)}
    common = [(i, where_b[k]) for i, k in enumerate(ka) if k in where_b]
    shorter = min(len(ka), len(kb))
    if len(common) < 2 or len(common) < shorter:
        return [], [], (f"unpaired: only {len(common)} of the shorter run's {shorter} games share a seed with the "
                        "other run (pair runs by giving both the same --seed)")
    extra = max(len(ka), len(kb)) - len(common)
    return ([i for i, _ in common], [j for _, j in common],
            f"paired: {len(common)} games of A and B share their seeds; per-seed differences"
            + (f" ({extra} games of the longer run have no partner and are left out of the paired rows)"
               if extra else ""))


def compare(results_a: Sequence[Mapping[str, Any]], results_b: Sequence[Mapping[str, Any]],
            min_component_games: int = MIN_GAMES, paired: bool | None = None) -> Comparison:
    """Both runs analysed, and every metric both have compared (B - A).

    ``paired``: ``None`` pairs the games when the runs share their seeds (``pairing``),
    ``False`` compares them as independent samples, ``True`` requires pairing.
    """
    a, b = analyze(results_a, min_component_games), analyze(results_b, min_component_games)
    if a.game != b.game or a.seats != b.seats:
        raise ResultFileError(f"the runs are of different games or seat counts ({a.game} at {a.seats} seats, "
                              f"{b.game} at {b.seats}); compare two runs of one game and seat count")
    ia, ib, why = pairing(a, b)
    if paired is True and not ia:
        raise ResultFileError(f"the runs cannot be paired ({why.removeprefix('unpaired: ')})")
    use_pairs = bool(ia) and paired is not False
    if paired is False and ia:
        why = "unpaired, as asked (the runs share their seeds and could be paired)"
    t = Table("compare", "B - A, metric by metric",
              ["metric", "A", "B", "B - A", "low", "high", "p", "p (Holm)", "significant", "test"],
              ["text", "num", "num", "signed_num", "signed_num", "signed_num", "p", "p", "flag", "text"],
              note=f"{why}. 95% intervals: paired t on per-seed differences, or Welch's t for independent "
                   "samples (win rates are mean win shares); bootstrap for the median; Holm over all rows; "
                   "win rates in percent")
    rows: list[list[Any]] = []
    for name, xs in a.samples.items():
        ys = b.samples.get(name)
        if ys is None or (name.startswith("win rate with ") and min(len(xs), len(ys)) < min_component_games):
            continue
        scale = 100.0 if name.startswith("win rate") else 1.0
        pair = use_pairs and name in a.per_game and name in b.per_game
        if pair:
            xs = [a.per_game[name][i] for i in ia]
            ys = [b.per_game[name][j] for j in ib]
            low, high, p = _paired_t(xs, ys)
            test = f"paired t, {len(xs)} seeds"
        else:
            low, high, p = _welch(xs, ys)
            test = f"Welch t, {len(xs)} and {len(ys)}"
        rows.append([name, scale * _mean(xs), scale * _mean(ys), scale * (_mean(ys) - _mean(xs)), scale * low,
                     scale * high, p, test])
        if name == _LENGTH:
            low, high, p = _medians(xs, ys, pair)
            rows.append([_MEDIAN_LENGTH, float(median(xs)), float(median(ys)), float(median(ys) - median(xs)),
                         low, high, p, "paired bootstrap, Wilcoxon signed-rank" if pair
                         else "bootstrap, Mann-Whitney"])
    adj = holm([r[6] for r in rows])
    for r, q in zip(rows, adj, strict=True):
        t.rows.append([*r[:7], q, (q < 0.05) if not math.isnan(q) else False, r[7]])
    return Comparison(a, b, t, use_pairs, why)
def write_compare(c: Comparison, folder: str | os.PathLike[str], source_a: str = "A", source_b: str = "B") -> Path:
    """``index.html`` with the difference table and both runs' reports side by side (in ``A/`` and ``B/``)."""
    from .report import CSS, body_sections, html_table, write_report

    out = Path(folder)
    out.mkdir(parents=True, exist_ok=True)
    write_report(c.a, out / "A", source_a)
    write_report(c.b, out / "B", source_b)
    export([c.table], out, {"a": {**c.a.meta(), "source": source_a}, "b": {**c.b.meta(), "source": source_b},
                            "paired": c.paired, "pairing": c.pairing})
    page = out / "index.html"
    page.write_text("\n".join([
        f"<!doctype html><html><head><meta charset='utf-8'><title>{html.escape(c.a.game)}: A vs B</title>",
        f"<style>{CSS}</style></head><body>",
        f"<h1>{html.escape(c.a.game)}: A vs B</h1>",
        f"<p>A: {html.escape(source_a)} — {html.escape(summary_line(c.a))}<br>"
        f"B: {html.escape(source_b)} — {html.escape(summary_line(c.b))}<br>{html.escape(c.pairing)}</p>",
        "<p class='note'>Every table is also in tables.json and compare.csv; each run's own tables are in "
        "A/ and B/.</p>",
        html_table(c.table),
        "<h2>The two runs side by side</h2>",
        "<div class='cols'><div><h2>A</h2>", body_sections(c.a, "A/"), "</div><div><h2>B</h2>",
        body_sections(c.b, "B/"), "</div></div>",
        "</body></html>",
    ]) + "\n", encoding="utf-8")
    return page
