"""The balance report: PNG plots (matplotlib, Agg), one HTML page, and every table as CSV and JSON.

``write_report(analysis, folder)`` writes ``index.html``, the plots, ``<table>.csv``
and ``tables.json``; matplotlib is imported here only (``pip install 'freetrader[analysis]'``).
Rankings are plotted at both ends: the strongest and the weakest rows.
"""

from __future__ import annotations

import html
import math
import os
from pathlib import Path
from typing import Any

from .analysis import Analysis, summary_line
from .tables import Table, export

__all__ = ["PLOTS", "ENDS", "write_report", "html_table", "body_sections", "CSS", "plots"]

#: Rows shown at each end of a ranking plot (the tables have every row).
ENDS = 12
PLOTS = ("seats.png", "scores.png", "lengths.png", "components.png", "actions.png")
_FIRST_PLOT = "first_player.png"
_POSITION_PLOT = "positions.png"


def _pyplot() -> Any:
    try:
        import matplotlib
    except ImportError:
        from .runner import SimulationError

        raise SimulationError("the report needs matplotlib: pip install 'freetrader[analysis]'") from None
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def _rate_bars(plt: Any, t: Table, label_cols: int, path: Path) -> None:
    c = t.columns
    rows = t.rows
    labels = [" ".join(str(v) for v in r[:label_cols]) for r in rows]
    rate, low, high, fair = (c.index(k) for k in ("win rate", "low", "high", "fair"))
    fig, ax = plt.subplots(figsize=(max(4.0, 0.9 * len(rows) + 2), 3.2), dpi=100)
    x = list(range(len(rows)))
    ax.bar(x, [r[rate] for r in rows], yerr=[[max(0.0, r[rate] - r[low]) for r in rows],
                                             [max(0.0, r[high] - r[rate]) for r in rows]],
           capsize=4, color="#4c78a8")
    ax.axhline(rows[0][fair], color="#e45756", linestyle="--", linewidth=1, label=f"fair share {rows[0][fair]:.0%}")
    ax.set_xticks(x, labels, fontsize=8)
    ax.set_ylabel("win rate (95% CI)")
    ax.set_ylim(0, min(1.0, max(r[high] for r in rows) * 1.15 + 0.02))
    ax.set_title(t.title)
    ax.legend(loc="upper right", fontsize=8)
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)


def _both_ends(rows: list[list[Any]]) -> list[list[Any]]:
    """The ENDS strongest and ENDS weakest rows of a ranking (all of them when there are few)."""
    ranked = [r for r in rows if not math.isnan(r[4])]
    if len(ranked) <= 2 * ENDS:
        return ranked
    return ranked[:ENDS] + ranked[-ENDS:]


def _effect_plot(plt: Any, t: Table, path: Path) -> None:
    rows = _both_ends(t.rows)
    fig, ax = plt.subplots(figsize=(7, 0.32 * max(3, len(rows)) + 1.4), dpi=100)
    if rows:
        y = list(range(len(rows)))[::-1]
        ax.errorbar([r[4] for r in rows], y, xerr=[[max(0.0, r[4] - r[5]) for r in rows],
                                                   [max(0.0, r[6] - r[4]) for r in rows]],
                    fmt="none", ecolor="#888888", capsize=3)
        ax.scatter([r[4] for r in rows], y, c=["#e45756" if r[9] else "#4c78a8" for r in rows], zorder=3)
        ax.set_yticks(y, [str(r[0]) + (" (!)" if r[10] else "") for r in rows], fontsize=8)
        ax.axvline(0, color="black", linewidth=0.8)
        more = len([r for r in t.rows if not math.isnan(r[4])]) - len(rows)
        ax.set_xlabel("effect on win rate, seat held (simultaneous 95% CI); red = significant (max-T)"
                      + (f"; {more} middle rows in the table" if more > 0 else ""), fontsize=8)
    else:
        ax.text(0.5, 0.5, "none", ha="center", va="center", transform=ax.transAxes)
        ax.set_axis_off()
    ax.set_title(t.title, fontsize=9)
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)


def plots(a: Analysis, folder: Path) -> list[str]:
    """Draw the plots into ``folder``; returns their file names in page order."""
    plt = _pyplot()
    _rate_bars(plt, a.tables["seats"], 1, folder / PLOTS[0])
    names = [PLOTS[0]]
    if "first_player" in a.tables:
        _rate_bars(plt, a.tables["first_player"], 1, folder / _FIRST_PLOT)
        names.append(_FIRST_PLOT)
    if "positions" in a.tables:
        _rate_bars(plt, a.tables["positions"], 1, folder / _POSITION_PLOT)
        names.append(_POSITION_PLOT)
    fig, ax = plt.subplots(figsize=(max(4.0, 0.9 * a.seats + 2), 3.2), dpi=100)
    ax.boxplot(a.scores, showmeans=True)
    ax.set_xticks(range(1, a.seats + 1), [f"seat {s}" for s in range(a.seats)])
    ax.set_ylabel("final score")
    ax.set_title("Score distribution by seat")
    fig.tight_layout()
    fig.savefig(folder / PLOTS[1])
    plt.close(fig)
    fig, ax = plt.subplots(figsize=(5, 3.2), dpi=100)
    ax.hist(a.lengths, bins=min(40, max(5, len(set(a.lengths)))), color="#72b7b2")
    ax.set_xlabel("actions per game")
    ax.set_ylabel("games")
    ax.set_title("Game length")
    fig.tight_layout()
    fig.savefig(folder / PLOTS[2])
    plt.close(fig)
    _effect_plot(plt, a.tables["components"], folder / PLOTS[3])
    _effect_plot(plt, a.tables["actions"], folder / PLOTS[4])
    return names + list(PLOTS[1:])


def html_table(t: Table) -> str:
    th = "".join(f"<th>{html.escape(h)}</th>" for h in t.columns)
    body = "".join("<tr>" + "".join(f"<td>{html.escape(c)}</td>" for c in row) + "</tr>" for row in t.formatted())
    note = f"<p class='note'>{html.escape(t.note)}</p>" if t.note else ""
    return f"<h3>{html.escape(t.title)}</h3>{note}<table><thead><tr>{th}</tr></thead><tbody>{body}</tbody></table>"


CSS = """body{font-family:system-ui,sans-serif;max-width:1100px;margin:2em auto;padding:0 1em;color:#222}
table{border-collapse:collapse;margin:.5em 0 1.5em;font-size:.9em}td,th{border-bottom:1px solid #ddd;
padding:.2em .5em;text-align:right}td:first-child,th:first-child{text-align:left}img{max-width:100%;display:block;
margin:.5em 0}.note{color:#666;font-size:.9em}.warn{color:#a33}.cols{display:flex;gap:1.5em}.cols>div{flex:1;
min-width:0;overflow-x:auto}"""


def body_sections(a: Analysis, prefix: str = "") -> str:
    """The report's sections (tables, plots under ``prefix``, warnings) without the page around them."""
    img = {name: f"<img src='{html.escape(prefix + name)}' alt='{html.escape(name)}'>"
           for name in (*PLOTS, _FIRST_PLOT, _POSITION_PLOT)}
    t = a.tables
    parts = [f"<p><b>{html.escape(summary_line(a))}</b></p>"]
    parts += [f"<p class='note'>{html.escape(n)}</p>" for n in a.notes]
    if a.warnings:
        parts.append("<h2>Warnings</h2><ul>" + "".join(f"<li class='warn'>{html.escape(w)}</li>"
                                                       for w in a.warnings) + "</ul>")
    parts += ["<h2>Seats</h2>", html_table(t["seats"]), img[PLOTS[0]]]
    if "first_player" in t:
        parts += ["<h2>First player</h2>", html_table(t["first_player"]), img[_FIRST_PLOT]]
    if "positions" in t:
        parts += ["<h2>Position in turn order</h2>", html_table(t["positions"]), img[_POSITION_PLOT]]
    if "bots" in t:
        parts += ["<h2>Bots</h2>", html_table(t["bots"])]
    parts += ["<h2>Scores and length</h2>", html_table(t["scores"]), html_table(t["length"]), img[PLOTS[1]],
              img[PLOTS[2]]]
    if "metrics" in t:
        parts += ["<h2>Game metrics</h2>", html_table(t["metrics"])]
    parts += [f"<h2>Set-up components ({html.escape(a.components_source)})</h2>", html_table(t["components"]),
              img[PLOTS[3]],
              "<h2>Chosen actions (associations, not causes)</h2>", html_table(t["actions"]), img[PLOTS[4]]]
    return "\n".join(parts)


def write_report(a: Analysis, folder: str | os.PathLike[str], source: str = "") -> Path:
    """Write the plots, ``index.html``, ``<table>.csv`` and ``tables.json`` into ``folder``; returns the page."""
    out = Path(folder)
    out.mkdir(parents=True, exist_ok=True)
    plots(a, out)
    export(a.table_list(), out, {**a.meta(), "source": source})
    page = out / "index.html"
    page.write_text(
        "\n".join([
            f"<!doctype html><html><head><meta charset='utf-8'><title>{html.escape(a.game)} balance report</title>",
            f"<style>{CSS}</style></head><body>",
            f"<h1>{html.escape(a.game)}: {a.games} games, {a.seats} seats</h1>",
            f"<p class='note'>Source: {html.escape(source)}. Wins shared on ties. Every table is also in "
            "<a href='tables.json'>tables.json</a> and one CSV per table.</p>",
            body_sections(a),
            "</body></html>",
        ]) + "\n",
        encoding="utf-8",
    )
    return page
