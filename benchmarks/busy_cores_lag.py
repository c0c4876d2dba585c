"""How late a sleeping process wakes while other processes keep some or all of the cores busy.

    python benchmarks/busy_cores_lag.py [--seconds 15] [--policy idle|nice|normal]

The table server's bot workers search without pause and yield to the server (Linux's idle CPU
policy). This measures what that leaves a process that sleeps and wakes, as the server's event
loop does: a loop of 10 ms ``epoll`` waits (the loop's timer) and of reads of a byte another
process writes every 10 ms (a socket's message), beside 0, cores - 1 and all cores' worth of busy
processes. Printed per row: how late the wake-ups were (p50, p99, max, how many over 20 ms) and
the time the host took the machine's cores away meanwhile (``steal`` in ``/proc/stat``). On the
2-core machine this project is measured on, all cores busy gave wake-ups about 100 ms late a few
times in 15 s, with 0.3 s of steal; one core free gave none (``server.workers.default_bot_workers``).
"""

from __future__ import annotations

import argparse
import os
import select
import signal
import socket
import time


def _spin(policy: str) -> None:
    if policy == "idle":
        os.sched_setscheduler(0, os.SCHED_IDLE, os.sched_param(0))
    elif policy == "nice":
        os.nice(19)
    while True:
        pass


def _steal() -> int:
    with open("/proc/stat", encoding="ascii") as f:
        fields = f.readline().split()
    return int(fields[8]) if len(fields) > 8 else 0  # USER_HZ ticks


def _wakeups(kind: str, seconds: float) -> list[float]:
    """How late each wake-up came, in seconds."""
    late: list[float] = []
    end = time.monotonic() + seconds
    ep = select.epoll()
    if kind == "timer":
        while time.monotonic() < end:
            began = time.perf_counter()
            ep.poll(0.01)
            late.append(time.perf_counter() - began - 0.01)
        return late
    mine, theirs = socket.socketpair()
    writer = os.fork()
    if writer == 0:
        mine.close()
        while True:
            time.sleep(0.01)
            theirs.send(b"x")
    theirs.close()
    ep.register(mine.fileno(), select.EPOLLIN)
    last = time.perf_counter()
    try:
        while time.monotonic() < end:
            ep.poll(1.0)
            mine.recv(64)
            now = time.perf_counter()
            late.append(max(0.0, now - last - 0.01))
            last = now
    finally:
        os.kill(writer, signal.SIGKILL)
        os.waitpid(writer, 0)
    return late


def _row(busy: int, policy: str, kind: str, seconds: float) -> str:
    spinners = []
    for _ in range(busy):
        pid = os.fork()
        if pid == 0:
            _spin(policy)
        spinners.append(pid)
    steal0 = _steal()
    try:
        late = sorted(_wakeups(kind, seconds))
    finally:
        for pid in spinners:
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
    steal_ms = (_steal() - steal0) * 1000 / os.sysconf("SC_CLK_TCK")
    n = len(late)
    return (f"| {busy} | {kind} | {n} | {late[n // 2] * 1e3:.2f} | {late[int(0.99 * (n - 1))] * 1e3:.2f} | "
            f"{late[-1] * 1e3:.1f} | {sum(x > 0.02 for x in late)} | {steal_ms:.0f} |")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--seconds", type=float, default=15.0, help="seconds a row (default 15)")
    ap.add_argument("--policy", choices=("idle", "nice", "normal"), default="idle",
                    help="the busy processes' CPU policy (default idle, as the bot workers)")
    args = ap.parse_args()
    cores = os.cpu_count() or 1
    print(f"{cores} cores; busy processes under the {args.policy} policy; {args.seconds:g} s a row; ms")
    print("| busy processes | wake-up | wake-ups | p50 late | p99 late | max late | over 20 ms | steal |")
    print("|---|---|---|---|---|---|---|---|")
    for busy in sorted({0, max(0, cores - 1), cores}):
        for kind in ("timer", "message"):
            print(_row(busy, args.policy, kind, args.seconds), flush=True)


if __name__ == "__main__":
    main()
