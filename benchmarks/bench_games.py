"""Speed of every registered game: random playouts, clone and determinize.

    python benchmarks/bench_games.py [--seconds S] [--repeats R] [--games contraband,...]
                                     [--seats N] [--json FILE] [--no-openspiel]

Each figure is the median of R runs of S seconds. When OpenSpiel is installed
(``pip install -e '.[openspiel]'``), its Python games are timed with the same loop,
their runs interleaved with ours so that machine noise hits both alike, and a
ratio table is printed. This script prints numbers; it never passes or fails.
See ``benchmarks/README.md`` for what each column means.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from freetrader.core import Game, State
from freetrader.core import game as find_game
from freetrader.core import games as registered_games

# Seats when --seats is not given: the brief's reference table is Contraband with 4; other games use min_seats.
DEFAULT_SEATS = {"contraband": 4}
OPENSPIEL_GAMES = ("python_liars_poker", "python_kuhn_poker")
MID_GAME_STATES = 20  # distinct mid-game positions that clone and determinize are timed on
BATCH = 50  # calls per timing sample, so that the timer's own cost is negligible
FIGURES = ("actions_per_s", "games_per_s", "actions_per_game", "clone_us", "determinize_us")


@dataclass
class Subject:
    """One game under test, ours or OpenSpiel's, with one list of figures per run."""

    label: str
    seats: int
    playout: Callable[[float, random.Random], tuple[int, int, float]]  # -> actions, games, seconds
    mid_states: list[Any]
    clone: Callable[[Any], Any]
    determinize: Callable[[Any, random.Random], Any] | None
    runs: list[dict[str, float | None]] = field(default_factory=list)

    def median(self, figure: str) -> float | None:
        values = [r[figure] for r in self.runs if r[figure] is not None]
        return statistics.median(values) if values else None  # type: ignore[type-var]


# -- our games -------------------------------------------------------------------
def _our_playout(g: Game, seats: int, first_seed: int) -> Callable[[float, random.Random], tuple[int, int, float]]:
    seeds = iter(range(first_seed, 1 << 62))

    def run(seconds: float, rng: random.Random) -> tuple[int, int, float]:
        actions = games = 0
        start = time.perf_counter()
        deadline = start + seconds
        while True:
            # The reference loop: a fresh seed, then random legal actions through the checked apply.
            state = g.new_state(seats, next(seeds))
            while not state.is_over:
                state.apply(rng.choice(state.legal_actions()))
            actions += state.action_count
            games += 1
            now = time.perf_counter()
            if now >= deadline:
                return actions, games, now - start

    return run


def _our_mid_states(g: Game, seats: int, rng: random.Random) -> list[State]:
    """Positions halfway through random games (replayed from their seed, so nothing is cloned to get them)."""
    out = []
    for _ in range(MID_GAME_STATES):
        seed = rng.getrandbits(63)
        state = g.new_state(seats, seed)
        while not state.is_over:
            state.apply(rng.choice(state.legal_actions()))
        half = state.history[: state.action_count // 2]
        mid = g.new_state(seats, seed)
        for a in half:
            mid.apply(a)
        out.append(mid)
    return out


def _our_determinize(state: State, rng: random.Random) -> State:
    return state.determinize(state.to_act if state.to_act is not None else 0, rng)


def our_subject(g: Game, seats: int) -> Subject:
    return Subject(
        label=g.slug,
        seats=seats,
        playout=_our_playout(g, seats, first_seed=1),
        mid_states=_our_mid_states(g, seats, random.Random(12345)),
        clone=State.clone,
        determinize=_our_determinize if g.spec.hidden_information else None,
    )


# -- OpenSpiel's Python games ---------------------------------------------------------
def _load_openspiel() -> Any | None:
    try:
        import open_spiel.python.games  # noqa: F401  (registers the python_* games)
        import pyspiel
    except ImportError:
        return None
    return pyspiel


def _their_step(state: Any, rng: random.Random) -> None:
    if state.is_chance_node():
        outcomes, probs = zip(*state.chance_outcomes(), strict=True)
        state.apply_action(rng.choices(outcomes, probs)[0])
    else:
        state.apply_action(rng.choice(state.legal_actions()))


def _their_playout(game: Any) -> Callable[[float, random.Random], tuple[int, int, float]]:
    def run(seconds: float, rng: random.Random) -> tuple[int, int, float]:
        actions = games = 0
        start = time.perf_counter()
        deadline = start + seconds
        while True:
            # The same loop; chance nodes are sampled from chance_outcomes() with the same rng.
            state = game.new_initial_state()
            while not state.is_terminal():
                if state.is_chance_node():
                    outcomes, probs = zip(*state.chance_outcomes(), strict=True)
                    state.apply_action(rng.choices(outcomes, probs)[0])
                else:
                    state.apply_action(rng.choice(state.legal_actions()))
            actions += len(state.history())
            games += 1
            now = time.perf_counter()
            if now >= deadline:
                return actions, games, now - start

    return run


def _their_mid_states(game: Any, rng: random.Random) -> list[Any]:
    out = []
    for _ in range(MID_GAME_STATES):
        state = game.new_initial_state()
        while not state.is_terminal():
            _their_step(state, rng)
        half = state.history()[: len(state.history()) // 2]
        mid = game.new_initial_state()
        for a in half:
            mid.apply_action(a)
        out.append(mid)
    return out


def their_subject(pyspiel: Any, name: str) -> Subject:
    game = pyspiel.load_game(name)
    mids = _their_mid_states(game, random.Random(12345))
    return Subject(
        label=name,
        seats=game.num_players(),
        playout=_their_playout(game),
        mid_states=mids,
        clone=lambda s: s.clone(),
        # OpenSpiel's counterpart, resample_from_infostate, raises "not implemented" for its Python games.
        determinize=None,
    )


# -- timing --------------------------------------------------------------------------
def per_call_us(fn: Callable[..., Any], states: Sequence[Any], seconds: float, *extra: Any) -> float:
    """Median over samples of BATCH calls on one state, cycling over ``states`` for ``seconds``."""
    samples: list[float] = []
    deadline = time.perf_counter() + seconds
    while not samples or time.perf_counter() < deadline:
        for st in states:
            t0 = time.perf_counter()
            for _ in range(BATCH):
                fn(st, *extra)
            samples.append((time.perf_counter() - t0) / BATCH * 1e6)
    return statistics.median(samples)


def measure(subject: Subject, seconds: float, run: int) -> None:
    rng = random.Random(run)
    actions, games, elapsed = subject.playout(seconds, rng)
    side = seconds / 4
    subject.runs.append({
        "actions_per_s": actions / elapsed,
        "games_per_s": games / elapsed,
        "actions_per_game": actions / games,
        "clone_us": per_call_us(subject.clone, subject.mid_states, side),
        "determinize_us": (
            per_call_us(subject.determinize, subject.mid_states, side, rng) if subject.determinize else None
        ),
    })


# -- output --------------------------------------------------------------------------
def _fmt(value: float | None, digits: int = 1) -> str:
    if value is None:
        return "n/a"
    if value >= 1000:
        return f"{value:,.0f}"
    return f"{value:.{digits}f}"


def table(headers: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    widths = [max(len(h), *(len(r[i]) for r in rows)) for i, h in enumerate(headers)]
    lines = ["  ".join(h.ljust(w) if i == 0 else h.rjust(w) for i, (h, w) in enumerate(zip(headers, widths, strict=True)))]
    lines.append("  ".join("-" * w for w in widths))
    for r in rows:
        lines.append("  ".join(c.ljust(w) if i == 0 else c.rjust(w) for i, (c, w) in enumerate(zip(r, widths, strict=True))))
    return "\n".join(lines)


def spread(subject: Subject) -> float:
    """(max - min) / median of actions/s over the runs, in percent: how noisy the machine was."""
    values = [float(r["actions_per_s"] or 0.0) for r in subject.runs]
    return (max(values) - min(values)) / statistics.median(values) * 100


def results_table(subjects: Sequence[Subject]) -> str:
    headers = ("game", "seats", "actions/s", "spread %", "games/s", "actions/game", "clone µs", "determinize µs")
    rows = [
        (
            s.label,
            str(s.seats),
            _fmt(s.median("actions_per_s")),
            f"{spread(s):.1f}",
            _fmt(s.median("games_per_s")),
            _fmt(s.median("actions_per_game")),
            _fmt(s.median("clone_us"), 2),
            _fmt(s.median("determinize_us"), 2),
        )
        for s in subjects
    ]
    return table(headers, rows)


def ratios(ours: Sequence[Subject], theirs: Sequence[Subject]) -> list[dict[str, Any]]:
    """Per-run ratios (the runs were interleaved, so run i of both met the same noise), then their median."""
    out = []
    for a in ours:
        for b in theirs:
            speed = [x["actions_per_s"] / y["actions_per_s"] for x, y in zip(a.runs, b.runs, strict=True)]  # type: ignore[operator]
            clone = [y["clone_us"] / x["clone_us"] for x, y in zip(a.runs, b.runs, strict=True)]  # type: ignore[operator]
            out.append({
                "ours": a.label,
                "theirs": b.label,
                "actions_per_s_ratio": statistics.median(speed),
                "our_clone_us": a.median("clone_us"),
                "their_clone_us": b.median("clone_us"),
                "clone_speed_ratio": statistics.median(clone),
            })
    return out


def ratio_table(rows: Sequence[dict[str, Any]]) -> str:
    headers = ("ours / theirs", "actions/s ratio", "our clone µs", "their clone µs", "clone speed ratio")
    return table(headers, [
        (
            f"{r['ours']} / {r['theirs']}",
            f"{r['actions_per_s_ratio']:.2f}x",
            _fmt(r["our_clone_us"], 2),
            _fmt(r["their_clone_us"], 2),
            f"{r['clone_speed_ratio']:.2f}x",
        )
        for r in rows
    ])


def _cpu_name() -> str:
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as fh:
            for line in fh:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown CPU"


def machine() -> dict[str, Any]:
    return {
        "python": f"{platform.python_implementation()} {platform.python_version()}",
        "platform": platform.platform(),
        "machine": platform.machine(),
        "processor": _cpu_name(),
        "cpus": os.cpu_count(),
    }


# -- main ------------------------------------------------------------------------------
def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    p.add_argument("--seconds", type=float, default=2.0, help="length of one playout run (default 2)")
    p.add_argument("--repeats", type=int, default=5, help="runs per figure; the median is shown (default 5)")
    p.add_argument("--games", default="", help="comma-separated game names (default: every registered game)")
    p.add_argument("--seats", type=int, default=None, help="seats for every game that takes that many "
                   "(default: 4 for contraband, else the game's minimum)")
    p.add_argument("--json", metavar="FILE", help="also save every run's numbers as JSON")
    p.add_argument("--no-openspiel", action="store_true", help="skip the OpenSpiel comparison")
    args = p.parse_args(argv)
    if args.seconds <= 0 or args.repeats < 1:
        p.error("--seconds must be positive and --repeats at least 1")
    return args


def seats_for(g: Game, wanted: int | None) -> int:
    spec = g.spec
    if wanted is not None and spec.min_seats <= wanted <= spec.max_seats:
        return wanted
    return DEFAULT_SEATS.get(spec.name, spec.min_seats)


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    names = [n.strip() for n in args.games.split(",") if n.strip()] or registered_games()
    ours = [our_subject(g, seats_for(g, args.seats)) for g in map(find_game, names)]
    pyspiel = None if args.no_openspiel else _load_openspiel()
    theirs = [their_subject(pyspiel, n) for n in OPENSPIEL_GAMES] if pyspiel else []

    info = machine()
    print(f"Python {info['python']} on {info['platform']} ({info['processor']}, {info['cpus']} CPUs)")
    print(f"median of {args.repeats} runs of {args.seconds:g} s each; clone and determinize timed "
          f"{args.seconds / 4:g} s each per run on {MID_GAME_STATES} mid-game states")
    print()

    for run in range(args.repeats):
        for subject in [*ours, *theirs]:  # run i of ours, then run i of theirs: interleaved
            print(f"  run {run + 1}/{args.repeats}: {subject.label:<40}", end="\r", file=sys.stderr, flush=True)
            measure(subject, args.seconds, run)
    print(" " * 60, end="\r", file=sys.stderr, flush=True)

    print("Freetrader games (random playouts through the checked apply)")
    print(results_table(ours))
    print()
    compared: list[dict[str, Any]] = []
    if theirs:
        print("OpenSpiel Python games (the same loop; chance outcomes count as actions)")
        print(results_table(theirs))
        print()
        compared = ratios(ours, theirs)
        print("Ratio (above 1x: ours is faster); medians of per-run ratios")
        print(ratio_table(compared))
    elif args.no_openspiel:
        print("OpenSpiel comparison skipped (--no-openspiel).")
    else:
        print("OpenSpiel is not installed, so there is no comparison with its Python games.")
        print("To get it: pip install -e '.[openspiel]'   then   ./dev bench")

    if args.json:
        data = {
            "machine": info,
            "seconds": args.seconds,
            "repeats": args.repeats,
            "games": {
                s.label: {
                    "source": "freetrader" if s in ours else "openspiel",
                    "seats": s.seats,
                    "median": {f: s.median(f) for f in FIGURES},
                    "runs": s.runs,
                }
                for s in [*ours, *theirs]
            },
            "ratios": compared,
        }
        with open(args.json, "w", encoding="utf-8") as fh:
            json.dump(data, fh, indent=2)
        print(f"\nsaved {args.json}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
