"""Invariants under any sequence of legal actions: gold, goods, adventurers and cards conserved, nothing negative."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st
from mc_scenario import GAME

from freetrader.games.merchants_cove import rules as R
from freetrader.games.merchants_cove.components import COMPONENTS as C


def _invariants(s) -> None:
    assert sum(s.gold) + s.bank == C.bank, "gold is conserved"
    assert min(s.gold) >= 0 and s.bank >= 0, "no negative gold"
    for p in range(s.np):
        if p < s.seats and not s.merchant[p]:
            continue
        start = C.supply if p < s.seats else C.peddler_supply
        assert [a + b for a, b in zip(s.shelf[p], s.supply[p], strict=True)] == list(start), "goods conserved"
        assert min(s.shelf[p]) >= 0 and min(s.supply[p]) >= 0, "no negative goods"
        assert sum(s.shelf[p]) <= (C.shelf if p < s.seats else C.peddler_shelf), "the Sale Shelf holds its limit"
        assert C.clock_start - 1 <= s.time[p] <= C.market
    R.check_consistent(s)  # every adventurer and every Corruption card somewhere
    assert min(s.bag) >= 0 and min(s.halls) >= 0 and s.lair >= 0
    assert all(len(b) <= C.capacity for b in s.boats)
    assert len(s.square) + len(s.tf_deck) + len(s.tf_bottom) + sum(len(x) for x in s.staff) == 24 + 12 * (
        s.tf_sets == "all")
    for p in range(s.seats):
        assert all(0 <= x <= C.shield_max for x in s.shields[p])
        board = s.mb[p]
        if board is not None:
            values = [v if isinstance(v, list) else [v] for v in board.to_json().values()]
            flat = [x for v in values for y in v for x in (y if isinstance(y, list) else [y])]
            assert all(v >= -1 for v in flat), "merchant boards hold no negative counts"


@settings(max_examples=30, deadline=None)
@given(seats=st.integers(1, 4), seed=st.integers(0, 2**32), picks=st.lists(st.integers(0, 10**6), min_size=50,
                                                                          max_size=400))
def test_invariants_hold_under_any_legal_play(seats, seed, picks):
    s = GAME.new_state(seats, seed, {"rogue": ["criminals", "cultists", "robbers"][seed % 3],
                                     "townsfolk": ["locals+mercenaries", "all"][seed % 2]})
    _invariants(s)
    for k in picks:
        if s.is_over:
            break
        legal = s.legal_actions()
        s.apply(legal[k % len(legal)])
        _invariants(s)


def test_random_games_end_in_few_actions():
    """The conformance suite's random playouts stay short (well under 1,500 actions)."""
    from freetrader.core import Rng

    for seats in (1, 4):
        s = GAME.new_state(seats, 7)
        r = Rng(7)
        while not s.is_over:
            s.apply(r.choice(s.legal_actions()))
        assert s.action_count < 600
