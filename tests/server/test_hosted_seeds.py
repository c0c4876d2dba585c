"""Hosted games are keyed by a secret from the OS; a chosen seed is practice only and says so; errors hide cards."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from fastapi.testclient import TestClient
from tablehelp import SHORT, create, join, view, wait_for

import freetrader
from freetrader.bots import register_bot
from freetrader.bots.random_bot import RandomBot

np = pytest.importorskip("numpy")
import splitmix_search as search  # noqa: E402

EIGHT_BOTS = ["random"] * 8


def _key_of(client: TestClient, tid: str) -> str:
    seed = client.app.state.lobby.tables[tid].seed  # type: ignore[attr-defined]
    assert isinstance(seed, str)
    return seed


def _error(r, status: int) -> str:
    assert r.status_code == status, r.text
    msg = r.json()["error"]
    assert "\n" not in msg and "Traceback" not in msg
    return str(msg)


def test_a_finished_hosted_game_gives_out_a_key_of_128_bits_or_more(client: TestClient) -> None:
    tid = create(client, ["random", "heuristic", "random"], SHORT)
    msg = wait_for(client, tid, lambda m: m["view"]["is_over"])
    rec = client.get(f"/api/tables/{tid}/record").json()
    kind, _, hexkey = rec["seed"].partition(":")
    assert kind == "blake2b" and len(bytes.fromhex(hexkey)) * 8 >= 128
    assert "seed" not in rec["table"]["settings"]  # given out once, as the record's seed
    assert freetrader.replay(rec).view(None) == msg["view"]
    assert not msg["table"]["seed_chosen"] and "seed_chosen" not in msg["view"]


def test_the_key_is_withheld_while_the_game_goes_on(client: TestClient) -> None:
    tid = create(client, ["human", "human", "random"], SHORT)
    token = join(client, tid)
    key = _key_of(client, tid)
    hexkey = key.partition(":")[2]
    answers = [
        client.get(f"/api/tables/{tid}").text,
        client.get("/api/tables").text,
        client.get(f"/api/tables/{tid}/view").text,
        client.get(f"/api/tables/{tid}/view", params={"token": token}).text,
    ]
    assert "not over" in _error(client.get(f"/api/tables/{tid}/record"), 409)
    assert "not over" in _error(client.get(f"/api/tables/{tid}/replay"), 409)
    for text in answers:
        assert hexkey not in text and hexkey[:16] not in text
        assert '"seed"' not in text


def test_a_chosen_seed_is_refused_at_a_table_of_humans(client: TestClient) -> None:
    for seats in (["human"] * 3, ["human", "human", "random"]):
        r = client.post("/api/tables", json={"game": "contraband", "seats": seats, "seed": 7})
        assert "cannot take a chosen seed" in _error(r, 400)
    assert client.get("/api/tables").json()["tables"] == []  # nothing was created


def test_one_human_and_two_bots_may_choose_the_seed_and_everyone_is_told(client: TestClient) -> None:
    tid = create(client, ["human", "random", "random"], {**SHORT, "first_officer": "agreement"}, seed=7)
    token = join(client, tid)
    assert client.get(f"/api/tables/{tid}").json()["table"]["seed_chosen"] is True
    assert [t["seed_chosen"] for t in client.get("/api/tables").json()["tables"]] == [True]
    for who in (None, token):
        assert view(client, tid, who)["view"]["seed_chosen"] is True
    # the same seed deals the same cards as the engine would
    assert view(client, tid, token)["view"]["luggage"] == freetrader.game("contraband").new_state(
        3, 7, {**SHORT, "first_officer": "agreement"}).view(0)["luggage"]
    plain = create(client, ["human", "random", "random"], SHORT)
    assert client.get(f"/api/tables/{plain}").json()["table"]["seed_chosen"] is False
    assert "seed_chosen" not in view(client, plain)["view"]


# -- the spectator's brute force finds nothing ------------------------------------------------
def _hosted_game(client: TestClient) -> tuple[dict, list[str], list[int]]:
    """A finished 8-bot hosted game whose officer deal narrows the seeds most (of a few tried)."""
    best: tuple[float, str, list[int]] | None = None
    for _ in range(4):
        tid = create(client, EIGHT_BOTS, SHORT)
        first = wait_for(client, tid, lambda m: bool(m["view"]["events"]))["view"]["events"][0]
        kinds = search.deal_kinds(first, 8)
        n = search.expected_survivors(kinds, 2**32)
        if best is None or n < best[0]:
            best = (n, tid, kinds)
    assert best is not None
    _, tid, kinds = best
    msg = wait_for(client, tid, lambda m: m["view"]["is_over"])
    return client.get(f"/api/tables/{tid}/record").json(), msg["view"]["events"], kinds


def _scan(rec: dict, events: list[str], kinds: list[int], start: int, stop: int) -> tuple[int, list[int]]:
    seeds = list(search.candidates(kinds, start, stop))
    return len(seeds), [s for s in seeds if search.replays_to(rec, events, s)]


def _planted(seed: int) -> tuple[dict, list[str], list[int]]:
    state = freetrader.game("contraband").new_state(8, seed, SHORT)
    pick = random.Random(3)
    while not state.is_over:
        state.apply(pick.choice(state.legal_actions()))
    rec = json.loads(json.dumps(state.record()))
    return rec, state.events, search.deal_kinds(state.events[0], 8)


def test_the_search_finds_the_seed_of_a_splitmix_game() -> None:
    seed = 3_000_123_457  # below 2**32, like the seeds the server used to draw
    rec, events, kinds = _planted(seed)
    _, found = _scan(rec, events, kinds, seed - (1 << 21), seed + (1 << 21))
    assert found == [seed]


def test_a_hosted_contraband_log_matches_no_splitmix_seed_in_a_window(client: TestClient) -> None:
    rec, events, kinds = _hosted_game(client)
    assert rec["seed"].startswith("blake2b:")
    _, found = _scan(rec, events, kinds, 0, 1 << 22)
    assert found == []


@pytest.mark.slow
def test_a_hosted_contraband_log_matches_no_splitmix_seed_below_2_to_the_32(client: TestClient) -> None:
    rec, events, kinds = _hosted_game(client)
    n, found = _scan(rec, events, kinds, 0, 1 << 32)
    assert found == [], f"{len(found)} of {n} seeds whose deal matches replay the whole log"


# -- error text shown to the table ----------------------------------------------------------
class _WrongAtDiscardBot(RandomBot):  # type: ignore[misc]
    """Plays randomly, but answers the discard step (whose legal actions name its cards) with a claim."""

    name = "wrong-at-discard-test"

    def choose(self, state: Any, seat: int) -> Any:
        if state.prompt.startswith("discard"):
            return "claim brandy"
        return super().choose(state, seat)


register_bot("wrong-at-discard-test", _WrongAtDiscardBot)


def test_a_bots_refused_move_shows_no_one_its_cards(client: TestClient) -> None:
    bad = "wrong-at-discard-test"
    for _attempt in range(20):  # until some bot reaches a discard step (random play gets there quickly)
        tid = create(client, [bad] * 3, SHORT)
        msg = wait_for(client, tid, lambda m: m["table"]["error"] or m["view"]["is_over"])
        if msg["table"]["error"]:
            break
    else:
        pytest.skip("no bot reached a discard step in 20 games")
    table = client.app.state.lobby.tables[tid]  # type: ignore[attr-defined]
    seat = table.state.to_act
    cards = {a.split()[1] for a in map(str, table.state.legal_actions())}
    assert table.state.prompt.startswith("discard") and cards
    for text in (msg["table"]["error"], client.get(f"/api/tables/{tid}").text, client.get("/api/tables").text):
        assert "legal" not in text and not any(f"discard {c}" in text for c in cards), text
    assert f"bot at seat {seat} could not move (it chose a move the rules do not allow)" in msg["table"]["error"]
