"""What-if: two runs (options, data pack or bots differ) compared metric by metric.

Each metric's difference B - A comes with a 95% interval and a p-value:
means by Welch's t (statsmodels ``CompareMeans``), the median game length by a
bootstrap interval of the difference of medians (scipy ``bootstrap``, seeded) and
a Mann-Whitney test (scipy). Holm's method adjusts the p-values over all rows.
The two runs are treated as independent samples (a paired test would need the
same deals in both; the interval is then conservative).
"""

from __future__ import annotations

import html
import math
import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .analysis import Analysis, analyze, holm, summary_line
from .results import ResultFileError
from .stats import median
from .tables import Table, export

__all__ = ["Comparison", "compare", "write_compare"]

_MEDIAN_LENGTH = "median game length (actions)"


@dataclass
class Comparison:
    a: Analysis
    b: Analysis
    table: Table


def _welch(x: Sequence[float], y: Sequence[float]) -> tuple[float, float, float]:
    """(low, high, p) of mean(y) - mean(x)."""
    from statsmodels.stats.weightstats import CompareMeans, DescrStatsW  # type: ignore[import-untyped,unused-ignore]

    if len(x) < 2 or len(y) < 2:
        return math.nan, math.nan, math.nan
    cm = CompareMeans(DescrStatsW(list(y)), DescrStatsW(list(x)))
    low, high = cm.tconfint_diff(usevar="unequal")
    _, p, _ = cm.ttest_ind(usevar="unequal")
    if not math.isfinite(p):  # both constant: no difference can be shown
        same = _mean(x) == _mean(y)
        return (0.0, 0.0, 1.0) if same else (math.nan, math.nan, 0.0)
    return float(low), float(high), float(p)


def _medians(x: Sequence[float], y: Sequence[float]) -> tuple[float, float, float]:
    import numpy as np  # type: ignore[import-untyped,unused-ignore]
    from scipy import stats  # type: ignore[import-untyped,unused-ignore]

    if len(x) < 2 or len(y) < 2:
        return math.nan, math.nan, math.nan
    res = stats.bootstrap((np.asarray(y), np.asarray(x)), lambda b, a, axis=-1: np.median(b, axis=axis)
                          - np.median(a, axis=axis), n_resamples=999, vectorized=True, random_state=0,
                          method="percentile")
    p = float(stats.mannwhitneyu(y, x, alternative="two-sided").pvalue)
    return float(res.confidence_interval.low), float(res.confidence_interval.high), p


def _mean(v: Sequence[float]) -> float:
    return sum(v) / len(v) if v else math.nan


def compare(results_a: Sequence[Mapping[str, Any]], results_b: Sequence[Mapping[str, Any]],
            min_component_games: int = 5) -> Comparison:
    """Both runs analysed, and every metric both have compared (B - A)."""
    a, b = analyze(results_a, min_component_games), analyze(results_b, min_component_games)
    if a.game != b.game or a.seats != b.seats:
        raise ResultFileError(f"the runs are of different games or seat counts ({a.game} at {a.seats} seats, "
                              f"{b.game} at {b.seats}); compare two runs of one game and seat count")
    t = Table("compare", "B - A, metric by metric",
              ["metric", "A", "B", "B - A", "low", "high", "p", "p (Holm)", "significant"],
              ["text", "num", "num", "signed_num", "signed_num", "signed_num", "p", "p", "flag"],
              note="95% intervals: Welch's t for means (win rates are mean win shares), a bootstrap for the "
                   "median; Holm over all rows; win rates in percent")
    rows: list[list[Any]] = []
    for name, xs in a.samples.items():
        ys = b.samples.get(name)
        if ys is None or (name.startswith("win rate with ") and min(len(xs), len(ys)) < min_component_games):
            continue
        scale = 100.0 if name.startswith("win rate") else 1.0
        low, high, p = _welch(xs, ys)
        rows.append([name, scale * _mean(xs), scale * _mean(ys), scale * (_mean(ys) - _mean(xs)), scale * low,
                     scale * high, p])
        if name == "game length (actions)":
            low, high, p = _medians(xs, ys)
            rows.append([_MEDIAN_LENGTH, float(median(xs)), float(median(ys)), float(median(ys) - median(xs)),
                         low, high, p])
    adj = holm([r[6] for r in rows])
    for r, q in zip(rows, adj, strict=True):
        t.rows.append([*r, q, (q < 0.05) if not math.isnan(q) else False])
    return Comparison(a, b, t)


def write_compare(c: Comparison, folder: str | os.PathLike[str], source_a: str = "A", source_b: str = "B") -> Path:
    """``index.html`` with the difference table and both runs' reports side by side (in ``A/`` and ``B/``)."""
    from .report import CSS, body_sections, html_table, write_report

    out = Path(folder)
    out.mkdir(parents=True, exist_ok=True)
    write_report(c.a, out / "A", source_a)
    write_report(c.b, out / "B", source_b)
    export([c.table], out, {"a": {**c.a.meta(), "source": source_a}, "b": {**c.b.meta(), "source": source_b}})
    page = out / "index.html"
    page.write_text("\n".join([
        f"<!doctype html><html><head><meta charset='utf-8'><title>{html.escape(c.a.game)}: A vs B</title>",
        f"<style>{CSS}</style></head><body>",
        f"<h1>{html.escape(c.a.game)}: A vs B</h1>",
        f"<p>A: {html.escape(source_a)} — {html.escape(summary_line(c.a))}<br>"
        f"B: {html.escape(source_b)} — {html.escape(summary_line(c.b))}</p>",
        "<p class='note'>Every table is also in tables.json and compare.csv; each run's own tables are in "
        "A/ and B/.</p>",
        html_table(c.table),
        "<h2>The two runs side by side</h2>",
        "<div class='cols'><div><h2>A</h2>", body_sections(c.a, "A/"), "</div><div><h2>B</h2>",
        body_sections(c.b, "B/"), "</div></div>",
        "</body></html>",
    ]) + "\n", encoding="utf-8")
    return page
