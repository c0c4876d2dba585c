"""Connection hygiene (issue 35, item 1): slow requests, too many connections, idle sockets, forged headers.

Every test talks to a real server on 127.0.0.1 (``guardserver``); every wait is on something the server
does (a reply, a closed connection), bounded by a generous ``PATIENCE``.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from guardserver import PATIENCE, connect, get, live_server, read_all, wait_until

from freetrader.server import guard as guard_module
from freetrader.server.guard import descriptor_room, parse_proxies
from freetrader.server.limits import Limits

HALF_SENT = b"GET /api/games HTTP/1.1\r\nHost: t\r\nX-Slow: "  # the head never ends


def _status(raw: bytes) -> int:
    return int(raw.split(b" ", 2)[1])


def _error(raw: bytes) -> str:
    line = json.loads(raw.partition(b"\r\n\r\n")[2])["error"]
    assert isinstance(line, str) and "\n" not in line
    return line


def test_half_sent_requests_are_refused_over_the_cap_and_closed_after_the_header_timeout(tmp_path: Any) -> None:
    limits = Limits(connections_per_address=30, header_seconds=1.0)
    with live_server(f"sqlite:///{tmp_path}/t.db", limits) as (port, guard):
        slow = []
        for _ in range(30):
            s = connect(port)
            s.sendall(HALF_SENT)
            slow.append(s)
        wait_until(lambda: guard.per_address["127.0.0.1"] == 30 or guard.timed_out, "30 connections counted")
        # the address's 31st to 40th connections are refused at once, in one line
        for _ in range(10):
            with connect(port) as extra:
                extra.sendall(HALF_SENT)
                raw = read_all(extra)
            assert _status(raw) == 429 and "at most 30 connections" in _error(raw)
        # another address is served meanwhile
        status, body = get(port, "/api/games", source="127.0.0.2")
        assert status == 200 and b"contraband" in body
        # each half-sent request is answered 408 and closed once its head is late
        for s in slow:
            raw = read_all(s)
            s.close()
            assert _status(raw) == 408 and "did not arrive within 1 s" in _error(raw)
        assert guard.timed_out == 30 and guard.refused == 10
        wait_until(lambda: not guard.open, "every connection released")
        assert get(port, "/api/games")[0] == 200  # and the address itself is served again


def test_a_body_that_stops_coming_is_answered_408(tmp_path: Any) -> None:
    limits = Limits(body_seconds=1.0)
    with live_server(f"sqlite:///{tmp_path}/t.db", limits) as (port, guard), connect(port) as s:
        s.sendall(b"POST /api/tables HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\n"
                  b"Content-Length: 100\r\n\r\n{\"game\": ")
        raw = read_all(s)
        assert _status(raw) == 408 and "request body did not arrive within 1 s" in _error(raw)
        assert guard.timed_out == 1
        status, body = get(port, "/api/tables")
        assert status == 200 and json.loads(body)["total"] == 0  # nothing was created


def test_the_total_cap_refuses_with_503_and_websockets_hold_their_slot(tmp_path: Any) -> None:
    from websockets.sync.client import connect as ws_connect

    limits = Limits(connections=3, header_seconds=30.0)
    with live_server(f"sqlite:///{tmp_path}/t.db", limits) as (port, guard):
        status, body = get(port, "/api/tables", method="POST", headers={"Content-Type": "application/json"},
                            body=json.dumps({"game": "contraband", "seats": ["human"] * 3}).encode())
        assert status == 201
        tid = json.loads(body)["table"]["id"]
        with ws_connect(f"ws://127.0.0.1:{port}/ws/tables/{tid}", open_timeout=PATIENCE) as ws1, \
                ws_connect(f"ws://127.0.0.1:{port}/ws/tables/{tid}", open_timeout=PATIENCE) as ws2:
            assert json.loads(ws1.recv(timeout=PATIENCE))["type"] == "state"
            assert json.loads(ws2.recv(timeout=PATIENCE))["type"] == "state"
            assert len(guard.open) == 2
            with connect(port, "127.0.0.3") as third, connect(port, "127.0.0.4") as fourth:
                wait_until(lambda: len(guard.open) == 3, "the third connection counted")
                fourth.sendall(b"GET /api/games HTTP/1.1\r\nHost: t\r\n\r\n")
                raw = read_all(fourth)
                assert _status(raw) == 503 and "connections open, the most it takes" in _error(raw)
                third.close()
        # the websockets' end gave their slots back
        wait_until(lambda: not guard.open, "every slot released")
        assert get(port, "/api/games")[0] == 200


def test_an_idle_websocket_is_closed_and_its_slot_released(tmp_path: Any) -> None:
    from websockets.exceptions import ConnectionClosed
    from websockets.sync.client import connect as ws_connect

    limits = Limits(ws_idle_seconds=1.0)
    with live_server(f"sqlite:///{tmp_path}/t.db", limits) as (port, guard):
        status, body = get(port, "/api/tables", method="POST", headers={"Content-Type": "application/json"},
                           body=json.dumps({"game": "contraband", "seats": ["human"] * 3}).encode())
        tid = json.loads(body)["table"]["id"]
        with ws_connect(f"ws://127.0.0.1:{port}/ws/tables/{tid}", open_timeout=PATIENCE) as ws:
            assert json.loads(ws.recv(timeout=PATIENCE))["type"] == "state"
            with pytest.raises(ConnectionClosed) as closed:
                ws.recv(timeout=PATIENCE)
            assert closed.value.rcvd is not None and closed.value.rcvd.code == 1001
        wait_until(lambda: not guard.open, "the idle socket's slot released")


def test_a_forged_x_forwarded_for_is_ignored_unless_the_proxy_is_trusted(tmp_path: Any) -> None:
    create = json.dumps({"game": "contraband", "seats": ["human"] * 3}).encode()

    def make(port: int, forged: str) -> int:
        return get(port, "/api/tables", method="POST", body=create,
                   headers={"Content-Type": "application/json", "X-Forwarded-For": forged})[0]

    limits = Limits(tables_per_minute=2)
    with live_server(f"sqlite:///{tmp_path}/a.db", limits) as (port, _guard):
        # each request claims another client, but they all come from 127.0.0.1: the third is refused
        assert [make(port, f"203.0.113.{i}") for i in range(3)] == [201, 201, 429]
    with live_server(f"sqlite:///{tmp_path}/b.db", limits, parse_proxies("127.0.0.1")) as (port, _guard):
        # behind a proxy named in the configuration, the forwarded address is the client's
        assert [make(port, f"203.0.113.{i}") for i in range(3)] == [201, 201, 201]
        assert make(port, "203.0.113.0") == 201 and make(port, "203.0.113.0") == 429


def test_bad_trusted_proxies_say_what_would_be_right() -> None:
    assert [str(n) for n in parse_proxies("10.0.0.5, 192.168.0.0/16")] == ["10.0.0.5/32", "192.168.0.0/16"]
    with pytest.raises(ValueError, match="'proxy.example' is not an IP address or network; give addresses"):
        parse_proxies("10.0.0.5,proxy.example")


def test_a_low_descriptor_limit_is_raised_or_lowers_the_cap_with_a_warning(monkeypatch: pytest.MonkeyPatch) -> None:
    import resource

    limit = {"now": (1024, 1024)}
    monkeypatch.setattr(resource, "getrlimit", lambda _which: limit["now"])

    def setrlimit(_which: int, value: tuple[int, int]) -> None:
        if value[0] > limit["now"][1]:
            raise ValueError("not allowed")
        limit["now"] = value

    monkeypatch.setattr(resource, "setrlimit", setrlimit)
    room, warning = descriptor_room(Limits(connections=4096))
    assert room == 1024 - guard_module.RESERVED_DESCRIPTORS
    assert warning is not None and "descriptor limit is 1024" in warning and "LimitNOFILE" in warning
    limit["now"] = (1024, 65536)  # the hard limit has room: the soft one is raised, no warning
    assert descriptor_room(Limits(connections=4096)) == (4096, None)
    assert limit["now"] == (4096 + guard_module.RESERVED_DESCRIPTORS, 65536)


@pytest.mark.parametrize("flag, value, line", [
    ("--header-timeout", "0", "--header-timeout must be more than 0 and at most 86400 seconds, got 0"),
    ("--max-connections-per-address", "0", "--max-connections-per-address must be at least 1, got 0"),
    ("--trusted-proxies", "proxy.example", "--trusted-proxies: 'proxy.example' is not an IP address or network"),
])
def test_a_bad_connection_setting_is_one_line_and_exit_2(tmp_path: Any, flag: str, value: str, line: str) -> None:
    import subprocess
    import sys

    done = subprocess.run([sys.executable, "-m", "freetrader", "serve", flag, value, "--db",
                           f"sqlite:///{tmp_path}/t.db"], capture_output=True, text=True, timeout=PATIENCE)
    assert done.returncode == 2 and done.stderr.count("\n") == 1
    assert done.stderr.startswith(f"freetrader: error: {line}")


def test_a_connection_that_sends_nothing_is_closed_without_an_answer(tmp_path: Any) -> None:
    # a browser's spare connection: an answer written on it would be read as the reply to its next request
    with live_server(f"sqlite:///{tmp_path}/t.db", Limits(header_seconds=1.0)) as (port, guard), \
            connect(port) as silent:
        assert read_all(silent) == b""
        assert guard.timed_out == 1
        wait_until(lambda: not guard.open, "the silent connection released")
