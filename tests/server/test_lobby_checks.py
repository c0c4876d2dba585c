"""What the lobby may post: every game option and seat is checked by the server (4xx with one line, never a
500), only a game's own bots sit at its tables, and a bot that raises leaves its table playable."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient
from tablehelp import SHORT, create, join, play_out, view, wait_for

import freetrader
from freetrader.bots import bot_names, register_bot
from freetrader.bots.random_bot import RandomBot
from freetrader.core.spec import Option
from freetrader.server.app import create_app
from freetrader.server.limits import Limits

GAMES = freetrader.games()
AGREED = {**SHORT, "first_officer": "agreement"}  # seat 0 is the officer, seat 1 declares first
SECRET = "hand-of-the-raising-bot"


class _RaisingBot(RandomBot):  # type: ignore[misc]
    """Always raises, with its seat's whole view in the message: the table must not show that message."""

    name = "raising-test"

    def choose(self, state: Any, seat: int) -> Any:
        raise KeyError(f"{SECRET} {state.view(seat)}")


register_bot("raising-test", _RaisingBot, game="contraband")


@pytest.fixture
def lax(db_url: str) -> Iterator[TestClient]:
    """A client with no cap on tables created a minute (this file posts a few hundred)."""
    with TestClient(create_app(db_url, limits=Limits(tables_per_minute=100_000))) as c:
        yield c


def _seats(game: str) -> list[str]:
    spec = freetrader.game(game).spec
    return ["human"] + ["random"] * (spec.min_seats - 1 if spec.min_seats > 1 else 1)


def _bad_values(o: Option) -> list[tuple[str, Any]]:
    """(what, value) pairs the server must refuse for ``o``: null, a wrong type, out of range."""
    bad: list[tuple[str, Any]] = [("null", None), ("a list", [o.default]), ("an object", {"v": o.default})]
    if o.kind == "choice":
        bad += [("a number", 12345), ("a flag", True), ("not a choice", "no-such-choice")]
    elif o.kind == "flag":
        bad += [("text", "yes"), ("a number", 1)]
    elif o.kind == "number":
        bad += [("text", str(o.default)), ("a fraction", o.default + 0.5), ("a flag", True)]
        if o.minimum is not None:
            bad.append(("below its minimum", o.minimum - 1))
        if o.maximum is not None:
            bad.append(("above its maximum", o.maximum + 1))
    else:
        bad += [("a number", 7), ("a flag", False), ("not a value it takes", "no-such-value")]
    return bad


@pytest.mark.parametrize("game", GAMES)
def test_every_option_posted_null_of_a_wrong_type_or_out_of_range_is_a_4xx(lax: TestClient, game: str) -> None:
    spec = freetrader.game(game).spec
    assert spec.options, f"{game} has no options to check"
    for o in spec.options:
        for what, value in _bad_values(o):
            r = lax.post("/api/tables", json={"game": game, "seats": _seats(game), "options": {o.name: value}})
            assert 400 <= r.status_code < 500, f"{game} option {o.name} as {what}: {r.status_code} {r.text}"
            error = r.json()["error"]
            assert "\n" not in error and "internal" not in error, error
            assert o.name in error, f"{game} option {o.name} as {what}: the error does not name it: {error}"
    assert lax.get("/api/tables").json()["tables"] == []  # nothing was made


@pytest.mark.parametrize("game", GAMES)
def test_every_option_posted_as_its_default_makes_a_table(lax: TestClient, game: str) -> None:
    spec = freetrader.game(game).spec
    for o in spec.options:
        r = lax.post("/api/tables", json={"game": game, "seats": _seats(game), "options": {o.name: o.default}})
        assert r.status_code == 201, f"{game} option {o.name}={o.default!r}: {r.text}"
    kinds = {o["name"]: o["kind"] for g in lax.get("/api/games").json() if g["name"] == game for o in g["options"]}
    assert kinds == {o.name: o.kind for o in spec.options}
    assert set(kinds.values()) <= {"choice", "flag", "number", "text"}


def test_the_text_options_of_merchants_cove_are_text() -> None:
    spec = freetrader.game("merchants-cove").spec
    assert spec.option("merchants").kind == "text" and spec.option("townsfolk").kind == "text"


@pytest.mark.parametrize("seats, needle", [
    ([None, "random"], "seats"),
    ([3, "random"], "seats"),
    (["human"] * 17, "seats"),
    ([], "seats"),
    (["human", "random", "no-such-bot"], "no-such-bot"),
    (["human", "random", "random:ms=5"], "random"),
    (["human", "random", "ismcts:ms=999999"], "ms"),
    (["human"], "seats"),  # Contraband takes 3 to 8
])
def test_a_bad_seat_is_a_4xx_naming_it(client: TestClient, seats: list[Any], needle: str) -> None:
    r = client.post("/api/tables", json={"game": "contraband", "seats": seats})
    assert 400 <= r.status_code < 500, r.text
    assert needle in r.json()["error"] and "\n" not in r.json()["error"]


def test_the_lobby_offers_and_the_server_accepts_only_the_games_own_bots(client: TestClient) -> None:
    offered = {g["name"]: g["bots"] for g in client.get("/api/games").json()}
    assert set(offered) == set(GAMES)
    for game, bots in offered.items():
        assert bots == bot_names(freetrader.game(game))
        assert "random" in bots and "heuristic" in bots
    # cornish-heuristic-v1 is registered for Cornish Smuggler only, raising-test for Contraband only
    assert "cornish-heuristic-v1" in offered["cornish-smuggler"]
    assert [g for g, bots in offered.items() if "cornish-heuristic-v1" in bots] == ["cornish-smuggler"]
    assert [g for g, bots in offered.items() if "raising-test" in bots] == ["contraband"]
    for game in GAMES:
        if game == "cornish-smuggler":
            continue
        r = client.post("/api/tables", json={"game": game, "seats": _seats(game)[:-1] + ["cornish-heuristic-v1"]})
        assert r.status_code == 400, r.text
        assert "cornish-heuristic-v1" in r.json()["error"] and "bots for" in r.json()["error"]
    r = client.post("/api/tables", json={"game": "cornish-smuggler", "seats": ["human", "cornish-heuristic-v1"]})
    assert r.status_code == 201, r.text


def _failures(c: TestClient, tid: str) -> list[dict[str, Any]]:
    return list(view(c, tid)["table"]["bot_failures"])


def test_a_bot_that_raises_leaves_its_table_playable(db_url: str) -> None:
    with TestClient(create_app(db_url)) as c:
        tid = create(c, ["raising-test", "human", "human"], AGREED)
        tokens = {1: join(c, tid, 1), 2: join(c, tid, 2)}
        r = c.post(f"/api/tables/{tid}/actions", json={"token": tokens[1], "action": "declare", "seq": 0})
        assert r.status_code == 200, r.text  # the officer, the raising bot, is to act
        msg = wait_for(c, tid, lambda m: m["table"]["bot_failures"])
        assert msg["table"]["bot_failures"] == [{"seat": 0, "bot": "raising-test", "reason": "it raised KeyError"}]
        assert msg["view"]["to_act"] == 0 and msg["table"]["error"] is None
        # every seat keeps its view, and nothing of the bot's message (its hand) is shown to anyone
        for token in (None, tokens[1], tokens[2]):
            seen = view(c, tid, token)
            assert seen["view"]["to_act"] == 0
            assert SECRET not in str(seen)
        # a spectator cannot answer for the bot; an unknown or other game's bot is refused
        r = c.post(f"/api/tables/{tid}/bots", json={"token": "nope", "seat": 0, "choice": "fallback"})
        assert r.status_code == 403, r.text
        for bot in ("cornish-heuristic-v1", "no-such-bot", "human"):
            r = c.post(f"/api/tables/{tid}/bots", json={"token": tokens[1], "seat": 0, "choice": "replace", "bot": bot})
            assert r.status_code == 400 and bot in r.json()["error"], r.text
        r = c.post(f"/api/tables/{tid}/bots", json={"token": tokens[1], "seat": 1, "choice": "fallback"})
        assert r.status_code == 409 and "has not failed" in r.json()["error"]
        # the fallback makes this one move; the failed bot is not asked again
        r = c.post(f"/api/tables/{tid}/bots", json={"token": tokens[2], "seat": 0, "choice": "fallback"})
        assert r.status_code == 200, r.text
        moved = wait_for(c, tid, lambda m: m["index"] >= 2)
        assert moved["table"]["bot_failures"], "the failure stays until the bot is replaced"
        origins = [row.origin for row in c.app.state.lobby.tables[tid].stack]  # type: ignore[attr-defined]
        assert origins[:2] == ["human", "fallback"]
    with TestClient(create_app(db_url)) as c:  # a restart keeps the failure and what was played
        assert _failures(c, tid) == [{"seat": 0, "bot": "raising-test", "reason": "it raised KeyError"}]
        assert view(c, tid)["index"] >= 2
        r = c.post(f"/api/tables/{tid}/bots", json={"token": tokens[1], "seat": 0, "choice": "replace",
                                                    "bot": "random"})
        assert r.status_code == 200, r.text
        assert _failures(c, tid) == [] and view(c, tid)["table"]["seats"][0]["kind"] == "random"
        done = play_out(c, tid, tokens)
        assert done["view"]["is_over"]
    with TestClient(create_app(db_url)) as c:  # the replacement survives a restart too
        assert view(c, tid)["table"]["seats"][0]["kind"] == "random" and _failures(c, tid) == []


def test_with_nobody_seated_the_fallback_moves_for_a_failed_bot(client: TestClient) -> None:
    tid = create(client, ["raising-test", "random", "random"], AGREED)
    done = wait_for(client, tid, lambda m: m["view"]["is_over"])
    assert done["table"]["bot_failures"][0]["seat"] == 0
    assert "fallback" in {row.origin for row in client.app.state.lobby.tables[tid].stack}  # type: ignore[attr-defined]


def test_a_bot_this_server_cannot_run_is_a_failed_seat_after_a_restart(db_url: str) -> None:
    """A table whose stored bot is unknown here (another version made it) is rebuilt, not lost."""
    with TestClient(create_app(db_url)) as c:
        tid = create(c, ["raising-test", "human", "human"], AGREED)
        token = join(c, tid, 1)
    from freetrader.server.storage import Store
    store = Store(db_url)
    try:
        with store.engine.begin() as conn:
            conn.exec_driver_sql("UPDATE ft_tables SET seats = ? WHERE id = ?" if "sqlite" in db_url else
                                 "UPDATE ft_tables SET seats = %s WHERE id = %s",
                                 ('["gone-bot", "human", "human"]', tid))
    finally:
        store.close()
    with TestClient(create_app(db_url)) as c:
        failures = _failures(c, tid)
        assert failures and failures[0]["seat"] == 0 and failures[0]["bot"] == "gone-bot"
        assert "cannot run it" in failures[0]["reason"]
        r = c.post(f"/api/tables/{tid}/actions", json={"token": token, "action": "declare", "seq": 0})
        assert r.status_code == 200, r.text
        r = c.post(f"/api/tables/{tid}/bots", json={"token": token, "seat": 0, "choice": "replace", "bot": "random"})
        assert r.status_code == 200, r.text
        wait_for(c, tid, lambda m: m["index"] >= 2)



def test_a_failed_bot_is_replaced_over_the_socket(client: TestClient) -> None:
    tid = create(client, ["raising-test", "human", "human"], AGREED)
    token = join(client, tid, 1)
    assert client.post(f"/api/tables/{tid}/actions", json={"token": token, "action": "declare", "seq": 0}
                       ).status_code == 200
    wait_for(client, tid, lambda m: m["table"]["bot_failures"])
    with client.websocket_connect(f"/ws/tables/{tid}?token={token}") as ws:
        first = ws.receive_json()
        assert first["type"] == "state" and first["table"]["bot_choices"] == bot_names(freetrader.game("contraband"))
        assert isinstance(first["now"], float) and first["table"]["fallback_bot"] == "random"
        ws.send_json({"type": "bot", "seat": 0, "choice": "replace", "bot": "nope", "id": 1})
        reply = ws.receive_json()
        assert reply["type"] == "error" and reply["status"] == 400 and "nope" in reply["error"]
        ws.send_json({"type": "bot", "seat": 0, "choice": "replace", "bot": "random", "id": 2})
        while (reply := ws.receive_json())["type"] != "ack":
            assert reply["type"] == "state"
        assert reply["id"] == 2
    moved = wait_for(client, tid, lambda m: m["index"] >= 2)
    assert moved["table"]["bot_failures"] == [] and moved["table"]["seats"][0]["kind"] == "random"
