"""Summaries of many games: wins (ties split), Wilson intervals, scores and lengths.

The interval comes from statsmodels (the ``analysis`` extra); without it the
summary still counts wins and gives ``nan`` bounds, so ``simulate`` runs on a
bare install. The median is the standard library's (the mean of the two middle
values for an even count), and ``report`` uses this same function.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

__all__ = ["wilson_interval", "median", "SeatSummary", "Summary", "Tally", "summarize"]

#: The one median of the project: ``simulate``'s summary and ``report`` both use it.
median = statistics.median


def wilson_interval(wins: float, n: int, alpha: float = 0.05) -> tuple[float, float]:
    """The Wilson score interval for a win rate (95% by default); ``(0, 1)`` when ``n == 0``.

    ``wins`` may be fractional (a tie shared by k winners counts 1/k each).
    Without statsmodels installed the bounds are ``nan``.
    """
    if n <= 0:
        return (0.0, 1.0)
    try:
        from statsmodels.stats.proportion import proportion_confint  # type: ignore[import-untyped,unused-ignore]
    except ImportError:
        return (math.nan, math.nan)
    rate = min(float(wins), n) / n
    low, high = proportion_confint(rate * n, n, alpha=alpha, method="wilson")
    # at 0 or 1 win rate the bound is exact; rounding must not put the interval beside its rate
    return (0.0 if rate <= 0.0 else min(rate, max(0.0, float(low))), 1.0 if rate >= 1.0 else max(rate, min(1.0, float(high))))


@dataclass(frozen=True)
class SeatSummary:
    seat: int  # -1 in the by-bot rows
    spec: str
    wins: float
    win_rate: float
    low: float
    high: float
    mean_score: float
    games: int = 0


@dataclass(frozen=True)
class Summary:
    games: int
    seats: tuple[SeatSummary, ...]
    mean_length: float
    median_length: float
    by_bot: tuple[SeatSummary, ...] = ()  # set when the seats' bots changed from game to game
    cut: int = 0  # games a safety cap stopped before the rulebook's end: no winner, counted in no win rate


def _row(seat: int, spec: str, wins: float, n: int, score_sum: float) -> SeatSummary:
    low, high = wilson_interval(wins, n)
    return SeatSummary(seat, spec, wins, wins / n if n else 0.0, low, high, score_sum / n if n else 0.0, n)


class Tally:
    """Accumulates the few fields of each result the summary needs (not the records)."""

    def __init__(self, seat_specs: Sequence[str]) -> None:
        self.specs = list(seat_specs)
        k = len(self.specs)
        self.games = 0
        self.wins = [0.0] * k
        self.score_sums = [0.0] * k
        self.lengths: list[int] = []
        self.bot_wins: dict[str, float] = {}
        self.bot_games: dict[str, int] = {}
        self.bot_scores: dict[str, float] = {}
        self.varied = False
        self.cut = 0

    def add(self, result: Mapping[str, Any]) -> None:
        winners = list(result["winners"])
        scores = list(result["scores"])
        seats = [str(x) for x in result.get("seats", self.specs)]
        self.varied = self.varied or seats != self.specs
        self.games += 1
        self.cut += bool(result.get("cut"))
        for w in winners:
            self.wins[w] += 1.0 / len(winners)
            self.bot_wins[seats[w]] = self.bot_wins.get(seats[w], 0.0) + 1.0 / len(winners)
        for seat, score in enumerate(scores[: len(self.specs)]):
            self.score_sums[seat] += float(score)
            spec = seats[seat]
            self.bot_games[spec] = self.bot_games.get(spec, 0) + 1
            self.bot_scores[spec] = self.bot_scores.get(spec, 0.0) + float(score)
        self.lengths.append(int(result["actions"]))

    def summary(self) -> Summary:
        n = self.games
        seats = tuple(
            _row(seat, "rotated" if self.varied else spec, self.wins[seat], n, self.score_sums[seat])
            for seat, spec in enumerate(self.specs)
        )
        by_bot: tuple[SeatSummary, ...] = ()
        if self.varied or len(set(self.specs)) > 1:
            by_bot = tuple(
                _row(-1, spec, self.bot_wins.get(spec, 0.0), self.bot_games[spec], self.bot_scores[spec])
                for spec in sorted(self.bot_games)
            )
        return Summary(
            games=n,
            seats=seats,
            mean_length=statistics.fmean(self.lengths) if self.lengths else 0.0,
            median_length=float(median(self.lengths)) if self.lengths else 0.0,
            by_bot=by_bot,
            cut=self.cut,
        )


def summarize(results: Iterable[Mapping[str, Any]], seat_specs: Sequence[str]) -> Summary:
    tally = Tally(seat_specs)
    for r in results:
        tally.add(r)
    return tally.summary()
