"""Balance statistics of a results file, built to keep causes apart.

- **Seats** and **bots**: win rates with Wilson intervals, tested against the fair
  share; with ``simulate --rotate`` every bot sits in every seat, so the two are
  balanced against each other.
- **First player**: its own table only when the first player changed between
  games (``simulate --random-first``); otherwise a note says it is the same as a seat.
- **Position in turn order**: where it differs from the seat (a moving first player, a
  random first Clock stack, a dealt first Customs Officer), its own table, and a control in
  every model: a seat's position at the start of play fixes its place in every later
  turn's order (``register_positions`` for games whose order is not seat order from the
  first player).
- **Components** (what a seat was dealt or drafted at set-up) and **chosen actions**
  (what it did in play: associations with winning, not causes) are estimated with the
  seat, the turn position and the bot held: least squares of a seat's win share with
  game fixed effects (every variable centred within its game). Each table is one family
  tested by permutation (``stats.within_game_maxt``): the win shares are
  shuffled among the seats of each game, and the max-T adjustment keeps the chance of
  any false finding in the table at 5%, rare components included (one too rare to ever
  pass is listed as such). A component the controls fix (always at one seat, always
  second to act, always one bot's) is "not estimable" with that reason; one held mostly
  at one seat, position or bot, or together with another component, is warned about.
- p-values of the seat, position and bot tables are adjusted with Holm's method within
  their table.

Components come from ``register_components``, called by each game's own ``analysis``
part (``games/<game>/analysis.py``, imported through the game registry); games may
also register per-seat metrics (Merchants Cove's income by source); every game gets
its end and length (``metrics.py``).
statsmodels, scipy and numpy are the ``analysis`` extra.
"""

from __future__ import annotations

import json
import math
import os
import statistics
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

import freetrader
from freetrader.core.errors import BadRecord
from freetrader.core.record import pack_mismatch
from freetrader.core.registry import load_part

from .metrics import MetricFn, with_ending
from .results import RESULT_KEYS, ResultFileError
from .stats import PERMUTATIONS, median, wilson_interval, within_game_maxt
from .tables import Table

__all__ = [
    "ComponentFn",
    "MetricFn",
    "Analysis",
    "ACTION_PREFIXES",
    "MIN_GAMES",
    "analyze",
    "first_actor",
    "load_results",
    "register_components",
    "register_metrics",
    "register_positions",
    "require_analysis_extra",
    "holm",
]

ComponentFn = Callable[[Mapping[str, Any]], dict[int, list[str]]]
#: ``fn(result) -> [position of seat 0, of seat 1, ...]`` (0 acts first), or ``None`` for the default.
PositionFn = Callable[[Mapping[str, Any]], "list[int] | None"]
_COMPONENTS: dict[str, ComponentFn] = {}
_POSITIONS: dict[str, PositionFn] = {}
_POSITION_NOTES: dict[str, str] = {}
_METRICS: dict[str, MetricFn] = {}

#: Component names that are chosen in play (actions, hires, Secrets held), not set-up components.
ACTION_PREFIXES = ("played ", "hire ", "held secret ")
#: Components seen fewer times than this (or missing fewer times) are left out of the tables. Measured
#: on synthetic null runs (300 games, 40 components): the family's critical |t| is about 3.2, and a
#: component's |t| is at most sqrt((seats - 1) * count), so at 2 seats one seen fewer than 11 times
#: cannot pass even winning every game, and one seen 20 times only with a win rate above about 86%.
#: Validity does not rest on it: rarer components that could never pass are left out of the family.
MIN_GAMES = 20
#: Two components held together in this share of their seat-games cannot be told apart.
CONFOUND_SHARE = 0.9
#: A component held at one seat, turn position or bot in this share of its seat-games is warned about.
MOSTLY_SHARE = 0.75
_SEAT_COMPONENT = "first player"  # the first player has its own section


def register_components(game_name: str, fn: ComponentFn) -> None:
    """How a game's results name each seat's components (by the game's name, any version)."""
    _COMPONENTS[game_name] = fn


def register_positions(game_name: str, fn: PositionFn, note: str) -> None:
    """Each seat's position in turn order at the start of play, for games whose order is not simply
    seat order from the first player (``note`` says how it is read, for the report)."""
    _POSITIONS[game_name] = fn
    _POSITION_NOTES[game_name] = note


def _checked_positions(given: list[int] | None, first: int | None, seats: int) -> list[int]:
    """A game's positions, else seat order from the first player (``first_actor``)."""
    if given is not None and sorted(given) == list(range(seats)):
        return [int(p) for p in given]
    start = first if first is not None else 0
    return [(s - start) % seats for s in range(seats)]


def register_metrics(game_name: str, fn: MetricFn) -> None:
    """Per-seat (and game-level, seat -1) numbers the report averages, e.g. income by source."""
    _METRICS[game_name] = fn


def require_analysis_extra(what: str, plots: bool = True) -> None:
    """One clear line, not a traceback, when the ``analysis`` extra is not installed."""
    import importlib.util

    from .runner import SimulationError

    needed = ("numpy", "scipy", "statsmodels") + (("matplotlib",) if plots else ())
    missing = [m for m in needed if importlib.util.find_spec(m) is None]
    if missing:
        raise SimulationError(f"{what} needs {', '.join(missing)}: pip install 'freetrader[analysis]'")


def load_results(path: str | os.PathLike[str], *, check_pack: bool = True) -> list[dict[str, Any]]:
    """The results of a ``simulate`` or ``tournament`` JSON Lines file (a cut-off last line is ignored).

    ``check_pack=False`` is for a caller that knows which pack made the file and reads only its figures
    (a sweep's points, each played from the pack the sweep wrote); otherwise games made with other
    components, which do not replay here, are refused with the pack they need.
    """
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
    mismatch = pack_mismatch(out[0]["record"]) if check_pack else None
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
    #: Each game's key (its seed and rotation): two runs made from the same seeds share them.
    game_keys: list[tuple[int, int]] = field(default_factory=list)
    #: The metrics with exactly one value per game, in game order (what a paired ``compare`` reads).
    per_game: dict[str, list[float]] = field(default_factory=dict)
    #: Whether a seat's position in turn order differed from its seat number in some game.
    positions_vary: bool = False

    def table_list(self) -> list[Table]:
        return list(self.tables.values())

    def meta(self) -> dict[str, Any]:
        return {"game": self.game, "seats": self.seats, "games": self.games, "deals": self.deals,
                "rotated": self.rotated, "first_player_varies": self.first_varies,
                "turn_position_varies": self.positions_vary,
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
    """One row per seat of every game (game-major: the seats of game 0, then game 1, ...): what the models read."""

    game: list[int]
    deal: list[int]
    seat: list[int]
    bot: list[str]
    position: list[int]
    win: list[float]
    items: list[set[str]]


def _ordinal(position: int) -> str:
    n = position + 1
    return f"{n}{'st' if n % 10 == 1 and n != 11 else 'nd' if n % 10 == 2 and n != 12 else 'rd' if n % 10 == 3 and n != 13 else 'th'}"


def _dummies(codes: Any, levels: int) -> Any:
    """(G, S) integer codes as (G, S, levels - 1) 0/1 columns (the first level is the baseline)."""
    import numpy as np

    return np.eye(max(levels, 1))[codes][:, :, 1:]


def _collinear_reason(col: Any, has: Any, groups: list[tuple[str, Any, Any]]) -> str:
    """Why a component the controls explain cannot be estimated: the control it follows, named."""
    from .stats import residual_share

    for what, codes, z in groups:
        if z.shape[2] and float(residual_share(col[:, :, None], z)[0]) <= 1e-9:
            held = codes[has]
            values, counts = _unique_counts(held)
            top = values[int(counts.argmax())]
            label = {"seat": lambda v: f"seat {v}", "position": lambda v: f"{_ordinal(int(v))} in turn order",
                     "bot": lambda v: f"bot {v}"}[what](top)
            if counts.max() == has.sum():
                return f"not estimable: always {label}, and {what} is held fixed"
            return f"not estimable: it follows {what} exactly (every game puts it at the same {what}s)"
    return "not estimable: it is fixed by seat, turn position and bot together"


def _unique_counts(values: Any) -> tuple[Any, Any]:
    import numpy as np

    v, c = np.unique(values, return_counts=True)
    return v, c


def _indicators(fr: _Frame, min_n: int) -> tuple[list[str], Any]:
    """The components seen at least ``min_n`` times (and missing as often), and one 0/1 column each per row."""
    import numpy as np

    rows_n = len(fr.win)
    counts: dict[str, int] = {}
    for its in fr.items:
        for c in its:
            counts[c] = counts.get(c, 0) + 1
    kept = sorted(c for c, n in counts.items() if n >= min_n and rows_n - n >= min_n)
    col = {c: j for j, c in enumerate(kept)}
    x = np.zeros((rows_n, len(kept)))
    for i, its in enumerate(fr.items):
        for c in its:
            j = col.get(c)
            if j is not None:
                x[i, j] = 1.0
    return kept, x


def _control_groups(fr: _Frame, g: int, seats: int, mixed: bool, positions_vary: bool) -> list[tuple[str, Any, Any]]:
    """What the effects are estimated with: (name, (G, S) codes, (G, S, levels - 1) dummies) for seat,
    position and bot; a control that does not vary in the run has no columns."""
    import numpy as np

    seat = np.asarray(fr.seat).reshape(g, seats)
    pos = np.asarray(fr.position).reshape(g, seats)
    bot_names = sorted(set(fr.bot))
    bot = np.asarray([bot_names.index(b) for b in fr.bot]).reshape(g, seats)
    return [("seat", seat, _dummies(seat, seats)),
            ("position", pos, _dummies(pos, seats) if positions_vary else np.zeros((g, seats, 0))),
            ("bot", np.asarray(fr.bot).reshape(g, seats),
             _dummies(bot, len(bot_names)) if mixed else np.zeros((g, seats, 0)))]


def _flat_reason(win: Any, fr: _Frame, g: int, mixed: bool) -> str:
    """Why nothing is left for a component once the controls have explained the results."""
    import numpy as np

    flat_why = "not estimable: seat, turn position and bot explain every result (nothing is left for a component)"
    winners = {b: float(win[np.asarray(fr.bot) == b].sum()) for b in sorted(set(fr.bot))}
    for b, w in winners.items():
        if mixed and w >= g - 1e-9:
            flat_why = f"not estimable: bot {b} won every game"
    return flat_why


def _held_together(x: Any, kept: list[str], warnings: list[str]) -> dict[str, list[str]]:
    """Each component's partners held with it in nearly all their seat-games (warned about), found by one
    matrix product, not a loop over pairs."""
    import numpy as np

    inter = x.T @ x
    n_of = x.sum(axis=0)
    union = n_of[:, None] + n_of[None, :] - inter
    together: dict[str, list[str]] = {c: [] for c in kept}
    for a_i, b_i in zip(*np.nonzero(np.triu(inter >= CONFOUND_SHARE * np.maximum(union, 1), k=1)), strict=True):
        if inter[a_i, b_i] <= 0:
            continue
        a, b = kept[int(a_i)], kept[int(b_i)]
        together[a].append(b)
        together[b].append(a)
        warnings.append(f"{a} and {b} were held together in {inter[a_i, b_i] / union[a_i, b_i]:.0%} of "
                        "their seat-games: their effects cannot be told apart")
    return together


def _where_held(has: Any, groups: list[tuple[str, Any, Any]], positions_vary: bool,
                mixed: bool) -> tuple[list[str], list[tuple[str, str]]]:
    """Where a component mostly sat (seat, turn position, bot), and where it always did with whose effect that is."""
    n_has = int(has.sum())
    mostly: list[str] = []
    always: list[tuple[str, str]] = []
    for what, codes, _ in groups:
        if (what == "position" and not positions_vary) or (what == "bot" and not mixed):
            continue
        values, cnt = _unique_counts(codes.reshape(-1)[has])
        top = int(cnt.argmax())
        if cnt[top] >= MOSTLY_SHARE * n_has:
            v = values[top]
            label = (f"at seat {v}" if what == "seat" else f"{_ordinal(int(v))} in turn order"
                     if what == "position" else f"held by bot {v}")
            mostly.append(f"{label} in {cnt[top] / n_has:.0%} of its seat-games")
            if cnt[top] == n_has:
                always.append((label.removeprefix("at "), f"that {'turn position' if what == 'position' else what}"))
    return mostly, always


def _status_flags(status: str, critical: float, why_collinear: str, flat_why: str) -> list[str]:
    """The warning a component's test status gives (none when it was tested)."""
    if status == "constant":
        return ["not estimable: every seat of a game held it, or none did"]
    if status == "collinear":
        return [why_collinear]
    if status == "flat":
        return [flat_why]
    if status == "untestable":
        return [f"too rare to test: even winning every game it was in, it could not pass the table's "
                f"family-wise threshold (|t| > {critical:.2f})" if not math.isnan(critical)
                else "too rare to test: no component in this table could pass a family-wise test"]
    return []


def _effect_table(name: str, title: str, note: str, fr: _Frame, kind: str, seats: int, mixed: bool,
                  positions_vary: bool, min_n: int, warnings: list[str], permutations: int = PERMUTATIONS) -> Table:
    """Each component's win-rate effect with seat, turn position and bot held; one family-wise test; flags.

    See ``stats.within_game_maxt``: the win shares are permuted among the seats of each
    game, and the adjusted p-value keeps the chance of any false finding in the table at 5%.
    """
    import numpy as np

    columns = [kind, "seat-games with", "win rate with", "win rate without", "effect (seat held)", "low", "high",
               "p", "p (max-T)", "significant", "warning"]
    kinds = ["text", "int", "pct", "pct", "signed_pct", "signed_pct", "signed_pct", "p", "p", "flag", "text"]
    table = Table(name, title, columns, kinds, note=note)
    kept, x = _indicators(fr, min_n)
    if not kept or seats < 2:
        return table
    g = len(fr.win) // seats
    win = np.asarray(fr.win, dtype=float)
    groups = _control_groups(fr, g, seats, mixed, positions_vary)
    controls = np.concatenate([z for _, _, z in groups], axis=2)
    x3 = x.reshape(g, seats, len(kept))
    test = within_game_maxt(win.reshape(g, seats), x3, controls, permutations=permutations)
    flat_why = _flat_reason(win, fr, g, mixed)
    together = _held_together(x, kept, warnings)
    for j, c in enumerate(kept):
        has = x[:, j].astype(bool)
        mostly, always = _where_held(has, groups, positions_vary, mixed)
        status = test.status[j]
        why_collinear = _collinear_reason(x3[:, :, j], has.reshape(g, seats), groups) if status == "collinear" else ""
        flags = _status_flags(status, test.critical, why_collinear, flat_why)
        if status != "collinear":  # a collinear row already names what it follows
            flags += mostly
        for label, whose in always:
            warnings.append(f"{c}: always {label}: its win rate ({float(win[has].mean()):.0%}) is {whose}'s, "
                            "not its own")
        for m in (m for m in mostly if " in 100% of " not in m):  # the always-rows are said above
            whose = "that bot" if "bot" in m else "that turn position" if "turn order" in m else "that seat"
            warnings.append(f"{c}: {m}: its effect rests on the few seat-games elsewhere and may be {whose}'s")
        flags += [f"held together with {o}" for o in together[c]]
        estimable = status in ("tested", "untestable")
        est = float(test.estimate[j]) if estimable else math.nan
        q = float(test.p_adjusted[j])
        # an effect on a win share lies in [-1, 1]: a simultaneous interval is cut there
        low, high = (float(v) for v in np.clip([test.low[j], test.high[j]], -1.0, 1.0))  # nan stays nan
        table.rows.append([c, int(has.sum()), float(win[has].mean()), float(win[~has].mean()), est, low, high,
                           float(test.p[j]), q, bool(q < 0.05) if not math.isnan(q) else False, "; ".join(flags)])
    table.rows.sort(key=lambda row: (-(row[4] if not math.isnan(row[4]) else -9), row[0]))
    return table


@dataclass
class _Run:
    """The results analysed (one game and seat count) and what every table reads of them."""

    slug: str
    name: str
    seats: int
    chosen: list[Mapping[str, Any]]
    rotated: bool
    bots: list[str]
    firsts: list[int | None]
    positions: list[list[int]]

    @property
    def n(self) -> int:
        return len(self.chosen)

    @property
    def fair(self) -> float:
        return 1.0 / self.seats

    @property
    def mixed(self) -> bool:
        return len(self.bots) > 1

    @property
    def first_seats(self) -> set[int]:
        return {f for f in self.firsts if f is not None}

    @property
    def first_varies(self) -> bool:
        return len(self.first_seats) > 1

    @property
    def positions_vary(self) -> bool:
        return any(p != list(range(self.seats)) for p in self.positions)


def _run_of(results: Sequence[Mapping[str, Any]], notes: list[str]) -> _Run:
    """The most common game and seat count of ``results`` (a note says how many others were left out)."""
    if not results:
        raise ResultFileError("no results to analyse")
    groups: dict[tuple[str, int], list[Mapping[str, Any]]] = {}
    for r in results:
        groups.setdefault((r["game"], len(r["seats"])), []).append(r)
    (slug, seats), chosen = max(groups.items(), key=lambda kv: len(kv[1]))
    if len(groups) > 1:
        notes.append(f"{len(results) - len(chosen)} results of other games or seat counts were left out")
    name = freetrader.game(slug).spec.name
    load_part(slug, "analysis")  # the game's component and metric functions register themselves
    rotated = all("rotation" in r for r in chosen)
    firsts = [first_actor(r) for r in chosen]
    pos_fn = _POSITIONS.get(name)
    positions = [_checked_positions(pos_fn(r) if pos_fn else None, f, seats) for r, f in zip(chosen, firsts, strict=True)]
    return _Run(slug, name, seats, chosen, rotated, sorted({b for r in chosen for b in r["seats"]}), firsts, positions)


def _win_samples(run: _Run) -> dict[str, list[float]]:
    """One win share (or score) per game for each seat, bot, turn position and the first player."""
    chosen = run.chosen
    samples: dict[str, list[float]] = {}
    for seat in range(run.seats):
        samples[f"win rate: seat {seat}"] = [_share(r, seat) for r in chosen]
    for seat in range(run.seats):
        samples[f"mean score: seat {seat}"] = [float(r["scores"][seat]) for r in chosen]
    for b in run.bots if run.mixed else []:
        samples[f"win rate: bot {b}"] = [_share(r, s) for r in chosen for s, x in enumerate(r["seats"]) if x == b]
    if run.positions_vary:
        for place in range(run.seats):
            samples[f"win rate: {_ordinal(place)} in turn order"] = [
                _share(r, p.index(place)) for r, p in zip(chosen, run.positions, strict=True)]
    if run.first_varies:
        samples["win rate: first player"] = [_share(r, f) for r, f in zip(chosen, run.firsts, strict=True)
                                             if f is not None]
    return samples


def _seat_table(run: _Run) -> Table:
    chosen = run.chosen
    seat_labels, seat_counts = [], []
    for seat in range(run.seats):
        specs = sorted({r["seats"][seat] for r in chosen})
        seat_labels.append([seat, specs[0] if len(specs) == 1 else f"{len(specs)} bots (rotated)" if run.rotated
                            else f"{len(specs)} bots"])
        seat_counts.append((sum(_share(r, seat) for r in chosen), run.n))
    return Table("seats", "Win rate by seat", ["seat", "bots", *RATE_COLUMNS], ["int", "text", *RATE_KINDS],
                 _rate_rows(seat_labels, seat_counts, run.fair),
                 "95% Wilson intervals; p: score test against the fair share; Holm over the seats")


def _first_player_table(run: _Run) -> Table:
    chosen, firsts, first_seats = run.chosen, run.firsts, sorted(run.first_seats)
    w = sum(_share(r, f) for r, f in zip(chosen, firsts, strict=True) if f is not None)
    m = sum(1 for f in firsts if f is not None)
    fp = _rate_rows([["first to act"]], [(w, m)], run.fair)
    by_seat = [[f"seat {s} when first"] for s in first_seats]
    by_counts = [(sum(_share(r, s) for r, f in zip(chosen, firsts, strict=True) if f == s),
                  sum(1 for f in firsts if f == s)) for s in first_seats]
    return Table("first_player", "First player", ["who", *RATE_COLUMNS], ["text", *RATE_KINDS],
                 fp + _rate_rows(by_seat, by_counts, run.fair),
                 "the first player changed between games; per-seat rows show each seat when it started")


def _position_table(run: _Run) -> Table:
    places = range(run.seats)
    counts = [(sum(_share(r, p.index(place)) for r, p in zip(run.chosen, run.positions, strict=True)), run.n)
              for place in places]
    return Table(
        "positions", "Win rate by position in turn order", ["position", *RATE_COLUMNS], ["text", *RATE_KINDS],
        _rate_rows([[_ordinal(place)] for place in places], counts, run.fair),
        f"position at the start of play ({_POSITION_NOTES.get(run.name, 'from the first player')}); where the "
        "order moves during play, the start fixes every later turn's order; Holm over the positions")


def _order_tables(run: _Run, notes: list[str]) -> dict[str, Table]:
    """Win rates by seat, and by first player and turn position where those differ from the seat."""
    tables = {"seats": _seat_table(run)}
    if run.first_varies:
        tables["first_player"] = _first_player_table(run)
    if run.positions_vary:
        tables["positions"] = _position_table(run)
    if not run.first_varies and not run.positions_vary and run.first_seats:
        only = next(iter(run.first_seats))
        notes.append(f"Seat {only} acted first in every game: the first-player effect is seat {only}'s row "
                     "(simulate --random-first separates them where the rules allow)")
    return tables


def _bot_table(run: _Run) -> Table:
    chosen = run.chosen
    labels, counts = [], []
    for b in run.bots:
        labels.append([b])
        counts.append((sum(_share(r, s) for r in chosen for s, x in enumerate(r["seats"]) if x == b),
                       sum(1 for r in chosen for x in r["seats"] if x == b)))
    return Table("bots", "Win rate by bot", ["bot", *RATE_COLUMNS], ["text", *RATE_KINDS],
                 _rate_rows(labels, counts, run.fair),
                 "seat-games: every seat a bot held; " + (
                     "rotated, so every bot sat in every seat equally often" if run.rotated
                     else "not rotated: a bot's rate mixes in its seat's"))


def _score_table(score_cols: list[list[float]]) -> Table:
    srows = []
    for s, col in enumerate(score_cols):
        mean, lo, hi = _mean_ci(col)
        srows.append([s, mean, lo, hi, float(median(col)), min(col), max(col)])
    return Table("scores", "Final score by seat", ["seat", "mean", "low", "high", "median", "min", "max"],
                 ["int", "num", "num", "num", "num", "num", "num"], srows, "95% t intervals of the mean")


def _length_table(lengths: list[int]) -> Table:
    mean, lo, hi = _mean_ci([float(x) for x in lengths])
    return Table("length", "Game length (actions)", ["games", "mean", "low", "high", "median", "min", "max"],
                 ["int", "num", "num", "num", "num", "int", "int"],
                 [[len(lengths), mean, lo, hi, float(median(lengths)), min(lengths), max(lengths)]])


def _seat_frames(run: _Run, comp_fn: ComponentFn | None) -> tuple[_Frame, _Frame]:
    """The models' rows, twice: with each seat's set-up components, and with its chosen actions."""
    frame = _Frame([], [], [], [], [], [], [])
    act_items: list[set[str]] = []
    for i, (r, order) in enumerate(zip(run.chosen, run.positions, strict=True)):
        comps = comp_fn(r) if comp_fn else {}
        for s in range(run.seats):
            names = set(comps.get(s, [])) - {_SEAT_COMPONENT}
            frame.game.append(i)
            frame.deal.append(int(r.get("deal", i)) if run.rotated else i)
            frame.seat.append(s)
            frame.bot.append(r["seats"][s])
            frame.position.append(order[s])
            frame.win.append(_share(r, s))
            frame.items.append({c for c in names if not c.startswith(ACTION_PREFIXES)})
            act_items.append({c for c in names if c.startswith(ACTION_PREFIXES)})
    return frame, replace(frame, items=act_items)


def _effect_tables(run: _Run, setup: _Frame, actions: _Frame, min_games: int,
                   warnings: list[str]) -> dict[str, Table]:
    """The set-up component and chosen action effect tables."""
    model = ("effect on a seat's win share with the game's fixed effect and seat"
             + (", position in turn order" if run.positions_vary else " (here also the turn position)")
             + (" and bot" if run.mixed else "") + " held (least squares); p: the win shares permuted "
             f"among the seats of each game ({PERMUTATIONS} times); p (max-T) and significant: family-wise 5% "
             "over the table (Westfall-Young max-T), intervals simultaneous 95%; rows seen fewer than "
             f"{min_games} times, or missing fewer, left out")
    components = _effect_table(
        "components", "Set-up components (dealt or drafted): effect on winning, seat held fixed",
        model, setup, "component", run.seats, run.mixed, run.positions_vary, min_games, warnings)
    actions_table = _effect_table(
        "actions", "Chosen actions: associations with winning (not causes)",
        "what a seat chose in play depends on how its game went; " + model,
        actions, "action", run.seats, run.mixed, run.positions_vary, min_games, warnings)
    return {"components": components, "actions": actions_table}


def _metric_values(run: _Run, metric_fn: MetricFn) -> tuple[dict[str, list[list[float]]], dict[str, list[float]]]:
    """Each metric's values: per seat (one list per seat) and per game (seat -1)."""
    per_seat: dict[str, list[list[float]]] = {}
    per_game: dict[str, list[float]] = {}
    for r in run.chosen:
        values = metric_fn(r)
        for s, d in values.items():
            for k, v in d.items():
                if s < 0:
                    per_game.setdefault(k, []).append(float(v))
                else:
                    per_seat.setdefault(k, [[] for _ in range(run.seats)])[s].append(float(v))
    return per_seat, per_game


def _metrics_table(per_seat: dict[str, list[list[float]]], per_game: dict[str, list[float]]) -> Table:
    mrows = []
    for k, cols in per_seat.items():
        every = [v for c in cols for v in c]
        mean, lo, hi = _mean_ci(every)
        mrows.append([k, "seat-game", len(every), mean, lo, hi, float(median(every)) if every else math.nan])
    for k, vals in per_game.items():
        mean, lo, hi = _mean_ci(vals)
        mrows.append([k, "game", len(vals), mean, lo, hi, float(median(vals))])
    return Table("metrics", "Game metrics", ["metric", "over", "n", "mean", "low", "high", "median"],
                 ["text", "text", "int", "num", "num", "num", "num"], mrows,
                 "95% t intervals of the mean; a % metric is 100 or 0 per game, so its mean is how often it happened")


def _paired_samples(samples: dict[str, list[float]], per_seat: dict[str, list[list[float]]],
                    per_game: dict[str, list[float]], n: int) -> dict[str, list[float]]:
    """The metrics with exactly one value per game, in game order (what a paired ``compare`` reads)."""
    per_game_names = [k for k in samples if k.startswith(("win rate: seat ", "mean score: seat ", "game length"))
                      or k.endswith(" in turn order") or (k in per_game and len(samples[k]) == n)]
    keyed = {k: samples[k] for k in per_game_names}
    for k, cols in per_seat.items():  # a per-seat metric, paired as each game's mean over its seats
        if all(len(c) == n for c in cols):
            keyed[k] = [statistics.fmean(c[i] for c in cols) for i in range(n)]
    return keyed


def analyze(results: Sequence[Mapping[str, Any]], min_component_games: int = MIN_GAMES) -> Analysis:
    """Statistics of results of one game and seat count (the most common one if mixed)."""
    notes: list[str] = []
    warnings: list[str] = []
    run = _run_of(results, notes)
    chosen, n, seats = run.chosen, run.n, run.seats
    comp_fn = _COMPONENTS.get(run.name)
    metric_fn = with_ending(_METRICS.get(run.name))
    deals = len({r.get("deal", i) for i, r in enumerate(chosen)}) if run.rotated else n
    samples = _win_samples(run)
    tables = _order_tables(run, notes)
    if run.mixed:
        tables["bots"] = _bot_table(run)
    score_cols = [[float(r["scores"][s]) for r in chosen] for s in range(seats)]
    tables["scores"] = _score_table(score_cols)
    lengths = [int(r["actions"]) for r in chosen]
    tables["length"] = _length_table(lengths)
    setup, actions = _seat_frames(run, comp_fn)
    tables.update(_effect_tables(run, setup, actions, min_component_games, warnings))
    per_seat: dict[str, list[list[float]]] = {}
    per_game: dict[str, list[float]] = {}
    if metric_fn is not None:  # per-game metrics (income by source, end triggers)
        per_seat, per_game = _metric_values(run, metric_fn)
        tables["metrics"] = _metrics_table(per_seat, per_game)
        for k, cols in per_seat.items():
            samples[k] = [v for c in cols for v in c]
        samples.update(per_game)
    source = "game components" if comp_fn else "no game components"
    samples["game length (actions)"] = [float(x) for x in lengths]
    # set-up components only: chosen actions are outcomes, not settings
    for c in sorted({c for its in setup.items for c in its}):
        samples[f"win rate with {c}"] = [w for w, its in zip(setup.win, setup.items, strict=True) if c in its]
    keyed = _paired_samples(samples, per_seat, per_game, n)
    keys = [(int(r["seed"]), int(r.get("rotation") or 0)) for r in chosen]
    return Analysis(run.slug, seats, n, deals, run.rotated, run.first_varies, tables, score_cols, lengths,
                    list(dict.fromkeys(warnings)), notes, source, samples, keys, keyed, run.positions_vary)


def summary_line(a: Analysis) -> str:
    """The run in one line: game, games, seats and design."""
    design = ["rotated" if a.rotated else "seats fixed", "random first player" if a.first_varies
              else "turn order varies" if a.positions_vary else "first player fixed"]
    return f"{a.game}: {a.games} games ({a.deals} deals), {a.seats} seats; {', '.join(design)}"


def mean_of(values: Sequence[float]) -> float:
    return statistics.fmean(values) if values else math.nan
