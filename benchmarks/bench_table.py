"""Load on the table server over websockets on this machine: latency while bots think, CPU per action.

Starts ``python -m freetrader.server`` on 127.0.0.1 (child processes), creates
tables of all-human seats, joins every seat and plays each seat by a client
over its own websocket: on its turn it picks a random legal action from its
view, sends it with ``expected_index`` and waits for the acknowledgement,
which the server sends only after the commit (from issue 20's merged
acknowledgements on, inside the state message the action brings). An
action's latency is the time from sending it to reading its ack (``p50 ms``, ``p99 ms``);
``p99 arr`` times it to the moment the ack's last frame reached this client's event loop instead,
before the seat's coroutine ran: the difference is the client's own queue, one Python process
reading every socket, which is no part of what a player with one socket waits. Every socket is opened (and has
its welcome view) before the clock starts; the play time, the actions and
the server's CPU are counted from then on (``--open-seconds`` bounds the
opening; the ``opened`` column says how many sockets made it). A run that
fails prints why, beside what it measured, and the others go on.

Two scenarios (the goals of issue 20):

- **paced**: ``--tables`` human tables (default 200), each moving once every
  ``--pace`` seconds (default 2), while four tables of ``ismcts:ms=200`` bots
  play on the same server. Reported: ack p50 and p99.
- **saturated**: ``--busy-tables`` tables (default 40) whose clients answer at
  once (closed loop). Reported: actions/s and server CPU per action (CPU
  seconds of the server and its worker processes / actions). With ``--pg``,
  also on PostgreSQL with one and with two server processes (tables split
  between them; a table's seats all talk to one process).
  Every scenario also reports ``wait ms/act``: how long the server's main
  thread (its event loop) waited for a core while it had work, per action
  (Linux's ``/proc/PID/schedstat``): the part of the latency that is the
  machine's load or the workers, not the server's own work.

- **think**: the client of an outside load test (issue 35): ``--tables`` human
  tables whose seats each wait ``--think`` seconds (default 2) on their turn
  before they send, beside four tables of ``ismcts:ms=200`` bots playing
  ``--think-bot-game`` (default Cornish Smuggler, whose decisions weigh more
  on the server than Contraband's). Reported: ack p50 and p99. Run twice
  (``--think-start``): *together*, every table's first move one think time
  after the clock starts (a burst of one move per table in the same
  instant; the later waves spread out, as each seat's think time starts
  when its turn reaches it), and *staggered*, each table's first move at a
  random time within one think time (tables whose games began at different
  times). ``--think-start lockstep`` (not part of ``both``) sends every move
  at the next tick of a clock beating every think time: every wave as
  sharp as together's first, so ``--probe`` can say what a burst costs,
  burst after burst.
- **restart**: ``--restart-tables`` stored tables (a list such as
  ``0,1000,4000``; humans only, as a lobby filler leaves them, and 4 bot
  tables), then the time from starting the server until ``GET /api/tables``
  answers, side by side for each count (in the table, ``p50 ms`` is that time).

``--probe DIR`` runs each first server under ``loop_probe.py`` and prints,
under each row, its event loop's own figures: CPU per human action and per
bot move (which do not move with the machine's load), the loop's lag, the
garbage collector's pauses and a full collection's time, and its wait for a
core.

``--baseline SRC`` runs every scenario also against the code in ``SRC`` (the
``src`` folder of another checkout, e.g. a ``git worktree`` of the previous
commit), one after the other in the same run, so the figures compare.

    python benchmarks/bench_table.py                                   # this checkout, SQLite
    python benchmarks/bench_table.py --baseline ../base/src --seconds 20
    python benchmarks/bench_table.py --pg postgresql://user:pw@127.0.0.1/db

Bounded: each scenario stops after ``--seconds`` of play and sends traffic to
loopback only.
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

import loop_probe  # beside this file

GAME = "contraband"
OPTIONS = {"end": "turns", "turn_limit": 10000}  # long games: the run's clock stops them
BOT_SPEC = "ismcts:ms=200"
#: the limits of a server from issue 20 on, opened wide for the load (older servers have none)
WIDE = ["--max-tables-per-minute", "100000", "--max-open-tables", "100000", "--max-sockets-per-table", "1000",
        "--max-sockets-per-address", "100000"]


@dataclass
class Tally:
    latencies: list[float] = field(default_factory=list)
    #: the same, to the moment the acknowledgement's last frame reached this process's event loop: the
    #: difference is this client's own queue (every socket's messages are read by one Python process)
    arrivals: list[float] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    over: int = 0


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _http(base: str, method: str, path: str, body: Any = None) -> Any:
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(base + path, data=data, method=method, headers={"content-type": "application/json"})
    with urllib.request.urlopen(req, timeout=60) as r:
        return json.loads(r.read())


def _start_server(db: str, port: int, src: str | None, profile: str | None = None,
                  probe: str | None = None) -> subprocess.Popen[bytes]:
    env = dict(os.environ)
    args = [sys.executable, "-m", "freetrader.server", "--host", "127.0.0.1", "--port", str(port), "--db", db,
            "--bot-delay", "0"]
    if src:
        env["PYTHONPATH"] = src + os.pathsep + env.get("PYTHONPATH", "")
    help_text = subprocess.run([*args[:3], "--help"], env=env, capture_output=True, text=True).stdout
    if "--max-open-tables" in help_text:
        args += WIDE
    if "--max-connections-per-address" in help_text:  # issue 35's connection and lobby caps
        args += ["--max-connections-per-address", "100000", "--max-open-tables-per-address", "100000"]
    if "--max-whole-views-per-second" in help_text:  # every socket opens at once, each sends at will
        args += ["--max-whole-views-per-second", "100000", "--max-messages-per-second", "100000"]
    if profile:  # the server under cProfile, which writes its stats on SIGUSR1 (``_stop`` sends it)
        args[1:3] = ["-c", _PROFILED, profile]
    elif probe:  # the server under loop_probe.py, which writes its figures on SIGUSR1 too
        args[1:3] = [os.path.join(os.path.dirname(os.path.abspath(__file__)), "loop_probe.py"), probe]
    proc = subprocess.Popen(args, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    end = time.monotonic() + 90
    while time.monotonic() < end:
        try:
            _http(f"http://127.0.0.1:{port}", "GET", "/api/games")
            return proc
        except OSError:
            time.sleep(0.2)
    proc.kill()
    raise SystemExit(f"the server on port {port} did not start")


_PROFILED = """
import cProfile, signal, sys
from freetrader.cli import main
out, prof = sys.argv[1], cProfile.Profile()
signal.signal(signal.SIGUSR1, lambda *_: (prof.disable(), prof.dump_stats(out)))
prof.enable()
sys.exit(main(["serve", *sys.argv[2:]]))
"""


def _stop(proc: subprocess.Popen[bytes], profiled: bool = False) -> None:
    if profiled:
        proc.send_signal(signal.SIGUSR1)
        time.sleep(3)
    proc.send_signal(signal.SIGTERM)
    try:
        proc.wait(timeout=20)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


def _cpu_seconds(root: int) -> float:
    """User + system CPU of ``root`` and every live descendant (bot and replay workers), from /proc."""
    tick = os.sysconf("SC_CLK_TCK")
    parents: dict[int, int] = {}
    times: dict[int, float] = {}
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/stat") as f:
                stat = f.read()
        except OSError:
            continue
        rest = stat[stat.rindex(")") + 2:].split()
        parents[int(name)] = int(rest[1])
        times[int(name)] = (int(rest[11]) + int(rest[12])) / tick
    total, todo = 0.0, [root]
    while todo:
        pid = todo.pop()
        total += times.get(pid, 0.0)
        todo += [p for p, pp in parents.items() if pp == pid]
    return total


def _run_queue_wait(pid: int) -> float:
    """Seconds the server's main thread (its event loop) has waited for a core while runnable (Linux)."""
    try:
        with open(f"/proc/{pid}/schedstat") as f:
            return int(f.read().split()[1]) / 1e9
    except (OSError, IndexError, ValueError):
        return float("nan")


@dataclass
class Clock:
    """The run's clock: it starts once every socket has opened (or the opening time is over)."""

    expected: int
    opened: int = 0
    all_open: asyncio.Event = field(default_factory=asyncio.Event)
    go: asyncio.Event = field(default_factory=asyncio.Event)
    began: float = 0.0
    stop_at: float = 0.0

    def one_opened(self) -> None:
        self.opened += 1
        if self.opened >= self.expected:
            self.all_open.set()


def _stamped_connection() -> Any:
    """A websockets client connection that notes when each whole text message reaches the event loop.

    ``recv()`` returns a message only when the seat's coroutine next runs; with 600 sockets in one
    process that waits behind every other seat's parsing, so an acknowledgement read late would be
    counted as slow. The protocol callback runs as soon as the loop reads the socket.
    """
    from collections import deque

    from websockets.asyncio.client import ClientConnection
    from websockets.frames import Opcode

    class Stamped(ClientConnection):
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            self.arrived: deque[float] = deque()

        def process_event(self, event: Any) -> None:
            if getattr(event, "fin", False) and event.opcode in (Opcode.TEXT, Opcode.BINARY, Opcode.CONT):
                self.arrived.append(time.perf_counter())
            super().process_event(event)

    return Stamped


async def _seat(url: str, seat: int, clock: Clock, tally: Tally, rng: random.Random,
                pace: dict[str, float] | None, pace_s: float, open_s: float, think: float = 0.0,
                start: str = "together") -> None:
    import websockets

    # offers compression, as browsers do; sockets open before the clock starts, so a slow opening costs
    # no play time (600 sockets open at once on a busy machine)
    async with websockets.connect(url, max_size=2**24, open_timeout=open_s,
                                  create_connection=_stamped_connection()) as ws:
        last: dict[str, Any] | None = None  # the newest state message
        view: dict[str, Any] = {}  # its view
        while last is None:  # the welcome: this seat's whole view
            msg = json.loads(await asyncio.wait_for(ws.recv(), timeout=open_s))
            if ws.arrived:
                ws.arrived.popleft()
            if msg.get("type") == "state":
                last = msg
                view = msg["view"]
            elif msg.get("type") == "error":
                raise RuntimeError(f"refused at opening: {msg.get('error')}")
        clock.one_opened()
        await clock.go.wait()
        stop_at = clock.stop_at
        sent_at: float | None = None
        early: str | bytes | None = None  # a message that came while the seat was thinking
        acted_at = -1  # the index of the position this seat last acted in
        first = True  # its first move of the run (``start``)
        while time.monotonic() < stop_at:
            if sent_at is None and last is not None:
                if view["is_over"]:
                    tally.over += 1
                    return
                if view["to_act"] == seat and last["index"] != acted_at:
                    acted_at = last["index"]
                    action = rng.choice(view["legal"])
                    if pace is not None:  # one move per table every pace_s seconds
                        wait = pace["next"] - time.monotonic()
                        if wait > 0:
                            await asyncio.sleep(wait)
                        pace["next"] = max(pace["next"], time.monotonic()) + pace_s
                    early = None
                    if think:  # a player: thinks on its own turn, then sends (the socket is read meanwhile)
                        # staggered, the first move of the run comes at a random time within one think
                        # time, as tables whose games began at different times (not all 200 in one instant);
                        # in lockstep every move waits for the next tick of a clock beating every think time
                        wait = rng.uniform(0, think) if start == "staggered" and first else think
                        if start == "lockstep":
                            wait = think - (time.monotonic() - clock.began) % think
                        first = False
                        try:
                            early = await asyncio.wait_for(ws.recv(), timeout=min(wait, stop_at - time.monotonic()))
                            acted_at = -1  # something came meanwhile: read it, then think again
                        except TimeoutError:
                            pass
                    if time.monotonic() >= stop_at:
                        return
                    if early is None:
                        sent_at = time.perf_counter()
                        await ws.send(json.dumps({"type": "action", "action": action,
                                                  "expected_index": last["index"]}))
            if early is not None:
                raw, early = early, None
            else:
                try:
                    raw = await asyncio.wait_for(ws.recv(), timeout=max(0.01, stop_at - time.monotonic()))
                except TimeoutError:
                    return
            read_at = time.perf_counter()
            arrived_at = ws.arrived.popleft() if ws.arrived else read_at
            msg = json.loads(raw)
            kind = msg.get("type")
            if kind == "ack" and sent_at is not None:
                tally.latencies.append(read_at - sent_at)
                tally.arrivals.append(arrived_at - sent_at)
                sent_at = None
            elif kind == "error":
                tally.errors.append(str(msg.get("error")))
                sent_at = None
            elif kind == "state":
                if "ack" in msg and sent_at is not None:  # its own action's acknowledgement rides along
                    tally.latencies.append(read_at - sent_at)
                    tally.arrivals.append(arrived_at - sent_at)
                    sent_at = None
                # as the page does: a view sent whole, or its changed fields over the one held
                # (servers from issue 20's view deltas on); a view it does not hold is asked for
                if "view_changes" not in msg:
                    view = msg["view"]
                elif msg.get("view_base") == last["seq"]:
                    changes = msg["view_changes"]
                    keys = msg.get("view_keys")  # a field came or went: the keys in order
                    view = {**view, **changes} if keys is None else \
                        {k: changes[k] if k in changes else view[k] for k in keys}
                else:
                    await ws.send(json.dumps({"type": "view"}))
                    continue
                last = msg


async def _play(bases: list[str], tables: int, seats: int, seconds: float, pace_s: float | None,
                bots: int, cpu: Any, open_s: float, think: float = 0.0, bot_game: str = GAME,
                start: str = "together") -> dict[str, Any]:
    """Set up, open every socket, then play ``seconds``: the clock and the CPU count start when all are open."""
    loop = asyncio.get_running_loop()
    setup_errors: list[str] = []

    def setup(i: int) -> tuple[str, list[str]] | None:
        base = bases[i % len(bases)]
        try:
            # no seed: a table of several human seats takes none (whoever chose it could know every hand)
            t = _http(base, "POST", "/api/tables", {"game": GAME, "seats": ["human"] * seats,
                                                    "options": OPTIONS})["table"]["id"]
            return base, [_http(base, "POST", f"/api/tables/{t}/join", {"seat": s})["link"] for s in range(seats)]
        except (OSError, ValueError, KeyError) as exc:
            setup_errors.append(f"setting up table {i}: {type(exc).__name__}: {exc}")
            return None

    links: list[tuple[str, list[str]]] = []
    for first in range(0, tables, 20):  # not ``start``: that names the think scenario's first moves
        got = await asyncio.gather(*(loop.run_in_executor(None, setup, i)
                                     for i in range(first, min(tables, first + 20))))
        links += [g for g in got if g is not None]
    for i in range(bots):
        try:
            _http(bases[i % len(bases)], "POST", "/api/tables", {
                "game": bot_game, "seats": [BOT_SPEC] * seats, "seed": 10_000 + i,
                "options": OPTIONS if bot_game == GAME else {}})
        except (OSError, ValueError) as exc:
            setup_errors.append(f"creating bot table {i}: {type(exc).__name__}: {exc}")
    tally = Tally()
    clock = Clock(expected=sum(len(s) for _b, s in links))
    rng = random.Random(7)
    paces: list[dict[str, float]] = []
    jobs = []
    for i, (base, seat_links) in enumerate(links):
        pace = {"offset": rng.uniform(0, pace_s), "next": 0.0} if pace_s else None
        if pace is not None:
            paces.append(pace)
        for seat, link in enumerate(seat_links):
            table_id, _, token = link[len("/t/"):].partition("#token=")
            url = f"{base.replace('http://', 'ws://')}/ws/tables/{table_id}?token={token}"
            jobs.append(asyncio.ensure_future(_seat(url, seat, clock, tally, random.Random(i * 100 + seat), pace,
                                                    pace_s or 0.0, open_s, think, start)))
    t_open = time.monotonic()
    everything = asyncio.gather(*jobs, return_exceptions=True)
    # wait for every socket, or for the opening time; a seat that failed to open ends its job
    opening = asyncio.ensure_future(clock.all_open.wait())
    await asyncio.wait([opening, everything], timeout=open_s + 5, return_when=asyncio.FIRST_COMPLETED)
    opening.cancel()
    opened, open_time = clock.opened, time.monotonic() - t_open
    cpu0, wait0 = cpu()
    client0 = time.process_time()
    clock.began = time.monotonic()
    clock.stop_at = clock.began + seconds
    for pace in paces:
        pace["next"] = clock.began + pace["offset"]
    clock.go.set()
    await asyncio.sleep(seconds)
    cpu1, wait1 = cpu()
    client = time.process_time() - client0
    used, waited, elapsed = cpu1 - cpu0, wait1 - wait0, time.monotonic() - clock.began
    try:  # the seats stop at stop_at; one still opening is cut off
        results = await asyncio.wait_for(everything, timeout=10)
    except TimeoutError:
        results = [RuntimeError("a socket was still opening when the run ended")]
    errors = setup_errors + tally.errors + [f"{type(r).__name__}: {r}" for r in results if isinstance(r, BaseException)]
    return {"tally": tally, "elapsed": elapsed, "cpu": used, "waited": waited, "opened": opened, "connections": clock.expected,
            "open_s": open_time, "errors": errors, "client_cpu": client}


def _pct(values: list[float], p: float) -> float:
    if not values:
        return float("nan")
    values = sorted(values)
    return values[min(len(values) - 1, int(round(p / 100 * (len(values) - 1))))]


def run(db: str, processes: int, src: str | None, tables: int, seats: int, seconds: float, pace: float | None,
        bots: int, profile: str | None = None, open_s: float = 180.0, think: float = 0.0,
        bot_game: str = GAME, start: str = "together", probe: str | None = None) -> dict[str, Any]:
    """One scenario on fresh servers; a failure is reported as what it is, with whatever was measured."""
    out: dict[str, Any] = {"tables": tables, "connections": tables * seats, "opened": 0, "open_s": float("nan"),
                           "actions": 0, "actions_per_s": float("nan"), "p50_ms": float("nan"),
                           "p99_ms": float("nan"), "p99_arrived_ms": float("nan"), "mean_ms": float("nan"),
                           "cpu_ms_per_action": float("nan"),
                           "wait_ms_per_action": float("nan"),
                           "errors": 0, "first_errors": [], "failed": None}
    procs: list[subprocess.Popen[bytes]] = []
    try:
        if db.startswith("postgresql"):
            _reset_pg(db, src)
        ports = [_free_port() for _ in range(processes)]
        for port in ports:  # one after the other: the first makes the schema
            first = not procs
            procs.append(_start_server(db, port, src, profile if first else None, probe if first else None))
        played = asyncio.run(_play([f"http://127.0.0.1:{p}" for p in ports], tables, seats, seconds, pace, bots,
                                   lambda: (sum(_cpu_seconds(p.pid) for p in procs),
                                           sum(_run_queue_wait(p.pid) for p in procs)), open_s, think, bot_game,
                                   start))
    except (Exception, SystemExit) as exc:  # noqa: BLE001 - the table says which run failed and why
        out["failed"] = f"{type(exc).__name__}: {exc}"
        return out
    finally:
        for i, proc in enumerate(procs):
            _stop(proc, profiled=bool(profile or probe) and i == 0)
        out["load"] = os.getloadavg()[0]
    lat = played["tally"].latencies
    elapsed = played["elapsed"]
    out.update({
        "opened": played["opened"], "open_s": played["open_s"], "actions": len(lat),
        "actions_per_s": len(lat) / elapsed if elapsed else 0.0,
        "p50_ms": _pct(lat, 50) * 1000, "p99_ms": _pct(lat, 99) * 1000,
        "p99_arrived_ms": _pct(played["tally"].arrivals, 99) * 1000,
        "mean_ms": statistics.fmean(lat) * 1000 if lat else float("nan"),
        "cpu_ms_per_action": played["cpu"] / len(lat) * 1000 if lat else float("nan"),
        "wait_ms_per_action": played["waited"] / len(lat) * 1000 if lat else float("nan"),
        # this process: every socket's client (it shares the cores with the server; --probe prints it)
        "client_cpu_ms_per_action": played["client_cpu"] / len(lat) * 1000 if lat else float("nan"),
        "errors": len(played["errors"]), "first_errors": played["errors"][:3],
    })
    return out


_FILL = """
import sys, time
from freetrader.server.storage import Store, TableRow
url, n = sys.argv[1], int(sys.argv[2])
s = Store(url)
s.drop_schema()
s.create_schema()
for i in range(n):  # tables of humans only and no moves, as a lobby filler leaves them
    s.create_table(TableRow(id=f"fill{i}", game="contraband-v1", options={}, seats=["human"] * 3, seed=i,
                            settings={"seed_chosen": True}, status="playing", created=time.time()), [0, 1, 2])
s.close()
"""


def restart(db: str, src: str | None, stored: int) -> dict[str, Any]:
    """Seconds from starting a server on ``stored`` stored tables until /api/games and /api/tables answer."""
    env = dict(os.environ)
    if src:
        env["PYTHONPATH"] = src + os.pathsep + env.get("PYTHONPATH", "")
    out: dict[str, Any] = {"stored": stored, "games_s": float("nan"), "lobby_s": float("nan"), "failed": None}
    subprocess.run([sys.executable, "-c", _FILL, db, str(stored)], env=env, check=True)
    port = _free_port()
    base = f"http://127.0.0.1:{port}"
    began = time.monotonic()
    proc = subprocess.Popen([sys.executable, "-m", "freetrader.server", "--host", "127.0.0.1", "--port", str(port),
                             "--db", db], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        for path, key in (("/api/games", "games_s"), ("/api/tables", "lobby_s")):
            while time.monotonic() - began < 300:
                try:
                    _http(base, "GET", path)
                    out[key] = time.monotonic() - began
                    break
                except OSError:
                    time.sleep(0.05)
            else:
                out["failed"] = f"{path} did not answer within 300 s"
                break
    finally:
        _stop(proc)
    return out


def _reset_pg(db: str, src: str | None) -> None:
    env = dict(os.environ)
    if src:
        env["PYTHONPATH"] = src + os.pathsep + env.get("PYTHONPATH", "")
    code = "import sys; from freetrader.server.storage import Store; s = Store(sys.argv[1]); s.drop_schema(); s.close()"
    subprocess.run([sys.executable, "-c", code, db], env=env, check=True)


_HEAD = (f"{'scenario':<48} {'db':<10} {'procs':>5} {'code':<8} {'opened':>9} {'actions':>7} {'act/s':>7} "
         f"{'p50 ms':>7} {'p99 ms':>7} {'p99 arr':>7} {'cpu ms/act':>10} {'wait ms/act':>11} {'errors':>6} {'load':>5}")


def _row(label: str, kind: str, procs: int, name: str, r: dict[str, Any]) -> None:
    opened = f"{r['opened']:.0f}/{r['connections']:.0f}"
    print(f"{label:<48} {kind:<10} {procs:>5} {name:<8} {opened:>9} {r['actions']:>7.0f} {r['actions_per_s']:>7.1f} "
          f"{r['p50_ms']:>7.1f} {r['p99_ms']:>7.1f} {r.get('p99_arrived_ms', float('nan')):>7.1f} "
          f"{r['cpu_ms_per_action']:>10.2f} {r['wait_ms_per_action']:>11.2f} {r['errors']:>6.0f} "
          f"{r.get('load', float('nan')):>5.1f}", flush=True)
    if r.get("failed"):
        print(f"  FAILED: {r['failed']}", flush=True)


def main() -> int:
    ap = argparse.ArgumentParser(description="Load on the table server over websockets (loopback only).")
    ap.add_argument("--tables", type=int, default=200, help="paced human tables (default 200)")
    ap.add_argument("--pace", type=float, default=2.0, help="seconds between two moves of one paced table")
    ap.add_argument("--bot-tables", type=int, default=4, help=f"tables of {BOT_SPEC} bots beside them (default 4)")
    ap.add_argument("--busy-tables", type=int, default=40, help="closed-loop tables for the saturation run")
    ap.add_argument("--seats", type=int, default=3)
    ap.add_argument("--seconds", type=float, default=20.0, help="length of play per scenario (default 20)")
    ap.add_argument("--pg", default=os.environ.get("FREETRADER_BENCH_PG"),
                    help="also saturate this PostgreSQL database (its tables are dropped), with 1 and 2 processes")
    ap.add_argument("--baseline", default=None, metavar="SRC", help="also run the code in SRC (another src folder)")
    ap.add_argument("--think", type=float, default=2.0, help="seconds a seat thinks in the think scenario")
    ap.add_argument("--think-start", choices=("together", "staggered", "both", "lockstep"), default="both",
                    help="the think scenario's first moves: all at the clock's start (a burst of one move a "
                         "table), at random times within one think time, or both runs (default); lockstep: "
                         "every move at the next tick of a think-time clock (a burst every think time)")
    ap.add_argument("--think-bot-game", default="cornish-smuggler",
                    help="the game of the think scenario's bot tables (default cornish-smuggler)")
    ap.add_argument("--restart-tables", default="0,1000,4000",
                    help="stored-table counts of the restart scenario, comma-separated (default 0,1000,4000)")
    ap.add_argument("--only", choices=("paced", "think", "saturated", "sqlite", "pg", "restart"), default=None,
                    help="one scenario: paced, saturated (SQLite and, with --pg, PostgreSQL), or only the saturated "
                         "SQLite or PostgreSQL runs")
    ap.add_argument("--open-seconds", type=float, default=180.0,
                    help="how long the sockets may take to open before the clock starts (default 180)")
    ap.add_argument("--json", default=None, help="also write the results to this file")
    ap.add_argument("--repeat", type=int, default=1, help="run each scenario this many times (medians are printed)")
    ap.add_argument("--probe", default=None, metavar="DIR",
                    help="run each first server under loop_probe.py (its event loop's time: CPU per action and "
                         "per bot move, lag, garbage collections, wait for a core) and print its figures")
    ap.add_argument("--profile", default=None, metavar="FILE",
                    help="run this checkout's (first) server under cProfile and write its stats to FILE")
    args = ap.parse_args()
    if not 1 <= args.tables <= 2000 or not 3 <= args.seats <= 8 or not 0 < args.seconds <= 600:
        raise SystemExit("--tables 1..2000, --seats 3..8, --seconds up to 600")
    if args.probe:
        os.makedirs(args.probe, exist_ok=True)
    versions = [("this", None)] + ([("baseline", os.path.abspath(args.baseline))] if args.baseline else [])
    tmp = tempfile.mkdtemp(prefix="ft-bench-")
    plans: list[tuple[str, str, int, dict[str, Any]]] = []
    if args.only in (None, "paced"):
        plans.append((f"paced: {args.tables}+{args.bot_tables} bot tables, {args.pace:g} s",
                      "sqlite", 1, {"tables": args.tables, "pace": args.pace, "bots": args.bot_tables}))
    if args.only in (None, "think"):
        for start in ("together", "staggered") if args.think_start == "both" else (args.think_start,):
            plans.append((f"think {start}: {args.tables}+{args.bot_tables} {args.think_bot_game[:7]} bot, "
                          f"{args.think:g} s", "sqlite", 1,
                          {"tables": args.tables, "pace": None, "bots": args.bot_tables, "think": args.think,
                           "bot_game": args.think_bot_game, "start": start}))
    if args.only in (None, "saturated", "sqlite"):
        plans.append((f"saturated: {args.busy_tables} tables", "sqlite", 1,
                      {"tables": args.busy_tables, "pace": None, "bots": 0}))
    if args.only in (None, "saturated", "pg"):
        if args.pg:
            for n in (1, 2):
                plans.append((f"saturated: {args.busy_tables} tables", "postgresql", n,
                              {"tables": args.busy_tables, "pace": None, "bots": 0}))
    print(f"{args.seats} seats a table, random client bots over websockets, {args.seconds:g} s of play a scenario "
          f"(the clock starts once the sockets are open); paced: 1 move a table every {args.pace:g} s beside "
          f"{args.bot_tables} tables of {BOT_SPEC} bots; {os.cpu_count()} CPUs, Python {sys.version.split()[0]}; "
          "load: the 1-minute load average after the run")
    results: list[dict[str, Any]] = []
    if args.only in (None, "restart"):
        counts = [int(n) for n in args.restart_tables.split(",") if n.strip()]
        print(f"{'restart: stored tables':<24} {'db':<10} {'code':<8} {'/api/games s':>12} {'/api/tables s':>13}")
        for kind, db_of in (("sqlite", lambda n, name: f"sqlite:///{tmp}/restart-{n}-{name}.db"),
                            ("postgresql", lambda _n, _name: args.pg)):
            if kind == "postgresql" and not args.pg:
                continue
            for n in counts:
                for name, src in versions:
                    r = restart(db_of(n, name), src, n)
                    r.update({"scenario": "restart", "db": kind, "code": name})
                    results.append(r)
                    print(f"{n:<24} {kind:<10} {name:<8} {r['games_s']:>12.2f} {r['lobby_s']:>13.2f}", flush=True)
                    if r["failed"]:
                        print(f"  FAILED: {r['failed']}", flush=True)
    print(_HEAD)
    for k, (label, kind, procs, plan) in enumerate(plans):
        for rep in range(args.repeat):
            for name, src in versions:  # the versions side by side, scenario by scenario, repeat by repeat
                db = args.pg if kind == "postgresql" else f"sqlite:///{tmp}/{k}-{rep}-{name}.db"
                if src and procs > 1 and not os.path.exists(os.path.join(src, "freetrader", "server", "cluster.py")):
                    continue  # before issue 20 two processes on one database did not share tables
                prof = args.profile if name == "this" and rep == 0 and k == len(plans) - 1 else None
                probe = os.path.join(args.probe, f"{k}-{rep}-{name}.json") if args.probe and not prof else None
                r = run(db, procs, src, plan["tables"], args.seats, args.seconds, plan["pace"], plan["bots"], prof,
                        args.open_seconds, plan.get("think", 0.0), plan.get("bot_game", GAME),
                        plan.get("start", "together"), probe)
                r.update({"scenario": label, "db": kind, "processes": procs, "code": name, "repeat": rep})
                results.append(r)
                _row(label, kind, procs, name, r)
                if probe and os.path.exists(probe):
                    for line in loop_probe.summary(probe):
                        print(f"  probe: {line}", flush=True)
                    print(f"  probe: the client (this process, every socket) used "
                          f"{r.get('client_cpu_ms_per_action', float('nan')):.2f} ms of CPU per action", flush=True)
                for e in r["first_errors"]:
                    print(f"  error: {e}")
    if args.repeat > 1:
        print(f"medians of {args.repeat} repeats:")
        for label, kind, procs, _plan in plans:
            for name, _src in versions:
                runs = [r for r in results if (r["scenario"], r["db"], r["processes"], r["code"]) ==
                        (label, kind, procs, name) and not r["failed"]]  # a failed run has no figures
                if runs:
                    med = {key: statistics.median(r[key] for r in runs)
                           for key in ("connections", "opened", "actions", "actions_per_s", "p50_ms", "p99_ms", "p99_arrived_ms",
                                       "cpu_ms_per_action", "wait_ms_per_action", "errors", "load")}
                    _row(f"{label} ({len(runs)} runs)", kind, procs, name, med)
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump(results, f, indent=2)
    return 0


if __name__ == "__main__":
    sys.exit(main())
