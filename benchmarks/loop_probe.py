"""The table server under probes of its event loop's time; ``bench_table.py --probe DIR`` runs it.

    python benchmarks/loop_probe.py OUT.json [serve options...]

Runs ``freetrader serve`` with, once the first human action arrives (the clock of a benchmark run):

- the loop's lag: how late a 10 ms sleep wakes;
- the loop's own CPU per human action and per bot move (the thread's CPU over each step of the
  ``act`` and ``_bot_turn`` coroutines, and over decoding a worker's answer and sending it the next
  call): figures that do not move with the machine's load;
- each garbage collection's pause, by generation, and a full collection timed at the end;
- the main thread's CPU and its wait for a core (``/proc/self/task/PID/schedstat``, Linux);
- where the loop stalls: while the lag's sleep is over 30 ms late, a thread samples the main
  thread's stack every 2 ms (the innermost frames, counted), so that a stall names its code.

On SIGUSR1 it writes them to OUT.json (``bench_table.py`` sends it before it stops the server);
``summary`` turns that file into lines. Diagnostics only: it wraps the server's methods from outside.
"""

from __future__ import annotations

import asyncio
import gc
import json
import os
import signal
import sys
import threading
import time
from collections import Counter
from collections.abc import Coroutine, Generator
from typing import Any

Record = dict[str, Any]


class _Timed:
    """Awaits ``coro``, adding the thread's CPU time of each of its steps to ``acc[0]``."""

    def __init__(self, coro: Coroutine[Any, Any, Any], acc: list[float]) -> None:
        self.coro, self.acc = coro, acc

    def __await__(self) -> Generator[Any, Any, Any]:
        it = self.coro.__await__()
        value: Any = None
        error: BaseException | None = None
        while True:
            began = time.thread_time()
            try:
                step = it.throw(error) if error is not None else it.send(value)
            except StopIteration as stop:
                self.acc[0] += time.thread_time() - began
                return stop.value
            self.acc[0] += time.thread_time() - began
            try:
                value, error = (yield step), None
            except BaseException as exc:  # noqa: BLE001 - handed on to the coroutine, as await does
                value, error = None, exc


def _schedstat() -> list[int]:
    try:
        with open(f"/proc/self/task/{os.getpid()}/schedstat") as f:
            return [int(x) for x in f.read().split()]
    except OSError:
        return [0, 0, 0]


def install(out: str) -> None:
    """Wrap the server's methods and write the record to ``out`` on SIGUSR1."""
    from freetrader.server import actions, botseats, broadcast, lobbybase, storage, workers

    rec: Record = {"lag": [], "human_cpu": [], "bot_cpu": [], "answer_cpu": [], "gc": [], "later_cpu": [],
                   "commits": [], "arrived": [], "acked": [], "read": [], "answered": [], "later_at": []}
    state = {"on": False, "gc_start": 0.0, "gc_cpu": 0.0, "tick": 0.0}
    stalls: Counter[str] = Counter()
    main_ident, main_tid = threading.get_ident(), threading.get_native_id()

    def sample_stalls() -> None:
        while True:
            time.sleep(0.002)
            if state["on"] and state["tick"] and time.perf_counter() - state["tick"] > 0.04:
                frame = sys._current_frames().get(main_ident)
                names = []
                while frame is not None and len(names) < 8:
                    code = frame.f_code
                    names.append(f"{os.path.basename(code.co_filename)}:{code.co_name}")
                    frame = frame.f_back
                try:  # where the kernel has the thread: its wait channel and system call (Linux)
                    with open(f"/proc/self/task/{main_tid}/wchan") as f:
                        wchan = f.read().strip() or "running"
                    with open(f"/proc/self/task/{main_tid}/syscall") as f:
                        call = f.read().split(" ", 1)[0]
                except OSError:
                    wchan = call = "?"
                stalls[f"[kernel: {wchan}, syscall {call}] " + " < ".join(names)] += 1

    async def probe() -> None:
        rec["sched0"], rec["t0"] = _schedstat(), time.time()
        threading.Thread(target=sample_stalls, daemon=True, name="probe-stalls").start()
        while True:
            began = state["tick"] = time.perf_counter()
            await asyncio.sleep(0.01)
            rec["lag"].append(time.perf_counter() - began - 0.01)

    act = actions.Actions.act

    async def timed_act(self: Any, table: Any, seat: Any, text: Any, *args: Any, **kwargs: Any) -> Any:
        human = kwargs.get("origin", args[1] if len(args) > 1 else "human") == "human"
        if human and not state["on"]:
            state["on"] = True
            asyncio.get_running_loop().create_task(probe())
        acc = [0.0]
        if human and state["on"]:
            rec["arrived"].append((time.perf_counter(), time.thread_time()))
        try:
            return await _Timed(act(self, table, seat, text, *args, **kwargs), acc)
        finally:
            if human and state["on"]:
                rec["human_cpu"].append(acc[0])

    bot_turn = botseats.BotSeats._bot_turn

    async def timed_bot_turn(self: Any, *args: Any, **kwargs: Any) -> None:
        acc = [0.0]
        try:
            await _Timed(bot_turn(self, *args, **kwargs), acc)
        finally:
            if state["on"]:
                rec["bot_cpu"].append(acc[0])

    took = workers.WorkerPool._took

    def timed_took(self: Any, worker: Any, message: bytes) -> None:
        began = time.thread_time()
        took(self, worker, message)
        if state["on"]:
            rec["answer_cpu"].append(time.thread_time() - began)

    append_logs = storage.Store.append_logs

    def timed_append_logs(self: Any, batch: Any) -> Any:  # on a database thread: its wall time, with its size
        began = time.perf_counter()
        try:
            return append_logs(self, batch)
        finally:
            if state["on"]:
                rec["commits"].append((len(batch), time.perf_counter() - began, began))

    batch_done = lobbybase.LobbyBase._batch_done

    def noted_batch_done(self: Any, batch: Any, done: Any) -> None:  # the loop takes a batch's answers
        if state["on"]:
            rec["answered"].append((time.perf_counter(), len(batch)))
        batch_done(self, batch, done)

    tell_behind = getattr(broadcast.Broadcasting, "_tell_behind", None)

    def timed_tell_behind(self: Any) -> None:
        began = time.thread_time()
        assert tell_behind is not None
        tell_behind(self)
        if state["on"]:
            rec["later_cpu"].append(time.thread_time() - began)
            rec["later_at"].append(time.perf_counter())

    send = lobbybase.LobbyBase._send

    def noted_send(self: Any, conn: Any, msg: Any) -> None:  # a mover's state message carries its ack
        if state["on"] and isinstance(msg, str) and '"ack": ' in msg:
            rec["acked"].append((time.perf_counter(), time.thread_time()))
        send(self, conn, msg)

    def read_text(self: Any, event: Any) -> None:  # a text frame read off a socket (before the app sees it)
        if len(rec["read"]) < 200_000:
            rec["read"].append((time.perf_counter(), time.thread_time()))
        handle_text(self, event)

    def on_gc(phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            state["gc_start"], state["gc_cpu"] = time.perf_counter(), time.thread_time()
        elif state["on"]:
            rec["gc"].append((info["generation"], time.perf_counter() - state["gc_start"], state["gc_start"],
                              time.thread_time() - state["gc_cpu"]))

    def dump(*_: Any) -> None:
        rec["sched1"], rec["t1"] = _schedstat(), time.time()
        rec["tracked"], rec["frozen"] = len(gc.get_objects()), gc.get_freeze_count()
        rec["stalls"] = stalls.most_common(12)
        state["on"] = False
        began = time.perf_counter()
        gc.collect()
        rec["full_gc"] = time.perf_counter() - began
        with open(out, "w", encoding="utf-8") as f:
            json.dump(rec, f)

    actions.Actions.act = timed_act  # type: ignore[method-assign]
    botseats.BotSeats._bot_turn = timed_bot_turn  # type: ignore[method-assign]
    workers.WorkerPool._took = timed_took  # type: ignore[method-assign]
    storage.Store.append_logs = timed_append_logs  # type: ignore[method-assign]
    try:  # the frame is written as it is made (uvicorn's sans-I/O protocol): the ack's time is its frame's
        from websockets.protocol import Protocol
    except ImportError:
        Protocol = None
    if Protocol is not None:
        send_text = Protocol.send_text

        def noted_frame(self: Any, data: Any, fin: bool = True) -> None:
            if state["on"] and b'"ack": ' in data:
                rec["acked"].append((time.perf_counter(), time.thread_time()))
            send_text(self, data, fin)

        Protocol.send_text = noted_frame  # type: ignore[method-assign]
    else:  # the time it is handed to the socket's writer
        lobbybase.LobbyBase._send = noted_send  # type: ignore[method-assign]
    if tell_behind is not None:  # the sockets told after the movers (issue 35), where the server has it
        broadcast.Broadcasting._tell_behind = timed_tell_behind  # type: ignore[method-assign]
    lobbybase.LobbyBase._batch_done = noted_batch_done  # type: ignore[method-assign]
    try:  # uvicorn's sans-I/O websocket protocol (the default from uvicorn 0.50 on): when each frame is read
        from uvicorn.protocols.websockets import websockets_sansio_impl as sansio
    except ImportError:
        sansio = None
    if sansio is not None:
        handle_text = sansio.WebSocketsSansIOProtocol.handle_text
        sansio.WebSocketsSansIOProtocol.handle_text = read_text  # type: ignore[method-assign]
    gc.callbacks.append(on_gc)
    signal.signal(signal.SIGUSR1, dump)


def _pct(values: list[float], p: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(round(p / 100 * (len(values) - 1))))] if values else float("nan")


def _first_wave(r: Record) -> list[str]:
    """The first burst of moves (those read within 0.5 s of the first): the loop's CPU and the wall time
    from the first move's arrival until as many acknowledgements as moves were sent, per move."""
    arrived, acked = r.get("arrived", []), r.get("acked", [])
    if not arrived or not acked:
        return []
    first = arrived[0]
    n = sum(1 for t, _c in arrived if t - first[0] < 0.5)
    if len(acked) < n:
        return []
    last = acked[n - 1]
    # the frames of the wave are read before its first move reaches ``act``: from the first of them on
    read = [x for x in r.get("read", []) if first[0] - 0.2 <= x[0] <= first[0]]
    if read:
        first = read[0]
    return [f"first wave: {n} moves, the last acknowledged {(last[0] - first[0]) * 1e3:.1f} ms after the first "
            f"{'was read' if read else 'arrived'}, on {(last[1] - first[1]) * 1e3:.1f} ms of loop CPU "
            f"({(last[1] - first[1]) / n * 1e3:.3f} per move)"]


def _bursts(r: Record) -> list[str]:
    """Every burst of moves read off the sockets (``bench_table.py --think-start lockstep``: frames read more
    than 0.3 s after the previous one start a burst; bursts of 20 or more): the loop's CPU per move and the
    wall time from its first frame read until as many acknowledgements as it had frames were sent."""
    read, acked = r.get("read", []), r.get("acked", [])
    if not read or not acked:
        return []
    cpu, wall, start = [], [], 0
    for i in range(1, len(read) + 1):
        if i < len(read) and read[i][0] - read[i - 1][0] <= 0.3:
            continue
        n, first = i - start, read[start]
        after = [a for a in acked if a[0] >= first[0]]
        if n >= 20 and len(after) >= n:
            cpu.append((after[n - 1][1] - first[1]) / n)
            wall.append(after[n - 1][0] - first[0])
        start = i
    if len(cpu) < 2:
        return []
    return [f"{len(cpu)} bursts of moves read: loop CPU per move until the last ack p50/max "
            f"{_pct(cpu, 50) * 1e3:.3f}/{max(cpu) * 1e3:.3f}, first frame read to last ack p50/max "
            f"{_pct(wall, 50) * 1e3:.1f}/{max(wall) * 1e3:.1f} ms"]


def summary(path: str) -> list[str]:
    """The probe's figures as lines (ms)."""
    with open(path, encoding="utf-8") as f:
        r = json.load(f)
    if "sched0" not in r:
        return ["no human action reached the server"]
    lag, human, bots, answers = r["lag"], r["human_cpu"], r["bot_cpu"], r["answer_cpu"]
    ran = (r["sched1"][0] - r["sched0"][0]) / 1e6
    waited = (r["sched1"][1] - r["sched0"][1]) / 1e6
    gcs = {g: [c[1] for c in r["gc"] if c[0] == g] for g in (0, 1, 2)}
    per = max(len(human), 1)
    commits = [c[1] for c in r.get("commits", [])]
    later = r.get("later_cpu", [])
    pauses = sum(c[1] for c in r["gc"])
    gc_cpu = [c[3] for c in r["gc"] if len(c) > 3]
    return [*_first_wave(r), *_bursts(r),
        f"loop lag p50/p99/max {_pct(lag, 50) * 1e3:.1f}/{_pct(lag, 99) * 1e3:.1f}/{max(lag, default=0) * 1e3:.0f}; "
        f"loop CPU per human action {sum(human) / per * 1e3:.3f}, per bot move "
        f"{sum(bots) / max(len(bots), 1) * 1e3:.3f} + {sum(answers) / max(len(answers), 1) * 1e3:.3f} "
        f"(answer, next call; {len(bots)} moves)"
        + (f"; other sockets told later {sum(later) / per * 1e3:.3f}" if later else ""),
        f"database batches {len(commits)}, {sum(c[0] for c in r.get('commits', [])) / max(len(commits), 1):.1f} "
        f"appends each, commit p50/p99/max {_pct(commits, 50) * 1e3:.2f}/{_pct(commits, 99) * 1e3:.1f}/"
        f"{max(commits, default=0) * 1e3:.0f}",
        f"main thread CPU {ran / per:.2f} and wait for a core {waited / per:.2f} per human action; "
        + "; ".join(f"gc gen{g} {len(v)}x, max {max(v) * 1e3:.1f}" for g, v in gcs.items() if v)
        + f"; all gc pauses {pauses * 1e3:.0f}"
        + (f" (CPU {sum(gc_cpu) * 1e3:.0f}, the longest {max(gc_cpu) * 1e3:.1f})" if gc_cpu else "")
        + f"; {r['tracked']} objects tracked ({r['frozen']} frozen), a full collection {r['full_gc'] * 1e3:.1f}",
        *(f"stalled (samples every 2 ms past 40 ms late) {n}x in {where}" for where, n in r.get("stalls", [])[:5]),
    ]


if __name__ == "__main__":
    install(sys.argv[1])
    from freetrader.cli import main

    sys.exit(main(["serve", *sys.argv[2:]]))
