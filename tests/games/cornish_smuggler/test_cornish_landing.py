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


def _crowded_pair():
    """A START storehouse at a Port and two Goods Shapes at the Merchants that each fit in it, and not both
    though it has squares enough: it is the packing that blocks one."""
    from freetrader.games.cornish_smuggler.packing import fits, hold_of_store

    s = after_setup(3)
    free = [g for g in range(len(C.goods)) if s.g_where[g] == R.MERCHANT]
    for st in C.storehouses:
        if not st.start or C.locations[st.location].sea_node < 0:
            continue
        h = hold_of_store(st.index)
        for a in free:
            for b in free:
                room = len(st.hold.cells) >= C.shapes[C.goods[a]].size + C.shapes[C.goods[b]].size
                if a < b and room and fits(h, [C.goods[a]]) and fits(h, [C.goods[b]]) \
                        and not fits(h, [C.goods[a], C.goods[b]]):
                    return st, a, b
    raise LookupError("no storehouse at a Port where two pieces fit alone and not together")


def _landed_at_storehouse(st, pieces):
    s = after_setup(3)
    far = max(range(len(C.locations)), key=lambda x: C.dist[st.location][x] if C.dist[st.location][x] < 99 else -1)
    officers_at(s, C.locations[far].id)
    p = s.actor
    s.stores[p] = [st.index]
    s.counters[p] = [st.location]
    s.ship_at[p] = C.locations[st.location].sea_node
    give_hold(s, p, pieces)
    act(s, "land", *[f"unload {GID[g]}" for g in pieces], "done")
    if s.phase == R.LAND_HIDE:
        act(s, _legal(s)[-1])  # hide it all: this test is about the storehouse
    return s, p


def test_storing_one_landed_piece_says_which_piece_it_leaves_no_room_for():
    st, a, b = _crowded_pair()
    s, p = _landed_at_storehouse(st, [a, b])
    assert s.phase == R.LAND_STORE
    assert _legal(s) == [f"store {GID[a]} to {st.id}", f"store {GID[b]} to {st.id}", "done"]
    notes = {m.action: m.note for m in web.moves(s, p)}
    name = {g: web._name(GID[g], "goods") for g in (a, b)}
    assert notes[f"store {GID[a]} to {st.id}"] == f"leaves no room in it for {name[b]}"
    assert notes[f"store {GID[b]} to {st.id}"] == f"leaves no room in it for {name[a]}"
    assert web.choice_notes(s, p)[f"store {GID[a]} to {st.id}"] == f"leaves no room in it for {name[b]}"
    s.apply(f"store {GID[a]} to {st.id}")  # and so the engine does: the other is no longer offered
    assert f"store {GID[b]} to {st.id}" not in _legal(s)


def test_a_store_note_names_exactly_the_pieces_the_engine_then_stops_offering():
    """Each store choice of a landing of three pieces: the pieces its note names are exactly those whose
    store moves into that storehouse go once it is taken (checked by taking it on a copy)."""
    st, a, b = _crowded_pair()
    fits_too = next(g for g in range(len(C.goods)) if g not in (a, b) and C.shapes[C.goods[g]].size == 2)
    s, p = _landed_at_storehouse(st, [a, b, fits_too])
    checked = noted = 0
    for m in web.moves(s, p):
        if m.verb != "store":
            continue
        after = s.clone()
        after.apply(m.action)
        gone = [x for x in _legal(s) if x.startswith("store") and x.endswith(st.id) and x != m.action
                and x not in _legal(after)]
        named = [web._name(x.split()[1], "goods") for x in gone]
        assert m.note == ("leaves no room in it for " + " or ".join(named) if named else ""), (m.action, m.note)
        checked += 1
        noted += bool(m.note)
    assert checked == 3 and noted >= 2
