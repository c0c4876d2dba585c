"""The CLI in a process of its own, stopped by a signal as a terminal or a shell's ``kill`` would stop it."""

from __future__ import annotations

import signal
import subprocess
import sys
import time
from collections.abc import Callable


def cli_argv(*args: str) -> list[str]:
    return [sys.executable, "-c", "import sys; from freetrader.cli import main; sys.exit(main(sys.argv[1:]))", *args]


def signal_when_ready(argv: list[str], sig: int, ready: Callable[[], bool], *, background: bool = False,
                      bound: float = 300) -> tuple[int, str]:
    """Start ``argv``, send ``sig`` once ``ready()`` (or the process ended), and return its exit code and stderr.

    ``background``: started as a shell starts a job with ``&``, SIGINT ignored. The bounds are generous
    and only end a run that never gets ready or never stops, however loaded the machine.
    """
    preexec = (lambda: signal.signal(signal.SIGINT, signal.SIG_IGN)) if background else None
    proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, preexec_fn=preexec)
    try:
        deadline = time.monotonic() + bound
        while not ready() and proc.poll() is None:
            assert time.monotonic() < deadline, f"not ready within {bound} s: {argv}"
            time.sleep(0.02)
        proc.send_signal(sig)
        _, err = proc.communicate(timeout=bound)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    return proc.returncode, err
