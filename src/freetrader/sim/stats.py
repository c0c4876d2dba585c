"""Summaries of many games: wins (ties split), Wilson intervals, scores and lengths.

The Wilson interval is computed in closed form (standard library only), so
``simulate`` gives real bounds on a base install. The median is the standard library's (the mean of the two middle
values for an even count), and ``report`` uses this same function.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from statistics import NormalDist
from typing import Any

__all__ = ["wilson_interval", "median", "SeatSummary", "Summary", "Tally", "summarize", "EffectTest",
           "within_game_maxt", "residual_share", "PERMUTATIONS"]

#: The one median of the project: ``simulate``'s summary and ``report`` both use it.
median = statistics.median


def wilson_interval(wins: float, n: int, alpha: float = 0.05) -> tuple[float, float]:
    """The Wilson score interval for a win rate (95% by default); ``(0, 1)`` when ``n == 0``.

    ``wins`` may be fractional (a tie shared by k winners counts 1/k each). The closed form
    needs only the standard library, so a base install (no ``analysis`` extra) prints real
    bounds; it equals statsmodels' ``proportion_confint(method="wilson")``.
    """
    if n <= 0:
        return (0.0, 1.0)
    rate = min(max(float(wins), 0.0), n) / n
    z = NormalDist().inv_cdf(1.0 - alpha / 2.0)
    z2n = z * z / n
    centre = (rate + z2n / 2.0) / (1.0 + z2n)
    half = z / (1.0 + z2n) * math.sqrt(rate * (1.0 - rate) / n + z2n / (4.0 * n))
    # at 0 or 1 win rate the bound is exact; rounding must not put the interval beside its rate
    return (0.0 if rate <= 0.0 else min(rate, max(0.0, centre - half)),
            1.0 if rate >= 1.0 else max(rate, min(1.0, centre + half)))


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


# -- component effects: a within-game permutation test with a family-wise error rate -----------
#: Permutations of the effect test (the report's default): p-values in steps of 1/1000.
PERMUTATIONS = 999


@dataclass(frozen=True)
class EffectTest:
    """What ``within_game_maxt`` found for each of K candidate variables (arrays of length K).

    ``estimate`` is the least-squares effect of the variable on a seat's win share with the
    game's fixed effect and the controls held; ``se`` its standard deviation under the
    permutations; ``t = estimate / se``. ``status`` per variable: ``"tested"`` (in the family,
    ``p_adjusted`` and the interval set), ``"untestable"`` (even its most extreme arrangement of
    the game's results could not pass the family's threshold: too rare), ``"constant"`` (every
    seat of a game had it or none did), ``"collinear"`` (it is a function of the controls) or
    ``"flat"`` (the controls explain every result: nothing is left to explain).
    """

    estimate: Any
    se: Any
    t: Any
    p: Any
    p_adjusted: Any
    low: Any
    high: Any
    status: list[str]
    critical: float
    permutations: int


def _centre(a: Any) -> Any:
    return a - a.mean(axis=1, keepdims=True)


def _basis(z: Any) -> Any:
    """An orthonormal basis of the columns of ``z`` (collinear controls count once)."""
    import numpy as np

    if z.shape[1] == 0:
        return z
    u, sv, _ = np.linalg.svd(z, full_matrices=False)
    keep = sv > max(sv[0], 1.0) * 1e-9
    return u[:, keep]


def _shuffled_within_games(rng: Any, y: Any, copies: int) -> Any:
    """``copies`` independent shuffles of each row of ``y`` (G, S): (copies, G, S).

    Most games have one winner: its share goes to a uniformly random seat, drawn directly
    (a full shuffle per game is the slow part at tens of thousands of games); ties, and
    games without a winner, are shuffled in full.
    """
    import numpy as np

    g, s = y.shape
    out = np.zeros((copies, g, s))
    nonzero = (y != 0).sum(axis=1)
    one = np.flatnonzero(nonzero == 1)
    rest = np.flatnonzero(nonzero > 1)
    if one.size:
        seat = rng.integers(0, s, (copies, one.size))
        flat = (np.arange(copies)[:, None] * g + one[None, :]) * s + seat
        out.reshape(-1)[flat.reshape(-1)] = np.broadcast_to(y[one].sum(axis=1), (copies, one.size)).reshape(-1)
    if rest.size:
        out[:, rest, :] = rng.permuted(np.broadcast_to(y[rest], (copies, rest.size, s)), axis=2)
    return out


def residual_share(x: Any, controls: Any) -> Any:
    """For each column of ``x`` (G, S, K): the share of its within-game variation the controls (G, S, P) leave."""
    import numpy as np

    g, s, k = x.shape
    q = _basis(_centre(controls).reshape(g * s, -1))
    xc = _centre(x).reshape(g * s, k)
    xr = xc - q @ (q.T @ xc)
    ss = (xc ** 2).sum(axis=0)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(ss > 0, (xr ** 2).sum(axis=0) / np.where(ss > 0, ss, 1.0), 0.0)


def _statuses(ss: Any, ssr: Any, var: Any, scale: float) -> list[str]:
    """Each variable's status before the family is chosen: ``tested`` unless it cannot be estimated."""
    status = ["tested"] * len(ss)
    for j in range(len(ss)):
        if ss[j] <= 1e-12:
            status[j] = "constant"
        elif ssr[j] <= 1e-9 * ss[j]:
            status[j] = "collinear"
        elif scale <= 1e-12 or var[j] <= 1e-12 * ssr[j]:
            status[j] = "flat"
    return status


def _reach(xr: Any, y: Any, sd: Any) -> Any:
    """The most extreme |t| each variable could reach: its values matched in order to the game's residuals.

    ``xr`` (G, S, K) the tested variables made orthogonal to the controls, ``y`` (G, S) the centred
    win shares, ``sd`` (K) each statistic's standard deviation under the permutations.
    """
    import numpy as np

    xs = np.sort(xr, axis=1)
    es = np.sort(y, axis=1)
    reach = np.maximum(np.einsum("gsk,gs->k", xs, es), -np.einsum("gsk,gs->k", xs, es[:, ::-1]))
    return reach / sd


def _permuted_abs_t(rng: Any, y: Any, w: Any, permutations: int) -> Any:
    """|t| of every variable (columns of ``w``, scaled) for ``permutations`` shuffles of ``y`` within games."""
    import numpy as np

    n = w.shape[0]
    tstar = np.empty((permutations, w.shape[1]))
    batch = max(1, 16_000_000 // n)  # permutations per product: about 128 MB of shuffled shares
    for start in range(0, permutations, batch):
        nb = min(batch, permutations - start)
        tstar[start:start + nb] = _shuffled_within_games(rng, y, nb).reshape(nb, n) @ w
    return np.abs(tstar)


def _family(reach: Any, tstar: Any, alpha: float) -> tuple[Any, Any, int, float]:
    """The family: the m variables that reach furthest, for the largest m whose every member can pass.

    Returns the variables in order of reach, the running max of |t*| over them (column m-1: the
    max over the top m), m and the critical |t| of that family (``nan`` when m is 0).
    """
    import numpy as np

    permutations = tstar.shape[0]
    order = np.argsort(-reach, kind="stable")
    running_max = np.maximum.accumulate(tstar[:, order], axis=1)
    cut = int(math.floor(alpha * (permutations + 1)))
    if cut < 1:
        crit = np.full(reach.size, np.inf)
    else:
        crit = np.sort(running_max, axis=0)[permutations - cut]  # beaten by at most cut-1 permutations
    # the largest m whose m-th (weakest) member can pass; its stronger members pass the same threshold
    fits = np.flatnonzero(reach[order] > crit + 1e-12)
    m = int(fits.max()) + 1 if fits.size else 0
    return order, running_max, m, float(crit[m - 1]) if m else math.nan


def within_game_maxt(y: Any, x: Any, controls: Any, permutations: int = PERMUTATIONS, seed: int = 0,
                     alpha: float = 0.05) -> EffectTest:
    """Effects of K 0/1 variables on a seat's win share, tested as one family (max-T, orthogonalised).

    ``y`` (G, S): each seat's win share in each game; ``x`` (G, S, K): the variables; ``controls``
    (G, S, P): what is held fixed (seat, position and bot dummies; collinear columns are fine).
    Everything is centred within its game (game fixed effects), and each variable is made orthogonal
    to the controls (``x_r``). The win shares are permuted among the seats of each game, independently
    per game, ``permutations`` times (seeded): exact when results do not depend on the seat at all,
    and measured conservative with seat and position effects (the variable's own part is what is
    tested: ``x_r`` carries none of the controls). The statistic ``x_r . y`` is divided by its exact
    standard deviation under those permutations, so rare and common variables are on one scale. The adjusted p-value is the share of
    permutations whose largest |t| over the family reaches the variable's |t| (Westfall-Young
    single step), which keeps the chance of any false finding in the family at ``alpha``.
    Variables that could not pass even if every game went their way are left out of the family
    first (a rule that reads only what the permutations keep, so the error rate still holds).
    Intervals are simultaneous: ``estimate +- critical * se``, and a variable is significant
    exactly when its interval leaves out zero.
    """
    import numpy as np

    g, s, k = x.shape
    n = g * s
    nan = np.full(k, np.nan)
    if g == 0 or s < 2 or k == 0:
        return EffectTest(nan, nan, nan, nan, nan, nan, nan, ["constant"] * k, math.nan, 0)
    q = _basis(_centre(np.asarray(controls, dtype=float)).reshape(n, -1))
    yc = _centre(np.asarray(y, dtype=float)).reshape(n)
    e = yc - q @ (q.T @ yc)  # what the controls leave unexplained
    xc = _centre(np.asarray(x, dtype=float)).reshape(n, k)
    xr = xc - q @ (q.T @ xc)
    ss = (xc ** 2).sum(axis=0)
    ssr = (xr ** 2).sum(axis=0)
    y_games = (yc.reshape(g, s) ** 2).sum(axis=1)
    var = y_games @ (xr.reshape(g, s, k) ** 2).sum(axis=1) / (s - 1)  # of x_r . Py over the permutations P
    scale = float((e ** 2).sum() / n)  # the residuals' mean square
    status = _statuses(ss, ssr, var, scale)
    ok = np.array([st == "tested" for st in status])
    est, se, t = nan.copy(), nan.copy(), nan.copy()
    dot = xr.T @ yc  # = x_r . e: x_r is orthogonal to the controls
    est[ok] = dot[ok] / ssr[ok]
    se[ok] = np.sqrt(var[ok]) / ssr[ok]
    t[ok] = dot[ok] / np.sqrt(var[ok])
    idx = np.flatnonzero(ok)
    p, p_adj, low, high = nan.copy(), nan.copy(), nan.copy(), nan.copy()
    if idx.size == 0 or permutations < 1:
        return EffectTest(est, se, t, p, p_adj, low, high, status, math.nan, 0)
    reach = _reach(xr[:, idx].reshape(g, s, idx.size), yc.reshape(g, s), np.sqrt(var[idx]))
    tstar = _permuted_abs_t(np.random.default_rng(seed), np.asarray(y, dtype=float), xr[:, idx] / np.sqrt(var[idx]),
                            permutations)
    absobs = np.abs(t[idx])
    p[idx] = (1.0 + (tstar >= absobs - 1e-12).sum(axis=0)) / (permutations + 1.0)
    order, running_max, m, critical = _family(reach, tstar, alpha)
    family = np.zeros(idx.size, dtype=bool)
    family[order[:m]] = True
    for col, inside in zip(idx.tolist(), family.tolist(), strict=True):
        if not inside:
            status[col] = "untestable"
    if m:
        fam_max = running_max[:, m - 1]
        sel = idx[family]
        p_adj[sel] = (1.0 + (fam_max[:, None] >= np.abs(t[sel])[None, :] - 1e-12).sum(axis=0)) / (permutations + 1.0)
        low[sel] = est[sel] - critical * se[sel]
        high[sel] = est[sel] + critical * se[sel]
    return EffectTest(est, se, t, p, p_adj, low, high, status, critical, permutations)
