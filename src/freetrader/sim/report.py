"""The balance report: PNG plots (matplotlib, Agg) and one HTML page that shows them.

``write_report(analysis, folder)`` writes ``index.html`` and the plots;
matplotlib is imported here only (``pip install 'freetrader[analysis]'``).
"""

from __future__ import annotations

import html
import os
from pathlib import Path
from typing import Any

from .analysis import Analysis, LiftRow, SeatRow

__all__ = ["PLOTS", "write_report"]

PLOTS = ("seats.png", "first_player.png", "scores.png", "lengths.png", "lift.png")
_MAX_LIFT_ROWS = 25


def _pyplot() -> Any:
    try:
        import matplotlib
    except ImportError:
        from .runner import SimulationError

        raise SimulationError("the report needs matplotlib: pip install 'freetrader[analysis]'") from None
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def _rate_bars(plt: Any, rows: list[SeatRow], labels: list[str], fair: float, title: str, path: Path) -> None:
    fig, ax = plt.subplots(figsize=(max(4.0, 0.9 * len(rows) + 2), 3.2), dpi=100)
    x = list(range(len(rows)))
    rates = [r.rate for r in rows]
    err = [[r.rate - r.low for r in rows], [r.high - r.rate for r in rows]]
    ax.bar(x, rates, yerr=err, capsize=4, color="#4c78a8")
    ax.axhline(fair, color="#e45756", linestyle="--", linewidth=1, label=f"fair share {fair:.0%}")
    ax.set_xticks(x, labels)
    ax.set_ylabel("win rate (95% CI)")
    ax.set_ylim(0, min(1.0, max(r.high for r in rows) * 1.15 + 0.02))
    ax.set_title(title)
    ax.legend(loc="upper right", fontsize=8)
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)


def _plots(a: Analysis, folder: Path) -> None:
    plt = _pyplot()
    fair = 1.0 / a.seats
    _rate_bars(plt, a.seat_rows, [f"seat {r.seat}" for r in a.seat_rows], fair, "Win rate by seat", folder / PLOTS[0])
    others = max(0, a.first_player.games * (a.seats - 1))
    rest_wins = sum(r.wins for r in a.seat_rows) - a.first_player.wins
    from .analysis import _rate_row  # the same interval and test as the seats

    rest = _rate_row(-2, "others", rest_wins, others, 0.0, fair)
    _rate_bars(plt, [a.first_player, rest], ["first to act", "the others"], fair, "First-player advantage",
               folder / PLOTS[1])

    fig, ax = plt.subplots(figsize=(max(4.0, 0.9 * a.seats + 2), 3.2), dpi=100)
    ax.boxplot(a.scores, showmeans=True)
    ax.set_xticks(range(1, a.seats + 1), [f"seat {s}" for s in range(a.seats)])
    ax.set_ylabel("final score")
    ax.set_title("Score distribution by seat")
    fig.tight_layout()
    fig.savefig(folder / PLOTS[2])
    plt.close(fig)

    fig, ax = plt.subplots(figsize=(5, 3.2), dpi=100)
    ax.hist(a.lengths, bins=min(40, max(5, len(set(a.lengths)))), color="#72b7b2")
    ax.set_xlabel("actions per game")
    ax.set_ylabel("games")
    ax.set_title("Game length")
    fig.tight_layout()
    fig.savefig(folder / PLOTS[3])
    plt.close(fig)

    rows = a.lift[:_MAX_LIFT_ROWS]
    fig, ax = plt.subplots(figsize=(7, 0.32 * max(3, len(rows)) + 1.2), dpi=100)
    if rows:
        y = list(range(len(rows)))[::-1]
        ax.errorbar([r.lift for r in rows], y, xerr=[[r.lift - r.lift_low for r in rows],
                                                     [r.lift_high - r.lift for r in rows]],
                    fmt="none", ecolor="#888888", capsize=3)
        ax.scatter([r.lift for r in rows], y, c=["#e45756" if r.significant else "#4c78a8" for r in rows], zorder=3)
        ax.set_yticks(y, [r.component for r in rows], fontsize=8)
        ax.axvline(0, color="black", linewidth=0.8)
        ax.set_xlabel("lift: win rate with - without (95% CI); red = significant")
    else:
        ax.text(0.5, 0.5, "no components", ha="center", va="center", transform=ax.transAxes)
        ax.set_axis_off()
    ax.set_title("Component lift")
    fig.tight_layout()
    fig.savefig(folder / PLOTS[4])
    plt.close(fig)


def _pct(x: float) -> str:
    return f"{x:.1%}"


def _table(head: list[str], rows: list[list[str]]) -> str:
    th = "".join(f"<th>{html.escape(h)}</th>" for h in head)
    body = "".join("<tr>" + "".join(f"<td>{html.escape(c)}</td>" for c in row) + "</tr>" for row in rows)
    return f"<table><thead><tr>{th}</tr></thead><tbody>{body}</tbody></table>"


def seat_cells(r: SeatRow) -> list[str]:
    label = f"seat {r.seat}" if r.seat >= 0 else r.bots
    return [label, r.bots if r.seat >= 0 else "", f"{r.wins:g}", _pct(r.rate), f"{_pct(r.low)}–{_pct(r.high)}",
            f"{r.mean_score:,.1f}", f"{r.p:.3g}"]


def lift_cells(r: LiftRow) -> list[str]:
    return [r.component, str(r.n_with), _pct(r.rate_with), f"{_pct(r.low)}–{_pct(r.high)}", _pct(r.rate_without),
            f"{r.lift:+.1%}", f"{r.p:.3g}", "yes" if r.significant else ""]


SEAT_HEAD = ["seat", "bots", "wins", "win rate", "95% CI", "mean score", "p (vs fair)"]
LIFT_HEAD = ["component", "seats with", "win rate with", "95% CI", "without", "lift", "p", "significant"]

_CSS = """body{font-family:system-ui,sans-serif;max-width:960px;margin:2em auto;padding:0 1em;color:#222}
table{border-collapse:collapse;margin:.5em 0 1.5em}td,th{border-bottom:1px solid #ddd;padding:.25em .6em;
text-align:right}td:first-child,th:first-child{text-align:left}img{max-width:100%;display:block;margin:.5em 0}
.note{color:#666;font-size:.9em}"""


def write_report(a: Analysis, folder: str | os.PathLike[str], source: str = "") -> Path:
    """Write the plots and ``index.html`` into ``folder``; returns the HTML file's path."""
    out = Path(folder)
    out.mkdir(parents=True, exist_ok=True)
    _plots(a, out)
    fair = 1.0 / a.seats
    mean = sum(a.lengths) / len(a.lengths)
    parts = [
        f"<!doctype html><html><head><meta charset='utf-8'><title>{html.escape(a.game)} balance report</title>",
        f"<style>{_CSS}</style></head><body>",
        f"<h1>{html.escape(a.game)}: {a.games} games, {a.seats} seats</h1>",
        f"<p class='note'>Source: {html.escape(source)}. Wins shared on ties; intervals are 95% Wilson; "
        f"p-values test against the fair share {fair:.1%} (normal approximation).</p>",
        *[f"<p class='note'>{html.escape(n)}</p>" for n in a.notes],
        "<h2>Seats</h2>",
        _table(SEAT_HEAD, [seat_cells(r) for r in a.seat_rows]),
        f"<img src='{PLOTS[0]}' alt='win rate by seat'>",
        "<h2>First-player advantage</h2>",
        _table(SEAT_HEAD, [seat_cells(a.first_player)]),
        f"<img src='{PLOTS[1]}' alt='first player win rate'>",
        "<h2>Scores and length</h2>",
        f"<p>Game length: mean {mean:.1f} actions, median {sorted(a.lengths)[len(a.lengths) // 2]}, "
        f"range {min(a.lengths)}–{max(a.lengths)}.</p>",
        f"<img src='{PLOTS[2]}' alt='score distribution'><img src='{PLOTS[3]}' alt='game length'>",
        f"<h2>Component lift ({html.escape(a.components_source)})</h2>",
        "<p class='note'>Win rate of seats that had a component against seats that did not; p from a "
        "two-proportion z-test; significant after a Bonferroni correction over all components shown.</p>",
        _table(LIFT_HEAD, [lift_cells(r) for r in a.lift]) if a.lift else "<p>No components.</p>",
        f"<img src='{PLOTS[4]}' alt='component lift'>",
        "</body></html>",
    ]
    page = out / "index.html"
    page.write_text("\n".join(parts) + "\n", encoding="utf-8")
    return page
