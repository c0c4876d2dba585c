"""The HTTP API: lobby, seats, actions, errors, views and records."""

from __future__ import annotations

import json

from fastapi.testclient import TestClient
from tablehelp import SHORT, create, join, play_out, view, wait_for

import freetrader


def _error(r, status: int) -> str:  # type: ignore[no-untyped-def]
    assert r.status_code == status, r.text
    body = r.json()
    assert set(body) == {"error"} and body["error"]
    return str(body["error"])


def test_games_lists_contraband_with_options_and_bots(client: TestClient) -> None:
    games = client.get("/api/games").json()
    c = next(g for g in games if g["name"] == "contraband")
    assert c["min_seats"] == 3 and "heuristic" in c["bots"] and "random" in c["bots"]
    assert any(o["name"] == "end" and "turns" in o["choices"] for o in c["options"])


def test_create_list_join_leave(client: TestClient) -> None:
    tid = create(client, ["human", "human", "random"], SHORT, name="friends")
    listed = client.get("/api/tables").json()["tables"]
    line = next(t for t in listed if t["id"] == tid)
    assert [s["taken"] for s in line["seats"]] == [False, False, True] and line["label"] == "friends"
    r = client.post(f"/api/tables/{tid}/join", json={"name": "Ann"}).json()
    assert r["seat"] == 0 and r["link"] == f"/t/{tid}#token={r['token']}"
    t1 = join(client, tid)
    assert view(client, tid, t1)["you"]["seat"] == 1
    assert "no free human seat" in _error(client.post(f"/api/tables/{tid}/join", json={}), 409)
    assert "not a human seat" in _error(client.post(f"/api/tables/{tid}/join", json={"seat": 2}), 400)
    assert "taken" in _error(client.post(f"/api/tables/{tid}/join", json={"seat": 0}), 409)
    info = client.get(f"/api/tables/{tid}").json()["table"]
    assert info["seats"][0]["name"] == "Ann" and "token" not in json.dumps(info)
    # leaving frees the seat and kills the link
    assert client.post(f"/api/tables/{tid}/leave", json={"token": t1}).json() == {"ok": True}
    assert "not valid" in _error(client.get(f"/api/tables/{tid}/view", params={"token": t1}), 403)
    t1b = join(client, tid, 1)
    assert t1b != t1 and view(client, tid, t1b)["you"]["seat"] == 1


def test_a_legal_action_is_committed_and_answered_with_the_seats_view(client: TestClient) -> None:
    tid = create(client, ["human"] * 3, {**SHORT, "first_officer": "agreement"})
    tokens = {s: join(client, tid, s) for s in range(3)}
    msg = view(client, tid, tokens[1])
    assert msg["view"]["to_act"] == 1 and "your_luggage" in msg["view"]
    r = client.post(f"/api/tables/{tid}/actions", json={"token": tokens[1], "action": "Declare ", "expected_index": 0})
    assert r.status_code == 200 and r.json()["index"] == 1
    assert r.json()["view"]["seat"] == 1
    # the same action again (a replay, or a second tab) is stale and changes nothing
    r = client.post(f"/api/tables/{tid}/actions", json={"token": tokens[1], "action": "declare", "expected_index": 0})
    assert "stale" in _error(r, 409)
    assert view(client, tid)["index"] == 1


def test_illegal_and_out_of_turn_actions_are_refused_and_change_nothing(client: TestClient) -> None:
    tid = create(client, ["human"] * 3, {**SHORT, "first_officer": "agreement"})
    tokens = {s: join(client, tid, s) for s in range(3)}
    r = client.post(f"/api/tables/{tid}/actions", json={"token": tokens[1], "action": "search", "expected_index": 0})
    assert "legal:" in _error(r, 400)  # the seat to act may see its own legal actions
    r = client.post(f"/api/tables/{tid}/actions", json={"token": tokens[2], "action": "declare", "expected_index": 0})
    err = _error(r, 400)
    assert "seat 1's turn" in err and "legal:" not in err and "claim brandy" not in err
    r = client.post(f"/api/tables/{tid}/actions", json={"token": tokens[1], "action": "fly away", "expected_index": 0})
    assert "not a Contraband action" in _error(r, 400)
    r = client.post(f"/api/tables/{tid}/actions",
                    json={"token": tokens[1], "action": "declare", "expected_index": 0, "seat": 2})
    assert "for seat 1, not seat 2" in _error(r, 400)
    r = client.post(f"/api/tables/{tid}/actions", json={"token": "forged", "action": "declare", "expected_index": 0})
    assert "not valid" in _error(r, 403)
    assert view(client, tid)["index"] == 0


def test_bad_requests_get_clear_json_errors(client: TestClient) -> None:
    assert "no table" in _error(client.get("/api/tables/nope"), 404)
    assert "no table" in _error(client.get("/api/tables/nope/view"), 404)
    assert "no table" in _error(client.post("/api/tables/nope/join", json={}), 404)
    r = client.post("/api/tables", content=b"{not json", headers={"content-type": "application/json"})
    assert "not valid JSON" in _error(r, 422)
    r = client.post("/api/tables", json={"game": "contraband"})
    assert "seats" in _error(r, 422)
    big = {"game": "contraband", "seats": ["human"] * 3, "options": {"x": "y" * 20000}}
    assert "too large" in _error(client.post("/api/tables", json=big), 413)
    r = client.post("/api/tables", json={"game": "contraband", "seats": ["human"] * 3, "options": {"end": "never"}})
    assert "end" in _error(r, 400)
    r = client.post("/api/tables", json={"game": "contraband", "seats": ["human"] * 3, "options": {"colour": 1}})
    assert "no option 'colour'" in _error(r, 400)
    r = client.post("/api/tables", json={"game": "contraband", "seats": ["human", "human", "genius"]})
    assert "unknown bot 'genius'" in _error(r, 400)
    r = client.post("/api/tables", json={"game": "chess", "seats": ["human"] * 2})
    assert "unknown game" in _error(r, 400)
    r = client.post("/api/tables", json={"game": "contraband", "seats": ["human"]})
    assert "seat" in _error(r, 400)
    r = client.post("/api/tables", json={"game": "contraband", "seats": ["human"] * 3, "turn_seconds": 5,
                                         "timeout_bot": "ismcts"})
    assert "timeout_bot" in _error(r, 400)
    assert client.get("/api/tables").json()["tables"] == []


def test_views_show_each_seat_only_its_own(client: TestClient) -> None:
    tid = create(client, ["human"] * 3, {**SHORT, "first_officer": "agreement"})
    tokens = {s: join(client, tid, s) for s in range(3)}
    assert "your_luggage" in view(client, tid, tokens[1])["view"]
    for msg in (view(client, tid, tokens[0]), view(client, tid, tokens[2]), view(client, tid)):
        text = json.dumps(msg)
        assert "your_luggage" not in text and '"legal"' not in text
        assert "token" not in json.dumps(msg["table"])


def test_bots_finish_a_game_and_the_record_replays(client: TestClient) -> None:
    tid = create(client, ["heuristic", "random", "random"], SHORT)
    assert "not over" in _error(client.get(f"/api/tables/{tid}/record"), 409)
    msg = wait_for(client, tid, lambda m: m["view"]["is_over"])
    rec = client.get(f"/api/tables/{tid}/record").json()
    assert rec["table"]["seats"] == ["heuristic", "random", "random"]
    state = freetrader.replay(rec)
    assert state.is_over and state.view(None) == msg["view"]
    assert all(m["by"] == "bot" for m in rec["table"]["moves"])
    assert tid not in [t["id"] for t in client.get("/api/tables").json()["tables"]]
    # step-by-step replay, for the table and for an uploaded record
    n = len(rec["actions"])
    first = client.get(f"/api/tables/{tid}/replay", params={"upto": 1}).json()
    assert first["total"] == n and first["view"]["actions_taken"] == 1
    assert first["view"] == freetrader.replay(rec, upto=1).view(None)
    r = client.post("/api/replay", json={"record": rec, "upto": n})
    assert r.json()["view"] == msg["view"]
    assert "cannot stop" in _error(client.post("/api/replay", json={"record": rec, "upto": n + 1}), 400)
    bad = dict(rec, actions=rec["actions"][:2] + ["search"] * 3)
    assert "does not replay" in _error(client.post("/api/replay", json={"record": bad}), 400)
    assert "lacks the field" in _error(client.post("/api/replay", json={"record": {}}), 400)


def test_two_humans_and_a_bot_play_to_the_end(client: TestClient) -> None:
    tid = create(client, ["human", "human", "heuristic"], SHORT)
    tokens = {0: join(client, tid), 1: join(client, tid)}
    msg = play_out(client, tid, tokens)
    assert msg["view"]["is_over"] and msg["table"]["winners"]
    rec = client.get(f"/api/tables/{tid}/record").json()
    assert {m["by"] for m in rec["table"]["moves"]} == {"human", "bot"}
    assert "no free human seat" in _error(client.post(f"/api/tables/{tid}/join", json={}), 409)
