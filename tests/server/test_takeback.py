"""Take-backs: only moves that revealed nothing and drew nothing; the others approve; the record keeps it."""

from __future__ import annotations

from fastapi.testclient import TestClient
from tablehelp import SHORT, create, join, view, wait_for

import freetrader
from freetrader.server.takeback import undoable

AGREED = {**SHORT, "first_officer": "agreement"}  # seat 0 is the officer, seat 1 declares first


def _act(c: TestClient, tid: str, token: str, action: str) -> None:
    index = view(c, tid)["index"]
    r = c.post(f"/api/tables/{tid}/actions", json={"token": token, "action": action, "expected_index": index})
    assert r.status_code == 200, r.text


def test_rule_on_contraband_claim_is_undoable_search_and_accept_are_not() -> None:
    state = freetrader.game("contraband").new_state(3, 5, AGREED)
    steps = {}
    for action in ["claim brandy", "declare", "wave", "accept"]:
        before = state.clone()
        state.apply(action)
        steps[action] = undoable(before, action, state)
    assert steps == {"claim brandy": True, "declare": True, "wave": True, "accept": False}
    state = freetrader.game("contraband").new_state(3, 5, AGREED)
    state.apply("declare")
    before = state.clone()
    state.apply("search")
    assert not undoable(before, "search", state)


def test_a_claim_is_taken_back_when_the_other_humans_approve(client: TestClient) -> None:
    tid = create(client, ["human", "human", "human"], AGREED)
    tokens = {s: join(client, tid, s) for s in range(3)}
    _act(client, tid, tokens[1], "claim brandy")
    assert view(client, tid, tokens[1])["you"]["can_take_back"]
    assert not view(client, tid, tokens[0])["you"]["can_take_back"]
    r = client.post(f"/api/tables/{tid}/takeback", json={"token": tokens[0]})
    assert r.status_code == 409 and "own last move" in r.json()["error"]
    assert client.post(f"/api/tables/{tid}/takeback", json={"token": tokens[1]}).status_code == 200
    msg = view(client, tid)
    assert msg["table"]["takeback"] == {"seat": 1, "index": 0, "action": "claim brandy", "waiting": [0, 2]}
    # the game waits while the request is open
    r = client.post(f"/api/tables/{tid}/actions", json={"token": tokens[1], "action": "declare", "expected_index": 1})
    assert r.status_code == 409 and "take back" in r.json()["error"]
    r = client.post(f"/api/tables/{tid}/takeback/answer", json={"token": tokens[1], "approve": True})
    assert r.status_code == 403
    for s in (0, 2):
        r = client.post(f"/api/tables/{tid}/takeback/answer", json={"token": tokens[s], "approve": True})
        assert r.status_code == 200
    msg = view(client, tid, tokens[1])
    assert msg["index"] == 0 and msg["view"]["claim"]["articles"] == [] and msg["table"]["takeback"] is None
    # play on to the end; the record keeps the take-back
    _act(client, tid, tokens[1], "declare")
    _act(client, tid, tokens[0], "search")
    r = client.post(f"/api/tables/{tid}/takeback", json={"token": tokens[0]})
    assert r.status_code == 409 and "cannot be taken back" in r.json()["error"]
    kinds = [n["kind"] for n in view(client, tid)["table"]["takebacks"]]
    assert kinds == ["takeback-requested", "takeback-approved", "takeback-approved", "takeback-done"]


def test_a_refused_take_back_changes_nothing(client: TestClient) -> None:
    tid = create(client, ["human", "human", "random"], AGREED)
    t0, t1 = join(client, tid, 0), join(client, tid, 1)
    _act(client, tid, t1, "claim watch")
    client.post(f"/api/tables/{tid}/takeback", json={"token": t1})
    r = client.post(f"/api/tables/{tid}/takeback/answer", json={"token": t0, "approve": False})
    assert r.status_code == 200
    msg = view(client, tid)
    assert msg["index"] == 1 and msg["table"]["takeback"] is None
    assert [n["kind"] for n in msg["table"]["takebacks"]] == ["takeback-requested", "takeback-refused"]


def test_bots_approve_and_the_downloaded_record_keeps_the_take_back(client: TestClient) -> None:
    tid = create(client, ["heuristic", "human", "random"], AGREED)
    t1 = join(client, tid, 1)
    _act(client, tid, t1, "claim camera")
    assert client.post(f"/api/tables/{tid}/takeback", json={"token": t1}).status_code == 200
    msg = view(client, tid, t1)
    assert msg["index"] == 0 and msg["view"]["to_act"] == 1  # undone at once: only bots to ask
    while not msg["view"]["is_over"]:
        if msg["view"]["to_act"] == 1:
            r = client.post(f"/api/tables/{tid}/actions", json={"token": t1, "action": msg["view"]["legal"][-1],
                                                                "expected_index": msg["index"]})
            assert r.status_code in (200, 409), r.text
        msg = view(client, tid, t1)
    rec = client.get(f"/api/tables/{tid}/record").json()
    assert freetrader.replay(rec).is_over
    assert [n["kind"] for n in rec["table"]["takebacks"]] == ["takeback-requested", "takeback-done"]
    assert rec["table"]["takebacks"][0]["action"] == "claim camera"


def test_a_pending_take_back_survives_a_restart(db_url: str) -> None:
    from freetrader.server.app import create_app

    with TestClient(create_app(db_url)) as c:
        tid = create(c, ["human", "human", "human"], AGREED)
        tokens = {s: join(c, tid, s) for s in range(3)}
        _act(c, tid, tokens[1], "claim brandy")
        c.post(f"/api/tables/{tid}/takeback", json={"token": tokens[1]})
        c.post(f"/api/tables/{tid}/takeback/answer", json={"token": tokens[0], "approve": True})
    with TestClient(create_app(db_url)) as c:
        assert view(c, tid)["table"]["takeback"]["waiting"] == [2]
        c.post(f"/api/tables/{tid}/takeback/answer", json={"token": tokens[2], "approve": True})
        assert wait_for(c, tid, lambda m: m["index"] == 0)["table"]["takeback"] is None
