"""Invariants under any sequence of legal actions (hypothesis picks the actions)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st
from pc_scenario import GAME

from freetrader.games.precious_cargo.components import COMPONENTS as C
from freetrader.games.precious_cargo.components import FOOD


def _invariants(s) -> None:
    crates = list(s.stock)
    assert min(crates) >= 0, "no negative stockpile"
    for code_list in s.holds:
        for code in code_list:
            k = FOOD if code < 8 else code >> 3
            origin = C.country_of[code] if code < 8 else C.cargo[k].country
            crates[origin * C.n_cargo + k] += 1
    assert crates == list(C.stock), "the 20 crates are conserved"
    assert min(s.coins) >= 0, "no negative coins"
    if not s.is_over:
        assert max(s.coins) < s.options["target"], "reaching the target ends the game at once"
        assert sum(s.coins) <= C.coins_total, "coins come from the bank"
    for c in (0, 1):
        if s.chips[C.settlements_of[c][0]] >= 0:
            up = [s.chips[p] for p in C.settlements_of[c]]
            assert sorted(up + s.pools[c]) == list(C.chips[c]), "each country keeps its eight chips"
    occ = [0] * len(C.places)
    for slot, p in enumerate(s.at):
        if p >= 0:
            occ[p] += 1
            assert 0 <= s.sails[slot] <= C.max_sails
            assert s.sails[slot] + len(s.holds[slot]) <= C.ship_places, "four places a ship"
    assert occ == s.occ and all(o <= cap for o, cap in zip(occ, C.capacity, strict=True)), "one ship a dot"
    assert all(0 <= g <= C.governors for g in s.gov_left)
    assert sum(1 for g in s.gov if g >= 0) + sum(s.gov_left) == 2 * C.governors, "Governors never move or vanish"


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32), picks=st.lists(st.integers(0, 10**6), min_size=50, max_size=600))
def test_coins_crates_chips_and_ships_invariants(seed, picks):
    s = GAME.new_state(2, seed)
    _invariants(s)
    prev_sails = list(s.sails)
    for p in picks:
        if s.is_over:
            break
        legal = s.legal_actions()
        s.apply(legal[p % len(legal)])
        _invariants(s)
        assert all(b >= a for a, b in zip(prev_sails, s.sails, strict=True)), "sails are never removed"
        prev_sails = list(s.sails)


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**32), picks=st.lists(st.integers(0, 10**6), min_size=20, max_size=300))
def test_clone_is_independent_and_json_round_trips(seed, picks):
    s = GAME.new_state(2, seed)
    for p in picks:
        if s.is_over:
            break
        legal = s.legal_actions()
        s.apply(legal[p % len(legal)])
    c = s.clone()
    assert c.to_json() == s.to_json()
    back = GAME.state_from_json(s.to_json())
    assert back.to_json() == s.to_json()
    if not s.is_over:
        c.apply(c.legal_actions()[-1])
        assert back.to_json() == s.to_json()
