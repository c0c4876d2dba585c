"""A real uvicorn server in a thread, configured as ``freetrader serve`` configures it (server/guard.py).

The connection guard works in uvicorn's protocol classes, below the application, so the tests of
slow and many connections talk to a listening socket on 127.0.0.1, not to a TestClient.
"""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import uvicorn

from freetrader.server.app import create_app
from freetrader.server.guard import Network, uvicorn_options
from freetrader.server.limits import Limits

#: the outer bound of every wait on the server (a readiness signal, never a measured window)
PATIENCE = 60.0


def wait_until(pred: Any, what: str, timeout: float = PATIENCE) -> Any:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        got = pred()
        if got:
            return got
        time.sleep(0.05)
    raise AssertionError(f"{what}: not within {timeout:g} s")


@contextmanager
def live_server(db_url: str, limits: Limits, proxies: list[Network] | None = None) -> Iterator[tuple[int, Any]]:
    """``(port, guard)`` of a server on 127.0.0.1 with ``limits``, until the block ends."""
    sock = socket.socket()
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    options = uvicorn_options(limits, proxies)
    config = uvicorn.Config(create_app(db_url, bot_workers=1, limits=limits), log_level="warning", **options)
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    try:
        wait_until(lambda: server.started, "the server started")
        yield port, options["http"].connection_guard
    finally:
        server.should_exit = True
        thread.join(PATIENCE)
        sock.close()


def connect(port: int, source: str = "127.0.0.1") -> socket.socket:
    """A TCP connection to the server from ``source`` (any 127.x.y.z is this machine)."""
    s = socket.create_connection(("127.0.0.1", port), timeout=PATIENCE, source_address=(source, 0))
    return s


def read_all(s: socket.socket) -> bytes:
    """Everything the server sends until it closes the connection."""
    out = b""
    while True:
        try:
            chunk = s.recv(65536)
        except ConnectionResetError:
            return out
        if not chunk:
            return out
        out += chunk


def get(port: int, path: str, source: str = "127.0.0.1", headers: dict[str, str] | None = None,
        method: str = "GET", body: bytes = b"") -> tuple[int, bytes]:
    """One whole request on a connection of its own: (status, body)."""
    with connect(port, source) as s:
        extra = "".join(f"{k}: {v}\r\n" for k, v in (headers or {}).items())
        s.sendall(f"{method} {path} HTTP/1.1\r\nHost: t\r\nConnection: close\r\n{extra}"
                  f"Content-Length: {len(body)}\r\n\r\n".encode() + body)
        raw = read_all(s)
    head, _, rest = raw.partition(b"\r\n\r\n")
    return int(head.split(b" ", 2)[1]), rest
