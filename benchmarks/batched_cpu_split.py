"""Where a step of the batched env goes, with and without worker processes: wall time and CPU per process.

    python benchmarks/batched_cpu_split.py [--games contraband,...] [--num-envs 8,64] [--workers 1,2]
                                           [--steps S]

For each game, N and k: ``BatchedEnv(game, N, ["random"], workers=k)`` reset with seed 0, then S steps
with a random legal index per game (picked as ``bench_adapters.py`` picks). Per step: the wall time,
the parent's CPU time (``time.process_time``: the picks, the checks, the pipes) and each worker's
(``/proc/<pid>/stat``, in clock ticks of 10 ms: rough for short runs). On an idle machine with k free
cores a step would take about the parent's share plus the busiest worker's plus a pipe round trip per
worker; the wall time beyond that is the wait for a core. Linux only; prints numbers, never fails.
"""

from __future__ import annotations

import argparse
import os
import random
import time

import numpy as np

import freetrader
from freetrader.adapters.vector import BatchedEnv

BOOL = np.dtype(bool)
TICK = os.sysconf("SC_CLK_TCK")
DEFAULT_SEATS = {"contraband": 4}


def cpu_seconds(pid: int) -> float:
    fields = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICK  # utime + stime


def split(game: str, seats: int, n: int, k: int, steps: int) -> str:
    env = BatchedEnv(game, n, ["random"], seats=seats, workers=k)
    try:
        rng = random.Random(0)
        _, mask = env.reset(seed=0)
        pids = [p.pid for p in getattr(env, "_procs", [])]  # the workers, when there are some
        before = [cpu_seconds(p) for p in pids]
        parent, start = time.process_time(), time.perf_counter()
        for _ in range(steps):
            _, mask, _, _, _ = env.step([rng.choice(m.view(BOOL).nonzero()[0].tolist()) for m in mask])
        wall = time.perf_counter() - start
        parent = time.process_time() - parent
        workers = [round((cpu_seconds(p) - b) / steps * 1e6) for p, b in zip(pids, before, strict=True)]
        played = env.actions_played()
    finally:
        env.close()
    return (f"| {game} | {n} | {k} | {played / wall:,.0f} | {wall / steps * 1e6:,.0f} | "
            f"{parent / steps * 1e6:,.0f} | {' + '.join(map(str, workers)) or '-'} |")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", default="")
    ap.add_argument("--num-envs", default="8,64")
    ap.add_argument("--workers", default="1,2")
    ap.add_argument("--steps", type=int, default=200)
    args = ap.parse_args()
    names = [g for g in args.games.split(",") if g] or freetrader.games()
    print(f"{os.cpu_count()} cores, load average {' '.join(f'{x:.2f}' for x in os.getloadavg())}\n")
    print("| game | N | workers | actions/s | wall us/step | parent CPU us/step | workers' CPU us/step |")
    print("|---|---:|---:|---:|---:|---:|---|")
    for game in names:
        spec = freetrader.game(game).spec
        seats = DEFAULT_SEATS.get(game, spec.min_seats)
        for n in map(int, args.num_envs.split(",")):
            for k in map(int, args.workers.split(",")):
                print(split(game, seats, n, k, args.steps // (1 if n <= 8 else 4) or 1), flush=True)
    print(f"\nload average {' '.join(f'{x:.2f}' for x in os.getloadavg())} at the end")


if __name__ == "__main__":
    main()
