"""Cornish Smuggler rules and every worked example of the rulebook, with the printed numbers.

Test names follow the rulebook's sections.
"""

from __future__ import annotations

import pytest
from cornish_scenario import (
    GAME,
    act,
    after_setup,
    counters,
    fitting_ship,
    give_char,
    give_hold,
    loc,
    node,
    officers_at,
    piece,
    put_on_land,
    set_gold,
    touch,
)

import freetrader
from freetrader.games.cornish_smuggler import rules as R
from freetrader.games.cornish_smuggler.components import COMPONENTS as C

GID = R.GOODS_IDS


def _legal(s) -> list[str]:
    touch(s)
    return [str(a) for a in s.legal_actions()]


def _char(**want) -> int:
    for c in C.characters:
        if all(getattr(c, k) == v for k, v in want.items()):
            return c.index
    raise LookupError(want)


def _shape_of_size(size: int) -> int:
    return next(sh.index for sh in C.shapes if sh.size == size)


# -- Goods Price List, cell by cell ---------------------------------------------------------
PRINTED = {
    2: {2: [(2, 2), (4, 1), (9, 0)]},
    3: {2: [(2, 2), (5, 1), (10, 0)], 3: [(3, 2), (6, 1), (12, 0)]},
    5: {2: [(3, 2), (5, 1), (11, 0)], 3: [(4, 2), (7, 1), (13, 0)], 4: [(4, 3), (12, 1), (16, 0)],
        5: [(5, 3), (15, 1), (20, 0)]},
    7: {2: [(4, 1), (5, 1), (12, 0)], 3: [(5, 2), (9, 1), (14, 0)], 4: [(5, 3), (15, 1), (20, 0)],
        5: [(7, 3), (19, 1), (25, 0)]},
}
CELLS = [(town, goods, row, PRINTED[town][goods][row]) for town in PRINTED for goods in PRINTED[town] for row in range(3)]


@pytest.mark.parametrize("town,goods,row,printed", CELLS, ids=[f"town{t}-goods{g}-row{r}" for t, g, r, _ in CELLS])
def test_goods_price_list_cell_by_cell(town, goods, row, printed):
    assert C.price(town, goods, row) == printed


def test_price_rows_cost_nothing_one_and_two():
    assert C.row_cost == (0, 1, 2)


# -- the board keeps the rulebook's examples true -------------------------------------------------
def test_board_lelant_is_two_land_spaces_from_gwithian():
    assert C.dist[loc("lelant")][loc("gwithian")] == 2


def test_board_selling_towns_of_the_st_ives_penzance_part():
    part = ["st-ives", "zennor", "lelant", "nancledra", "madron", "penzance", "newlyn", "ludgvan", "marazion"]
    assert [x for x in part if C.locations[loc(x)].size] == ["st-ives", "madron", "penzance", "marazion"]


def test_board_ports_print_st_ives_plus_5_porthleven_plus_3_coves_nothing():
    assert C.locations[loc("st-ives")].risk == 5
    assert C.locations[loc("porthleven")].risk == 3
    assert C.locations[loc("prussia-cove")].kind == C.locations[loc("gwithian")].kind == "cove"
    assert C.locations[loc("prussia-cove")].risk == C.locations[loc("gwithian")].risk == 0


def test_board_three_locations_one_space_from_penzance():
    assert len(C.locations[loc("penzance")].land) == 3


def test_board_every_sea_route_between_the_coasts_passes_st_levan():
    off = node("off-st-levan")
    adj = {i: set(a) - {off} for i, a in enumerate(C.sea_adj)}
    adj.pop(off)
    seen, todo = {node("st-ives")}, [node("st-ives")]
    while todo:
        x = todo.pop()
        for y in adj[x]:
            if y not in seen:
                seen.add(y)
                todo.append(y)
    assert node("penzance") not in seen


def test_gold_wheel_size_matches_the_example():
    assert C.wheel in (7, 8)


# -- Set-up ----------------------------------------------------------------------------------------
def test_setup_13_gold_10_influence_officers_in_penzance_and_st_ives():
    s = GAME.new_state(4, 3)
    assert s.gold == [13] * 4 and s.infl == [10] * 4
    assert sorted(s.off_at[:2]) == sorted([loc("penzance"), loc("st-ives")])


def test_setup_ship_draft_clockwise_from_first_then_storehouses_anticlockwise_from_last():
    s = GAME.new_state(4, 3, {"first_player": 1})
    order = []
    while s.phase == R.SETUP_SHIP:
        order.append(s.actor)
        assert len(s.legal_actions()) == 10 - len(order) + 1
        s.apply(s.legal_actions()[0])
    assert order == [1, 2, 3, 0]
    order = []
    while s.phase == R.SETUP_STORE:
        order.append(s.actor)
        s.apply(s.legal_actions()[0])
    assert order == [0, 3, 2, 1]
    assert s.stores_left == []  # the remainder is discarded


def test_setup_starting_character_two_from_different_stacks_keep_one():
    s = GAME.new_state(3, 5)
    while s.phase != R.SETUP_DRAW:
        s.apply(s.legal_actions()[0])
    p = s.actor
    s.apply("draw trade")
    assert "draw trade" not in _legal(s)
    s.apply("draw official")
    drawn = list(s.drawn)
    assert s.view(p)["your_drawn"] == [C.characters[c].id for c in drawn]
    assert "your_drawn" not in s.view((p + 1) % 3)
    stack_before = len(s.stacks[1])
    s.apply(f"keep {C.characters[drawn[1]].id}")
    assert s.chars[p] == [drawn[1]] and s.rep[p] == C.characters[drawn[1]].reputation
    assert s.gold[p] == 13  # the starting character is free
    assert s.stacks[1][0] == drawn[0] and len(s.stacks[1]) == stack_before + 1  # under its stack


def test_setup_first_turn_gives_no_influence_later_turns_give_reputation():
    s = after_setup(3)
    assert s.infl == [10, 10, 10]
    reps = s.rep[:]
    for _ in range(3):
        s.apply("pass")
    assert s.turn == 2 and s.first == 1
    assert s.infl == [10 + r for r in reps]


# -- Turns ----------------------------------------------------------------------------------------------
def test_turns_one_action_each_until_all_pass():
    s = after_setup(3)
    assert s.actor == 0
    act(s, "pass")
    assert s.actor == 1
    act(s, "buy-reputation")
    assert s.actor == 2
    act(s, "pass")
    assert s.actor == 1  # seats 0 and 2 have passed
    act(s, "pass")
    assert s.turn == 2 and s.actor == 1  # the marker moved clockwise


# -- Honest Work -------------------------------------------------------------------------------------------
def test_honest_work_11_minus_3_reputation_minus_2_gold_is_6():
    s = after_setup(3)
    p = s.actor
    set_gold(s, p, 2)
    s.rep[p] = 3
    act(s, "honest-work")
    assert s.gold[p] == 2 + 6


def test_honest_work_only_without_goods():
    s = after_setup(3)
    p = s.actor
    set_gold(s, p, 0)
    give_hold(s, p, [piece(s, 2)])
    assert "honest-work" not in _legal(s)


# -- Landing Goods & Landing Risk --------------------------------------------------------------------------
def _lander(s, where: str):
    p = s.actor
    s.stores[p] = []
    s.counters[p] = [loc(where)]
    s.ship_at[p] = C.locations[loc(where)].sea_node
    return p


def test_landing_alice_st_ives_risk_5_plus_2_is_7_against_discovery_7_no_movement():
    s = after_setup(3)
    s.track = C.discovery.index(7)  # the landing examples: "The current Discovery Level for Customs is 7"
    assert C.discovery[s.track] == 7
    officers_at(s, "penzance", "madron")
    p = _lander(s, "st-ives")
    g = piece(s, 2)
    give_hold(s, p, [g])
    act(s, "land", f"unload {GID[g]}", "done")
    assert "Landing Risk 7 against Discovery Level 7" in " ".join(s.events)
    assert s.off_at[:2] == [loc("penzance"), loc("madron")]
    assert s.g_where[g] == R.LAND and s.g_at[g] == loc("st-ives")
    assert s.infl[p] == 10 - 1 and s.phase == R.MAIN and s.actor != p


def _bob(hide: int):
    s = after_setup(3)
    s.track = C.discovery.index(7)  # the landing examples: "The current Discovery Level for Customs is 7"
    officers_at(s, "penzance", "lelant")
    p = _lander(s, "gwithian")
    s.chars[p].append(_char(id="the-gwithian-fellowship"))
    pieces = [piece(s, 2), piece(s, 3), piece(s, 4)]
    s.ship_card[p] = fitting_ship([2, 3, 4], {z: C.goods[g] for z, g in zip([2, 3, 4], pieces, strict=True)})
    give_hold(s, p, pieces)
    act(s, "land", *[f"unload {GID[g]}" for g in sorted(pieces)], "done")
    assert "Landing Risk 9 against Discovery Level 7" in " ".join(s.events)
    assert _legal(s) == ["hide 0", "hide 1", "hide 2"]
    act(s, f"hide {hide}")
    return s, p, pieces


def test_landing_bob_gwithian_9_against_7_officer_from_lelant_moves_two_and_seizes():
    s, p, pieces = _bob(0)
    assert s.off_at[1] == loc("gwithian")
    assert all(s.g_where[g] == R.WAREHOUSE for g in pieces)


def test_landing_bob_pays_1_influence_more_officer_moves_one_goods_safe():
    s, p, pieces = _bob(1)
    assert s.off_at[1] == loc("hayle")
    assert all(s.g_where[g] == R.LAND and s.g_at[g] == loc("gwithian") for g in pieces)
    assert s.infl[p] == 10 - 1 - 1


def test_landing_only_where_you_have_a_counter_and_a_cove_needs_its_card():
    s = after_setup(3)
    p = _lander(s, "gwithian")
    give_hold(s, p, [piece(s, 2)])
    assert "land" not in _legal(s)
    s.chars[p].append(_char(id="the-gwithian-fellowship"))
    assert "land" in _legal(s)
    s.counters[p] = [loc("hayle")]
    assert "land" not in _legal(s)


def test_landing_on_scilly_customs_do_not_move():
    s = after_setup(3)
    s.track = C.discovery.index(3)  # the last Discovery Level (designed)
    p = _lander(s, "scilly")
    officers_at(s, "penzance", "st-ives")
    g = piece(s, 5)
    s.ship_card[p] = fitting_ship([5], {5: C.goods[g]})
    give_hold(s, p, [g])
    act(s, "land", f"unload {GID[g]}", "done")
    assert s.off_at[:2] == [loc("penzance"), loc("st-ives")] and s.g_where[g] == R.LAND


def test_landing_straight_into_a_storehouse_hides_goods_before_customs_arrive():
    s = after_setup(3)
    s.track = C.discovery.index(3)  # Discovery Level 3: every landing draws Customs
    st = next(x for x in C.storehouses if x.start and C.locations[x.location].sea_node >= 0)
    p = _lander(s, C.locations[st.location].id)
    s.stores[p] = [st.index]
    nb = C.locations[st.location].land[0]
    officers_at(s, C.locations[nb].id)
    g = next(g for g in range(len(C.goods)) if s.g_where[g] == R.MERCHANT
             and R.fits(R.hold_of_store(st.index), [C.goods[g]]))
    give_hold(s, p, [g])
    act(s, "land", f"unload {GID[g]}", "done", "hide 0", f"store {GID[g]} to {st.id}")
    assert s.off_at[0] == st.location  # Customs still came
    assert s.g_where[g] == R.STORE  # but the goods were hidden


# -- Customs: seizure, bribes ----------------------------------------------------------------------------------
def test_seizure_officer_passing_through_seizes_no_matter_how_briefly():
    s = after_setup(3)
    p = s.actor
    g = piece(s, 2)
    other = (p + 1) % 3
    put_on_land(s, other, g, "lelant")
    s.counters[other] = [loc("lelant")]
    officers_at(s, "st-ives")
    s.counters[p] = [loc("gwithian")]
    s.chars[p].append(_char(id="the-gwithian-fellowship"))
    s.ship_at[p] = node("gwithian")
    s.track = C.discovery.index(3)  # the last Discovery Level (designed)
    g2 = piece(s, 5)
    s.ship_card[p] = fitting_ship([5], {5: C.goods[g2]})
    give_hold(s, p, [g2])
    act(s, "land", f"unload {GID[g2]}", "done", "hide 0")
    # risk 5 vs Discovery 3: 2 moves from St Ives through Lelant to Hayle
    assert s.off_at[0] == loc("hayle")
    assert s.g_where[g] == R.WAREHOUSE


def test_an_officer_led_onto_the_target_has_arrived_and_the_next_nearest_walks_on():
    """Ruling 32. Landing at Marazion sends the Newlyn officer through Penzance, where a rival's goods stand: the
    rival's Newlyn Fishwives lead it away one space, onto Marazion itself, with movement left. It has arrived;
    the next nearest officer (St Ives) walks the rest. Found by IS-MCTS seats in a sweep, where it crashed."""
    s = after_setup(3)
    p = s.actor
    q = (p + 1) % 3
    for x in range(3):  # no homes either: the landing then asks nothing about storing
        s.chars[x], s.secrets[x], s.counters[x], s.stores[x] = [], [], [], []
    s.track = C.discovery.index(3)
    g = piece(s, 2)
    put_on_land(s, q, g, "penzance")
    counters(s, q, "penzance")
    give_char(s, q, "the-newlyn-fishwives")
    officers_at(s, "newlyn", "st-ives")
    counters(s, p, "marazion")
    s.ship_at[p] = node("marazion")
    g2 = piece(s, 2, exclude=[g])
    s.ship_card[p] = fitting_ship([2], {2: C.goods[g2]})
    give_hold(s, p, [g2])
    touch(s)
    act(s, "land", f"unload {GID[g2]}", "done")
    s.apply("hide 0")  # not act(): the seizure window it opens is this test's
    # risk 4 + 2 against Discovery 3: three moves, the first from Newlyn to Penzance
    assert s.off_at[0] == loc("penzance") and s.win_event == "seizure" and s.actor == q
    act(s, "motivate the-newlyn-fishwives", "choose marazion")
    while s.phase == R.REACT:
        s.apply("decline")
    assert s.off_at[0] == loc("marazion") and s.g_where[g] == R.LAND  # led away: Penzance's goods stay
    st_ives_to_marazion = C.dist[loc("st-ives")][loc("marazion")]
    assert C.dist[s.off_at[1]][loc("marazion")] == st_ives_to_marazion - 2  # the two moves left


def test_bribe_costs_track_price_plus_1_if_bribed_by_another_and_protects_goods():
    s = after_setup(3)
    p = s.actor
    s.counters[p] = [loc("madron")]
    officers_at(s, "madron")
    s.off_bribe[0] = (p + 1) % 3
    s.track = 3
    gold = s.gold[p]
    act(s, "bribe 0")
    assert s.gold[p] == gold - (C.bribe[3] + 1) and s.infl[p] == 9 and s.off_bribe[0] == p
    g = piece(s, 2)
    put_on_land(s, p, g, "madron")
    R.check_seizure(s, loc("madron"))
    assert s.g_where[g] == R.LAND


def test_abandoned_goods_can_be_claimed_and_are_seized_by_any_officer():
    s = after_setup(3)
    p = s.actor
    other = (p + 1) % 3
    g = piece(s, 2)
    put_on_land(s, other, g, "madron")
    s.counters[other] = [loc("penzance")]
    s.counters[p] = [loc("madron")]
    officers_at(s, "st-just")
    act(s, f"claim {GID[g]}")
    assert s.g_owner[g] == p and s.actor == p  # free: still p's turn
    s.counters[p] = [loc("penzance")]
    s.off_bribe[0] = p
    s.off_at[0] = loc("madron")
    R.check_seizure(s, loc("madron"))
    assert s.g_where[g] == R.WAREHOUSE


# -- Hire Character ------------------------------------------------------------------------------------------------
def test_hiring_allen_cutler_1_influence_2_gold_plus_3_reputation_then_a_counter():
    s = after_setup(3)
    p = s.actor
    allen = _char(id="allen-cutler")
    deck = C.characters[allen].deck
    s.stacks[deck] = [c for c in s.stacks[deck] if c != allen]
    s.faceup[deck] = allen
    gold, infl, rep = s.gold[p], s.infl[p], s.rep[p]
    act(s, "hire allen-cutler with influence")
    assert (s.gold[p], s.infl[p], s.rep[p]) == (gold - 2, infl - 1, rep + 3)
    assert s.phase == R.PLACE and s.faceup[deck] != allen


def test_hire_option_reputation_cost():
    for cost in (1, 2):
        s = GAME.new_state(3, 1, {"hire_reputation": cost})
        while s.phase != R.MAIN:
            s.apply(s.legal_actions()[0])
        p = s.actor
        s.rep[p] = 5
        card = next(c for c in s.faceup if c >= 0 and C.characters[c].gold <= s.gold[p])
        act(s, f"hire {C.characters[card].id} with reputation")
        assert s.rep[p] == 5 - cost + C.characters[card].reputation


@pytest.mark.parametrize("where,choices", [
    ("prussia-cove", {"perranuthnoe", "breage"}),
    ("goldsithney", {"marazion", "leedstown", "breage", "godolphin"}),
])
def test_placing_network_counters_chris_and_alice(where, choices):
    s = after_setup(3)
    p = s.actor
    s.counters[p] = [loc(where)]
    assert {C.locations[x].id for x in R.legal_placements(s, p)} == choices | {"scilly"}


def test_placing_after_scilly_start_is_free():
    s = after_setup(3)
    s.counters[s.actor] = [loc("scilly")]
    assert len(R.legal_placements(s, s.actor)) == len(C.locations)


# -- Selling Goods ----------------------------------------------------------------------------------------------------
def _seller(s, p: int, size: int, where: str) -> int:
    g = piece(s, size)
    put_on_land(s, p, g, where)
    s.counters[p].append(loc(where))
    return g


def test_selling_a_size_5_good_in_a_size_3_town_uses_the_size_3_prices():
    s = after_setup(3)
    p = s.actor
    officers_at(s, "st-just")
    g = _seller(s, p, 5, "marazion")
    act(s, f"sell {GID[g]}")
    assert _legal(s) == [
        "price top", "price middle with influence", "price middle with reputation",
        "price bottom with influence", "price bottom with reputation"][: len(s.legal_actions())]
    gold, rep = s.gold[p], s.rep[p]
    act(s, "price middle with influence")
    assert (s.gold[p], s.rep[p], s.infl[p]) == (gold + 6, rep + 1, 9)


def test_selling_every_other_player_draws_a_secret():
    s = after_setup(4)
    p = s.actor
    officers_at(s, "st-just")
    g = _seller(s, p, 2, "penzance")
    before = [len(x) for x in s.secrets]
    act(s, f"sell {GID[g]}", "price top")
    assert [len(x) - b for x, b in zip(s.secrets, before, strict=True)] == [0 if q == p else 1 for q in range(4)]


def test_gold_wheel_4_then_6_then_16_gold_moves_the_track_0_1_2_and_a_new_officer():
    s = after_setup(3)
    officers_at(s, "sennen", "pendeen")
    seats = [s.actor, (s.actor + 1) % 3, (s.actor + 2) % 3]
    sales = [(4, "helston", "price top"), (3, "marazion", "price middle with influence"),
             (4, "helston", "price bottom with influence")]
    goods = [_seller(s, p, size, town) for p, (size, town, _) in zip(seats, sales, strict=True)]
    earned, tracks, start = [], [], s.track  # a 3-player game starts on the track's space 6 (designed)
    for p, g, (_, _, price) in zip(seats, goods, sales, strict=True):
        assert s.actor == p
        gold = s.gold[p]
        act(s, f"sell {GID[g]}", price)
        while s.phase in (R.CUSTOMS_OFFICER, R.CUSTOMS_STEP, R.POST):
            assert s.actor == R.chooser(s)  # the player with least Gold decides
            choice = s.legal_actions()[0]
            act(s, str(choice))
            if choice.verb == "post":
                assert s.off_at[2] == loc(choice.item)
        earned.append(s.gold[p] - gold)
        tracks.append(s.track - start)
    assert earned == [4, 6, 16]
    assert tracks == [0, 1, 3]
    assert s.off_at[2] >= 0  # a new Customs Officer is on the board


def test_three_officers_one_space_from_penzance_least_gold_chooses():
    s = after_setup(3)
    eve = s.actor
    officers_at(s, "madron", "newlyn", "marazion")
    g = _seller(s, eve, 2, "penzance")
    poorest = (eve + 2) % 3
    set_gold(s, poorest, 1)
    act(s, f"sell {GID[g]}", "price bottom with influence")
    assert s.phase == R.CUSTOMS_OFFICER and s.actor == poorest
    assert _legal(s) == ["move 0", "move 1", "move 2"]
    act(s, "move 1")
    assert s.off_at[:3] == [loc("madron"), loc("penzance"), loc("marazion")]
    assert s.actor == (eve + 1) % 3 and s.phase == R.MAIN


def test_ties_lowest_gold_then_reputation_then_fewest_characters_then_first_player():
    s = after_setup(4)
    for p in range(4):
        set_gold(s, p, 5)
        s.rep[p] = 2
        s.chars[p] = [0]
    s.first = 2
    assert R.chooser(s) == 2
    s.chars[3] = []
    assert R.chooser(s) == 3
    s.rep[1] = 1
    assert R.chooser(s) == 1
    set_gold(s, 0, 4)
    assert R.chooser(s) == 0


# -- Storehouses, moving goods ------------------------------------------------------------------------------------------
def test_storehouse_moves_are_free_and_goods_inside_are_safe():
    s = after_setup(3)
    p = s.actor
    st = s.stores[p][0]
    where = C.locations[C.storehouses[st].location].id
    s.counters[p] = [loc(where)]
    officers_at(s, "zennor")  # none watching the home (the St Ives officer starts at one)
    g = next(g for g in range(len(C.goods)) if s.g_where[g] == R.MERCHANT
             and R.fits(R.hold_of_store(st), [C.goods[g]]))
    put_on_land(s, p, g, where)
    act(s, f"store {GID[g]} to {C.storehouses[st].id}")
    assert s.g_where[g] == R.STORE and s.actor == p
    officers_at(s, where)
    R.check_seizure(s, loc(where))
    assert s.g_where[g] == R.STORE
    assert f"unstore {GID[g]}" not in _legal(s)  # not twice in one go


def test_move_goods_only_to_an_adjacent_counter_of_yours():
    s = after_setup(3)
    p = s.actor
    officers_at(s, "st-just")
    g = piece(s, 2)
    put_on_land(s, p, g, "madron")
    s.counters[p] = [loc("madron"), loc("penzance")]
    carries = [str(a) for a in s.legal_actions() if str(a).startswith(f"carry {GID[g]}")]
    assert carries == [f"carry {GID[g]} to penzance with influence", f"carry {GID[g]} to penzance with gold"]
    act(s, f"carry {GID[g]} to penzance with gold")
    assert s.g_at[g] == loc("penzance") and s.gold[p] == 11


# -- Raid the Customs House -----------------------------------------------------------------------------------------------
def test_raid_needs_two_mobs_and_penzance_costs_a_mob_and_a_counter():
    s = after_setup(3)
    p = s.actor
    mobs = [c.index for c in C.characters if c.mob][:2]
    s.chars[p] = mobs[:]
    s.rep[p] = sum(C.characters[c].reputation for c in mobs)
    s.counters[p] = [loc("penzance"), loc("madron")]
    officers_at(s, "st-just")
    g = piece(s, 3)
    s.g_where[g] = R.WAREHOUSE
    s.g_at[g] = loc("penzance")
    act(s, f"raid {GID[g]}", f"discard {C.characters[mobs[0]].id}", "remove madron")
    assert s.g_where[g] == R.LAND and s.g_owner[g] == p and s.g_at[g] == loc("penzance")
    assert s.chars[p] == [mobs[1]] and s.counters[p] == [loc("penzance")]
    assert s.rep[p] == C.characters[mobs[1]].reputation


# -- End of the Game -----------------------------------------------------------------------------------------------------------
def test_end_last_goods_shape_bought_then_the_turn_is_finished():
    s = after_setup(3)
    p = s.actor
    m = 0
    s.ship_at[p] = C.merchant_nodes[m]
    last = next(g for g in range(len(C.goods)) if s.g_where[g] == R.MERCHANT and s.g_at[g] == m
                and C.shapes[C.goods[g]].size == 2)
    for g in range(len(C.goods)):
        if g != last and s.g_where[g] == R.MERCHANT:
            s.g_where[g] = R.SOLD
    act(s, f"buy {GID[last]}")
    assert s.ending and not s.is_over
    act(s, "pass", "pass", "pass")
    assert s.is_over
    assert s.scores() == [float(s.gold[q] + s.rep[q]) for q in range(3)]


def test_end_customs_track_reaching_its_end_triggers_the_end():
    s = after_setup(3)
    R.advance_customs_track(s, 100)
    assert s.track == len(C.discovery) - 1 and s.ending


def test_illegal_action_changes_nothing_and_says_what_is_legal():
    s = after_setup(3)
    before = s.to_json()
    with pytest.raises(freetrader.IllegalAction, match="legal: .*pass"):
        s.apply("land")
    with pytest.raises(freetrader.InvalidNotation, match="verb"):
        s.apply("smuggle brandy")
    assert s.to_json() == before
