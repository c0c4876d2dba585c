"""Landing Goods (issue 34 item 3): what can land, and what can be stored, does not depend on pick order.

"Each time a player lands Goods, they can unload as many Goods Shapes as they want": the landing is a
set of the pieces aboard. A player once unloaded the L Tetromino first and was no longer offered the
Domino (the engine offered only pieces numbered after the last one picked); picking the Domino first,
both landed. Where a storehouse cannot take two landed pieces together, the choice says which one
storing the other leaves no room for.
"""

from __future__ import annotations

from cornish_scenario import GAME, act, after_setup, give_hold, loc, officers_at, touch

from freetrader.bots import decide, make_bot
from freetrader.core import Rng
from freetrader.games.cornish_smuggler import rules as R
from freetrader.games.cornish_smuggler import web
from freetrader.games.cornish_smuggler.components import COMPONENTS as C

GID = R.GOODS_IDS
DOMINO, I_TETROMINO, L_TETROMINO = 11, 12, 15  # g11, g12, g15: the seat's hold in seed 13's game (see below)


def _legal(s) -> list[str]:
    touch(s)
    return [str(a) for a in s.legal_actions()]


def _at_port_with(pieces: list[int], seed: int = 13):
    """A real set-up; the seat to act holds ``pieces`` on a ship at St Ives, where it has its counter.

    The same three pieces (a Domino, an I and an L Tetromino) were aboard seat 2's ship at a landing in a
    seeded heuristic/random/heuristic game (seed 13, action 206), where the order mattered.
    """
    s = after_setup(3, seed)
    s.track = C.discovery.index(7)
    officers_at(s, "penzance", "madron")
    p = s.actor
    s.stores[p] = []
    s.counters[p] = [loc("st-ives")]
    s.ship_at[p] = C.locations[loc("st-ives")].sea_node
    give_hold(s, p, pieces)
    s.apply("land")
    return s, p


def test_unloading_the_l_tetromino_first_still_offers_the_domino():
    assert [C.goods[g] for g in (DOMINO, I_TETROMINO, L_TETROMINO)] == [0, 3, 5]  # domino, I, L (shapes.toml)
    s, p = _at_port_with([DOMINO, I_TETROMINO, L_TETROMINO])
    assert _legal(s) == [f"unload {GID[g]}" for g in (DOMINO, I_TETROMINO, L_TETROMINO)]
    s.apply(f"unload {GID[L_TETROMINO]}")
    assert _legal(s) == [f"unload {GID[DOMINO]}", f"unload {GID[I_TETROMINO]}", "done"]
    s.apply(f"unload {GID[DOMINO]}")
    assert _legal(s) == [f"unload {GID[I_TETROMINO]}", "done"]


def test_either_order_lands_the_same_goods_in_the_same_position():
    ends = []
    for order in ((L_TETROMINO, DOMINO), (DOMINO, L_TETROMINO)):
        s, p = _at_port_with([DOMINO, I_TETROMINO, L_TETROMINO])
        for g in order:
            s.apply(f"unload {GID[g]}")
        assert s.land_sel == [DOMINO, L_TETROMINO]  # a set, kept in one order whatever the picking
        act(s, "done")
        # St Ives +5, 2 + 4 squares: Landing Risk 11 against Discovery Level 7
        assert _legal(s) == [f"hide {k}" for k in range(5)]
        act(s, "hide 4")
        saved = s.to_json()
        ends.append(({k: v for k, v in saved.items() if k != "actions"}, s.events[-4:], _legal(s)))
        assert s.g_where[DOMINO] == s.g_where[L_TETROMINO] == R.LAND and s.hold[p] == [I_TETROMINO]
    assert ends[0] == ends[1]


def test_every_piece_aboard_not_yet_picked_is_offered_at_every_landing_of_seeded_games():
    """Seeded games (a heuristic seat lands; random seats pick in any order): at each landing choice the
    unloads offered are exactly the hold less the pieces picked."""
    seen = 0
    for seed in range(3):
        s = GAME.new_state(3, seed, {"turn_limit": 10})
        bots = [make_bot("heuristic" if k == 0 else "random", GAME, seed=seed * 3 + k) for k in range(3)]
        rng = Rng(seed)
        while not s.is_over:
            if s.phase == R.LAND_SELECT:
                seen += 1
                want = sorted(set(s.hold[s.actor]) - set(s.land_sel))
                assert _legal(s) == [f"unload {GID[g]}" for g in want] + (["done"] if s.land_sel else [])
            s.apply(decide(bots[s.to_act], s, s.to_act, rng))
    assert seen >= 10, seen
