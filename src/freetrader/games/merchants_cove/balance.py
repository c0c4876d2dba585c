"""The balance tables of ``data/DESIGNED.md`` from ``freetrader simulate`` runs, one replay a game.

``python -m freetrader.games.merchants_cove.balance RUN.jsonl ...`` prints, per file, each merchant's win
rate (a tie shared by k winners counts 1/k) with its Wilson interval against the fair share, and the gold a
seat gains by source with a 95% interval of the mean (``analysis.income``). It does what
``freetrader report`` shows in "Set-up components" and "Game metrics", without the report's second replay
and regression, so a 2,000-game run is tabled in minutes. Set ``FREETRADER_DATA`` as the run had it.
"""

from __future__ import annotations

import json
import statistics
import sys
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import freetrader
from freetrader.sim.stats import wilson_interval

from .analysis import income

__all__ = ["Balance", "merchants_of", "tally", "tables", "main"]

Z95 = 1.959964


@dataclass
class Balance:
    """What one run adds up to: seat-games and wins by merchant, and every seat-game's metrics."""

    games: int = 0
    seats: int = 0
    played: dict[str, int] = field(default_factory=dict)
    wins: dict[str, float] = field(default_factory=dict)
    metrics: dict[str, list[float]] = field(default_factory=dict)


def merchants_of(record: Mapping[str, Any]) -> list[str]:
    """The merchant of each seat: set at set-up by option, or by the draft's first actions."""
    state: Any = freetrader.game(record["game"]).new_state(record["seats"], record["seed"], record.get("options"))
    for text in record["actions"]:
        if all(state.merchant):
            break
        state.apply(text)
    return list(state.merchant)


def tally(results: Iterable[Mapping[str, Any]]) -> Balance:
    b = Balance()
    for r in results:
        if "record" not in r or r.get("cut"):
            continue
        merchants = merchants_of(r["record"])
        b.games += 1
        b.seats = len(merchants)
        winners = r["winners"]
        for seat, m in enumerate(merchants):
            b.played[m] = b.played.get(m, 0) + 1
            b.wins[m] = b.wins.get(m, 0.0) + (1.0 / len(winners) if seat in winners else 0.0)
        for row in income(r).values():
            for name, value in row.items():
                b.metrics.setdefault(name, []).append(value)
    return b


def tables(b: Balance) -> str:
    """The two Markdown tables of DESIGNED.md for one run."""
    fair = 100.0 / b.seats if b.seats else 0.0
    out = [f"{b.games} games, {b.seats} seats, fair share {fair:.1f}%", "",
           "| merchant | seat-games | win rate | 95% CI | vs fair |", "|---|---|---|---|---|"]
    for m in sorted(b.played):
        n, w = b.played[m], b.wins[m]
        lo, hi = wilson_interval(w, n)
        out.append(f"| {m} | {n} | {100 * w / n:.1f}% | {100 * lo:.1f}%–{100 * hi:.1f}% | {100 * w / n - fair:+.1f} pts |")
    out += ["", "| metric (per seat-game) | mean | 95% CI |", "|---|---|---|"]
    for name, values in b.metrics.items():
        mean = statistics.fmean(values)
        half = Z95 * statistics.stdev(values) / len(values) ** 0.5 if len(values) > 1 else float("nan")
        out.append(f"| {name} | {mean:.1f} | {mean - half:.1f}–{mean + half:.1f} |")
    # the mean hides who pays: Corruption is a cost to few seats, and a large one to them
    lost = [x for x in b.metrics.get("gold lost to corruption", []) if x > 0]
    if lost:
        share = 100.0 * len(lost) / len(b.metrics["gold lost to corruption"])
        out.append(f"| seat-games that lost gold to corruption | {share:.1f}% | mean {statistics.fmean(lost):.1f} gold, "
                   f"most {max(lost):.0f} |")
    return "\n".join(out)


def _read(path: str) -> Iterable[Mapping[str, Any]]:
    with open(path, encoding="utf-8") as f:
        for line in f:
            if line.strip():
                yield json.loads(line)


def main(argv: Sequence[str] | None = None) -> int:
    paths = list(sys.argv[1:] if argv is None else argv)
    if not paths:
        print("usage: python -m freetrader.games.merchants_cove.balance RUN.jsonl [RUN.jsonl ...]", file=sys.stderr)
        return 2
    for path in paths:
        print(f"## {path}: {tables(tally(_read(path)))}\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
