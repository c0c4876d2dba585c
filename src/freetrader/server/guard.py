"""Connection hygiene below the application: caps on open connections and deadlines on slow requests.

uvicorn reads a request's head for as long as the client takes to send it, and takes every
connection it can accept: 800 half-sent requests from one address stayed open for good, and
1,100 of them used up the process's descriptors so that nobody else was served (issue 35).
``ConnectionGuard`` sits in uvicorn's own protocol classes (``http=`` and ``ws=`` of its
``Config``, which take a class) and adds, per connection:

- a cap on the connections open from one address and in all: a connection over either is
  answered ``429`` or ``503`` with one JSON line and closed, before the application sees it;
- a deadline for each request's head (request line and headers, from the connection's start or
  the request's first byte) and another for its body: a request that misses one is answered
  ``408`` with one line and its connection closed (a connection that sent nothing at all is
  closed without an answer: browsers open spare connections ahead, and would read the answer
  as the reply to the request they send on it next);
- the count ends when the connection does, also after it became a websocket (uvicorn hands the
  transport to its websocket protocol, whose end releases the slot).

A connection from a trusted proxy (``--trusted-proxies``) counts in the total only: the proxy
carries many clients, and their own addresses are taken from ``X-Forwarded-For``, which is read
only from such a proxy.

The descriptor limit is checked at start (``descriptor_room``): the soft limit is raised to the
hard one, and when even that leaves too few for the connection cap, the cap is lowered to fit and
a warning says how to raise the limit, so an excess connection is refused in one line rather than
failing ``accept`` for everyone.
"""

from __future__ import annotations

import asyncio
import ipaddress
import json
import logging
from collections import Counter
from typing import Any

from .limits import Limits

__all__ = ["ConnectionGuard", "RESERVED_DESCRIPTORS", "SEND_NOW", "descriptor_room", "parse_proxies",
           "uvicorn_options"]

log = logging.getLogger("freetrader.server")

#: The key, in a websocket scope's ``extensions``, of a function that writes a text message at once and
#: says whether it could (``_fast_sends``); the routes fall back to ASGI ``send`` without it.
SEND_NOW = "freetrader.send_now"
#: descriptors kept for what is not a client connection: the database, worker pipes, files served
RESERVED_DESCRIPTORS = 256

_REASONS = {408: "Request Timeout", 429: "Too Many Requests", 503: "Service Unavailable"}

Network = ipaddress.IPv4Network | ipaddress.IPv6Network


def parse_proxies(text: str) -> list[Network]:
    """The trusted proxies of ``--trusted-proxies`` (addresses or networks, comma-separated)."""
    out = []
    for part in (p.strip() for p in text.split(",")):
        if not part:
            continue
        try:
            out.append(ipaddress.ip_network(part, strict=False))
        except ValueError:
            raise ValueError(f"{part!r} is not an IP address or network; give addresses such as 10.0.0.5 or "
                             "10.0.0.0/24, comma-separated") from None
    return out


def _response(status: int, line: str) -> bytes:
    body = json.dumps({"error": line}).encode()
    head = (f"HTTP/1.1 {status} {_REASONS[status]}\r\ncontent-type: application/json\r\n"
            f"content-length: {len(body)}\r\nconnection: close\r\n\r\n")
    return head.encode() + body


class ConnectionGuard:
    """The open connections of one server, by peer address, and the deadlines of their requests."""

    def __init__(self, limits: Limits, proxies: list[Network] | None = None) -> None:
        self.limits = limits
        self.proxies = list(proxies or ())
        self.open: dict[Any, str] = {}  # transport -> peer address
        self.per_address: Counter[str] = Counter()
        self.refused = 0  # connections refused by a cap
        self.timed_out = 0  # requests closed at their head or body deadline
        self.sent_now = 0  # websocket messages written at once (``SEND_NOW``)

    def _trusted(self, addr: str) -> bool:
        try:
            ip = ipaddress.ip_address(addr)
        except ValueError:
            return False
        return any(ip in net for net in self.proxies)

    def admit(self, transport: Any) -> tuple[int, str] | None:
        """Count ``transport`` in; or the status and line refusing it (then it is not counted)."""
        peer = transport.get_extra_info("peername")
        addr = str(peer[0]) if isinstance(peer, (tuple, list)) and peer else ""
        caps = self.limits
        if len(self.open) >= caps.connections:
            self.refused += 1
            return 503, (f"the server has {len(self.open)} connections open, the most it takes; "
                         "try again in a moment")
        if not self._trusted(addr) and self.per_address[addr] >= caps.connections_per_address:
            self.refused += 1
            return 429, (f"at most {caps.connections_per_address} connections may be open from one address; "
                         "close some and try again")
        self.open[transport] = addr
        self.per_address[addr] += 1
        return None

    def release(self, transport: Any) -> None:
        addr = self.open.pop(transport, None)
        if addr is None:
            return
        self.per_address[addr] -= 1
        if self.per_address[addr] <= 0:
            del self.per_address[addr]

    # -- the protocol classes uvicorn makes a connection's protocol from ---------------------------
    def http_protocol(self) -> type[asyncio.Protocol]:
        """uvicorn's httptools protocol with the caps and the head and body deadlines.

        Long because the class is made here: it subclasses uvicorn's protocol, which is imported only
        when serving, and closes over this guard; each of its methods is short.
        """
        from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

        guard = self

        class GuardedHttp(HttpToolsProtocol):
            # the parser calls on_message_begin, on_headers_complete and on_message_complete (httptools'
            # callback interface): the deadlines are armed and cleared there
            connection_guard = guard
            _deadline: asyncio.TimerHandle | None = None
            _refusal: bytes | None = None
            _begun = False  # a request's first byte came, and its end has not

            def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
                refused = guard.admit(transport)
                if refused is not None:
                    # answered once the request arrives (a reply sent before it may be lost to a reset)
                    self._refusal = _response(*refused)
                    self.transport = transport
                    self._deadline = self.loop.call_later(min(2.0, guard.limits.header_seconds), self._refuse)
                    return
                super().connection_made(transport)
                self._arm("head")

            def _refuse(self) -> None:
                if self._refusal is not None and not self.transport.is_closing():
                    self.transport.write(self._refusal)
                    self.transport.close()

            def data_received(self, data: bytes) -> None:
                if self._refusal is not None:
                    self._refuse()
                    return
                super().data_received(data)

            def connection_lost(self, exc: Exception | None) -> None:
                self._disarm()
                if self._refusal is not None:
                    return
                guard.release(self.transport)
                super().connection_lost(exc)

            def _arm(self, part: str) -> None:
                self._disarm()
                seconds = guard.limits.header_seconds if part == "head" else guard.limits.body_seconds
                self._deadline = self.loop.call_later(seconds, self._too_slow, part, seconds)

            def _disarm(self) -> None:
                if self._deadline is not None:
                    self._deadline.cancel()
                    self._deadline = None

            def _too_slow(self, part: str, seconds: float) -> None:
                self._deadline = None
                if self.transport.is_closing():
                    return
                guard.timed_out += 1
                if part == "head" and not self._begun:
                    # not a byte of a request yet (a browser opens spare connections ahead): closed without a
                    # word, as at the end of a keep-alive; an answer there would be read as the next request's
                    self.transport.close()
                    return
                if self.cycle is None or self.cycle.response_complete or not self.cycle.response_started:
                    what = "request line and headers" if part == "head" else "request body"
                    self.transport.write(_response(408, f"the {what} did not arrive within {seconds:g} s; "
                                                        "send the whole request at once"))
                    if self.cycle is not None and not self.cycle.response_complete:
                        self.cycle.disconnected = True  # the application's answer, if any, goes nowhere
                self.transport.close()

            def on_message_begin(self) -> None:
                super().on_message_begin()
                self._begun = True
                if self._deadline is None:  # a kept-alive connection's next request: its head from now
                    self._arm("head")

            def on_headers_complete(self) -> None:
                self._disarm()
                super().on_headers_complete()
                if not self.parser.should_upgrade():
                    self._arm("body")

            def on_message_complete(self) -> None:
                self._disarm()
                self._begun = False
                super().on_message_complete()

        return GuardedHttp

    def ws_protocol(self) -> type[asyncio.Protocol]:
        """uvicorn's websocket protocol, releasing the connection's slot when the socket ends.

        On uvicorn's sans-I/O protocol (added in 0.35, its default from 0.50 on) a socket's scope also offers
        ``SEND_NOW`` (``_fast_sends``).
        """
        from uvicorn.protocols.websockets.auto import AutoWebSocketsProtocol

        if AutoWebSocketsProtocol is None:
            raise ImportError("websockets")
        guard = self

        class GuardedWebSocket(_fast_sends(AutoWebSocketsProtocol, self)):  # type: ignore[misc]
            def connection_made(self, transport: asyncio.BaseTransport) -> None:
                self._guarded = transport
                super().connection_made(transport)

            def connection_lost(self, exc: Exception | None) -> None:
                guard.release(self._guarded)
                super().connection_lost(exc)

        return GuardedWebSocket


def _fast_sends(base: Any, guard: ConnectionGuard) -> Any:
    """``base`` with ``SEND_NOW`` in each socket's scope, when ``base`` is uvicorn's sans-I/O protocol.

    Its ``send`` (the ASGI one) writes a text frame at once unless the transport is paused; reached
    through Starlette's ``WebSocket`` and a writer task per socket, a message costs several steps of
    the loop. ``send_now`` writes the frame in the caller's step, or says it cannot (the socket is
    not open, or its peer reads too slowly: then the caller queues the message for its writer as
    before). With 200 tables moving every 2 s, the loop's CPU per move went 0.65 -> 0.56 ms (issue 35).
    """
    try:
        from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
        from websockets.exceptions import InvalidState
    except ImportError:  # an older uvicorn: every message goes the ASGI way
        return base
    if not issubclass(base, WebSocketsSansIOProtocol):
        return base

    class FastSends(base):  # type: ignore[misc]
        def handle_connect(self, event: Any) -> None:
            super().handle_connect(event)
            scope = getattr(self, "scope", None)
            if scope is not None:  # the handshake goes on to the application
                scope.setdefault("extensions", {})[SEND_NOW] = self.send_now

        def send_now(self, text: str) -> bool:
            """Write ``text`` as a frame now, as ``send`` would; False when ``send`` could not at once."""
            if (not self.handshake_complete or self.close_sent or self.disconnected
                    or self.initial_response is not None or not self.writable.is_set()
                    or self.transport.is_closing()):
                return False
            try:
                self.conn.send_text(text.encode())
            except InvalidState:
                return False
            self.transport.write(b"".join(self.conn.data_to_send()))
            guard.sent_now += 1
            return True

    return FastSends


def descriptor_room(limits: Limits) -> tuple[int, str | None]:
    """The connection cap the descriptor limit leaves room for, and a warning line when it is lower.

    The soft limit is raised as far as the hard one allows (no privilege is needed for that).
    """
    try:
        import resource
    except ImportError:  # not a POSIX system: nothing to check
        return limits.connections, None
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = limits.connections + RESERVED_DESCRIPTORS
    if soft != resource.RLIM_INFINITY and soft < wanted:
        target = wanted if hard == resource.RLIM_INFINITY else min(hard, wanted)
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
            soft = target
        except (ValueError, OSError):
            pass
    if soft == resource.RLIM_INFINITY or soft >= wanted:
        return limits.connections, None
    room = max(1, soft - RESERVED_DESCRIPTORS)
    return room, (f"the descriptor limit is {soft} (hard {hard}), too low for {limits.connections} connections: "
                  f"at most {room} are taken; raise it (LimitNOFILE=65536 in the systemd unit, "
                  "docs/deployment.md) or lower --max-connections")


def uvicorn_options(limits: Limits, proxies: list[Network] | None = None) -> dict[str, Any]:
    """``uvicorn.Config`` keyword arguments: the guarded protocols, keep-alive and websocket pings, and
    ``X-Forwarded-For`` read only from ``proxies`` (never by default)."""
    guard = ConnectionGuard(limits, proxies)
    return {
        "http": guard.http_protocol(), "ws": guard.ws_protocol(),
        "timeout_keep_alive": 5,
        # a websocket that answers no ping within 20 s is closed (a silent peer; browsers answer)
        "ws_ping_interval": 20.0, "ws_ping_timeout": 20.0,
        "proxy_headers": bool(proxies),
        "forwarded_allow_ips": ",".join(str(n) for n in proxies) if proxies else "",
    }
