"""Faults survived: bots run in worker processes with caps and a deadline; a bot that raises, a database
that fails for a while and a take-back while a bot thinks each leave the table playing, with nothing lost."""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient
from sqlalchemy.exc import OperationalError
from tablehelp import SHORT, create, join, view, wait_for, wait_for_file

import freetrader
from freetrader.bots import register_bot
from freetrader.bots.random_bot import RandomBot
from freetrader.server.app import create_app

AGREED = {**SHORT, "first_officer": "agreement"}  # seat 0 is the officer, seat 1 declares first
#: while this file exists the flaky bot raises (workers are forked processes: a file is what they share)
FLAG = os.path.join(tempfile.gettempdir(), f"ft-flaky-{os.getpid()}")


class _FlakyBot(RandomBot):  # type: ignore[misc]
    name = "flaky-test"

    def choose(self, state: Any, seat: int) -> Any:
        if os.path.exists(FLAG):
            raise RuntimeError("the flaky test bot fails while its flag file exists")
        return super().choose(state, seat)


#: the thinking bot says here that it thinks, and decides once the test makes the file ``decide``
THINK = Path(tempfile.gettempdir()) / f"ft-thinking-{os.getpid()}"


class _ThinkingBot(RandomBot):  # type: ignore[misc]
    """Thinks until the test lets it decide (a test without the signal sees a bot past any deadline)."""

    name = "thinking-test"

    def choose(self, state: Any, seat: int) -> Any:
        THINK.mkdir(exist_ok=True)
        (THINK / "thinking").touch()
        wait_for_file(THINK / "decide", "the thinking bot's decision")
        return super().choose(state, seat)


class _WorkerPidBot(RandomBot):  # type: ignore[misc]
    """Plays only in a process other than the test's: proves bots do not run in the server's process."""

    name = "pid-test"
    parent = os.getpid()

    def choose(self, state: Any, seat: int) -> Any:
        if os.getpid() == self.parent:
            raise RuntimeError("a bot ran in the server process")
        return super().choose(state, seat)


register_bot("flaky-test", _FlakyBot)
register_bot("thinking-test", _ThinkingBot)
register_bot("pid-test", _WorkerPidBot)


class _FailN:
    """A Store method that raises like a lost database on its next ``n`` calls, then works again."""

    def __init__(self, fn: Any, n: int) -> None:
        self.fn, self.left, self.failed = fn, n, 0

    def __call__(self, *args: Any) -> Any:
        if self.left > 0:
            self.left -= 1
            self.failed += 1
            raise OperationalError("INSERT", {}, Exception("disk I/O error (test)"))
        return self.fn(*args)


def _log_matches_game(c: TestClient, tid: str) -> None:
    """Nothing lost or doubled: the log's positions run 0, 1, 2, ... and replay to the live game.

    The live game is read first: bots may move meanwhile, and the log is written before the live state
    changes, so the log holds the live game's actions and perhaps a few more.
    """
    lobby = c.app.state.lobby  # type: ignore[attr-defined]
    live = [str(a) for a in lobby.tables[tid].state.history]
    loaded = lobby.store.load(tid)
    assert loaded is not None
    assert [e.seq for e in loaded.log] == list(range(len(loaded.log)))
    actions: list[str] = []
    for e in loaded.log:
        if e.kind == "undo":
            actions.pop()
        else:
            actions.append(e.text)
    assert actions[:len(live)] == live
    rec = {"game": loaded.row.game, "options": loaded.row.options, "seats": len(loaded.row.seats),
           "seed": loaded.row.settings.get("seed", loaded.row.seed), "actions": actions}
    replayed = freetrader.replay(rec)
    if lobby.tables[tid].state.is_over:
        assert actions == live and replayed.to_json() == lobby.tables[tid].state.to_json()


def test_expensive_or_unknown_bot_parameters_are_refused(client: TestClient) -> None:
    for spec, words in [("ismcts:ms=120000", "ms=120000 is outside"), ("ismcts:iters=1000000000", "iters"),
                        ("ismcts:depth=100000", "depth"), ("ismcts:ms=abc", "outside"),
                        ("ismcts:bogus=1", "not accepted"), ("random:ms=5", "takes no parameters")]:
        r = client.post("/api/tables", json={"game": "contraband", "seats": ["human", "human", spec]})
        assert r.status_code == 400 and words in r.json()["error"], (spec, r.text)
        assert "\n" not in r.json()["error"]
    r = client.post("/api/tables", json={"game": "contraband", "seats": ["human", "human", "ismcts:ms=50;c=0.5"],
                                         "options": SHORT})
    assert r.status_code == 201, r.text


def test_bots_play_in_worker_processes(client: TestClient) -> None:
    tid = create(client, ["pid-test"] * 3, SHORT)
    msg = wait_for(client, tid, lambda m: m["view"]["is_over"])
    assert msg["table"]["error"] is None
    _log_matches_game(client, tid)


def test_a_bot_that_raises_shows_a_plain_error_and_the_table_resumes(client: TestClient) -> None:
    open(FLAG, "w").close()
    try:
        tid = create(client, ["flaky-test", "human", "human"], AGREED)
        t1 = join(client, tid, 1)
        r = client.post(f"/api/tables/{tid}/actions", json={"token": t1, "action": "declare", "seq": 0})
        assert r.status_code == 200  # now the officer, a flaky bot, is to act
        lobby = client.app.state.lobby  # type: ignore[attr-defined]
        msg = wait_for(client, tid, lambda m: m["table"]["error"] is not None)
        error = msg["table"]["error"]
        assert "flaky-test bot at seat 0 could not move (it raised RuntimeError); retrying" in error
        legal = [str(a) for a in lobby.tables[tid].state.legal_actions()]
        assert legal and not any(a in error for a in legal)  # the bot's options stay hidden
    finally:
        os.unlink(FLAG)
    msg = wait_for(client, tid, lambda m: m["table"]["error"] is None and m["index"] >= 2)
    _log_matches_game(client, tid)


def test_a_database_that_fails_for_a_while_loses_nothing(client: TestClient) -> None:
    lobby = client.app.state.lobby  # type: ignore[attr-defined]
    humans = create(client, ["human", "human", "human"], AGREED)
    t1 = join(client, humans, 1)
    failing = _FailN(lobby.store.append_log, 1)
    lobby.store.append_log = failing
    r = client.post(f"/api/tables/{humans}/actions", json={"token": t1, "action": "declare", "seq": 0})
    assert r.status_code == 503 and "nothing was changed" in r.json()["error"]
    assert view(client, humans)["index"] == 0
    r = client.post(f"/api/tables/{humans}/actions", json={"token": t1, "action": "declare", "seq": 0})
    assert r.status_code == 200, r.text
    # bots: three failed commits in a row, retried with backoff, then the game goes on to its end
    failing = _FailN(failing.fn, 3)
    lobby.store.append_log = failing
    bots = create(client, ["random"] * 3, SHORT)
    msg = wait_for(client, bots, lambda m: m["view"]["is_over"])
    assert failing.failed == 3 and msg["table"]["error"] is None
    _log_matches_game(client, bots)
    _log_matches_game(client, humans)


def test_a_take_back_while_a_bot_thinks_drops_the_stale_decision(client: TestClient) -> None:
    shutil.rmtree(THINK, ignore_errors=True)
    tid = create(client, ["thinking-test", "human", "random"], AGREED)
    t1 = join(client, tid, 1)
    r = client.post(f"/api/tables/{tid}/actions", json={"token": t1, "action": "declare", "seq": 0})
    assert r.status_code == 200
    try:
        wait_for_file(THINK / "thinking", "the officer's bot thinking about the declaration")
        assert client.post(f"/api/tables/{tid}/takeback", json={"token": t1}).status_code == 200  # bots agree at once
        msg = view(client, tid, t1)
        assert msg["index"] == 0 and msg["seq"] == 2 and msg["view"]["to_act"] == 1
        # the same action count as when the bot started, at a position it never saw: it must not land
        r = client.post(f"/api/tables/{tid}/actions", json={"token": t1, "action": "claim brandy", "seq": 2})
        assert r.status_code == 200
        table = client.app.state.lobby.tables[tid]  # type: ignore[attr-defined]
        assert table.thinking is not None  # the stale bot turn still runs
        (THINK / "decide").touch()
        wait_for(client, tid, lambda m: table.thinking is None)  # its decision has come back
        msg = view(client, tid, t1)
        assert msg["index"] == 1 and msg["view"]["to_act"] == 1 and msg["table"]["error"] is None
        r = client.post(f"/api/tables/{tid}/actions", json={"token": t1, "action": "declare", "seq": msg["seq"]})
        assert r.status_code == 200
        msg = wait_for(client, tid, lambda m: m["index"] >= 3)  # the bot decided afresh, and the game goes on
        assert msg["table"]["error"] is None
        _log_matches_game(client, tid)
    finally:
        shutil.rmtree(THINK, ignore_errors=True)


def test_a_bot_past_its_deadline_is_stopped_and_the_table_goes_on(db_url: str) -> None:
    shutil.rmtree(THINK, ignore_errors=True)  # no leftover signal: this bot never decides
    with TestClient(create_app(db_url, bot_deadline=0.4)) as c:
        tid = create(c, ["thinking-test", "human", "human"], AGREED)
        t1 = join(c, tid, 1)
        assert c.post(f"/api/tables/{tid}/actions", json={"token": t1, "action": "declare", "seq": 0}).status_code == 200
        msg = wait_for(c, tid, lambda m: m["table"]["error"] is not None)
        assert "did not decide within 0.4 s" in msg["table"]["error"]
        # after three faults the bot is marked failed and the seated player lets the fallback move
        msg = wait_for(c, tid, lambda m: m["table"]["bot_failures"])
        assert msg["table"]["bot_failures"] == [
            {"seat": 0, "bot": "thinking-test", "reason": "it did not decide within 0.4 s"}]
        assert msg["table"]["error"] is None
        r = c.post(f"/api/tables/{tid}/bots", json={"token": t1, "seat": 0, "choice": "fallback"})
        assert r.status_code == 200, r.text
        msg = wait_for(c, tid, lambda m: m["index"] >= 2)
        assert msg["table"]["error"] is None
        assert c.app.state.lobby.bot_pool.replaced >= 1  # type: ignore[attr-defined]
        _log_matches_game(c, tid)


def _network_sockets() -> int:
    """How many TCP sockets this process holds (run in a worker)."""
    from freetrader.server.workers import network_sockets

    return len(network_sockets())


def test_a_worker_holds_none_of_the_servers_connections() -> None:
    # A forked worker that kept a copy of a client's connection kept it open after the server closed it,
    # and the browser's next request on that kept-alive connection was never answered.
    import asyncio
    import socket

    from freetrader.server.workers import WorkerPool

    listener = socket.create_server(("127.0.0.1", 0))
    client = socket.create_connection(listener.getsockname())
    served, _ = listener.accept()
    pool = WorkerPool(1, "test")
    try:
        assert _network_sockets() >= 3  # the test's own sockets: what a fork copies
        assert asyncio.run(pool.run(_network_sockets, timeout=300)) == 0
    finally:
        pool.close()
        for s in (served, client, listener):
            s.close()
