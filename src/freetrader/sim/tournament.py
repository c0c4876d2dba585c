"""Round-robin tournaments of bots over seat permutations, rated with openskill.

Lineups: with at least as many bots as seats, every ordered choice of
distinct bots for the seats; with fewer, every seat assignment in which each
bot plays at least once. Game ``i`` plays lineup ``i mod L`` with seed
``derive_seed(seed, i)``, so every bot sits in every seat equally often over
whole rounds. Ratings: openskill's Plackett-Luce model, one rating per bot,
updated game by game in game order (ranks from the final scores, ties
shared); the interval is ``mu +/- 1.96 sigma``. A bot that holds several seats
of one game gets the mean of its seats' updates.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import freetrader

from .backends import Task, run_tasks
from .runner import MAX_ACTIONS, SimulationError, check_run, game_seed
from .stats import wilson_interval

__all__ = ["BotRating", "lineups", "tournament_tasks", "Ratings"]


def lineups(bots: Sequence[str], seats: int) -> list[tuple[str, ...]]:
    if len(bots) < 2:
        raise SimulationError("a tournament needs at least two bots")
    if len(set(bots)) != len(bots):
        raise SimulationError(f"each bot once, please: {', '.join(bots)}")
    if len(bots) >= seats:
        return list(itertools.permutations(bots, seats))
    return [t for t in itertools.product(bots, repeat=seats) if set(t) == set(bots)]


def tournament_tasks(
    game_slug: str, bots: Sequence[str], seats: int, n: int, seed: int, options: Mapping[str, Any] | None = None,
    max_actions: int = MAX_ACTIONS, start: int = 0,
) -> tuple[list[tuple[str, ...]], Iterator[Task]]:
    g = freetrader.game(game_slug)
    g.spec.check_seats(seats)
    table = lineups(list(bots), seats)
    opts = check_run(g.spec.slug, list(table[0]), options)
    for lineup in table[1:len(bots)]:
        check_run(g.spec.slug, list(lineup), options)  # every bot spec is checked before the run
    tasks = ((g.spec.slug, list(table[i % len(table)]), game_seed(seed, i), opts, max_actions) for i in range(start, n))
    return table, tasks


@dataclass(frozen=True)
class BotRating:
    bot: str
    mu: float
    sigma: float
    low: float
    high: float
    games: int
    wins: float
    win_rate: float
    win_low: float
    win_high: float


class Ratings:
    """openskill ratings and win shares, fed one result at a time."""

    def __init__(self, bots: Sequence[str]) -> None:
        try:
            from openskill.models import PlackettLuce
        except ImportError:
            raise SimulationError("tournament ratings need openskill: pip install 'freetrader[analysis]'") from None
        self.model = PlackettLuce()
        self.bots = list(bots)
        self.rating = {b: self.model.rating(name=b) for b in self.bots}
        self.games = dict.fromkeys(self.bots, 0)
        self.wins = dict.fromkeys(self.bots, 0.0)
        self.played = 0
        # (row, column) -> games both played, and how often row finished ahead (a tie counts half)
        self.met: dict[tuple[str, str], int] = {}
        self.ahead: dict[tuple[str, str], float] = {}

    def add(self, result: Mapping[str, Any]) -> None:
        specs = list(result["seats"])
        scores = [float(x) for x in result["scores"]]
        winners = list(result["winners"])
        order = sorted(set(scores), reverse=True)
        ranks = [float(order.index(s) + 1) for s in scores]
        teams = [[self.rating[b]] for b in specs]
        new = self.model.rate(teams, ranks=ranks)
        self.played += 1
        updates: dict[str, list[Any]] = {}
        for b, team in zip(specs, new, strict=True):
            updates.setdefault(b, []).append(team[0])
        for b, rs in updates.items():
            cur = self.rating[b]
            cur.mu = sum(r.mu for r in rs) / len(rs)
            cur.sigma = sum(r.sigma for r in rs) / len(rs)
            self.games[b] += 1
            self.wins[b] += sum(1.0 / len(winners) for seat, s in enumerate(specs) if s == b and seat in winners)
        for i, b in enumerate(specs):
            for j, c in enumerate(specs):
                if b != c:
                    self.met[b, c] = self.met.get((b, c), 0) + 1
                    gain = 1.0 if scores[i] > scores[j] else 0.5 if scores[i] == scores[j] else 0.0
                    self.ahead[b, c] = self.ahead.get((b, c), 0.0) + gain

    def table(self) -> list[BotRating]:
        rows = []
        for b in self.bots:
            r = self.rating[b]
            n = self.games[b]
            lo, hi = wilson_interval(self.wins[b], n)
            rows.append(BotRating(b, r.mu, r.sigma, r.mu - 1.96 * r.sigma, r.mu + 1.96 * r.sigma, n, self.wins[b],
                                  self.wins[b] / n if n else 0.0, lo, hi))
        rows.sort(key=lambda x: (-x.mu, x.bot))
        return rows


    def head_to_head(self, row: str, column: str) -> tuple[float, int, float, float]:
        """(times ``row`` finished ahead of ``column``, seat pairs in which they met, 95% Wilson interval).

        Counted over every pair of their seats in a game, so with a bot in two
        seats of one game that game counts twice.
        """
        n = self.met.get((row, column), 0)
        k = self.ahead.get((row, column), 0.0)
        lo, hi = wilson_interval(k, n)
        return k, n, lo, hi


def run_tournament(
    game_slug: str, bots: Sequence[str], seats: int, n: int, seed: int = 0,
    options: Mapping[str, Any] | None = None, *, backend: str = "local", workers: int | None = None,
    address: str | None = None, start: int = 0,
) -> Iterator[dict[str, Any]]:
    """Yield the results of games ``start .. n-1`` in game order (feed them to ``Ratings``)."""
    if not 0 <= start <= n:
        raise SimulationError(f"cannot start at game {start} of {n}")
    _, tasks = tournament_tasks(game_slug, bots, seats, n, seed, options, start=start)
    yield from run_tasks(tasks, n - start, backend=backend, workers=workers, address=address, chunksize=1)
