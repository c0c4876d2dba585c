"""Cornish Smuggler's ``encode_state`` in positions that reach every block it builds.

``test_fast_encoders.py`` holds it to ``encode(view)`` over random play, but
random play never lands, stores, sells or triggers the end. Here heuristic
bots, nudged towards landing and storing, play games on one live state (so
that blocks cached from lists the rules then change in place are caught),
and each position is checked against the view; those where a branch of the
fast path is first met are also checked for every seat and under
determinization. Each test runs on both paths: the compiled encoder (where the
install built it) and the memoized Python blocks, the reference.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator

import numpy as np
import pytest

import freetrader
from freetrader.adapters.encoders import cornish_smuggler as cs
from freetrader.adapters.encoders import encoder_for, seat_view
from freetrader.bots.base import make_bot
from freetrader.core import State
from freetrader.games.cornish_smuggler import rules as R

GAME = freetrader.game("cornish-smuggler")
# Actions random play seldom takes, which lead to the rarer blocks (landings, storehouses)
KEEN = ("store ", "land", "unload", "claim ", "unstore ", "discover")
# (seats, seed, options): found to reach every branch below between them
GAMES = [(2, 0, {"turn_limit": 4}), (3, 1, {"turn_limit": 4}), (4, 7, {}), (5, 3, {"turn_limit": 5}),
         (3, 4, {"turn_limit": 6})]
_LANDING = (R.LAND_SELECT, R.LAND_HIDE, R.LAND_STORE)

BRANCHES: dict[str, Callable[[State], bool]] = {
    "set-up choices left": lambda s: bool(s.ships_left or s.stores_left),
    "no ship yet": lambda s: any(k < 0 for k in s.ship_card),
    "a seat draws set-up Characters": lambda s: bool(s.drawn),
    "a face-up stack is empty": lambda s: any(c < 0 for c in s.faceup),
    "a ship at sea": lambda s: any(a >= 0 for a in s.ship_at),
    "two counters at one location": lambda s: any(len(set(c)) < len(c) for c in s.counters),
    "Characters hired": lambda s: any(s.chars),
    "storehouses owned": lambda s: any(s.stores),
    "Secrets held": lambda s: any(s.secrets),
    "an officer waits": lambda s: any(a < 0 for a in s.off_at),
    "an officer bribed": lambda s: any(b >= 0 for b in s.off_bribe),
    "goods at a merchant": lambda s: R.MERCHANT in s.g_where,
    "goods aboard": lambda s: R.SHIP in s.g_where,
    "goods ashore": lambda s: R.LAND in s.g_where,
    "goods in a storehouse": lambda s: R.STORE in s.g_where,
    "goods in the warehouse": lambda s: R.WAREHOUSE in s.g_where,
    "goods sold": lambda s: R.SOLD in s.g_where,
    "a landing under way": lambda s: s.phase in _LANDING,
    "goods being landed": lambda s: s.phase in _LANDING and bool(s.land_sel),
    "someone passed": lambda s: any(s.passed),
    "the end triggered": lambda s: bool(s.ending),
    "game over": lambda s: s.is_over,
}


PATHS = ["python", pytest.param("compiled", marks=pytest.mark.skipif(
    not cs.ACCELERATED, reason="the C encoder was not built (no compiler at install)"))]


def _encoder(seats: int, path: str):
    enc = encoder_for("cornish-smuggler", seats)
    enc.compiled = path == "compiled"
    return enc


def _same(a: np.ndarray, b: np.ndarray) -> bool:
    return a.dtype == b.dtype == np.float32 and a.shape == b.shape and a.tobytes() == b.tobytes()


def _play(seats: int, seed: int, options: dict) -> Iterator[State]:
    """One game on one live state, yielded after every action (the same object each time)."""
    rng = random.Random(seed)
    bots = [make_bot("heuristic", GAME, seed * 10 + k) for k in range(seats)]
    state = GAME.new_state(seats, seed, options)
    yield state
    while not state.is_over:
        legal = state.legal_actions()
        keen = [a for a in legal if str(a).startswith(KEEN)]
        if keen and rng.random() < 0.8:
            action = rng.choice(keen)
        elif rng.random() < 0.7:
            action = bots[state.to_act].choose(state, state.to_act)  # type: ignore[index]
        else:
            action = rng.choice(legal)
        state.apply(action)
        yield state


def _check_all_seats(enc, state: State, det: random.Random) -> None:
    for seat in [None, *range(state.seats)]:
        fast = enc.encode_state(state, seat)
        assert _same(fast, enc.encode(seat_view(state, seat))), f"seat {seat} at action {state.action_count}"
        if seat is not None:
            other = state.determinize(seat, det)
            assert _same(enc.encode_state(other, seat), fast), f"seat {seat} sees hidden information"


def _check_games(enc_for: Callable[[int], object]) -> dict[str, bool]:
    seen = dict.fromkeys(BRANCHES, False)
    det = random.Random(5)
    for seats, seed, options in GAMES:
        enc = enc_for(seats)
        for state in _play(seats, seed, options):
            new = [k for k, met in BRANCHES.items() if not seen[k] and met(state)]
            if new or state.action_count % 25 == 0:
                _check_all_seats(enc, state, det)
            else:
                seat = state.to_act
                assert _same(enc.encode_state(state, seat), enc.encode(seat_view(state, seat))), (
                    f"seat {seat} at action {state.action_count} of game {seats, seed}")
            for k in new:
                seen[k] = True
    return seen


@pytest.mark.parametrize("path", PATHS)
def test_positions_cover_every_fast_path_branch_and_match_the_view(path):
    encoders = {n: _encoder(n, path) for n in range(2, 6)}
    seen = _check_games(encoders.__getitem__)
    assert all(seen.values()), [k for k, met in seen.items() if not met]


def test_memos_emptied_at_every_miss_still_give_the_view(monkeypatch):
    """A memo that is cleared when full must not hand back a block made for other values."""
    for memo in [v for v in vars(cs).values() if isinstance(v, cs._Memo)]:
        monkeypatch.setattr(memo, "limit", 1)
    enc = _encoder(3, "python")  # the memos are the Python path's
    for state in _play(3, 1, {"turn_limit": 2}):
        _check_all_seats(enc, state, random.Random(1))


@pytest.mark.parametrize("path", PATHS)
def test_one_encoder_across_games_and_seat_counts(path):
    """Blocks kept from the last position seen must be checked against the next, whatever game it is from."""
    enc = _encoder(3, path)
    positions = []
    for seats, seed, options in GAMES:
        positions += [state.clone() for state in _play(seats, seed, options)][::7]
    random.Random(2).shuffle(positions)
    for state in positions:
        for seat in [None, *range(state.seats)]:
            assert _same(enc.encode_state(state, seat), enc.encode(seat_view(state, seat)))


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("seat", [2, -1, True, "0"])
def test_a_bad_seat_is_named_by_the_view(seat, path):
    enc = _encoder(2, path)
    with pytest.raises(ValueError, match="no seat"):
        enc.encode_state(GAME.new_state(2, 1), seat)
    with pytest.raises(ValueError, match="no seat"):
        enc.encode_buffer(GAME.new_state(2, 1), seat)


@pytest.mark.parametrize("path", PATHS)
def test_each_call_gives_a_new_writable_array(path):
    enc = _encoder(2, path)
    state = GAME.new_state(2, 1)
    a, b = enc.encode_state(state, 0), enc.encode_state(state, 0)
    assert a is not b and a.flags.writeable
    a[:] = 7
    assert _same(b, enc.encode(seat_view(state, 0)))


@pytest.mark.skipif(not cs.ACCELERATED, reason="the C encoder was not built")
def test_compiled_encoder_refuses_a_malformed_state():
    """Fields of the wrong length, type or range raise a Python error instead of reading past the data."""
    state = GAME.new_state(3, 1)
    for field, value, error in (
        ("gold", [1], IndexError), ("counters", [[0], [999], [0]], IndexError), ("g_where", [0] * 5, ValueError),
        ("g_at", [0], IndexError), ("off_at", [0] * 3, ValueError), ("faceup", [0], ValueError),
        ("chars", [[0], (1,), 3], TypeError), ("ship_card", [99, 0, 0], IndexError), ("track", 999, IndexError),
        ("hold", None, TypeError),
    ):
        broken = state.clone()
        setattr(broken, field, value)
        with pytest.raises(error):
            cs._compiled.encode(broken, 0, int(broken.phase), broken.actor, -1, ())
    with pytest.raises(ValueError, match="bad seat"):
        cs._compiled.encode(state, 3, int(state.phase), state.actor, -1, ())


@pytest.mark.skipif(not cs.ACCELERATED, reason="the C encoder was not built")
def test_compiled_encoder_refuses_a_layout_that_differs_from_its_header():
    args = list(cs._CONFIGURE)
    lay = list(args[-1])
    lay[cs._C_LAYOUT.index("goods.size")] += 1
    with pytest.raises(RuntimeError, match="differs"):
        cs._compiled.configure(*args[:-1], lay)
    cs._compiled.configure(*args)  # the declared layout is accepted (and stays configured)
    state = GAME.new_state(2, 4)
    enc = _encoder(2, "compiled")
    assert _same(enc.encode_state(state, 0), enc.encode(seat_view(state, 0)))
