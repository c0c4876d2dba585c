"""Bounded work: each configurable cap answers 429 with one line; replays run in a worker process;
a second server process on the same SQLite file is refused with one line."""

from __future__ import annotations

import json
import socket
import subprocess
import sys
import threading
import time
import urllib.request
from typing import Any

import pytest
from fastapi.testclient import TestClient
from tablehelp import SHORT, create, wait_for_file

import freetrader
from freetrader.server import context as context_module
from freetrader.server.app import create_app
from freetrader.server.limits import Bucket, Limits
from freetrader.server.workers import replay_view


def _one_line_429(r: Any, words: str) -> None:
    assert r.status_code == 429, r.text
    error = r.json()["error"]
    assert words in error and "\n" not in error


def test_tables_per_address_per_minute(tmp_path: Any) -> None:
    with TestClient(create_app(f"sqlite:///{tmp_path}/t.db", limits=Limits(tables_per_minute=2))) as c:
        create(c, ["human"] * 3, SHORT)
        create(c, ["human"] * 3, SHORT)
        r = c.post("/api/tables", json={"game": "contraband", "seats": ["human"] * 3})
        _one_line_429(r, "at most 2 tables a minute")


def test_open_tables(tmp_path: Any) -> None:
    with TestClient(create_app(f"sqlite:///{tmp_path}/t.db", limits=Limits(open_tables=2))) as c:
        create(c, ["human"] * 3, SHORT)
        create(c, ["human"] * 3, SHORT)
        r = c.post("/api/tables", json={"game": "contraband", "seats": ["human"] * 3})
        _one_line_429(r, "2 tables are open")


def test_sockets_per_table_and_per_address(tmp_path: Any) -> None:
    caps = Limits(sockets_per_table=2, sockets_per_address=3)
    with TestClient(create_app(f"sqlite:///{tmp_path}/t.db", limits=caps)) as c:
        a, b = create(c, ["human"] * 3, SHORT), create(c, ["human"] * 3, SHORT)
        with c.websocket_connect(f"/ws/tables/{a}") as w1, c.websocket_connect(f"/ws/tables/{a}") as w2:
            w1.receive_json(), w2.receive_json()
            with c.websocket_connect(f"/ws/tables/{a}") as w3:
                msg = w3.receive_json()
                assert msg["status"] == 429 and msg["fatal"] and "2 open connections" in msg["error"]
            with c.websocket_connect(f"/ws/tables/{b}") as w4:
                assert w4.receive_json()["type"] == "state"
                with c.websocket_connect(f"/ws/tables/{b}") as w5:
                    msg = w5.receive_json()
                    assert msg["status"] == 429 and "at most 3 connections" in msg["error"]
        with c.websocket_connect(f"/ws/tables/{a}") as w6:  # closed sockets no longer count
            assert w6.receive_json()["type"] == "state"


def test_a_token_bucket_allows_its_burst_then_its_rate() -> None:
    b = Bucket(rate=2.0, burst=3.0)
    assert [b.allow("a", now=10.0) for _ in range(4)] == [True, True, True, False]
    assert b.allow("b", now=10.0)  # each key has its own
    assert not b.allow("a", now=10.4) and b.allow("a", now=10.5)  # one more every half second
    w = Bucket(rate=2.0, burst=1.0)
    assert w.wait("a", now=0.0) == 0.0
    assert w.wait("a", now=0.0) == pytest.approx(0.5) and w.wait("a", now=0.0) == pytest.approx(1.0)  # in turn
    assert w.wait("a", now=5.0) == 0.0  # filled up again (to the burst, no more)
    assert w.wait("a", now=5.0) == pytest.approx(0.5)


def test_a_socket_flooding_messages_is_refused_in_one_line_and_the_table_goes_on(tmp_path: Any) -> None:
    caps = Limits(messages_per_second=1.0)  # two at once, then one a second
    with TestClient(create_app(f"sqlite:///{tmp_path}/t.db", limits=caps)) as c:
        tid = create(c, ["human"] * 3, SHORT)
        with c.websocket_connect(f"/ws/tables/{tid}") as flood, c.websocket_connect(f"/ws/tables/{tid}") as other:
            flood.receive_json(), other.receive_json()
            for i in range(12):
                flood.send_text(json.dumps({"type": "ping", "id": i}))
            replies = [flood.receive_json() for _ in range(12)]
            refused = [r for r in replies if r["type"] == "error"]
            assert len(refused) >= 8 and all(r["status"] == 429 and "at most 1 a second" in r["error"]
                                              and "\n" not in r["error"] for r in refused)
            assert [r["id"] for r in replies if r["type"] == "pong"][:2] == [0, 1]  # the burst was answered
            other.send_text(json.dumps({"type": "ping", "id": "x"}))
            assert other.receive_json() == {"type": "pong", "id": "x"}  # another socket is not held up


def test_whole_views_from_one_address_wait_their_turn(tmp_path: Any) -> None:
    caps = Limits(whole_views_per_second=4.0)  # four at once, then one every quarter second
    with TestClient(create_app(f"sqlite:///{tmp_path}/t.db", limits=caps)) as c:
        tid = create(c, ["human"] * 3, SHORT)
        with c.websocket_connect(f"/ws/tables/{tid}") as ws:
            assert ws.receive_json()["type"] == "state"
            started = time.monotonic()
            for _ in range(7):  # 20 bytes each, the whole log and events each answer
                ws.send_text(json.dumps({"type": "view"}))
            answers = [ws.receive_json() for _ in range(7)]
            waited = time.monotonic() - started
        assert all(a["type"] == "state" and a["events_from"] == 0 and "view" in a for a in answers)
        assert waited >= 0.75  # 3 more at once, then 4 a quarter second apart: at least 1 s, less the clock's grain


_GATE: list[Any] = []  # the folder the gated replay signals in (the worker is forked after it is set)


def _gated_replay(record: dict[str, Any], upto: int | None) -> dict[str, Any]:
    """A replay that says it has started, then runs only once the test lets it (no sleeping and hoping)."""
    gate = _GATE[0]
    (gate / "entered").touch()
    wait_for_file(gate / "release", "the release of the gated replay")
    return replay_view(record, upto)


def test_replays_run_in_a_worker_and_too_many_at_once_get_429(tmp_path: Any, monkeypatch: Any) -> None:
    state = freetrader.game("contraband").new_state(3, 1, SHORT)
    state.apply("declare")
    body = {"record": state.record()}
    gate = tmp_path / "gate"
    gate.mkdir()
    monkeypatch.setattr(sys.modules[__name__], "_GATE", [gate])
    monkeypatch.setattr(context_module, "replay_view", _gated_replay)
    with TestClient(create_app(f"sqlite:///{tmp_path}/t.db", limits=Limits(heavy_requests=1, heavy_seconds=300))) as c:
        answers: list[Any] = []

        def post() -> None:
            answers.append(c.post("/api/replay", json=body))

        first = threading.Thread(target=post)
        first.start()
        wait_for_file(gate / "entered", "the first replay's start")
        others = [threading.Thread(target=post) for _ in range(2)]
        for t in others:
            t.start()
        for t in others:  # refused while the first still runs: they do not wait for it
            t.join(timeout=300)
            assert not t.is_alive(), "a replay beyond the limit waited instead of getting 429"
        assert [r.status_code for r in answers] == [429, 429], [r.text for r in answers]
        (gate / "release").touch()
        first.join(timeout=300)
        codes = sorted(r.status_code for r in answers)
        assert codes == [200, 429, 429], [r.text for r in answers]
        _one_line_429(next(r for r in answers if r.status_code == 429), "replays are running")
        ok = next(r for r in answers if r.status_code == 200).json()
        assert ok["upto"] == 1 and ok["view"] == state.view(None)
        # the event loop stays free while a replay waits in its worker: answered before the replay ends
        assert c.get("/api/games").status_code == 200  # the first call imports every game: not under test
        (gate / "entered").unlink()
        (gate / "release").unlink()
        t = threading.Thread(target=post)
        t.start()
        wait_for_file(gate / "entered", "the second replay's start")
        assert c.get("/api/games").status_code == 200 and t.is_alive()
        (gate / "release").touch()
        t.join(timeout=300)
        assert answers[-1].status_code == 200


def _get(url: str) -> bool:
    try:
        with urllib.request.urlopen(url, timeout=10) as r:
            return bool(r.status == 200)
    except OSError:
        return False


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def test_a_second_server_on_the_same_sqlite_file_is_refused(tmp_path: Any) -> None:
    from freetrader.server.storage import InUse, claim_sqlite

    db = f"sqlite:///{tmp_path}/shared.db"
    cmd = [sys.executable, "-m", "freetrader.server", "--db", db, "--port"]
    port = _free_port()  # not a fixed number: another run of the suite on this machine may hold it
    first = subprocess.Popen([*cmd, str(port)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        # ready when it answers; the bound only ends a server that never starts (a loaded machine is slow)
        end = time.monotonic() + 300
        while not _get(f"http://127.0.0.1:{port}/api/games"):
            assert first.poll() is None, f"the first server exited {first.returncode}"
            assert time.monotonic() < end, "the first server did not answer within 300 s"
            time.sleep(0.1)
        second = subprocess.run([*cmd, str(_free_port())], capture_output=True, text=True, timeout=300)
        assert second.returncode == 2
        lines = [ln for ln in (second.stdout + second.stderr).splitlines() if ln.strip()]
        assert len(lines) == 1 and "another freetrader server is using" in lines[0], lines
        with pytest.raises(InUse):
            claim_sqlite(db)
    finally:
        first.terminate()
        first.wait(timeout=120)
    assert claim_sqlite(db)  # free again once the first has stopped


def test_state_messages_send_the_whole_log_once_then_deltas(client: TestClient) -> None:
    tid = create(client, ["human", "human", "random"], {**SHORT, "first_officer": "agreement"})
    tokens = {s: client.post(f"/api/tables/{tid}/join", json={"seat": s}).json()["token"] for s in (0, 1)}
    with client.websocket_connect(f"/ws/tables/{tid}?token={tokens[1]}") as p1, \
            client.websocket_connect(f"/ws/tables/{tid}?token={tokens[1]}") as p1b, \
            client.websocket_connect(f"/ws/tables/{tid}") as s1, client.websocket_connect(f"/ws/tables/{tid}") as s2:
        first = p1.receive_json()
        for ws in (p1b, s1, s2):
            ws.receive_json()
        full = client.get(f"/api/tables/{tid}/view", params={"token": tokens[1]}).json()["view"]["events"]
        assert first["events_from"] == 0 and first["events"] == full and "events" not in first["view"]
        assert first["log_from"] == 0 and first["log"]  # the readable log, whole on connect
        known = list(first["events"])
        lines = list(first["log"])
        whole = len(lines)
        for action in ("claim brandy", "declare"):
            p1.send_text(json.dumps({"type": "action", "action": action, "seq": first["seq"]}))
            frames = [ws.receive_text() for ws in (p1, p1b)]
            # one seat's sockets share the same bytes; the one that moved has its acknowledgement added
            assert frames[0] == frames[1][:-1] + ', "ack": {"id": null}}'
            assert s1.receive_text() == s2.receive_text()  # and so do all spectators
            msg = json.loads(frames[1])
            assert msg["type"] == "state" and msg["events_from"] == len(known)
            assert msg["log_from"] == len(lines)  # only the new lines of the log (a claim may add none)
            known += msg["events"]
            lines += msg["log"]
            assert "ack" not in msg and json.loads(frames[0])["ack"] == {"id": None}
            first = msg
        now = client.get(f"/api/tables/{tid}/view", params={"token": tokens[1]}).json()["view"]["events"]
        assert known == now and len(now) > len(full)
        # the log rebuilt from deltas is the one a fresh request reads
        assert len(lines) > whole and lines == client.get(f"/api/tables/{tid}/view", params={"token": tokens[1]}).json()["log"]
    with client.websocket_connect(f"/ws/tables/{tid}?token={tokens[1]}") as again:  # a reconnect: all once more
        msg = again.receive_json()
        assert msg["events_from"] == 0 and msg["events"] == now
