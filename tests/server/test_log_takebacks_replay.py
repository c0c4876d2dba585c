"""Take-back requests, answers and drops in the readable log; the replay's log and results (POST /api/replay)."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient
from tablehelp import SHORT, create, play_out, view

AGREED = {**SHORT, "first_officer": "agreement"}  # seat 0 is the officer, seat 1 declares first


def _act(c: TestClient, tid: str, token: str, action: str) -> None:
    msg = view(c, tid)
    r = c.post(f"/api/tables/{tid}/actions", json={"token": token, "action": action, "seq": msg["seq"]})
    assert r.status_code == 200, r.text


def _named(c: TestClient, tid: str, seat: int, name: str) -> str:
    r = c.post(f"/api/tables/{tid}/join", json={"seat": seat, "name": name})
    assert r.status_code == 200, r.text
    return str(r.json()["token"])


def _takebacks(msg: dict[str, Any]) -> list[str]:
    return [line["text"] for line in msg["log"] if line["kind"] == "takeback"]


def test_an_approved_take_back_is_logged_with_who_asked_and_who_agreed(client: TestClient) -> None:
    tid = create(client, ["human", "human", "human"], AGREED)
    ann, bob, cat = _named(client, tid, 0, "Ann"), _named(client, tid, 1, "Bob"), _named(client, tid, 2, "Cat")
    _act(client, tid, bob, "claim brandy")
    assert client.post(f"/api/tables/{tid}/takeback", json={"token": bob}).status_code == 200
    assert _takebacks(view(client, tid)) == ["Bob asks to take back “claim brandy”"]
    for token in (ann, cat):
        r = client.post(f"/api/tables/{tid}/takeback/answer", json={"token": token, "approve": True})
        assert r.status_code == 200, r.text
    msg = view(client, tid, ann)
    assert _takebacks(msg) == ["Bob asks to take back “claim brandy”", "Ann agrees that Bob takes back “claim brandy”",
                               "Cat agrees that Bob takes back “claim brandy”",
                               "Bob took back “claim brandy” (the others agreed)"]
    # the claim's events are gone; the lines sit where the claim was, numbered with the rest
    assert [line["n"] for line in msg["log"]] == list(range(1, len(msg["log"]) + 1))
    assert not any("claims" in line["text"] and "Brandy" in line["text"] for line in msg["log"] if line["kind"] == "event")
    # every seat and a spectator read the same take-back lines: they are public
    assert _takebacks(view(client, tid)) == _takebacks(msg) == _takebacks(view(client, tid, cat))


def test_a_refused_take_back_is_logged_after_the_move_which_stands(client: TestClient) -> None:
    tid = create(client, ["human", "human", "random"], AGREED)
    ann, bob = _named(client, tid, 0, "Ann"), _named(client, tid, 1, "Bob")
    _act(client, tid, bob, "claim watch")
    client.post(f"/api/tables/{tid}/takeback", json={"token": bob})
    assert client.post(f"/api/tables/{tid}/takeback/answer", json={"token": ann, "approve": False}).status_code == 200
    msg = view(client, tid)
    lines = [(line["kind"], line["text"]) for line in msg["log"]]
    asked = lines.index(("takeback", "Bob asks to take back “claim watch”"))
    assert lines[asked + 1] == ("takeback", "Ann refuses: Bob may not take back “claim watch”, which stands")
    claim = max(i for i, (k, t) in enumerate(lines) if k == "event" and t.startswith("Bob"))
    assert claim < asked  # the claim happened, then the request about it


def test_a_dropped_take_back_is_logged(client: TestClient) -> None:
    tid = create(client, ["human", "human", "random"], AGREED)
    _named(client, tid, 0, "Ann")
    bob = _named(client, tid, 1, "Bob")
    _act(client, tid, bob, "claim watch")
    client.post(f"/api/tables/{tid}/takeback", json={"token": bob})
    assert client.post(f"/api/tables/{tid}/leave", json={"token": bob}).status_code == 200
    texts = _takebacks(view(client, tid))
    assert texts[-1] == "Seat 1's request to take back “claim watch” was dropped (the asker left); the move stands"


def test_the_replay_answers_the_readable_log_and_at_the_end_the_results(client: TestClient) -> None:
    tid = create(client, ["human", "random", "random"], AGREED)
    bob = _named(client, tid, 0, "Bob")
    end = play_out(client, tid, {0: bob})
    rec = client.get(f"/api/tables/{tid}/record").json()
    sent = {k: rec[k] for k in ("game", "options", "seats", "seed", "actions")}
    sent["table"] = rec["table"]
    last = client.post("/api/replay", json={"record": sent}).json()
    assert last["results"] == end["results"] and last["results"]["seats"]
    assert [line["text"] for line in last["log"]] == [line["text"] for line in end["log"] if line["kind"] != "you"]
    assert any(line["text"].startswith("Bob ") for line in last["log"])
    assert not any(line["kind"] == "you" for line in last["log"])  # a replay is a spectator's: no private line
    early = client.post("/api/replay", json={"record": sent, "upto": 3}).json()
    assert early["results"] is None and len(early["log"]) < len(last["log"])
    assert [x["text"] for x in early["log"]] == [x["text"] for x in last["log"]][:len(early["log"])]
    # a record without its table part reads "Seat N"; a bad position is one line, a 400
    bare = client.post("/api/replay", json={"record": {k: rec[k] for k in ("game", "options", "seats", "seed", "actions")},
                                            "upto": 3}).json()
    assert any("Seat 0" in x["text"] for x in bare["log"]) and not any("Bob" in x["text"] for x in bare["log"])
    r = client.post("/api/replay", json={"record": sent, "upto": len(rec["actions"]) + 1})
    assert r.status_code == 400 and "cannot stop after" in r.json()["error"]
