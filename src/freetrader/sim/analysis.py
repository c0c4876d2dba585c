"""Balance statistics of a results file: seats, first player, scores, lengths, component lift.

Pure standard library (the plots are in ``report.py``). Components are what a
seat had or chose in a game (a ship card, a character, "first officer"); a
game names them by registering ``fn(result) -> {seat: [component, ...]}``
with ``register_components`` from its own ``analysis`` part
(``games/<game>/analysis.py``, imported through the game registry when its
results are analysed; ``components.py`` has helpers such functions share).
A game without one has no component rows,
except the bot of each seat when the seats had different bots.
"""

from __future__ import annotations

import json
import math
import os
import statistics
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import freetrader
from freetrader.core.registry import load_part

from .results import RESULT_KEYS, ResultFileError
from .stats import wilson_interval

__all__ = [
    "ComponentFn",
    "Analysis",
    "LiftRow",
    "SeatRow",
    "analyze",
    "load_results",
    "register_components",
    "two_sided_p",
]

ComponentFn = Callable[[Mapping[str, Any]], dict[int, list[str]]]
_COMPONENTS: dict[str, ComponentFn] = {}
_Z95 = 1.959963984540054


def register_components(game_name: str, fn: ComponentFn) -> None:
    """How a game's results name each seat's components (by the game's name, any version)."""
    _COMPONENTS[game_name] = fn


def load_results(path: str | os.PathLike[str]) -> list[dict[str, Any]]:
    """The results of a ``simulate`` or ``tournament`` JSON Lines file (a cut-off last line is ignored)."""
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
    return out


def two_sided_p(z: float) -> float:
    """Two-sided p-value of a standard normal statistic."""
    return math.erfc(abs(z) / math.sqrt(2))


def _share(result: Mapping[str, Any], seat: int) -> float:
    winners = result["winners"]
    return 1.0 / len(winners) if seat in winners else 0.0


@dataclass(frozen=True)
class SeatRow:
    seat: int
    bots: str
    wins: float
    games: int
    rate: float
    low: float
    high: float
    mean_score: float
    p: float  # against the fair share 1/seats


@dataclass(frozen=True)
class LiftRow:
    component: str
    n_with: int
    rate_with: float
    low: float
    high: float
    rate_without: float
    lift: float  # rate_with - rate_without
    lift_low: float
    lift_high: float
    p: float
    significant: bool  # p below 0.05 / number of components (Bonferroni)


@dataclass
class Analysis:
    game: str
    seats: int
    games: int
    seat_rows: list[SeatRow]
    first_player: SeatRow  # seat = -1: whoever acted first
    scores: list[list[float]]  # per seat
    lengths: list[int]
    lift: list[LiftRow]
    components_source: str
    notes: list[str] = field(default_factory=list)


def _rate_row(seat: int, bots: str, wins: float, n: int, mean_score: float, fair: float) -> SeatRow:
    low, high = wilson_interval(wins, n)
    rate = wins / n if n else 0.0
    se = math.sqrt(fair * (1 - fair) / n) if n else 1.0
    return SeatRow(seat, bots, wins, n, rate, low, high, mean_score, two_sided_p((rate - fair) / se) if se else 1.0)


def first_actor(result: Mapping[str, Any]) -> int | None:
    """The seat that made the game's first decision (rebuilt from the record's set-up)."""
    rec = result["record"]
    state = freetrader.game(rec["game"]).new_state(rec["seats"], rec["seed"], rec.get("options"))
    return state.to_act


def _components(result: Mapping[str, Any], fn: ComponentFn | None, mixed_bots: bool) -> dict[int, list[str]]:
    comps: dict[int, list[str]] = {s: [] for s in range(len(result["seats"]))}
    if fn is not None:
        for seat, names in fn(result).items():
            comps.setdefault(seat, []).extend(names)
    if mixed_bots:
        for seat, spec in enumerate(result["seats"]):
            comps[seat].append(f"bot {spec}")
    return comps


def _lift_rows(results: Sequence[Mapping[str, Any]], fn: ComponentFn | None, mixed: bool, min_n: int) -> list[LiftRow]:
    count: dict[str, int] = {}
    wins: dict[str, float] = {}
    total_wins = 0.0
    total = 0
    for r in results:
        comps = _components(r, fn, mixed)
        for seat, names in comps.items():
            share = _share(r, seat)
            total += 1
            total_wins += share
            for name in set(names):
                count[name] = count.get(name, 0) + 1
                wins[name] = wins.get(name, 0.0) + share
    kept = [c for c in count if count[c] >= min_n and total - count[c] >= min_n]
    rows = []
    for c in kept:
        n1, w1 = count[c], wins[c]
        n0, w0 = total - n1, total_wins - w1
        p1, p0 = w1 / n1, w0 / n0
        pooled = (w1 + w0) / (n1 + n0)
        se0 = math.sqrt(pooled * (1 - pooled) * (1 / n1 + 1 / n0))
        p = two_sided_p((p1 - p0) / se0) if se0 > 0 else 1.0
        se = math.sqrt(p1 * (1 - p1) / n1 + p0 * (1 - p0) / n0)
        low, high = wilson_interval(w1, n1)
        rows.append(LiftRow(c, n1, p1, low, high, p0, p1 - p0, p1 - p0 - _Z95 * se, p1 - p0 + _Z95 * se, p,
                            p < 0.05 / max(1, len(kept))))
    rows.sort(key=lambda row: (-row.lift, row.component))
    return rows


def analyze(results: Sequence[Mapping[str, Any]], min_component_games: int = 5) -> Analysis:
    """Statistics of results of one game and seat count (the most common one if mixed)."""
    if not results:
        raise ResultFileError("no results to analyse")
    groups: dict[tuple[str, int], list[Mapping[str, Any]]] = {}
    for r in results:
        groups.setdefault((r["game"], len(r["seats"])), []).append(r)
    (slug, seats), chosen = max(groups.items(), key=lambda kv: len(kv[1]))
    notes = []
    if len(groups) > 1:
        notes.append(f"{len(results) - len(chosen)} results of other games or seat counts were left out")
    n = len(chosen)
    fair = 1.0 / seats
    seat_rows = []
    for seat in range(seats):
        specs = sorted({r["seats"][seat] for r in chosen})
        bots = specs[0] if len(specs) == 1 else f"{len(specs)} bots"
        w = sum(_share(r, seat) for r in chosen)
        mean = statistics.fmean(float(r["scores"][seat]) for r in chosen)
        seat_rows.append(_rate_row(seat, bots, w, n, mean, fair))
    firsts = [(r, first_actor(r)) for r in chosen]
    w_first = sum(_share(r, f) for r, f in firsts if f is not None)
    n_first = sum(1 for _, f in firsts if f is not None)
    mean_first = statistics.fmean([float(r["scores"][f]) for r, f in firsts if f is not None] or [0.0])
    first = _rate_row(-1, "first to act", w_first, n_first, mean_first, fair)
    name = freetrader.game(slug).spec.name
    load_part(slug, "analysis")  # the game's component functions register themselves
    fn = _COMPONENTS.get(name)
    mixed = any(len({r["seats"][s] for r in chosen}) > 1 for s in range(seats)) or len(set(chosen[0]["seats"])) > 1
    lift = _lift_rows(chosen, fn, mixed, min_component_games)
    source = ("game components" if fn else "no game components") + (" + bots" if mixed else "")
    return Analysis(
        game=slug,
        seats=seats,
        games=n,
        seat_rows=seat_rows,
        first_player=first,
        scores=[[float(r["scores"][s]) for r in chosen] for s in range(seats)],
        lengths=[int(r["actions"]) for r in chosen],
        lift=lift,
        components_source=source,
        notes=notes,
    )
