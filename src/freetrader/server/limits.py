"""Limits: the request-body size (plain ASGI middleware answering 413), and the per-client caps (429)."""

from __future__ import annotations

import json
import time
from collections import deque
from dataclasses import dataclass
from typing import Any

from starlette.exceptions import HTTPException

__all__ = ["BodyLimit", "Bucket", "Limits", "PerMinute", "TooMany"]

Scope = dict[str, Any]
Message = dict[str, Any]


class _TooLarge(HTTPException):
    """Raised while the body is read; FastAPI passes an HTTPException on to the error handler."""

    def __init__(self, limit: int) -> None:
        super().__init__(413, f"request body too large: at most {limit} bytes are accepted")


class BodyLimit:
    """Refuse HTTP bodies over ``limit`` bytes (``large_paths`` maps a path to its own limit)."""

    def __init__(self, app: Any, limit: int, large_paths: dict[str, int] | None = None) -> None:
        self.app = app
        self.limit = limit
        self.large_paths = large_paths or {}

    async def __call__(self, scope: Scope, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        limit = self.large_paths.get(scope.get("path", ""), self.limit)
        for name, value in scope.get("headers", ()):
            if name == b"content-length":
                try:
                    too_big = int(value) > limit
                except ValueError:
                    too_big = False
                if too_big:
                    await self._refuse(send, limit)
                    return
        seen = 0
        started = False

        async def counting_receive() -> Message:
            nonlocal seen
            msg: Message = await receive()
            if msg["type"] == "http.request":
                seen += len(msg.get("body", b""))
                if seen > limit:
                    raise _TooLarge(limit)
            return msg

        async def tracking_send(msg: Message) -> None:
            nonlocal started
            if msg["type"] == "http.response.start":
                started = True
            await send(msg)

        try:
            await self.app(scope, counting_receive, tracking_send)
        except _TooLarge:
            if not started:
                await self._refuse(send, limit)

    @staticmethod
    async def _refuse(send: Any, limit: int) -> None:
        body = json.dumps({"error": f"request body too large: at most {limit} bytes are accepted"}).encode()
        await send({"type": "http.response.start", "status": 413,
                    "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]})
        await send({"type": "http.response.body", "body": body})


@dataclass
class Limits:
    """What one client, and everyone together, may ask of this server (``freetrader serve --help``).

    A request over a limit is answered 429 with one line saying which; a websocket over one gets that
    line as an error message and is closed with code 4429. Addresses are the peer's IP as the server
    sees it; behind a proxy named in ``--trusted-proxies``, the client's address the proxy forwards.
    """

    tables_per_minute: int = 30  # tables one address may create per minute
    open_tables: int = 2000  # tables in the lobby (playing, and used by a human lately), in all
    open_tables_per_address: int = 20  # of those, created from one address
    lobby_idle_seconds: float = 900.0  # a table no human seat used for so long leaves the lobby
    sockets_per_table: int = 100  # websockets on one table (players and spectators)
    sockets_per_address: int = 200  # websockets from one address, over every table
    heavy_requests: int = 4  # replays running or waiting at once
    heavy_seconds: float = 10.0  # deadline of one replay
    # a whole state message (a socket's first, or one asked for with {"type": "view"}) costs the
    # server the whole log and events, which grow with the game (40 ms at 3,000 Cornish actions), and
    # the asker 20 bytes: so many a second from one address; a socket waits for its turn
    whole_views_per_second: float = 20.0
    messages_per_second: float = 50.0  # messages one socket may send a second (twice that at once)
    # connections (server/guard.py): over a cap a connection is refused in one line before it is read;
    # a request whose head or body is not in within its deadline is answered 408 and closed
    connections: int = 4096  # open connections in all (lowered at start to what the descriptors allow)
    connections_per_address: int = 256  # open connections from one address (a trusted proxy: no cap)
    header_seconds: float = 10.0  # a request's line and headers, from its first byte (or the connection's)
    body_seconds: float = 30.0  # a request's body, from the end of its headers
    ws_idle_seconds: float = 1800.0  # a websocket that sends no message for so long is closed (pages reconnect)


class Bucket:
    """A token bucket per key: ``rate`` a second, up to ``burst`` at once."""

    def __init__(self, rate: float, burst: float) -> None:
        self.rate, self.burst = rate, burst
        self.tokens: dict[str, tuple[float, float]] = {}  # key -> (tokens, when counted)

    def wait(self, key: str, now: float | None = None) -> float:
        """Take one token for ``key``: 0 if one was there, else how many seconds to wait for it (taken)."""
        now = time.monotonic() if now is None else now
        have, then = self.tokens.get(key, (self.burst, now))
        have = min(self.burst, have + (now - then) * self.rate) - 1.0
        self.tokens[key] = (have, now)
        if len(self.tokens) > 10_000:  # forget keys that have filled up again
            self.tokens = {k: v for k, v in self.tokens.items() if v[0] + (now - v[1]) * self.rate < self.burst}
        return 0.0 if have >= 0 else -have / self.rate

    def allow(self, key: str, now: float | None = None) -> bool:
        """Take one token for ``key`` if one is there now (nothing is taken otherwise)."""
        now = time.monotonic() if now is None else now
        have, then = self.tokens.get(key, (self.burst, now))
        have = min(self.burst, have + (now - then) * self.rate)
        if have < 1.0:
            self.tokens[key] = (have, now)
            return False
        self.tokens[key] = (have - 1.0, now)
        return True


class TooMany(HTTPException):
    def __init__(self, reason: str) -> None:
        super().__init__(429, reason)


class PerMinute:
    """A sliding one-minute count of events per key (an address)."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.seen: dict[str, deque[float]] = {}

    def allow(self, key: str, now: float | None = None) -> bool:
        now = time.monotonic() if now is None else now
        times = self.seen.setdefault(key, deque())
        while times and now - times[0] >= 60.0:
            times.popleft()
        if len(times) >= self.limit:
            return False
        times.append(now)
        if len(self.seen) > 10_000:  # forget idle addresses so the map stays small
            for k in [k for k, v in self.seen.items() if not v or now - v[-1] >= 60.0]:
                del self.seen[k]
        return True
