"""``Encoder.encode_state``: the fast path gives exactly the view's vector and never reads hidden cards.

A fast path reads the full state, so these tests hold it to the view:
(1) ``encode_state(state, seat)`` is bit for bit ``encode(state.view(seat))``
for every seat and the spectator, over many random positions fed in a mixed
order (so that the encoder's caches are exercised across games and seat
counts); (2) determinizing the state for that seat never changes it.
"""

from __future__ import annotations

import os
import random

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import freetrader
from freetrader.adapters._session import Session
from freetrader.adapters.encoders import contraband as contraband_encoder
from freetrader.adapters.encoders import cornish_smuggler as cornish_smuggler_encoder
from freetrader.adapters.encoders import encoder_for, seat_view
from freetrader.adapters.encoders import merchants_cove as merchants_cove_encoder
from freetrader.adapters.encoders import precious_cargo as precious_cargo_encoder
from freetrader.core import State

from .conftest import DEDICATED, short_options


def _game_positions(name: str, seats: int, seed: int, options: dict | None = None) -> list[State]:
    """Every position of one random game (copies)."""
    g = freetrader.game(name)
    state = g.new_state(seats, seed, options or {})
    rng = random.Random(seed)
    out = [state.clone()]
    while not state.is_over:
        state.apply(rng.choice(state.legal_actions()))
        out.append(state.clone())
    return out


def _same(a: np.ndarray, b: np.ndarray) -> bool:
    return a.dtype == b.dtype == np.float32 and a.shape == b.shape and a.tobytes() == b.tobytes()


def _check_position(enc, state: State, det: random.Random) -> None:
    for seat in [None, *range(state.seats)]:
        fast = enc.encode_state(state, seat)
        assert _same(fast, enc.encode(seat_view(state, seat))), f"seat {seat} at action {state.action_count}"
        if seat is None:
            continue
        for _ in range(2):
            other = state.determinize(seat, det)
            assert _same(enc.encode_state(other, seat), fast), f"seat {seat} sees hidden information"


@pytest.mark.parametrize("name", DEDICATED)
def test_encode_state_is_the_encoded_view_and_hides_what_the_view_hides(name):
    spec = freetrader.game(name).spec
    seat_counts = sorted({spec.min_seats, min(spec.min_seats + 1, spec.max_seats), spec.max_seats})
    positions = []
    encoders = {n: encoder_for(name, n, short_options(name)) for n in seat_counts}
    for k, n in enumerate(seat_counts):
        for seed in range(2):
            positions += _game_positions(name, n, 100 * k + seed, short_options(name))
    rng = random.Random(7)
    rng.shuffle(positions)  # caches keyed by what was seen last must not carry over between games
    det = random.Random(8)
    for state in positions[:600]:
        _check_position(encoders[state.seats], state, det)


CONTRABAND_PATHS = ["python", pytest.param("compiled", marks=pytest.mark.skipif(
    not contraband_encoder.ACCELERATED, reason="the C encoder was not built (no compiler at install)"))]
# Encoders with a compiled twin: the tests above use the default path (compiled where built); here
# the Python path gets the same checks, so that both stay equal to the view's vector.
COMPILED = {"contraband": contraband_encoder, "precious-cargo": precious_cargo_encoder,
            "merchants-cove": merchants_cove_encoder, "cornish-smuggler": cornish_smuggler_encoder}


def _contraband_encoder(seats: int, path: str):
    enc = encoder_for("contraband", seats)
    enc.compiled = path == "compiled"
    return enc


@pytest.mark.parametrize("name", sorted(COMPILED))
def test_python_path_of_a_compiled_encoder_is_the_encoded_view_too(name):
    spec = freetrader.game(name).spec
    det = random.Random(4)
    for n in sorted({spec.min_seats, spec.max_seats}):
        enc = encoder_for(name, n, short_options(name))
        enc.compiled = False
        for state in _game_positions(name, n, 40 + n, short_options(name))[::3]:
            _check_position(enc, state, det)


@pytest.mark.parametrize("name", sorted(COMPILED))
def test_the_compiled_encoders_are_built_where_ci_requires_them(name):
    """CI installs with a compiler: there the compiled paths must exist, or their speed silently goes."""
    if os.environ.get("FREETRADER_REQUIRE_COMPILED") != "1":
        pytest.skip("FREETRADER_REQUIRE_COMPILED is not set")
    assert COMPILED[name].ACCELERATED
    assert encoder_for(name, freetrader.game(name).spec.min_seats).compiled


@pytest.mark.parametrize("path", CONTRABAND_PATHS)
def test_contraband_positions_cover_every_fast_path_branch(path):
    """The positions above include loans, payments due, searched luggage and a holder who looked at it."""
    seen = {"loans": False, "pending": False, "revealed": False, "holder looked": False, "over": False}
    enc = _contraband_encoder(4, path)
    det = random.Random(3)
    for seed in range(6):
        for state in _game_positions("contraband", 4, seed):
            s = state
            flags = {
                "loans": any(map(any, s.loans)), "pending": bool(s.pending), "revealed": bool(s.discard_shown),
                "holder looked": s.holder >= 0 and s.examined, "over": s.is_over,
            }
            if any(flags[k] and not seen[k] for k in flags) or s.action_count % 17 == 0:
                _check_position(enc, s, det)
            for k, v in flags.items():
                seen[k] = seen[k] or v
    assert all(seen.values()), seen


@pytest.mark.parametrize("path", CONTRABAND_PATHS)
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**31), seats=st.integers(3, 8), at=st.floats(0, 1))
def test_contraband_encode_state_property(path, seed, seats, at):
    """Any position of any random Contraband game, any seat count: (1) and (2) hold."""
    enc = _contraband_encoder(seats, path)
    positions = _game_positions("contraband", seats, seed)
    _check_position(enc, positions[int(at * (len(positions) - 1))], random.Random(seed))


@pytest.mark.parametrize("path", CONTRABAND_PATHS)
def test_encode_state_names_a_bad_seat(path):
    enc = _contraband_encoder(3, path)
    state = freetrader.game("contraband").new_state(3, 1)
    for bad in (3, -1, "0", True):
        with pytest.raises(ValueError, match="seat"):
            enc.encode_state(state, bad)


def test_observations_kept_from_earlier_steps_stay_as_they_were():
    """Each position's observation is a new array; observations and masks are read-only (callers share them)."""
    session = Session("contraband", 4)
    session.new_game(5)
    rng = random.Random(5)
    kept = []
    while not session.state.is_over:
        seat = session.state.to_act
        obs, mask = session.observe(seat), session.mask()
        assert session.observe(seat) is obs  # cached for the position
        assert not obs.flags.writeable and not mask.flags.writeable
        kept.append((obs, obs.copy(), mask, mask.copy()))
        session.play(rng.choice(sorted(session.legal())))
    for obs, copy, mask, mask_copy in kept:
        assert np.array_equal(obs, copy) and np.array_equal(mask, mask_copy)
    assert len({id(o) for o, *_ in kept}) == len(kept)


@pytest.mark.skipif(not contraband_encoder.ACCELERATED, reason="the C encoder was not built")
def test_compiled_contraband_encoder_refuses_a_malformed_state():
    """Fields of the wrong length or range raise a Python error instead of reading past the data."""
    from freetrader.games.contraband.rules import Payments  # the payments still owed live in this frame

    state = freetrader.game("contraband").new_state(4, 1)
    for field, value, error in (
        ("cash", [1, 2], IndexError), ("loans", [0] * 3, IndexError),
        ("frames", (Payments(owed=((0, 9, 5),)),), ValueError), ("claim", [99], ValueError),
        ("frames", (Payments(owed=((0, 1),)),), TypeError), ("cash", (1, 2, 3, 4), TypeError),
    ):
        broken = state.clone()
        setattr(broken, field, value)
        with pytest.raises(error):
            contraband_encoder._compiled.encode(broken, 0)


@pytest.mark.skipif(not precious_cargo_encoder.ACCELERATED, reason="the C encoder was not built")
def test_compiled_precious_cargo_encoder_refuses_a_malformed_state():
    state = freetrader.game("precious-cargo").new_state(2, 1)
    for field, value, error in (
        ("coins", [1], IndexError), ("at", [0, 99, -1, -1, -1, -1], ValueError), ("holds", [(999,)] * 6, ValueError),
        ("holds", [], IndexError), ("pools", [[]], TypeError), ("options", {}, KeyError), ("at", (0,), TypeError),
    ):
        broken = state.clone()
        broken.at = [0, -1, -1, -1, -1, -1]  # one ship built, so that the holds are read
        setattr(broken, field, value)
        with pytest.raises(error):
            precious_cargo_encoder._compiled.encode(broken, 0)


@pytest.mark.parametrize("name", ["contraband", "precious-cargo", "cornish-smuggler", "merchants-cove"])
def test_compiled_function_is_compiled_bytes_for_every_seat_and_none_when_off(name):
    """``compiled_function`` (what the sessions call) gives ``compiled_bytes``' vector for every seat and the
    spectator; None where the encoder has no single such call or its compiled path is off; a session then
    takes the Python path, still ``encode_state``'s vector."""
    seats = 3 if name == "contraband" else freetrader.game(name).spec.min_seats
    enc = encoder_for(name, seats, short_options(name))
    fn = enc.compiled_function()
    if fn is None:
        assert name in ("cornish-smuggler", "merchants-cove") or not enc.compiled
    for state in _game_positions(name, seats, 7, short_options(name))[::5]:
        for seat in [None, *range(seats)]:
            if fn is not None:
                assert fn(state, seat) == enc.compiled_bytes(state, seat)
    session = Session(name, seats, short_options(name), enc)
    on = enc.compiled
    enc.compiled = False
    try:
        assert enc.compiled_function() is None
        assert np.array_equal(session.observe(0), enc.encode_state(session.state, 0))
    finally:
        enc.compiled = on


@pytest.mark.parametrize("name", ["contraband", "precious-cargo"])
def test_compiled_encoders_read_large_numbers_as_python_does(name):
    """The compiled encoders read CPython's cached small ints (-5..256) by their place in its table; every
    other int (and a bool) takes the general call. Numbers far beyond that range give the Python path's bytes."""
    module = COMPILED[name]
    if not module.ACCELERATED:
        pytest.skip("the C encoder was not built")
    seats = 4 if name == "contraband" else 2
    enc = encoder_for(name, seats)
    for k, state in enumerate(_game_positions(name, seats, 9)[::25]):
        s = state.clone()
        money = "cash" if name == "contraband" else "coins"
        setattr(s, money, [257 + 1000 * k * p for p in range(seats)])  # beyond the cache, one seat at 257
        setattr(s, "round" if name == "contraband" else "turn", 2**40 + k)  # beyond a C long's small range too
        for seat in [None, *range(seats)]:
            enc.compiled = True
            fast = enc.encode_state(s, seat)
            enc.compiled = False
            assert _same(fast, enc.encode_state(s, seat)), f"position {k}, seat {seat}"
