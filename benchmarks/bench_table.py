"""Load on the table server: N concurrent tables of bots playing over websockets on this machine.

Starts ``python -m freetrader.server`` on 127.0.0.1 (a child process), creates
N tables of all-human seats, joins every seat and plays each seat by a client
bot over its own websocket: on its turn it picks a random legal action from
its view, sends it with ``expected_index`` and waits for the acknowledgement,
which the server sends only after the commit. The latency of an action is
the time from sending it to receiving its ack.

    python benchmarks/bench_table.py                       # 200 tables, SQLite
    python benchmarks/bench_table.py --tables 50 --seconds 10
    python benchmarks/bench_table.py --pg postgresql://user:pw@127.0.0.1/db   # SQLite, then PostgreSQL

Bounded: each run stops after ``--seconds`` of play (default 20) and sends
traffic to loopback only. Prints one line per database: actions, actions/s,
p50/p99 latency, errors.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from dataclasses import dataclass, field
from typing import Any

GAME = "contraband"
OPTIONS = {"end": "turns", "turn_limit": 10000}  # long games: the run's clock stops them


@dataclass
class Tally:
    latencies: list[float] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    over: int = 0


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _http(base: str, method: str, path: str, body: Any = None) -> Any:
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(base + path, data=data, method=method, headers={"content-type": "application/json"})
    with urllib.request.urlopen(req, timeout=30) as r:
        return json.loads(r.read())


def _start_server(db: str, port: int) -> subprocess.Popen[bytes]:
    proc = subprocess.Popen(
        [sys.executable, "-m", "freetrader.server", "--host", "127.0.0.1", "--port", str(port), "--db", db,
         "--bot-delay", "0"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )
    end = time.monotonic() + 30
    while time.monotonic() < end:
        try:
            _http(f"http://127.0.0.1:{port}", "GET", "/api/games")
            return proc
        except OSError:
            time.sleep(0.1)
    proc.kill()
    raise SystemExit(f"the server on port {port} did not start")


async def _seat(url: str, seat: int, stop_at: float, tally: Tally, rng: random.Random) -> None:
    import websockets

    async with websockets.connect(url, max_size=2**24) as ws:
        sent_at: float | None = None
        last: dict[str, Any] | None = None  # the newest state message
        acted_at = -1  # the index of the position this seat last acted in
        while time.monotonic() < stop_at:
            try:
                raw = await asyncio.wait_for(ws.recv(), timeout=max(0.01, stop_at - time.monotonic()))
            except TimeoutError:
                return
            msg = json.loads(raw)
            kind = msg.get("type")
            if kind == "ack" and sent_at is not None:
                tally.latencies.append(time.perf_counter() - sent_at)
                sent_at = None
            elif kind == "error":
                tally.errors.append(str(msg.get("error")))
                sent_at = None
            elif kind == "state":
                last = msg
            if last is None or sent_at is not None:
                continue
            view = last["view"]
            if view["is_over"]:
                tally.over += 1
                return
            if view["to_act"] == seat and last["index"] != acted_at:
                acted_at = last["index"]
                action = rng.choice(view["legal"])
                sent_at = time.perf_counter()
                await ws.send(json.dumps({"type": "action", "action": action, "expected_index": last["index"]}))


async def _play(base: str, tables: int, seats: int, seconds: float) -> tuple[Tally, float]:
    loop = asyncio.get_running_loop()

    def setup(i: int) -> list[str]:
        t = _http(base, "POST", "/api/tables", {"game": GAME, "seats": ["human"] * seats, "options": OPTIONS,
                                                "seed": i})["table"]["id"]
        return [_http(base, "POST", f"/api/tables/{t}/join", {"seat": s})["link"] for s in range(seats)]

    links: list[list[str]] = []
    for start in range(0, tables, 20):
        links += await asyncio.gather(*(loop.run_in_executor(None, setup, i)
                                        for i in range(start, min(tables, start + 20))))
    ws_base = base.replace("http://", "ws://")
    tally = Tally()
    began = time.monotonic()
    stop_at = began + seconds
    jobs = []
    for i, seat_links in enumerate(links):
        for seat, link in enumerate(seat_links):
            table_id, _, token = link[len("/t/"):].partition("#token=")
            url = f"{ws_base}/ws/tables/{table_id}?token={token}"
            jobs.append(_seat(url, seat, stop_at, tally, random.Random(i * 100 + seat)))
    results = await asyncio.gather(*jobs, return_exceptions=True)
    tally.errors += [f"{type(r).__name__}: {r}" for r in results if isinstance(r, BaseException)]
    return tally, time.monotonic() - began


def _pct(values: list[float], p: float) -> float:
    if not values:
        return float("nan")
    values = sorted(values)
    return values[min(len(values) - 1, int(round(p / 100 * (len(values) - 1))))]


def run(db: str, label: str, tables: int, seats: int, seconds: float) -> dict[str, Any]:
    port = _free_port()
    proc = _start_server(db, port)
    try:
        tally, elapsed = asyncio.run(_play(f"http://127.0.0.1:{port}", tables, seats, seconds))
    finally:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            proc.kill()
    lat = tally.latencies
    return {
        "db": label, "tables": tables, "connections": tables * seats, "actions": len(lat),
        "actions_per_s": len(lat) / elapsed if elapsed else 0.0,
        "p50_ms": _pct(lat, 50) * 1000, "p99_ms": _pct(lat, 99) * 1000,
        "mean_ms": statistics.fmean(lat) * 1000 if lat else float("nan"),
        "errors": len(tally.errors), "first_errors": tally.errors[:3],
    }


def main() -> int:
    ap = argparse.ArgumentParser(description="Load on the table server over websockets (loopback only).")
    ap.add_argument("--tables", type=int, default=200)
    ap.add_argument("--seats", type=int, default=3)
    ap.add_argument("--seconds", type=float, default=20.0, help="length of play per database (default 20)")
    ap.add_argument("--sqlite", default=None, help="SQLite URL (default: a new temporary file)")
    ap.add_argument("--pg", default=os.environ.get("FREETRADER_BENCH_PG"),
                    help="also run against this PostgreSQL URL (or FREETRADER_BENCH_PG)")
    ap.add_argument("--json", default=None, help="also write the results to this file")
    args = ap.parse_args()
    if not 1 <= args.tables <= 2000 or not 3 <= args.seats <= 8 or not 0 < args.seconds <= 600:
        raise SystemExit("--tables 1..2000, --seats 3..8, --seconds up to 600")
    runs = [(args.sqlite or f"sqlite:///{tempfile.mkdtemp(prefix='ft-bench-')}/bench.db", "sqlite")]
    if args.pg:
        runs.append((args.pg, "postgresql"))
    print(f"{args.tables} tables x {args.seats} seats, random client bots over websockets, {args.seconds:g} s each; "
          f"{os.cpu_count()} CPUs, Python {sys.version.split()[0]}")
    print(f"{'db':<11} {'actions':>8} {'actions/s':>10} {'p50 ms':>8} {'p99 ms':>8} {'errors':>7}")
    results = []
    for url, label in runs:
        r = run(url, label, args.tables, args.seats, args.seconds)
        results.append(r)
        print(f"{r['db']:<11} {r['actions']:>8} {r['actions_per_s']:>10.1f} {r['p50_ms']:>8.1f} {r['p99_ms']:>8.1f} "
              f"{r['errors']:>7}")
        for e in r["first_errors"]:
            print(f"  error: {e}")
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump(results, f, indent=2)
    return 0


if __name__ == "__main__":
    sys.exit(main())
