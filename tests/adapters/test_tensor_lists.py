"""OpenSpiel's tensor lists made in C (``encoders/_float_lists.c``): exactly ``tolist``'s floats, bit for bit.

The compiled list builder shares one float object per value between lists, so these tests
compare the doubles' bits (not ``==``, which -0.0 and NaN would fool), check that a caller's
changes to its list never reach another list, and that ``Encoder.encode_buffer`` (what the
builder reads) holds exactly ``encode_state``'s bytes, on both paths of each compiled encoder.
"""

from __future__ import annotations

import random
import struct

import numpy as np
import pytest

import freetrader
from freetrader.adapters.encoders import encoder_for
from freetrader.adapters.encoders._build import compiled

from .conftest import DEDICATED, short_options

pyspiel = pytest.importorskip("pyspiel")
from freetrader.adapters import openspiel as fos  # noqa: E402

_lists = compiled("_float_lists")
needs_c = pytest.mark.skipif(_lists is None, reason="the C list builder was not built (no compiler at install)")


def _bits(values: list[float]) -> bytes:
    """The doubles' exact bits (NaN payloads and the sign of zero included)."""
    assert all(type(x) is float for x in values)
    return struct.pack(f"{len(values)}d", *values)


def _odd_floats(n: int, seed: int) -> np.ndarray:
    """Mostly zeros and small repeats, with -0.0, NaNs (quiet, signalling, negative), infinities, subnormals."""
    rng = np.random.default_rng(seed)
    v = rng.choice(np.array([0.0, 1.0, 0.5, 1 / 3, 2.0, 0.1], np.float32), n, p=[0.7, 0.1, 0.05, 0.05, 0.05, 0.05])
    bits = v.view(np.uint32)
    odd = [0x80000000, 0x7FC00000, 0x7F800001, 0xFFC00000, 0x7FA00005, 0x7F800000, 0xFF800000, 0x00000001,
           0x807FFFFF]
    at = rng.choice(n, len(odd) + 20, replace=False)
    bits[at[: len(odd)]] = odd
    v[at[len(odd):]] = rng.normal(size=20).astype(np.float32)
    return v


@needs_c
@pytest.mark.parametrize("seed", range(5))
def test_lists_made_in_c_are_tolist_bit_for_bit_from_a_buffer_or_blocks(seed: int) -> None:
    v = _odd_floats(700, seed)
    want = _bits(v.tolist())
    raw = v.tobytes()
    cuts = sorted(random.Random(seed).sample(range(1, 700), 6))
    blocks = [raw[4 * a : 4 * b] for a, b in zip([0, *cuts], [*cuts, 700], strict=True)]
    for given in (v, raw, bytearray(raw), memoryview(raw), blocks, tuple(blocks), [bytearray(b) for b in blocks],
                  [v[:100], raw[400:]]):
        got = _lists.floats(given)
        if isinstance(given, list) and len(given) == 2:
            assert _bits(got) == _bits(v[:100].tolist() + v[100:].tolist())
        else:
            assert _bits(got) == want
    assert _lists.floats([]) == [] and _lists.floats(b"") == []


@needs_c
def test_a_list_made_in_c_is_the_callers_own() -> None:
    v = _odd_floats(600, 9)
    first = _lists.floats(v)
    first[:] = [7.0] * 600
    first.append(1.0)
    second = _lists.floats(v)
    assert second is not first and _bits(second) == _bits(v.tolist())


@needs_c
@pytest.mark.parametrize("bad", [np.zeros(3), np.zeros(3, np.int32), b"abc", [b"abcd", b"ab"], [b"abcd", 3], 3.0,
                                 np.zeros((2, 3), np.float32)[:, 1]])
def test_the_c_list_builder_refuses_what_is_not_float32(bad) -> None:
    with pytest.raises((TypeError, ValueError, BufferError)):
        _lists.floats(bad)


def _positions(name: str, seats: int, seed: int, limit: int = 120) -> list:
    g = freetrader.game(name)
    opts = short_options(name)
    s = g.new_state(seats, seed, opts)
    rng = random.Random(seed)
    out = [s.clone()]
    while not s.is_over and len(out) < limit:
        s.apply(rng.choice(s.legal_actions()))
        out.append(s.clone())
    return out


def _joined(buf) -> bytes:
    return b"".join(bytes(b) for b in buf) if isinstance(buf, list) else bytes(memoryview(buf).cast("B"))


@pytest.mark.parametrize("name", DEDICATED)
def test_encode_buffer_holds_encode_states_bytes_on_every_path(name: str) -> None:
    spec = freetrader.game(name).spec
    for seats in sorted({spec.min_seats, spec.max_seats}):
        enc = encoder_for(name, seats, short_options(name))
        paths = (True, False) if enc.compiled else (False,)
        for path in paths:
            enc.compiled = path
            for state in _positions(name, seats, 3 + seats):
                for seat in (None, *range(seats)):
                    assert _joined(enc.encode_buffer(state, seat)) == enc.encode_state(state, seat).tobytes()


@pytest.mark.parametrize("name", DEDICATED)
def test_observation_tensors_are_the_same_from_c_lists_blocks_and_whole_vectors(name: str) -> None:
    spec = freetrader.game(name).spec
    seats = spec.max_seats if name != "cornish-smuggler" else 2
    games = [fos.load_game(name, players=seats, **short_options(name)) for _ in range(3)]
    games[1].observer(False).fast = None  # the Python lists from the encoder's blocks
    games[2].observer(False).fast = None
    games[2].observer(False).blocks = False  # the Python lists from the whole vector
    states = [g.new_initial_state() for g in games]
    rng = random.Random(name)
    steps = 0
    while not states[0].is_terminal() and steps < 150:
        for p in range(seats):
            want = games[0].encoder.encode_state(states[0].ft_state, p).tolist()
            lists = [st.observation_tensor(p) for st in states]
            assert all(_bits(x) == _bits(want) for x in lists)
            lists[0][:] = [7.0] * len(want)  # a caller changing its list does not change the next one
            assert _bits(states[0].observation_tensor(p)) == _bits(want)
        action = rng.choice(states[0].legal_actions())
        for st in states:
            st.apply_action(action)
        steps += 1


@needs_c
def test_lists_made_in_c_keep_the_shared_floats_reference_counts_right() -> None:
    """Shared floats gain a reference per entry and lose it with the list: no leak, no early free."""
    import sys

    v = _odd_floats(900, 3)
    first = _lists.floats(v)
    shared = [first[i] for i in range(16)] + [x for x in first if x == 1.0][:4]  # zeros in turn, and a 1.0
    before = [sys.getrefcount(x) for x in shared]
    for _ in range(50):
        lists = [_lists.floats(v), _lists.floats([v[:450], v[450:]])]
        del lists
    assert [sys.getrefcount(x) for x in shared] == before
    held = _lists.floats(v)  # one more reference per entry that is that object
    assert [sys.getrefcount(x) for x in shared] == [b + sum(y is x for y in held) for b, x in zip(before, shared,
                                                                                             strict=True)]
    assert sum(y is x for y in held for x in {id(z): z for z in shared}.values()) > 100  # zeros are shared
