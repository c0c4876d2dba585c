"""Two checkouts' engine speed side by side, runs interleaved: ``bench_games.py`` on each in turn.

    python benchmarks/bench_ab.py BEFORE_SRC AFTER_SRC [--rounds 3] [-- bench_games args]

``BEFORE_SRC`` and ``AFTER_SRC`` are ``src`` folders (say of a ``git worktree``
of the previous commit and of this one). Each round runs ``bench_games.py``
once per checkout, alternating which goes first, so that machine noise hits
both alike; the table gives the median of the rounds for each figure and the
ratio after/before. This script prints numbers; it never passes or fails.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).parent
FIGURES = ("actions_per_s", "games_per_s", "clone_us", "determinize_us")


def run(src: str, extra: list[str]) -> dict[str, dict[str, float]]:
    with tempfile.NamedTemporaryFile(suffix=".json") as f:
        env = dict(os.environ, PYTHONPATH=src)
        cmd = [sys.executable, str(HERE / "bench_games.py"), "--no-openspiel", "--json", f.name, *extra]
        subprocess.run(cmd, env=env, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        data = json.loads(Path(f.name).read_text())
    return {label: {k: float(v) for k, v in g["median"].items() if k in FIGURES and v is not None}
            for label, g in data["games"].items() if g["source"] == "freetrader"}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("before")
    ap.add_argument("after")
    ap.add_argument("--rounds", type=int, default=3)
    args, extra = ap.parse_known_args()
    extra = [a for a in extra if a != "--"]
    runs: dict[str, list[dict[str, dict[str, float]]]] = {"before": [], "after": []}
    for r in range(args.rounds):
        order = ("before", "after") if r % 2 == 0 else ("after", "before")
        for which in order:
            runs[which].append(run(getattr(args, which), extra))
    games = sorted(runs["before"][0])
    print(f"| game | figure | before | after | after/before |  ({args.rounds} interleaved rounds, medians)")
    print("|---|---|---:|---:|---:|")
    for g in games:
        for k in FIGURES:
            b = statistics.median(x[g][k] for x in runs["before"] if k in x.get(g, {}))
            a = statistics.median(x[g][k] for x in runs["after"] if k in x.get(g, {}))
            print(f"| {g} | {k} | {b:,.1f} | {a:,.1f} | {a / b:.2f} |")


if __name__ == "__main__":
    main()
