"""A real table server in a child process (so a test can kill -9 it), for browser tests and scripts."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class LiveServer:
    def __init__(self, db_url: str, port: int | None = None, bot_delay: float = 0.05) -> None:
        self.db_url = db_url
        self.port = port or free_port()
        self.bot_delay = bot_delay
        self.proc: subprocess.Popen[bytes] | None = None
        self.log = tempfile.TemporaryFile()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self, timeout: float = 300.0) -> LiveServer:
        env = dict(os.environ, PYTHONUNBUFFERED="1")
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "freetrader.server", "--port", str(self.port), "--db", self.db_url,
             "--bot-delay", str(self.bot_delay),
             # beside the rest of a test run, workers under the idle policy got no CPU (a review never came)
             "--worker-cpu", "nice"],
            env=env, stdout=subprocess.DEVNULL, stderr=self.log,
        )
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            if self.proc.poll() is not None:
                raise RuntimeError(f"the server exited with {self.proc.returncode}: {self.errors()}")
            try:
                with urllib.request.urlopen(self.url + "/api/games", timeout=60) as r:
                    if r.status == 200:
                        return self
            except OSError:
                time.sleep(0.1)
        self.stop()  # not left running behind a failed test
        raise RuntimeError(f"the server did not answer on {self.url} within {timeout} s: {self.errors()}")

    def __enter__(self) -> LiveServer:
        return self

    def __exit__(self, *_exc: object) -> None:
        self.stop()

    def errors(self) -> str:
        self.log.seek(0)
        return self.log.read().decode("utf-8", "replace")[-4000:]

    def kill(self) -> None:
        """SIGKILL: no shutdown code runs, as in a crash."""
        if self.proc is not None and self.proc.poll() is None:
            os.kill(self.proc.pid, signal.SIGKILL)
            self.proc.wait()

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=60)
            except subprocess.TimeoutExpired:
                self.kill()
