"""Rule tests: one per established fact (research source in the name's docstring) and per designed rule."""

from __future__ import annotations

import pytest
from mc_scenario import (
    GAME,
    colour,
    fresh,
    give_corruption,
    give_goods,
    holding,
    new,
    play_out,
    set_boat,
    set_gold,
    set_slot,
    texts,
    then,
    to_market,
    turn,
)

from freetrader.core import BadOption, Rng
from freetrader.games.merchants_cove import rules as R
from freetrader.games.merchants_cove.components import COMPONENTS as C
from freetrader.games.merchants_cove.components import GREY
from freetrader.games.merchants_cove.flow import go_on
from freetrader.games.merchants_cove.merchants import MERCHANTS, Merchant


class Fixed(Rng):
    """An RNG whose ``below`` always answers ``k`` (for a chosen spin or draw)."""

    def __init__(self, k: int) -> None:
        super().__init__(0)
        self.k = k

    def below(self, n: int) -> int:
        return min(self.k, n - 1)


# == established facts =========================================================================
def test_components_52_adventurers_13_red_13_green_9_blue_9_yellow_8_grey():
    """MISHI."""
    assert C.adventurers == (13, 13, 9, 9, 8)


def test_components_60_corruption_cards_and_three_townsfolk_sets_of_twelve():
    """MISHI: 60 Corruption, 36 Townsfolk (12 a set INFERRED); RAND: Locals, Mercenaries, Sailors."""
    assert len(C.corruption_deck) == 60
    base = [t for t in C.townsfolk if t.set in ("locals", "mercenaries", "sailors")]
    assert len(base) == 36 and C.tf_sets[:3] == ("locals", "mercenaries", "sailors")
    assert all(sum(t.set == x for t in C.townsfolk) == 12 for x in C.tf_sets)


def test_components_three_base_rogue_cards_criminals_cultists_robbers():
    base = [(r.number, r.name) for r in C.rogues if r.box == "base"]
    assert base == [(1, "Criminals"), (2, "Cultists"), (3, "Robbers")]


def test_four_base_merchants_each_its_own_module():
    assert sorted(MERCHANTS) == ["alchemist", "blacksmith", "captain", "chronomancer"]
    assert all(isinstance(m, Merchant) and type(m).__module__.endswith(m.id) for m in MERCHANTS.values())


def test_setup_gold_on_0_and_timepiece_on_1():
    """H9K."""
    s = new(3)
    assert s.gold == [0, 0, 0] and s.time == [1, 1, 1]


def test_setup_rogue_card_sets_rogues_in_bag_and_lair():
    """SPK, BSN, DOJ: the Rogue card governs how many Rogues go to the Lair and into the bag."""
    for rc in C.rogues:
        if not rc.on_boats:
            continue
        s = new(2, rogue=rc.id)
        on_boats = sum(b.count(GREY) for b in s.boats)
        assert s.bag[GREY] + on_boats == rc.bag and s.lair == rc.lair


def test_setup_rogue_card_revealed_at_random_by_default():
    seen = {GAME.new_state(2, seed, {"merchants": "random"}).rogue for seed in range(30)}
    assert seen == {0, 1, 2}


def test_setup_halls_seeded_with_guild_members_of_each_colour():
    """SPK."""
    assert new(2).halls == [C.hall_seed] * 4


def test_setup_townsfolk_two_sets_locals_and_mercenaries_by_default():
    """RAND: two sets shuffled into one deck, Locals + Mercenaries recommended first."""
    s = new(2)
    sets = {C.townsfolk[t].set for t in s.square + s.tf_deck}
    assert sets == {"locals", "mercenaries"} and len(s.square) + len(s.tf_deck) == 24


def test_setup_merchant_choice_is_a_decision_by_default():
    s = GAME.new_state(2, 1)
    assert texts(s) == ["merchant alchemist", "merchant blacksmith", "merchant captain", "merchant chronomancer"]
    s.apply("merchant captain")
    assert s.to_act == 1 and "merchant captain" not in texts(s)


def test_any_merchant_against_any_other_at_any_count():
    """TOTB, FFGDR, BSNX, SMP."""
    for seats in (1, 2, 3, 4):
        for m in MERCHANTS:
            others = [x for x in sorted(MERCHANTS) if x != m][: seats - 1]
            s = new(seats, ",".join([m] + others))
            assert s.merchant[0] == m
    with pytest.raises(BadOption):
        new(2, "captain,captain")


def test_arrival_two_adventurers_in_each_of_six_boats_three_per_side():
    """WTM, BSB, SPK, VDJ, BGUK; H9K (three from each side)."""
    s = new(2)
    assert [len(b) for b in s.boats] == [2] * 6
    assert C.boat_side == (0, 0, 0, 1, 1, 1) and C.capacity == 4


def test_clock_furthest_behind_acts_and_top_of_stack_first():
    """DTN, SPK, MRBG."""
    s = new(2)
    s.time = [3, 2]
    assert R.next_on_clock(s) == 1
    s.time = [2, 2]
    s.stack = [5, 7]
    assert R.next_on_clock(s) == 1
    s.stack = [8, 7]
    assert R.next_on_clock(s) == 0


def test_first_player_is_random_by_default_and_varies_with_the_seed():
    """The round-1 stack order is not public: by default the timepieces are stacked at random."""
    firsts = {new(3, seed=seed).to_act for seed in range(30)}
    assert firsts == {0, 1, 2}


def test_first_player_option_puts_that_seat_on_top_and_the_rest_in_seat_order_after_it():
    for k in range(3):
        s = new(3, first_player=f"seat{k}")
        assert s.to_act == k
        below = sorted(range(3), key=lambda p: -s.stack[p])
        assert below == [k, (k + 1) % 3, (k + 2) % 3]


def test_first_player_option_beyond_the_seats_is_one_clear_error():
    with pytest.raises(BadOption, match=r"first_player='seat3': this game has 2 seat\(s\); choose random or seat0..seat1"):
        new(2, first_player="seat3")
    with pytest.raises(BadOption, match="first_player"):
        new(2, first_player="last")


def test_clock_advancing_puts_the_timepiece_on_top_of_the_stack():
    s = new(2)
    turn(s, 0)
    s.time = [1, 3]
    s.last[0] = "sponsor"
    s.apply("do load")
    while s.to_act == 0 and s.phase != R.MAIN:
        s.apply(s.legal_actions()[0])
    assert s.time[0] == 2 and s.stack[0] == s.tick


def test_clock_same_action_may_not_be_taken_twice_in_a_row():
    """SPK."""
    s = new(2)
    turn(s, 0)
    s.last[0] = "load"
    assert "do load" not in texts(s) and "do recruit" in texts(s)


def test_clock_production_ends_at_the_market_token_then_market():
    """TOTB: when your marker reaches the token your Production ends; when all have, the Market starts."""
    s = new(2)
    s.time = [C.market, 5]
    assert R.next_on_clock(s) == 1
    s.time = [C.market, C.market]
    assert R.next_on_clock(s) == -1
    assert C.market - C.clock_start == 12  # UFG: 12 hours of production


def test_mouse_passed_makes_the_player_load_an_adventurer():
    """DTN: passing a customer point on the Clock draws an adventurer into a boat (the Mouse, designed)."""
    s = new(2)
    turn(s, 0)
    s.time[0] = 2
    s.mice = [3, 5]
    before = sum(len(b) for b in s.boats)
    s.apply("do load")  # 1 hour: 2 adventurers, then the Mouse at 3 adds 1
    while s.to_act == 0 and s.phase in (R.PLACE, R.DOCK):
        s.apply(s.legal_actions()[0])
    placed = sum(len(b) for b in s.boats) + sum(len(x) for x in s.slot_adv) - before
    assert placed == 3 and s.mice[0] == 3 + C.mouse_step


def test_full_boat_docks_where_the_active_player_chooses():
    """DTN, BSB: the active player docks a full boat at an available pier."""
    s = new(2)
    set_boat(s, 0, ["red", "red", "blue"])
    turn(s, 0)
    s.bag[colour("green")] -= 1
    holding(s, colour("green"))
    s.apply("boat 1")
    assert s.phase == R.DOCK and texts(s) == ["dock bazaar", "dock square-left"]
    s.apply("dock square-left")
    assert s.slot_adv[1] == [0, 0, 2, 1] and s.docked[0] == 1 and s.boats[0] == []


def test_only_the_first_four_full_boats_dock():
    """VDJ: only the first four boats to fill land; three piers, the central one takes two (designed)."""
    assert len(C.slots) == 4 and len(C.piers) == 3
    s = new(2)
    s.slot_boat = [1, 2, 3, 4]
    set_boat(s, 0, ["red", "red", "blue", "blue"])
    then(s, R.DockBoat(0))
    assert s.docked[0] == -1 and len(s.boats[0]) == 4 and 0 not in R.sailing_open(s)


def test_undocked_boats_go_to_faction_halls_rogues_to_the_lair():
    """BSB, MRBG; Rogues to the Lair (designed, as Ghost Sailors' 'instead of their matching hall')."""
    s = new(2)
    halls, lair = s.halls[:], s.lair
    on = [0] * 5
    for b in s.boats:
        for c in b:
            on[c] += 1
    to_market(s)
    assert [s.halls[c] - halls[c] for c in range(4)] == on[:4]
    assert s.lair - lair == on[GREY]


def _market_with(s, slot, customers, goods, p=0):
    for k in range(4):
        set_slot(s, k, [])
    set_slot(s, slot, customers)
    for g in goods:
        give_goods(s, p, g)
    for b in range(6):
        set_boat(s, b, [])
    s.stack = [10 + (q != p) for q in range(s.np)]
    to_market(s)


def test_market_price_is_value_times_matching_customers():
    """MRBG, RAND: price scales with the matching customers on the pier."""
    s = new(2)
    _market_with(s, 1, ["red", "red", "blue"], ["small-red"])
    assert "sell small-red square" in texts(s)
    g = s.gold[0]
    s.apply("sell small-red square")
    assert s.gold[0] - g == C.values[R.GOOD_IDS.index("small-red")] * 2


def test_market_small_goods_pier_and_large_goods_pier():
    """MRBG, BGQ: only small goods sell on the Town Square pier, only large at the Bazaar."""
    s = new(2)
    _market_with(s, 1, ["red"], ["small-red", "large-red"])
    assert "sell small-red square" in texts(s) and not any(t.startswith("sell large-red") for t in texts(s))
    s = new(2)
    _market_with(s, 0, ["red"], ["small-red", "large-red"])
    assert "sell large-red bazaar" in texts(s) and not any(t.startswith("sell small-red") for t in texts(s))


def test_market_black_market_takes_any_good_and_gives_corruption():
    """MRBG, BGQ."""
    s = new(2)
    _market_with(s, 3, ["blue", "blue"], ["small-blue", "large-blue"])
    assert {"sell small-blue black", "sell large-blue black"} <= set(texts(s))
    s.apply("sell large-blue black")
    assert len(s.corr[0]) == C.piers[R.PIER_IDS.index("black")].corruption >= 1


def test_market_each_group_buys_one_good_from_each_merchant():
    s = new(2)
    _market_with(s, 1, ["red"], ["small-red", "small-red"])
    s.apply("sell small-red square")
    assert s.shelf[0][R.GOOD_IDS.index("small-red")] == 1 and s.to_act != 0 or "sell small-red square" not in texts(s)


def test_market_red_green_worth_less_than_blue_yellow():
    """MARTA."""
    v = C.values
    assert v[0] == v[2] < v[4] == v[6] and v[1] == v[3] < v[5] == v[7]


def test_market_sponsorship_pays_by_adventurers_in_the_faction_hall():
    """MRBG: after sales, gold from sponsorship icons and the adventurers in the halls."""
    s = new(2)
    s.shields[0][2] = 2
    for b in range(6):
        set_boat(s, b, [])
    halls_blue = s.halls[2]
    g = s.gold[0]
    to_market(s)
    assert s.gold[0] - g == 2 * halls_blue * C.sponsor_rate


def test_sponsor_action_adds_a_shield_up_to_the_limit():
    s = new(2)
    turn(s, 0)
    s.apply("do sponsor")
    s.apply("shield yellow")
    assert s.shields[0] == [0, 0, 0, 1]
    s.shields[0] = [C.shield_max] * 4
    turn(s, 0)
    assert "do sponsor" not in texts(s)


def test_cultists_buy_anything_but_selling_to_them_corrupts():
    """RAND, MARTA (designed: priced by the Rogues, 1 Corruption a sale)."""
    s = new(2, rogue="cultists")
    _market_with(s, 1, ["grey", "grey"], ["small-yellow"])
    assert "sell small-yellow rogues-square" in texts(s)
    g = s.gold[0]
    s.apply("sell small-yellow rogues-square")
    assert s.gold[0] - g == C.values[R.GOOD_IDS.index("small-yellow")] * 2 and len(s.corr[0]) == 1


def test_criminals_docking_a_boat_with_rogues_draws_corruption():
    s = new(2, rogue="criminals")
    set_boat(s, 3, ["grey", "red", "red", "red"])
    s.actor = 1
    s.slot_boat[3] = 0
    then(s, R.DockBoat(3))
    assert len(s.corr[1]) == 1


def test_robbers_docking_player_chooses_the_rival_who_draws():
    s = new(3, rogue="robbers")
    set_boat(s, 3, ["grey", "grey", "red", "red"])
    s.actor = 1
    s.slot_boat[3] = 0
    then(s, R.DockBoat(3))
    fresh(s)
    assert s.phase == R.ROB and texts(s) == ["rob 0", "rob 2"]
    s.apply("rob 2")
    assert len(s.corr[2]) == 2


def test_final_scoring_after_the_third_market_gold_for_faction_icons():
    """TOTB, MRBG: non-Rogue faction icons on Townsfolk score; three days (DTN, BGUK)."""
    s = new(2)
    s.day = 3
    s.staff[0] = [R.TF_BY_ID["lamplighter"], R.TF_BY_ID["berserker"]]  # red+green, red+grey
    for b in range(6):
        set_boat(s, b, [])
    g = s.gold[0]
    to_market(s)
    assert s.is_over
    expect = 2 * min(s.halls[0], C.icon_cap) + min(s.halls[1], C.icon_cap)
    assert s.gold[0] - g == expect


def test_final_scoring_corruption_costs_more_with_rogues_in_the_lair():
    s = new(2)
    s.day = 3
    set_gold(s, 0, 100)
    give_corruption(s, 0, "c2", 2)
    for b in range(6):
        set_boat(s, b, [])
    s.lair = 7
    to_market(s)
    assert s.gold[0] == 100 - 4 * (C.corruption_base + 7 // C.corruption_per_lair)


def test_final_scoring_rogue_icons_cancel_corruption():
    s = new(2)
    s.day = 3
    set_gold(s, 0, 50)
    give_corruption(s, 0, "c1")
    s.staff[0] = [R.TF_BY_ID["cutthroat"]]  # one Rogue icon
    assert R.corruption_icons(s, 0) == 0


def test_game_lasts_three_days_and_most_gold_wins():
    s = new(2)
    play_out(s)
    assert s.day == C.days == 3 and s.winners() == [p for p in range(2) if s.gold[p] == max(s.gold)]


def test_clean_up_returns_customers_refreshes_square_and_least_gold_on_top():
    """MRBG: boats back out to sea, Town Square refreshed, next round prepared (details designed)."""
    s = new(2)
    set_slot(s, 0, ["red", "blue"])
    square = s.square[:]
    set_gold(s, 0, 5)
    set_gold(s, 1, 9)
    to_market(s)
    while s.stage == R.ST_MARKET:
        s.apply("done")
    assert s.day == 2 and all(not x for x in s.slot_adv)
    assert s.tf_bottom[:4] == square or not set(square) & set(s.square)
    assert s.stack[0] > s.stack[1] and s.time == [C.clock_start] * 2


@pytest.mark.parametrize("ties, seat0_on_top", [("stack", True), ("seat", False)])
def test_clean_up_players_level_on_gold_keep_the_stacks_order(ties, seat0_on_top):
    """Designed: least gold on top; level players keep the day's order (stack_ties=stack), not seat order,
    which put seat 0 below every equal rival, day after day (the 4-seat seat 0 deficit, issue 30)."""
    s = new(2, stack_ties=ties)
    set_gold(s, 0, 7)
    set_gold(s, 1, 7)
    s.stack[0], s.stack[1] = 20, 10  # seat 0 was on top of the day's stack
    to_market(s)
    while s.stage == R.ST_MARKET:
        s.apply("done")
    assert s.day == 2 and s.gold[0] == s.gold[1]
    assert (s.stack[0] > s.stack[1]) == seat0_on_top


# == Townsfolk and Staff (designed) =============================================================
def _put_in_square(s, card_id: str) -> None:
    t = R.TF_BY_ID[card_id]
    if t in s.tf_deck:
        i = s.tf_deck.index(t)
        s.tf_deck[i], s.square[0] = s.square[0], t
    fresh(s)


def test_recruit_pays_the_cost_uses_the_ability_and_unlocks_a_staff_space():
    s = new(2)
    _put_in_square(s, "washer")
    set_gold(s, 0, 3)
    turn(s, 0)
    slide = len(s.mb[0].slide)
    s.apply("do recruit")
    s.apply("hire washer")
    assert s.staff[0] == [R.TF_BY_ID["washer"]]
    assert s.gold[0] == 3 - 1 + 2  # cost 1, ability gold 2
    assert len(s.mb[0].slide) == slide + 2  # the Alchemist's first Staff space: 2 marbles onto the slide


def test_recruit_needs_the_gold_replace_puts_the_card_under_the_deck():
    s = new(2)
    _put_in_square(s, "priestess")
    turn(s, 0)
    s.apply("do recruit")
    assert "hire priestess" not in texts(s) and "replace priestess" in texts(s)
    s.apply("replace priestess")
    assert s.tf_bottom == [R.TF_BY_ID["priestess"]] and len(s.square) == C.square


def test_locals_discard_corruption():
    """RAND: Locals help you discard Corruption."""
    s = new(2)
    _put_in_square(s, "baker")
    set_gold(s, 0, 2)
    give_corruption(s, 0, "c2")
    turn(s, 0)
    s.apply("do recruit")
    s.apply("hire baker")
    assert texts(s) == ["discard c2"]
    s.apply("discard c2")
    assert s.corr[0] == [] and s.cdiscard == [R.CORR_BY_ID["c2"]]


def test_mercenaries_give_a_matching_good():
    """RAND: Mercenaries give goods."""
    s = new(2)
    _put_in_square(s, "battlemage")
    set_gold(s, 0, 3)
    turn(s, 0)
    s.apply("do recruit")
    s.apply("hire battlemage")
    assert s.shelf[0][R.GOOD_IDS.index("small-blue")] == 1


def test_sailors_return_and_move_adventurers_on_boats():
    """RAND: Sailors put adventurers back in the bag or move them."""
    s = new(2, townsfolk="locals+sailors")
    set_boat(s, 0, ["red", "blue"])
    _put_in_square(s, "harbour-master")
    set_gold(s, 0, 2)
    turn(s, 0)
    s.apply("do recruit")
    s.apply("hire harbour-master")
    assert "return 1 red" in texts(s)
    bag = s.bag[0]
    s.apply("return 1 red")
    assert s.boats[0] == [2] and s.bag[0] == bag + 1
    s = new(2, townsfolk="locals+sailors")
    set_boat(s, 0, ["red", "blue"])
    set_boat(s, 1, [])
    _put_in_square(s, "ferryman")
    set_gold(s, 0, 2)
    turn(s, 0)
    s.apply("do recruit")
    s.apply("hire ferryman")
    s.apply("take 1 blue")
    assert "boat 1" not in texts(s)
    s.apply("boat 2")
    assert s.boats[1] == [2]


def test_staff_abilities_fire_again_at_the_start_of_each_later_day():
    s = new(2)
    s.staff[0] = [R.TF_BY_ID["washer"], R.TF_BY_ID["gardener"]]
    set_gold(s, 0, 0)
    to_market(s)
    while s.stage == R.ST_MARKET:
        s.apply("done")
    assert s.day == 2 and s.gold[0] >= 2  # space 2 of the Alchemist: gold 2


# == merchants (designed boards) ================================================================
def test_alchemist_gather_pour_chain_and_brew():
    s = new(2, "alchemist,blacksmith")
    turn(s, 0)
    s.apply("do gather")
    assert len(s.mb[0].slide) == C.merchants["alchemist"].params["gather"]
    b = s.mb[0]
    b.slide = [0, 2, 2, 0]  # slide red, blue, blue, red
    turn(s, 0)
    s.apply("do pour")
    s.apply("pour 2")  # the blues, then the reds close the gap and follow
    assert b.slide == [] and b.cauldron[0] == 2 and b.cauldron[2] == 2
    turn(s, 0)
    s.apply("do brew")
    assert s.shelf[0][R.GOOD_IDS.index("small-red")] == 1 and s.shelf[0][R.GOOD_IDS.index("small-blue")] == 1


def test_alchemist_ichor_is_wild_and_toxic_waste_corrupts_at_clean_up():
    s = new(2, "alchemist,blacksmith")
    b = s.mb[0]
    b.slide = [4]
    turn(s, 0)
    s.apply("do pour")
    s.apply("pour 1")
    assert texts(s) == ["into red", "into green", "into blue", "into yellow"]
    s.apply("into yellow")
    assert b.cauldron[3] == 1 and b.ichor[3] == 1
    b.toxic = 3
    MERCHANTS["alchemist"].clean_up(s, 0)
    assert len(s.corr[0]) == 3 - C.merchants["alchemist"].params["toxic_free"]


def test_blacksmith_smelt_heat_forge_and_keep_colours_for_corruption():
    s = new(2, "blacksmith,alchemist")
    b = s.mb[0]
    turn(s, 0)
    s.apply("do smelt")
    assert all(b.colour[i] >= 0 and 1 <= b.pips[i] <= 6 for i in range(3)) and b.coal == 1
    cols = b.colour[:3]
    turn(s, 0)
    s.last[0] = "heat"
    s.apply("do smelt")
    s.apply("keep colours")
    assert b.colour[:3] == cols and len(s.corr[0]) == 1
    b.pips[0], b.colour[0] = 6, 2  # die 1: a blue 6
    b.heat[2] = 5
    turn(s, 0)
    s.apply("do heat")
    s.apply("die 1")
    assert b.heat[2] == 11
    s.apply("coal blue")
    assert b.heat[2] == 13
    turn(s, 0)
    s.apply("do forge")
    assert s.shelf[0][R.GOOD_IDS.index("large-blue")] == 1 and b.heat[2] == 0 and b.furnace[0] == -1


def test_blacksmith_unlocks_alloy_dice_for_gold():
    s = new(2, "blacksmith,alchemist")
    turn(s, 0)
    assert "do unlock" not in texts(s)
    set_gold(s, 0, 5)
    turn(s, 0)
    s.apply("do unlock")
    assert s.mb[0].unlocked == 4 and s.gold[0] == 5 - C.merchants["blacksmith"].params["unlock_cost"]


def test_captain_compass_catch_storm_and_treasure():
    s = new(2, "captain,alchemist")
    b = s.mb[0]
    s.rng = Fixed(0)  # red
    turn(s, 0)
    s.apply("do sail")
    assert b.at_sea[0] == 1 and b.hold[0][0] == 1
    compass = C.merchants["captain"].lists["compass"]
    s.rng = Fixed(compass.index("treasure"))
    turn(s, 0)
    s.apply("do spin")
    assert b.hold[0][4] == 1 and b.treasures == C.merchants["captain"].params["treasures"] - 1
    assert texts(s) == ["again", "stop"]
    s.rng = Fixed(compass.index("storm"))
    s.apply("again")
    assert b.at_sea[0] == 0 and sum(b.hold[0]) == 0


def test_captain_recall_turns_catches_and_treasure_into_goods_treasures_renew():
    s = new(2, "captain,alchemist")
    b = s.mb[0]
    b.at_sea[0] = b.at_sea[1] = 1
    b.hold[0][0] = 4  # ship 1: 4 red
    b.hold[1][1] = 3  # ship 2: 3 green
    b.hold[1][4] = 1  # and a treasure
    b.treasures = 0
    turn(s, 0)
    s.apply("do recall")
    assert s.shelf[0][R.GOOD_IDS.index("large-red")] == 1 and s.shelf[0][R.GOOD_IDS.index("small-green")] == 1
    s.apply("treasure yellow")
    assert s.shelf[0][R.GOOD_IDS.index("large-yellow")] == 1
    MERCHANTS["captain"].clean_up(s, 0)
    assert b.treasures == C.merchants["captain"].params["treasures"]


def test_chronomancer_slides_tiles_and_workers_ride_round():
    s = new(2, "chronomancer,alchemist")
    b = s.mb[0]
    b.grid, b.spare = [0, 1, 2, 3, 4, 0, 1, 2, 3], 4
    b.workers = [2, 8]
    turn(s, 0)
    s.apply("do shift")
    s.apply("push r1-left")
    assert b.grid[0:3] == [4, 0, 1] and b.spare == 2 and b.workers[0] == 0


def test_chronomancer_travel_gathers_shards_anomaly_turns_time_back_and_craft():
    s = new(2, "chronomancer,alchemist")
    b = s.mb[0]
    b.grid, b.spare = [0, 0, 4, 1, 1, 2, 3, 3, 2], 0
    b.workers = [0, 8]
    turn(s, 0)
    s.time[0] = 5
    s.apply("do travel")
    s.apply("worker 1 2")
    assert b.shards[0] == 1
    s.apply("worker 2 9")
    assert b.shards[2] == 1
    assert s.time[0] == 5 + C.merchants["chronomancer"].actions["travel"]
    turn(s, 0)
    s.time[0] = 5
    s.last[0] = "shift"
    s.apply("do travel")
    s.apply("worker 1 3")  # the anomaly
    s.apply("worker 2 9")
    assert s.time[0] == 5 - 1 + C.merchants["chronomancer"].actions["travel"]
    p = C.merchants["chronomancer"].params
    b.shards = [p["large"], p["small"], 0, 0]  # enough red shards for a large, green for a small
    turn(s, 0)
    s.apply("do craft")
    assert s.shelf[0][R.GOOD_IDS.index("large-red")] == 1 and s.shelf[0][R.GOOD_IDS.index("small-green")] == 1


def test_goods_come_from_a_limited_supply_onto_a_limited_shelf():
    s = new(2)
    from freetrader.games.merchants_cove.merchants import produce

    g = R.GOOD_IDS.index("large-red")
    s.supply[0][g] = 1
    assert produce(s, 0, g, 3) == 1 and s.supply[0][g] == 0


# == the Peddler (designed solo automaton) =====================================================
def test_solo_peddler_takes_turns_loads_its_boat_and_gains_goods():
    """SMP, TOTB: the base box has a Peddler for solo play; the automaton is designed."""
    s = new(1, "captain")
    assert s.np == 2
    play_out(s)
    ev = s.events
    assert any(e.startswith("The Peddler reveals") for e in ev)
    assert any(e.startswith("The Peddler sells") for e in ev) or s.gold[1] >= 0
    assert s.scores() == [float(s.gold[0] - s.gold[1])]


def test_solo_peddler_places_on_the_boat_its_location_icon_shows():
    s = new(1, "captain")
    s.pcard = 2  # boat 3
    s.actor = 1
    holding(s, 0)
    s.bag[0] -= 1
    before = len(s.boats[2])
    go_on(s)  # the Peddler's decision is taken at once, by its own rule
    assert len(s.boats[2]) == before + 1


def test_solo_without_the_peddler_scores_plain_gold():
    s = new(1, "captain", peddler=False)
    assert s.np == 1
    play_out(s)
    assert s.scores() == [float(s.gold[0])]


def test_a_simulation_with_a_random_first_player_uses_the_games_own_option():
    from freetrader.sim.runner import plan

    p = plan(GAME, ["heuristic", "heuristic"], 1, {"merchants": "random"}, 0, random_first=True)
    assert p.options["first_player"] == "random"


def test_a_clone_and_its_original_change_their_merchant_boards_apart():
    """Boards are shared by a clone until one side changes one (copy on first use): neither sees the other's move."""
    s = new(2, "alchemist,blacksmith")
    turn(s, 0)
    c = s.clone()
    alchemist, blacksmith = s.mb[0].to_json(), s.mb[1].to_json()
    c.apply("do gather")  # the clone's Alchemist gathers
    assert s.mb[0].to_json() == alchemist and c.mb[0].to_json() != alchemist
    turn(s, 1)
    s.apply("do smelt")  # the original's Blacksmith smelts
    assert s.mb[1].to_json() != blacksmith and c.mb[1].to_json() == blacksmith
