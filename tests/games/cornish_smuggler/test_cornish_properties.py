"""Invariants under any sequence of legal actions, with every card ability live: Gold and Goods conserved,
nothing negative, every card somewhere (played Secrets are discarded, issue 4)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

import freetrader
from freetrader.games.cornish_smuggler import rules as R
from freetrader.games.cornish_smuggler.components import COMPONENTS as C
from freetrader.games.cornish_smuggler.packing import fits, hold_of_ship, hold_of_store

GAME = freetrader.game("cornish-smuggler")


def _invariants(s) -> None:
    assert sum(s.gold) + s.bank == C.bank_gold, "Gold is conserved"
    assert min(s.gold) >= 0 and min(s.infl) >= 0 and min(s.rep) >= 0, "no negative resources"
    for p in range(s.seats):
        assert sorted(s.hold[p]) == sorted(g for g in range(len(C.goods)) if s.g_where[g] == R.SHIP and s.g_at[g] == p)
        if s.ship_card[p] >= 0:
            assert fits(hold_of_ship(s.ship_card[p]), [C.goods[g] for g in s.hold[p]]), "holds always fit"
        assert len(s.counters[p]) <= C.counters
        for st_ in s.stores[p]:
            inside = [C.goods[g] for g in range(len(C.goods)) if s.g_where[g] == R.STORE and s.g_at[g] == st_]
            assert fits(hold_of_store(st_), inside), "storehouses always fit"
    for g in range(len(C.goods)):
        owned = s.g_where[g] in (R.SHIP, R.LAND, R.STORE)
        assert (s.g_owner[g] >= 0) == owned, "owned exactly while on a ship, on land or in a storehouse"
    assert all(x >= 0 for x in s.off_at[: len(C.start_officers)]), "officers never leave the board"
    assert s.off_at.count(-1) >= len(C.new_officer) - sum(1 for t in C.new_officer if t <= s.track)
    cards = sum(len(x) for x in s.stacks) + sum(len(x) for x in s.chars) + len(s.char_discard) + len(s.drawn)
    cards += sum(1 for c in s.faceup if c >= 0)
    assert cards == len(C.characters), "every Character card is somewhere"
    secrets = sum(len(x) for x in s.secrets) + len(s.sdeck) + len(s.sdiscard)
    assert secrets == len(C.secret_deck), "Secrets are in a hand, the deck, or discarded after use"
    for p in range(s.seats):
        assert set(s.motivated[p]) <= set(s.chars[p]), "only hired Characters are Motivated (face down)"
    if s.phase == R.MAIN:
        assert len(s.frames) == 1, "no reaction window or card left open at an Action"
    assert 0 <= s.track < len(C.discovery) and 0 <= s.wheel < C.wheel


@settings(max_examples=25, deadline=None)
@given(seats=st.integers(2, 5), seed=st.integers(0, 2**32), picks=st.lists(st.integers(0, 10**6), min_size=100, max_size=600))
def test_gold_goods_and_cards_are_conserved(seats, seed, picks):
    s = GAME.new_state(seats, seed)
    for p in picks:
        if s.is_over:
            break
        legal = s.legal_actions()
        s.apply(legal[p % len(legal)])
        _invariants(s)


def test_random_and_heuristic_games_finish_for_2_to_5_seats():
    """Heuristic games end by a rulebook trigger with a winner; random play seldom reaches a trigger, so it
    runs under an explicit safety cap and may end cut, with no winner."""
    from freetrader.bots import decide, make_bot
    from freetrader.core import Rng

    for seats in range(2, 6):
        for specs, options in ((["random"] * seats, {"turn_limit": 40}), (["heuristic"] * seats, None)):
            s = GAME.new_state(seats, 10 + seats, options)
            bots = [make_bot(b, GAME, i) for i, b in enumerate(specs)]
            rng = Rng(seats)
            while not s.is_over:
                p = s.to_act
                s.apply(decide(bots[p], s, p, rng))
                assert s.action_count < 20_000
            if options is None:
                assert not s.cut and len(s.winners()) >= 1
            else:
                assert (s.winners() == []) == s.cut


def test_packing_a_shape_that_does_not_fit_is_refused():
    big = max(range(len(C.shapes)), key=lambda i: C.shapes[i].size)
    tiny = min(range(len(C.storehouses)), key=lambda i: len(C.storehouses[i].hold.cells))
    many = [big] * 4
    assert not fits(hold_of_store(tiny), many)


def test_packing_rotation_allowed_flip_by_option():
    # An L-shape placed in an L-shaped hole: the mirror image needs flipping.
    from freetrader.games.cornish_smuggler import packing as P

    ls = [sh for sh in C.shapes if sh.size >= 3 and len(P._orientations(sh.cells, True)) > len(P._orientations(sh.cells, False))]
    assert ls, "a chiral Goods Shape exists"
    shape = ls[0]
    mirrored = frozenset((r, -c) for r, c in shape.cells)
    assert P._normal(mirrored) in P._orientations(shape.cells, True)
    assert P._normal(mirrored) not in P._orientations(shape.cells, False)
