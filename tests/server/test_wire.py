"""The socket messages' JSON (``server/wire.py``): what ``json.dumps`` accepts is written, and reads back the same."""

from __future__ import annotations

import json
import os
import random

import pytest

import freetrader
from freetrader.server import wire


@pytest.mark.parametrize("value", [
    {"b": 1, "a": [True, None, 2.5, -0.0], "c": {"x": "é"}},  # key order kept, types kept
    "\ud800",                 # a lone surrogate (from a client's message id): orjson refuses, the stdlib writes it
    10**30,                   # wider than 64 bits
    {1: "x", 2: [1, 2]},      # integer keys become strings, as json.dumps makes them
    '"},{"x": 1',             # text that looks like JSON stays a string
    (1, 2),                   # a tuple is an array
])
def test_values_read_back_as_the_standard_library_writes_them(value: object) -> None:
    assert json.loads(wire.dumps(value)) == json.loads(json.dumps(value))


def test_random_games_views_read_back_the_same() -> None:
    rng = random.Random(2)
    for game, seats in (("contraband", 3), ("cornish-smuggler", 3), ("precious-cargo", 2), ("merchants-cove", 2)):
        state = freetrader.game(game).new_state(seats, seed=1)
        for _ in range(60):
            if state.is_over or not state.legal_actions():
                break
            for seat in (*range(seats), None):
                view = state.view(seat)
                assert json.loads(wire.dumps(view)) == json.loads(json.dumps(view)), (game, seat)
            state.apply(rng.choice(state.legal_actions()))


def test_orjson_writes_where_the_web_extra_is_installed() -> None:
    if wire.dumps is wire._stdlib:
        if os.environ.get("CI"):
            pytest.fail("orjson (in the web extra) is not installed")
        pytest.skip("orjson is not installed here")
    assert wire.dumps({"a": 1}) == '{"a":1}'  # orjson's compact text
