"""The keyed generator: records name it and replay exactly; determinize never hands it on."""

from __future__ import annotations

import json
import random

import pytest

import freetrader
from freetrader.core import KeyedRng, Rng, make_rng, new_key_seed, seed_number

GAMES = ["contraband", "cornish-smuggler", "precious-cargo", "merchants-cove"]


def _play(state: freetrader.State, n: int, seed: int = 3) -> freetrader.State:
    pick = random.Random(seed)
    while not state.is_over and state.action_count < n:
        state.apply(pick.choice(state.legal_actions()))
    return state


def _dump(state: freetrader.State) -> str:
    return json.dumps(state.to_json(), sort_keys=True)


def test_a_new_key_seed_carries_256_bits_from_the_os_and_differs_each_time():
    a, b = new_key_seed(), new_key_seed()
    assert a != b
    kind, _, hexkey = a.partition(":")
    assert kind == "blake2b" and len(bytes.fromhex(hexkey)) * 8 == 256
    assert isinstance(make_rng(a), KeyedRng) and type(make_rng(5)) is Rng


def test_keyed_draws_depend_on_the_key_and_repeat_for_the_same_key():
    k1, k2 = bytes(16), bytes([1] + [0] * 15)
    assert [KeyedRng(k1).next64() for _ in range(3)] == [KeyedRng(k1).next64() for _ in range(3)]
    r1, r2 = KeyedRng(k1), KeyedRng(k2)
    assert [r1.next64() for _ in range(20)] != [r2.next64() for _ in range(20)]
    r = KeyedRng(k1)
    xs = [r.next64() for _ in range(20)]
    again = KeyedRng(k1, counter=13)  # the counter alone places a stream: no hidden state besides the key
    assert again.next64() == xs[13]
    c = r.copy()
    assert c.next64() == r.next64()


@pytest.mark.parametrize("name", GAMES)
def test_a_keyed_game_replays_and_round_trips_exactly(name):
    g = freetrader.game(name)
    seed = new_key_seed()
    s = _play(g.new_state(g.spec.min_seats if name != "contraband" else 3, seed), 300)
    rec = json.loads(json.dumps(s.record()))
    assert rec["seed"] == seed  # the record names the generator and its key
    assert _dump(freetrader.replay(rec)) == _dump(s)
    assert _dump(g.state_from_json(json.loads(json.dumps(s.to_json())))) == _dump(s)
    c = s.clone()
    if not c.is_over:
        c.apply(c.legal_actions()[0])
        assert c.rng.state >= s.rng.state and _dump(s) == _dump(g.state_from_json(s.to_json()))


def test_two_keys_give_two_games_and_an_int_seed_still_gives_the_old_game():
    g = freetrader.game("contraband")
    a, b = g.new_state(3, "blake2b:" + "00" * 16), g.new_state(3, "blake2b:" + "01" * 16)
    assert a.to_json()["state"] != b.to_json()["state"]
    assert _dump(g.new_state(3, 7)) == _dump(g.new_state(3, 7))
    assert type(g.new_state(3, 7).rng) is Rng


@pytest.mark.parametrize("bad, why", [
    ("splitmix:00", "must be 'blake2b:<hex key>'"),
    ("blake2b:zz" + "0" * 30, "hexadecimal"),
    ("blake2b:" + "ab" * 8, "32 to 128 hex digits"),
    (1.5, "whole number"),
    (True, "whole number"),
])
def test_a_bad_seed_is_refused_with_one_line(bad, why):
    with pytest.raises(freetrader.BadOption, match=why):
        freetrader.game("contraband").new_state(3, bad)
    with pytest.raises(freetrader.BadRecord, match=why):
        freetrader.replay({"game": "contraband-v1", "seats": 3, "seed": bad, "actions": []})


@pytest.mark.parametrize("name", GAMES)
def test_determinize_always_reseeds_with_a_fresh_splitmix(name):
    g = freetrader.game(name)
    for seed in (11, new_key_seed()):
        s = _play(g.new_state(g.spec.min_seats if name != "contraband" else 3, seed), 20)
        seat = s.to_act if s.to_act is not None else 0
        d1 = s.determinize(seat, Rng(1))
        d2 = s.determinize(seat, Rng(2))
        assert type(d1.rng) is Rng  # never the true (keyed) generator
        assert d1.rng.state != s.rng.state and d1.rng.state != d2.rng.state
        assert [d1.rng.next64() for _ in range(3)] != [s.clone().rng.next64() for _ in range(3)]


def test_seed_number_hides_the_key_and_is_stable():
    k = "blake2b:" + "11" * 32
    assert seed_number(k, 1) == seed_number(k, 1) != seed_number(k, 2)
    assert seed_number(k, 1) != seed_number("blake2b:" + "12" * 32, 1)
    assert 0 <= seed_number(k, 1) < 2**63
    assert seed_number(5, 1, 2) == freetrader.core.derive_seed(5, 1, 2)
