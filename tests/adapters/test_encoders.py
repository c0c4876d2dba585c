"""Encoders: fixed shapes, views only, masks equal to the legal actions, stable catalogues."""

from __future__ import annotations

import random
import subprocess
import sys

import numpy as np
import pytest

import freetrader
from freetrader.adapters._session import Session
from freetrader.adapters.encoders import (
    Catalogue,
    GenericEncoder,
    HashedActions,
    encoder_for,
    encoder_names,
    seat_view,
)

from .conftest import DEDICATED, short_options, small_seats


def _positions(name: str, seats: int, seed: int, every: int = 7):
    """Positions along one random game (the state itself, advanced in place)."""
    g = freetrader.game(name)
    state = g.new_state(seats, seed, short_options(name))
    rng = random.Random(seed)
    k = 0
    while not state.is_over:
        if k % every == 0:
            yield state
        state.apply(rng.choice(state.legal_actions()))
        k += 1
    yield state


def test_dedicated_encoders_are_registered():
    assert set(DEDICATED) <= set(encoder_names())
    for name in DEDICATED:
        enc = encoder_for(name, freetrader.game(name).spec.min_seats)
        assert enc.name == name and enc.version >= 1 and not isinstance(enc, GenericEncoder)


@pytest.mark.parametrize("kind", ["auto", "generic"])
def test_observations_have_fixed_shape_and_ignore_hidden_information(game_name, kind):
    seats = small_seats(game_name)
    enc = encoder_for(game_name, seats, short_options(game_name), kind)
    lo, hi = enc.bounds
    det_rng = random.Random(5)
    for state in _positions(game_name, seats, seed=3):
        for seat in range(seats):
            obs = enc.encode(seat_view(state, seat))
            assert obs.dtype == np.float32 and obs.shape == (enc.observation_size,)
            assert np.isfinite(obs).all() and obs.min() >= lo and obs.max() <= hi
            # Two determinizations for this seat differ only in what it cannot see.
            for _ in range(2):
                other = state.determinize(seat, det_rng)
                assert np.array_equal(enc.encode(seat_view(other, seat)), obs), f"seat {seat} sees hidden information"


def test_contraband_observation_at_max_seats():
    enc = encoder_for("contraband", 8)
    for state in _positions("contraband", 8, seed=1, every=11):
        assert enc.encode(seat_view(state, state.to_act or 0)).shape == (enc.observation_size,)


@pytest.mark.parametrize("kind", ["auto", "generic"])
def test_masks_equal_legal_actions(game_name, kind):
    seats = small_seats(game_name)
    session = Session(game_name, seats, short_options(game_name), kind)
    session.new_game(11)
    rng = random.Random(11)
    while not session.state.is_over:
        legal = session.state.legal_actions()
        index = session.legal()
        mask = session.mask()
        assert sorted(map(str, index.values())) == sorted(map(str, legal))
        assert int(mask.sum()) == len(legal) and set(np.flatnonzero(mask)) == set(index)
        session.play(rng.choice(sorted(index)))
    assert session.mask().sum() == 0


def test_seat_view_is_the_view_without_the_log(game_name):
    seats = small_seats(game_name)
    for state in _positions(game_name, seats, seed=2, every=13):
        for seat in range(seats):
            full = state.view(seat)
            full.pop("events")
            assert seat_view(state, seat) == full
            assert seat_view(state, seat, events=True) == state.view(seat)


@pytest.mark.parametrize("name", DEDICATED)
def test_catalogue_notations_are_the_games_notation(name):
    g = freetrader.game(name)
    cat = encoder_for(name, g.spec.min_seats).actions
    assert isinstance(cat, Catalogue)
    for i, text in enumerate(cat.notations):
        assert str(g.parse_action(text)) == text
        assert cat.index_of(text) == i and cat.describe(i) == text


@pytest.mark.parametrize("name", DEDICATED)
def test_catalogue_covers_every_action_played(name):
    """Random games offer no action the game's catalogue lacks (else the encoder needs a new version)."""
    seats = small_seats(name)
    session = Session(name, seats, None)  # no turn cap: long random games reach the rare actions too
    rng = random.Random(0)
    for seed in range(3):
        session.new_game(seed)
        while not session.state.is_over and session.state.action_count < 3000:
            session.play(rng.choice(sorted(session.legal())))
    assert not session.encoder.actions.unknown  # type: ignore[attr-defined]


def test_cornish_catalogue_has_every_price_row_a_sale_offers():
    """Selling Goods offers "price top", a row paid with Influence or Reputation, and (the Forged Cocket) the
    bottom row without its cost: catalogue v3 names each, so none falls into the overflow."""
    from freetrader.adapters.encoders.cornish_smuggler import NOTATIONS

    offered = ["price top", "price bottom"] + [f"price {r} with {p}" for r in ("middle", "bottom")
                                               for p in ("influence", "reputation")]
    assert [t for t in offered if t not in NOTATIONS] == []


def test_catalogue_overflow_takes_unknown_actions():
    g = freetrader.game("contraband")
    legal = g.new_state(3, 1).legal_actions()
    cat = Catalogue([], "empty", overflow=len(legal))
    idx = cat.legal_indices(legal)
    assert sorted(idx) == list(range(len(legal))) and cat.unknown == {str(a) for a in legal}
    cat = Catalogue(["a", "b"], "demo v1")
    with pytest.raises(KeyError, match="not in the demo v1 catalogue"):
        cat.index_of("c")
    with pytest.raises(ValueError, match="twice"):
        Catalogue(["a", "a"])


@pytest.mark.parametrize("name", DEDICATED)
def test_legal_mask_is_the_legal_indices_and_their_ones(name):
    """``legal_mask`` (one C call where built, the Python way otherwise) gives ``legal_indices`` and a mask with
    a 1 at each of them and nowhere else, for actions met before and for new ones alike."""
    from freetrader.adapters.encoders import base

    seats = small_seats(name)
    g = freetrader.game(name)
    rng = random.Random(2)
    for compiled in (True, False) if base._MASKS is not None else (False,):
        enc = encoder_for(name, seats)
        state = g.new_state(seats, 4, short_options(name))
        for _ in range(150):
            if state.is_over:
                break
            legal = state.legal_actions()
            before = list(enc.legal_indices(legal)) if rng.random() < 0.5 else None  # met before, or new
            kept = base._MASKS
            if not compiled:
                base._MASKS = None
            try:
                idx, ones = enc.legal_mask(legal)
            finally:
                base._MASKS = kept
            assert idx == enc.legal_indices(legal) and (before is None or idx == before)
            assert type(ones) is bytes and len(ones) == enc.num_actions
            assert [i for i, one in enumerate(ones) if one] == sorted(idx) and set(ones) <= {0, 1}
            state.apply(rng.choice(legal))


def test_legal_mask_leaves_overflow_and_shared_indices_to_the_python_way():
    """Actions in the overflow slots, and two actions the catalogue gives one index, take the Python path."""
    from freetrader.adapters.encoders import base

    g = freetrader.game("contraband")
    legal = g.new_state(3, 1).legal_actions()
    cat = Catalogue([], "empty", overflow=len(legal))
    idx, ones = cat.legal_mask(legal)  # none catalogued: every one in the overflow, resolved to distinct slots
    assert sorted(idx) == list(range(len(legal))) and ones == bytes([1]) * len(legal)
    assert cat.legal_mask(legal) == (idx, ones)  # the same again (overflow actions are never kept by id)
    cat = Catalogue([str(legal[0])], "one", overflow=0)
    twins = [legal[0], g.parse_action(str(legal[0]))]  # one notation twice (one object or two): one index twice
    assert cat.legal_mask(twins) == ([0, 0], b"\x01")
    cat.legal_mask(twins)  # both now kept by id: the C path sees the shared index and defers
    assert cat.legal_mask(twins) == ([0, 0], b"\x01")
    if base._MASKS is not None:
        assert base._MASKS(cat._by_id, cat._table, 1, twins) is None


def test_legal_mask_follows_an_encoders_own_legal_indices():
    """An encoder that maps actions its own way gets the mask of its own indices."""
    base = encoder_for("contraband", 3)

    class Reversed(type(base)):  # type: ignore[misc]
        def legal_indices(self, actions):
            return [self.num_actions - 1 - i for i in base.legal_indices(actions)]

    enc = Reversed(base.game, 3, {})
    legal = freetrader.game("contraband").new_state(3, 1).legal_actions()
    idx, ones = enc.legal_mask(legal)
    assert idx == [enc.num_actions - 1 - i for i in base.legal_indices(legal)]
    assert [i for i, one in enumerate(ones) if one] == sorted(idx) and len(ones) == enc.num_actions


def test_hashed_actions_resolve_collisions():
    g = freetrader.game("contraband")
    legal = g.new_state(3, 1).legal_actions()
    space = HashedActions(size=max(2, len(legal)))
    idx = space.legal_indices(legal)
    assert len(set(idx)) == len(idx) and all(0 <= i < space.size for i in idx)
    # Without a collision an index is the notation's home slot, the same in every state.
    roomy = HashedActions(size=1 << 20)
    assert roomy.legal_indices(legal) == [roomy.home(a) for a in legal]


def test_importing_adapters_imports_no_heavy_library():
    code = (
        "import sys, freetrader.adapters, freetrader.adapters.encoders;"
        "heavy = [m for m in ('numpy', 'gymnasium', 'pettingzoo', 'pyspiel') if m in sys.modules];"
        "print(heavy)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


@pytest.mark.parametrize("name", ["contraband", "cornish-smuggler"])
def test_mask_cache_turns_itself_off_when_sets_rarely_recur_and_masks_stay_right(name, monkeypatch):
    """The session keeps masks by legal set only while most sets recur; either way each mask is the legal set."""
    from freetrader.adapters import _session

    monkeypatch.setattr(_session, "_MASK_TRIAL", 200)
    seats = small_seats(name)
    session = Session(name, seats, short_options(name))
    rng = random.Random(3)
    seen_off = False
    for seed in range(4):
        session.new_game(seed)
        while not session.state.is_over:
            legal = session.state.legal_actions()
            mask = session.mask()
            assert not mask.flags.writeable
            assert sorted(map(str, session.legal().values())) == sorted(map(str, legal))
            assert int(mask.sum()) == len(legal) and set(np.flatnonzero(mask)) == set(session.legal())
            seen_off = seen_off or session._masks is None
            session.play(rng.choice(sorted(session.legal())))
    # Contraband's few decisions recur (its cache stays on); Cornish Smuggler's sets are mostly new
    assert seen_off == (name == "cornish-smuggler")


@pytest.mark.parametrize("name", DEDICATED)
def test_a_session_without_the_c_masks_shows_the_same_masks(name, monkeypatch):
    """``mask_function`` is the C call of ``legal_mask`` or None (no C build): a session made either way shows
    the same mask and indices at every position."""
    from freetrader.adapters.encoders import base

    seats = small_seats(name)
    with_c = Session(name, seats, short_options(name))
    assert (with_c._mask_of is None) == (base._MASKS is None)  # every dedicated encoder has a catalogue
    monkeypatch.setattr(base, "_MASKS", None)
    without = Session(name, seats, short_options(name))
    assert without._mask_of is None
    rng = random.Random(6)
    for s in (with_c, without):
        s.new_game(3)
    for _ in range(120):
        if with_c.state.is_over:
            break
        assert np.array_equal(with_c.mask(), without.mask()) and with_c.legal().keys() == without.legal().keys()
        index = rng.choice(sorted(with_c.legal()))
        with_c.play(index)
        without.play(index)


@pytest.mark.parametrize("name", ["contraband", "precious-cargo"])
def test_legal_key_tells_legal_sets_apart_as_their_ids_do(name):
    """``legal_key`` (the C ``ids`` where built, else the tuple of ids) is equal for two legal lists exactly when
    they hold the same action objects in the same order: the mask cache's key."""
    from freetrader.adapters.encoders import base

    keys = [base._id_tuple] + ([base.legal_key] if base.legal_key is not base._id_tuple else [])
    state = freetrader.game(name).new_state(small_seats(name), 5, short_options(name))
    rng = random.Random(5)
    seen: list[list[freetrader.Action]] = []
    while not state.is_over and len(seen) < 150:
        legal = state.legal_actions()
        seen.append(legal)
        state.apply(rng.choice(legal))
    seen += [list(reversed(seen[0])), seen[1][:1], []]
    for key in keys:
        by_key: dict[object, list[freetrader.Action]] = {}
        for legal in seen:
            twin = by_key.setdefault(key(legal), legal)
            assert len(twin) == len(legal) and all(a is b for a, b in zip(twin, legal, strict=True))
    assert len({base.legal_key(x) for x in seen}) == len({base._id_tuple(x) for x in seen}) > 10


def test_the_c_masks_table_follows_its_dict_as_it_grows():
    """``_action_masks.masks`` finds indices through a table of addresses it makes from ``by_id``: made again
    whenever the dict grew, so an action added later is found, one never added is not, and a dict of
    anything but ints leaves the answer to the Python path."""
    from freetrader.adapters.encoders import base

    if base._MASKS is None:
        pytest.skip("no C build")
    actions = [object() for _ in range(300)]
    by_id: dict[int, int] = {}
    table = bytearray()
    for k, a in enumerate(actions):
        assert base._MASKS(by_id, table, 400, [a]) is None  # not met yet
        by_id[id(a)] = k + 50
        idx, ones = base._MASKS(by_id, table, 400, actions[: k + 1][::-1])
        assert idx == [j + 50 for j in range(k, -1, -1)]
        assert ones == bytes(50) + bytes([1]) * (k + 1) + bytes(400 - 51 - k)
    assert base._MASKS(by_id, table, 340, actions) is None  # an index beyond the mask: the Python path
    assert base._MASKS({1: "x"}, bytearray(), 10, []) is None  # not ints: the Python path
    with pytest.raises(TypeError, match="bytearray"):
        base._MASKS(by_id, b"", 400, actions)
