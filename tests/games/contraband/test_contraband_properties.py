"""Invariants under any sequence of legal actions (hypothesis picks the actions)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

import freetrader
from freetrader.games.contraband.components import COMPONENTS as C

GAME = freetrader.game("contraband")


def _invariants(s) -> None:
    assert sum(s.cash) + s.unused == C.total_money, "money is conserved"
    assert min(s.cash) >= 0, "no negative cash: shortfalls are borrowed"
    assert sorted(s.pack + s.discard_hidden + s.discard_shown + s.luggage) == sorted(C.pack), "54 cards"
    assert len(s.luggage) in (0, 4), "luggage is four cards"
    assert sum(s.scores()) == C.total_money - s.unused, "loans net to zero"
    if not s.is_over:
        assert s.to_act != s.officer or s.view(None)["phase"] in ("search", "broke")


@settings(max_examples=60, deadline=None)
@given(seats=st.integers(3, 8), seed=st.integers(0, 2**32), picks=st.lists(st.integers(0, 10**6), min_size=50, max_size=400))
def test_money_cards_and_turn_order_invariants(seats, seed, picks):
    s = GAME.new_state(seats, seed)
    _invariants(s)
    for p in picks:
        if s.is_over:
            break
        legal = s.legal_actions()
        s.apply(legal[p % len(legal)])
        _invariants(s)


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**32), picks=st.lists(st.integers(0, 10**6), min_size=20, max_size=200))
def test_poor_players_borrow_or_retire_and_money_stays_conserved(seed, picks):
    s = GAME.new_state(5, seed, {"first_officer": "agreement"})
    s.cash = [40, 40, 40, 40, 10000 - 160]  # most players nearly broke
    for p in picks:
        if s.is_over:
            break
        legal = s.legal_actions()
        s.apply(legal[p % len(legal)])
        _invariants(s)
