"""Summaries of many games: wins (ties split), Wilson intervals, scores and lengths."""

from __future__ import annotations

import math
import statistics
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

__all__ = ["wilson_interval", "SeatSummary", "Summary", "Tally", "summarize"]


def wilson_interval(wins: float, n: int, z: float = 1.959963984540054) -> tuple[float, float]:
    """The Wilson score interval for a win rate (95% by default); ``(0, 1)`` when ``n == 0``.

    ``wins`` may be fractional (a tie shared by k winners counts 1/k each).
    """
    if n <= 0:
        return (0.0, 1.0)
    p = min(1.0, max(0.0, wins / n))
    z2 = z * z
    denom = 1 + z2 / n
    centre = (p + z2 / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / denom
    low = 0.0 if p <= 0.0 else max(0.0, centre - half)
    high = 1.0 if p >= 1.0 else min(1.0, centre + half)
    return (low, high)


@dataclass(frozen=True)
class SeatSummary:
    seat: int
    spec: str
    wins: float
    win_rate: float
    low: float
    high: float
    mean_score: float


@dataclass(frozen=True)
class Summary:
    games: int
    seats: tuple[SeatSummary, ...]
    mean_length: float
    median_length: float


class Tally:
    """Accumulates the few fields of each result the summary needs (not the records)."""

    def __init__(self, seat_specs: Sequence[str]) -> None:
        self.specs = list(seat_specs)
        k = len(self.specs)
        self.games = 0
        self.wins = [0.0] * k
        self.score_sums = [0.0] * k
        self.lengths: list[int] = []

    def add(self, result: Mapping[str, Any]) -> None:
        winners = list(result["winners"])
        scores = list(result["scores"])
        self.games += 1
        for w in winners:
            self.wins[w] += 1.0 / len(winners)
        for seat, score in enumerate(scores[: len(self.specs)]):
            self.score_sums[seat] += float(score)
        self.lengths.append(int(result["actions"]))

    def summary(self) -> Summary:
        n = self.games
        seats = []
        for seat, spec in enumerate(self.specs):
            wins = self.wins[seat]
            low, high = wilson_interval(wins, n)
            seats.append(
                SeatSummary(
                    seat=seat,
                    spec=spec,
                    wins=wins,
                    win_rate=wins / n if n else 0.0,
                    low=low,
                    high=high,
                    mean_score=self.score_sums[seat] / n if n else 0.0,
                )
            )
        return Summary(
            games=n,
            seats=tuple(seats),
            mean_length=statistics.fmean(self.lengths) if self.lengths else 0.0,
            median_length=float(statistics.median(self.lengths)) if self.lengths else 0.0,
        )


def summarize(results: Iterable[Mapping[str, Any]], seat_specs: Sequence[str]) -> Summary:
    tally = Tally(seat_specs)
    for r in results:
        tally.add(r)
    return tally.summary()
