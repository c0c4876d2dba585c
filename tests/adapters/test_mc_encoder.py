"""The Merchants Cove encoder with the Secret Stash modules on (the shared tests use default options only).

(1) ``encode_state`` is bit for bit ``encode(view)`` and blind to what a
determinization resamples, at 1 to 4 seats with the modules on; (2) the
catalogue holds every action random games offer; (3) the positions checked
reach every branch of the fast path. Each runs on the Python path and, where
the install built it, on the compiled one.
"""

from __future__ import annotations

import random
import sys
from typing import Any

import numpy as np
import pytest

import freetrader
from freetrader.adapters._session import Session
from freetrader.adapters.encoders import encoder_for, merchants_cove, seat_view
from freetrader.adapters.encoders.merchants_cove import _AT, NC, NOTATIONS, SEAT, SIZE, MerchantsCoveEncoder

from .test_fast_encoders import _check_position

NAME = "merchants-cove"
# Every module on that the seat count allows; solo adds the Challenge cards.
STASH: dict[str, Any] = {
    "rogue": "random-all", "multiple_rogues": True, "townsfolk": "all", "corruption": "mixed", "boats": "both",
    "boat_setup": True, "faction_leaders": True, "festival": True, "halls_of_plenty": True, "lair_of_villainy": True,
}
SOLO: dict[str, Any] = {**STASH, "challenges": True, "townsfolk": "locals+underworld+officials"}
# Rogue cards whose effects ask the seats for decisions (Kraken, Doppelgangers, Assassins, Mind Controllers,
# Raiders), with the sets not in STASH.
ROGUES: list[dict[str, Any]] = [
    {"rogue": r, "townsfolk": "sailors+artisans+underworld+legends", "corruption": "replace", "boats": "5-seaters",
     "five_seaters_two": True, "faction_leaders": True}
    for r in ("kraken", "doppelgangers", "assassins", "mind-controllers", "raiders", "cultists", "robbers")
]


PATHS = ["python", pytest.param("compiled", marks=pytest.mark.skipif(
    not merchants_cove.ACCELERATED, reason="the C encoder was not built (no compiler at install)"))]


def _encoder(seats: int, opts: dict[str, Any] | None, path: str) -> Any:
    enc = encoder_for(NAME, seats, opts)
    enc.compiled = path == "compiled"
    return enc


def _options(seats: int, opts: dict[str, Any]) -> dict[str, Any]:
    return SOLO if seats == 1 and opts is STASH else opts


def _games(configs: list[tuple[int, dict[str, Any]]], seeds: range, path: str = "compiled"):
    """(encoder, state) for every position of random games, the state advanced in place."""
    g = freetrader.game(NAME)
    for seats, opts in configs:
        enc = _encoder(seats, opts, path)
        for seed in seeds:
            state = g.new_state(seats, seed, opts)
            rng = random.Random(seed)
            while True:
                yield enc, state
                if state.is_over:
                    break
                state.apply(rng.choice(state.legal_actions()))


def _flags(s: Any) -> dict[str, bool]:
    """What a position shows that steers the fast path into a branch of its own."""
    boards = {m: s.mb[p] for p, m in enumerate(s.merchant) if m}
    al, bs, ca = boards.get("alchemist"), boards.get("blacksmith"), boards.get("captain")
    return {
        "stash boats": len(s.boats) > 6, "docked": any(d >= 0 for d in s.docked), "boat card": s.bcard >= 0,
        "customers": any(s.slot_adv), "leaders": len(s.bag) > 5 and any(s.bag[5:]),
        "leader in a hall": any(s.hall_leaders) or s.lair_leaders > 0, "bay": any(s.bay), "island": bool(s.island),
        "under the deck": bool(s.tf_bottom), "discards": bool(s.cdiscard), "drawn": s.drawn >= 0,
        "challenge": bool(s.chal_deck),
        "corruption held": any(s.corr[: s.seats]), "peddler card": s.np > s.seats and s.pcard >= 0,
        "market": s.stage == 2 and bool(s.order), "peddler to sell": s.stage == 2 and s.seats in s.order[1:],
        "rogue cards": len(s.rogues) > 1, "staff": any(s.staff), "shelf": any(map(any, s.shelf)),
        "on an action": any(s.last), "mice": min(s.mice) < 13, "doppelganger": any(s.hall_rogues),
        "slide": al is not None and bool(al.slide), "ichor waiting": al is not None and al.waiting > 0,
        "die coloured": bs is not None and max(bs.colour) >= 0,
        "die placed": bs is not None and max(bs.furnace) >= 0,
        "ship at sea": ca is not None and any(ca.at_sea),
        "chronomancer": "chronomancer" in boards, "draft": s.stage == 0, "over": s.is_over,
    }


CONFIGS: list[tuple[int, dict[str, Any]]] = [(1, SOLO), (2, STASH), (3, ROGUES[0]), (4, STASH)] + [
    (1 + k % 4, opts) for k, opts in enumerate(ROGUES[1:])
]


@pytest.mark.parametrize("path", PATHS)
def test_encode_state_is_the_view_and_hides_what_the_view_hides_with_the_secret_stash(path):
    """Every configuration above, positions checked for every seat whenever they show something new."""
    seen = dict.fromkeys(_flags(freetrader.game(NAME).new_state(1, 0, SOLO)), False)
    det = random.Random(3)
    for enc, s in _games(CONFIGS, range(2), path):
        flags = _flags(s)
        if any(v and not seen[k] for k, v in flags.items()) or s.action_count % 23 == 0:
            _check_position(enc, s, det)
        for k, v in flags.items():
            seen[k] = seen[k] or v
    assert all(seen.values()), [k for k, v in seen.items() if not v]


@pytest.mark.parametrize("path", PATHS)
def test_encode_state_after_the_last_challenge_card(path):
    """No active Challenge card (every card set aside), a state random games seldom reach."""
    det = random.Random(4)
    for enc, s in _games([(1, SOLO)], range(1), path):
        if s.action_count == 30:
            s.chal_aside += s.chal_deck
            s.chal_deck = []
            _check_position(enc, s, det)
            break


@pytest.mark.parametrize("seats", [1, 2, 3, 4])
def test_catalogue_covers_random_games_with_the_modules_on(seats):
    configs = [(seats, _options(seats, STASH))] + [(seats, opts) for opts in ROGUES[:3]]
    for _, opts in configs:
        session = Session(NAME, seats, opts)
        rng = random.Random(seats)
        for seed in range(2):
            session.new_game(seed)
            while not session.state.is_over:
                session.play(rng.choice(sorted(session.legal())))
        assert not session.encoder.actions.unknown, (opts, session.encoder.actions.unknown)  # type: ignore[attr-defined]


def test_layout():
    enc = encoder_for(NAME, 2)
    assert isinstance(enc, MerchantsCoveEncoder)
    assert enc.observation_size == SIZE and enc.num_actions == len(NOTATIONS) + 256
    assert encoder_for(NAME, 4, STASH).observation_size == encoder_for(NAME, 1, SOLO).observation_size == SIZE


def test_own_corruption_cards_show_to_their_holder_only():
    """The private block shows the seat's own cards by kind (nothing for a spectator); rivals see a count."""
    enc = encoder_for(NAME, 3, STASH)
    s = next(s for _, s in _games([(3, STASH)], range(1)) if sum(map(len, s.corr)) >= 2)
    mine = slice(_AT["mine"], _AT["mine"] + NC)
    held = 51  # offset of "Corruption cards held" in a seat block
    for seat in (0, 1, 2):
        obs = enc.encode_state(s, seat)
        assert obs[mine].sum() == len(s.corr[seat])
        for p in range(3):
            assert obs[_AT["seat"] + (p - seat) % 3 * SEAT + held] == len(s.corr[p])
    assert not enc.encode_state(s, None)[mine].any()


def test_each_call_makes_a_new_array():
    enc = encoder_for(NAME, 2)
    s = freetrader.game(NAME).new_state(2, 1)
    a, b = enc.encode_state(s, 0), enc.encode_state(s, 0)
    assert a is not b and np.array_equal(a, b) and np.array_equal(a, enc.encode(seat_view(s, 0)))
    with pytest.raises(ValueError, match="no seat 2"):
        enc.encode_state(s, 2)


@pytest.mark.parametrize("field", ["afloat", "docked", "boats", "slot_adv", "bcard", "bdeck"])
def test_the_last_position_cache_notices_each_field_it_compares(field):
    """The Boats and piers are reused from the last position when equal: a change in any one field must show."""
    enc = encoder_for(NAME, 2, STASH)
    s = next(s.clone() for _, s in _games([(2, STASH)], range(1)) if s.bcard >= 0 and s.bdeck)
    enc.encode_state(s, 0)
    if field == "afloat":
        s.afloat[0] = 1 - s.afloat[0]
    elif field == "docked":
        s.docked[0] = 0 if s.docked[0] < 0 else -1
    elif field == "boats":
        s.boats[1].append(0)
    elif field == "slot_adv":
        s.slot_adv[0].append(1)
    elif field == "bcard":
        s.bcard = (s.bcard + 1) % 8
    else:
        s.bdeck.pop()
    assert enc.encode_state(s, 0).tobytes() == enc.encode(seat_view(s, 0)).tobytes()


# A counter on each merchant board that the encoder shows as a number: its field and the item in it, if a list.
_BOARD_COUNTER = {"alchemist": ("bag", 0), "blacksmith": ("coal", None), "captain": ("treasures", None),
                  "chronomancer": ("shards", 0)}


def _bump_board(s: Any, p: int) -> None:
    name, i = _BOARD_COUNTER[s.merchant[p]]
    if i is None:
        setattr(s.mb[p], name, getattr(s.mb[p], name) + 1)
    else:
        getattr(s.mb[p], name)[i] += 1


def _swap_merchants(s: Any) -> None:
    s.merchant[0], s.merchant[1] = s.merchant[1], s.merchant[0]
    s.mb[0], s.mb[1] = s.mb[1], s.mb[0]


# Every state value a kept block is compared on, moved in place as the engine moves it (seat 1 is a rival).
MOVES: dict[str, Any] = {
    "day": lambda s: setattr(s, "day", s.day + 1), "mice": lambda s: s.mice.__setitem__(0, 1),
    "rogue": lambda s: setattr(s, "rogue", (s.rogue + 1) % 14), "rogues": lambda s: s.rogues.append(3),
    "halls": lambda s: s.halls.__setitem__(0, s.halls[0] + 1), "lair": lambda s: setattr(s, "lair", s.lair + 1),
    "hall_rogues": lambda s: s.hall_rogues.__setitem__(1, s.hall_rogues[1] + 1),
    "bag": lambda s: s.bag.__setitem__(2, s.bag[2] + 1),
    "hall_leaders": lambda s: s.hall_leaders.__setitem__(0, 1 - s.hall_leaders[0]),
    "hall_rogue_leaders": lambda s: s.hall_rogue_leaders.__setitem__(0, 1 - s.hall_rogue_leaders[0]),
    "lair_leaders": lambda s: setattr(s, "lair_leaders", s.lair_leaders + 1),
    "grey": lambda s: setattr(s, "grey", s.grey + 1), "bay": lambda s: s.bay.__setitem__(0, s.bay[0] + 1),
    "island": lambda s: s.island.append(2), "tf_deck": lambda s: s.tf_deck.pop(),
    "square": lambda s: s.square.append(s.tf_deck[0]), "tf_bottom": lambda s: s.tf_bottom.append(s.tf_deck[0]),
    "cdeck": lambda s: s.cdeck.pop(), "drawn": lambda s: setattr(s, "drawn", 3 if s.drawn != 3 else 4),
    "cdiscard": lambda s: s.cdiscard.append(0),
    "time": lambda s: s.time.__setitem__(1, s.time[1] + 1), "stack": lambda s: s.stack.__setitem__(1, -5),
    "gold": lambda s: s.gold.__setitem__(1, s.gold[1] + 7), "actor": lambda s: setattr(s, "actor", (s.actor + 1) % 3),
    "last": lambda s: s.last.__setitem__(1, "recruit" if s.last[1] != "recruit" else "load"),
    "shelf": lambda s: s.shelf[1].__setitem__(0, s.shelf[1][0] + 1),
    "supply": lambda s: s.supply[1].__setitem__(3, s.supply[1][3] + 1),
    "shields": lambda s: s.shields[1].__setitem__(2, s.shields[1][2] + 1), "staff": lambda s: s.staff[1].append(5),
    "corr (a rival's count)": lambda s: s.corr[1].append(0), "corr (my own)": lambda s: s.corr[0].append(1),
    "mb": lambda s: _bump_board(s, 1),
    "merchant": _swap_merchants,
}


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("move", sorted(MOVES))
def test_each_kept_block_notices_a_move_of_each_value_it_shows(move, path):
    """The blocks are kept by the values they show, compared to copies: a move of any one of them in place
    must show, from the observer's seat and from a seat that sees the moved one at another place."""
    enc = _encoder(3, STASH, path)
    s = next(s.clone() for _, s in _games([(3, STASH)], range(1))
             if s.action_count > 60 and all(s.merchant) and len(set(s.merchant)) == 3)
    for seat in (0, 2):
        enc.encode_state(s, seat)
    MOVES[move](s)
    for seat in (0, 2, 0):
        assert enc.encode_state(s, seat).tobytes() == enc.encode(seat_view(s, seat)).tobytes(), seat


def _stash_position(seats: int = 3) -> Any:
    """A position with every merchant chosen, the boards in use (a clone: the tests below break it)."""
    return next(s.clone() for _, s in _games([(seats, STASH)], range(1))
                if s.action_count > 60 and all(s.merchant) and len(set(s.merchant)) == seats)


@pytest.mark.skipif(not merchants_cove.ACCELERATED, reason="the C encoder was not built")
def _out_of_range(state: Any) -> list[Any]:
    """The state's merchant boards, each with a value the observation has no place for."""
    boards = [b.copy() for b in state.mb]
    for m, b in zip(state.merchant, boards, strict=True):
        if m == "alchemist":
            b.slide = [9]
        elif m == "blacksmith":
            b.unlocked = 9
        elif m == "captain":
            b.hold = [[0] * 5]  # one ship's hold where three are read: IndexError, not ValueError
        else:
            b.grid[0] = 9
    assert any(m != "captain" for m in state.merchant)
    return boards


def test_compiled_tail_refuses_a_malformed_state():
    """Fields of the wrong length, type or range raise a Python error instead of reading past the data."""
    state = _stash_position()
    out_of_range = _out_of_range(state)
    if state.merchant[0] == "captain":
        out_of_range[0] = state.mb[0]
    cases: list[tuple[str, Any, type[Exception]]] = [
        ("gold", [1], IndexError), ("time", (1, 2, 3), TypeError), ("stack", [0, 0], IndexError),
        ("last", ["nowhere"] * 3, KeyError), ("merchant", state.merchant[:1], IndexError),
        ("merchant", ["nobody"] * 3, KeyError), ("shelf", [[0] * 3] * 3, IndexError), ("supply", [1, 2, 3], TypeError),
        ("shields", [[0] * 4] * 2, IndexError), ("staff", [[999]] * 3, ValueError), ("corr", [[]], IndexError),
        ("mb", state.mb[:2], IndexError), ("mb", out_of_range, ValueError), ("mb", [[0]] * 3, AttributeError),
        ("pdeck", None, TypeError), ("seats", 9, ValueError), ("np", 7, ValueError), ("gold", [1.5] * 3, TypeError),
    ]
    for field, value, error in cases:
        broken = state.clone()
        setattr(broken, field, value)
        with pytest.raises(error):
            merchants_cove._compiled.tail(broken, 0, 0, [])
    with pytest.raises(ValueError, match="seat"):
        merchants_cove._compiled.tail(state, 3, 0, [])
    with pytest.raises(TypeError):
        merchants_cove._compiled.tail(state, 0, 0, None)
    with pytest.raises(TypeError):
        merchants_cove._compiled.tail(state, 0, 0, ["0"])


@pytest.mark.skipif(not merchants_cove.ACCELERATED, reason="the C encoder was not built")
def test_compiled_tail_keeps_no_references():
    """Every field read from C is released again, on success and on error."""
    state = _stash_position()
    enc = _encoder(3, STASH, "compiled")
    names = ("gold", "time", "stack", "last", "merchant", "shelf", "supply", "shields", "staff", "corr", "mb",
             "pdeck", "order")
    fields = [getattr(state, f) for f in names]
    broken = state.clone()
    for f in names:  # the same lists, so that the error path's releases are counted too
        setattr(broken, f, getattr(state, f))
    broken.mb = _out_of_range(state)
    if state.merchant[0] == "captain":
        broken.mb[0] = state.mb[0]
    before = [sys.getrefcount(x) for x in fields]
    for _ in range(2000):
        enc.encode_state(state, 1)
        with pytest.raises(ValueError):
            merchants_cove._compiled.tail(broken, 0, 0, [])
    assert [sys.getrefcount(x) for x in fields] == before
