"""Two server processes on one PostgreSQL database: seats on either play one game; the owner's death
hands its tables to the other, which goes on with their bots and timers (skipped without FREETRADER_TEST_PG)."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from typing import Any

import pytest
from tablehelp import SHORT

import freetrader
from freetrader.server.tables import view_from

#: read here, not imported from a conftest: another folder's conftest may hold that module name
PG_URL = os.environ.get("FREETRADER_TEST_PG")
pytestmark = [pytest.mark.skipif(not PG_URL, reason="needs FREETRADER_TEST_PG (a PostgreSQL URL)"), pytest.mark.postgresql]
AGREED = {**SHORT, "first_officer": "agreement"}


def _port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _call(base: str, method: str, path: str, body: Any = None) -> tuple[int, Any]:
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(base + path, data=data, method=method, headers={"content-type": "application/json"})
    try:
        with urllib.request.urlopen(req, timeout=60) as r:
            return r.status, json.loads(r.read())
    except urllib.error.HTTPError as exc:
        return exc.code, json.loads(exc.read())


class _Server:
    def __init__(self, db: str) -> None:
        self.port = _port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.log = tempfile.TemporaryFile()
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "freetrader.server", "--port", str(self.port), "--db", db, "--bot-delay", "0.2",
             "--bot-workers", "1"], stdout=subprocess.DEVNULL, stderr=self.log)

    def wait_up(self) -> _Server:
        end = time.monotonic() + 300
        while True:
            assert self.proc.poll() is None, self.errors()
            try:
                if _call(self.base, "GET", "/api/games")[0] == 200:
                    return self
            except OSError:
                pass
            assert time.monotonic() < end, "the server did not start"
            time.sleep(0.2)

    def errors(self) -> str:
        self.log.seek(0)
        return self.log.read().decode("utf-8", "replace")[-3000:]

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=120)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()


@pytest.fixture
def servers() -> Iterator[tuple[_Server, _Server]]:
    from freetrader.server.storage import Store

    assert PG_URL
    store = Store(PG_URL)
    store.drop_schema()
    store.create_schema()
    store.close()
    a, b = _Server(PG_URL), _Server(PG_URL)
    try:
        yield a.wait_up(), b.wait_up()
    finally:
        a.stop()
        b.stop()


def _view(base: str, tid: str, token: str | None = None) -> dict[str, Any]:
    code, msg = _call(base, "GET", f"/api/tables/{tid}/view" + (f"?token={token}" if token else ""))
    assert code == 200, msg
    return dict(msg)


def _until(base: str, tid: str, pred: Any, timeout: float = 300.0) -> dict[str, Any]:
    end = time.monotonic() + timeout
    while True:
        msg = _view(base, tid)
        if pred(msg):
            return msg
        assert time.monotonic() < end, f"timed out; last: {msg['table']}"
        time.sleep(0.1)


def test_two_processes_share_tables_and_take_over_a_dead_owner(servers: tuple[_Server, _Server]) -> None:
    from websockets.sync.client import connect

    a, b = servers
    # -- a seat on each process, one game -------------------------------------------------------
    code, made = _call(a.base, "POST", "/api/tables", {"game": "contraband", "seats": ["human", "human", "random"],
                                                       "options": AGREED})
    assert code == 201, made
    tid = made["table"]["id"]
    seats = {0: a.base, 1: b.base}
    tokens = {s: _call(base, "POST", f"/api/tables/{tid}/join", {"seat": s})[1]["token"] for s, base in seats.items()}
    with connect(f"ws://127.0.0.1:{b.port}/ws/tables/{tid}", open_timeout=120) as watcher:
        end = time.monotonic() + 600
        while True:
            done = _view(a.base, tid)
            if done["view"]["is_over"]:
                break
            for seat, base in seats.items():
                mine = _view(base, tid, tokens[seat])
                if mine["view"]["to_act"] == seat and not mine["view"]["is_over"]:
                    code, ans = _call(base, "POST", f"/api/tables/{tid}/actions",
                                      {"token": tokens[seat], "action": mine["view"]["legal"][0], "seq": mine["seq"]})
                    assert code in (200, 409), ans  # 409: that process had not heard of the last move yet
            assert time.monotonic() < end, "the game did not end"
        final = _until(b.base, tid, lambda m: m["view"]["is_over"])
        assert final["view"] == done["view"] and final["seq"] == done["seq"]
        # B's spectator socket saw A's moves relayed, ending at the same position
        last, held = None, None
        while last is None or last["seq"] != final["seq"]:
            msg = json.loads(watcher.recv(timeout=120))
            if msg["type"] == "state":
                seen = view_from(msg, held)
                assert seen is not None, "a view's changes came over a view the socket does not hold"
                last, held = msg, (msg["seq"], seen)
        assert held is not None and held[1]["is_over"]
    code, rec = _call(b.base, "GET", f"/api/tables/{tid}/record")
    assert code == 200 and freetrader.replay(rec).is_over
    assert {m["by"] for m in rec["table"]["moves"]} == {"human", "bot"}

    # -- the owner dies: the other process goes on with bots and timers ----------------------------
    code, bots = _call(a.base, "POST", "/api/tables", {"game": "contraband", "seats": ["random"] * 3,
                                                       "options": SHORT, "seed": 4})
    assert code == 201
    code, timed = _call(a.base, "POST", "/api/tables", {"game": "contraband", "seats": ["human"] * 3,
                                                        "options": AGREED, "turn_seconds": 0.5})
    assert code == 201
    bots_id, timed_id = bots["table"]["id"], timed["table"]["id"]
    _until(b.base, bots_id, lambda m: m["index"] >= 1)  # A's bots are playing; B relays what they do
    _until(b.base, timed_id, lambda m: m["index"] >= 1)  # and A's turn timer moves for the slow humans
    os.kill(a.proc.pid, signal.SIGKILL)
    a.proc.wait()
    before = _view(b.base, bots_id)
    assert not before["view"]["is_over"], "the bot game ended before its owner was killed; make it longer"
    after = _until(b.base, bots_id, lambda m: m["view"]["is_over"])
    assert after["index"] > before["index"]
    timed_before = _view(b.base, timed_id)["index"]
    _until(b.base, timed_id, lambda m: m["index"] >= timed_before + 2)
    code, rec = _call(b.base, "GET", f"/api/tables/{bots_id}/record")
    assert code == 200 and freetrader.replay(rec).is_over

    # -- a seat left on one process cannot act on the other ------------------------------------------
    code, made = _call(b.base, "POST", "/api/tables", {"game": "contraband", "seats": ["human"] * 3,
                                                       "options": AGREED})
    tid = made["table"]["id"]
    token = _call(b.base, "POST", f"/api/tables/{tid}/join", {"seat": 1})[1]["token"]
    _view(b.base, tid, token)
    c = _Server(PG_URL).wait_up()  # a third process, in place of the one killed
    try:
        assert _call(c.base, "POST", f"/api/tables/{tid}/leave", {"token": token})[0] == 200
        code, ans = _call(b.base, "POST", f"/api/tables/{tid}/actions", {"token": token, "action": "declare", "seq": 0})
        assert code in (403, 409), ans
        assert _view(c.base, tid)["index"] == 0
    finally:
        c.stop()


def test_a_paused_owner_loses_its_tables_and_cannot_write_when_it_wakes(servers: tuple[_Server, _Server]) -> None:
    # SIGSTOP keeps the owner's connections open: a lock tied to the session stayed held and its tables
    # froze. A lease runs out without heartbeats, so the other process takes the tables over.
    a, b = servers
    made = []
    for seed in range(4):
        code, t = _call(a.base, "POST", "/api/tables", {"game": "contraband", "seats": ["random"] * 3,
                                                         "options": {"end": "turns", "turn_limit": 10000},
                                                         "seed": seed})
        assert code == 201, t
        made.append(t["table"]["id"])
    for tid in made:
        _until(b.base, tid, lambda m: m["index"] >= 1)  # A's bots play; B relays
    os.kill(a.proc.pid, signal.SIGSTOP)
    try:
        paused = {tid: _view(b.base, tid)["index"] for tid in made}
        for tid in made:  # B's sweep finds the leases run out and goes on with their bots
            _until(b.base, tid, lambda m, tid=tid: m["index"] >= paused[tid] + 3, timeout=120)
    finally:
        os.kill(a.proc.pid, signal.SIGCONT)
    # A wakes with decisions it made before the pause: the lease fence refuses them, and its heartbeat
    # tells it the tables are gone; every table's log still replays, one move per position
    end = time.monotonic() + 60
    while "the lease ran out" not in a.errors():
        assert a.proc.poll() is None and time.monotonic() < end, a.errors()
        time.sleep(0.2)
    for tid in made:
        now = _view(b.base, tid)["index"]
        _until(b.base, tid, lambda m, now=now: m["index"] >= now + 2)  # B goes on
        from freetrader.server.storage import Store

        assert PG_URL
        store = Store(PG_URL)
        try:
            loaded = store.load(tid)
        finally:
            store.close()
        assert loaded is not None and [e.seq for e in loaded.log] == list(range(len(loaded.log)))
        rec = {"game": loaded.row.game, "options": loaded.row.options, "seats": 3,
               "seed": loaded.row.settings.get("seed", loaded.row.seed), "actions": [e.text for e in loaded.log]}
        freetrader.replay(rec)  # every row a legal move from the one before: no stale write got in


def test_the_lease_fence_refuses_a_bot_move_without_a_live_lease() -> None:
    from freetrader.server.cluster import Cluster, tagged_url
    from freetrader.server.storage import DuplicateEntry, LogRow, Store, TableRow

    assert PG_URL
    plain = Store(PG_URL)
    plain.drop_schema()
    plain.create_schema()
    store = Store(tagged_url(PG_URL, "fencetest"))  # writes as process "ft-fencetest"
    cluster = Cluster(store, None, "fencetest")  # type: ignore[arg-type]
    try:
        cluster._install_triggers()
        plain.create_table(TableRow(id="fenced", game="contraband-v1", options=dict(SHORT), seats=["random"] * 3,
                                    seed=1, settings={}, status="playing", created=1.0), [])

        def bot_move(seq: int) -> None:
            store.append_log("fenced", LogRow(seq=seq, kind="action", text="declare", seat=0, origin="bot"))

        with pytest.raises(DuplicateEntry):  # no lease: refused
            bot_move(0)
        assert cluster._try_lock("fenced")
        bot_move(0)  # with the lease: written
        cluster._lock_connection().execute("UPDATE ft_leases SET expires = now() - interval '1 second'")
        with pytest.raises(DuplicateEntry):  # the lease ran out (a paused owner waking): refused
            bot_move(1)
        store.append_log("fenced", LogRow(seq=1, kind="action", text="declare", seat=1, origin="human"))
        loaded = plain.load("fenced")
        assert loaded is not None and [(e.seq, e.origin) for e in loaded.log] == [(0, "bot"), (1, "human")]
    finally:
        cluster._drop_lock_conn()
        store.close()
        plain.close()
