"""Secret Stash modules: one test per module and per Rogue card, with the rulebook's printed numbers."""

from __future__ import annotations

import pytest
from mc_scenario import colour, fresh, give_corruption, holding, new, set_boat, set_gold, set_slot, texts, then, turn

from freetrader.core import BadOption
from freetrader.games.merchants_cove import rules as R
from freetrader.games.merchants_cove import stash
from freetrader.games.merchants_cove.components import COMPONENTS as C
from freetrader.games.merchants_cove.components import GREY
from freetrader.games.merchants_cove.flow import go_on

PRINTED_SETUP = {  # Game Setup: in bag, in Lair
    "pirates": (4, 3), "kraken": (1, 4), "ghost-sailors": (4, 1), "grey-walkers": (5, 3), "raiders": (4, 2),
    "charlatans": (4, 3), "doppelgangers": (5, 3), "assassins": (4, 2), "warlocks": (4, 2),
    "mind-controllers": (3, 3), "backers": (3, 3),
}
PRINTED_ON_BOATS = {"kraken": False, "doppelgangers": False, "assassins": False, "mind-controllers": False}


@pytest.mark.parametrize("rid", sorted(PRINTED_SETUP))
def test_mc_stash_rogue_setup_counts_and_round_setup_as_printed(rid):
    rc = C.rogues[stash.ROGUE_BY_ID[rid]]
    assert (rc.bag, rc.lair) == PRINTED_SETUP[rid] and rc.on_boats == PRINTED_ON_BOATS.get(rid, True)
    assert rc.number == 4 + sorted(PRINTED_SETUP, key=lambda x: C.rogues[stash.ROGUE_BY_ID[x]].number).index(rid)
    s = new(2, rogue=rid)
    aboard = sum(b.count(GREY) for b in s.boats)
    assert s.bag[GREY] + aboard == rc.bag and s.lair == rc.lair
    if not rc.on_boats:
        assert aboard == 0  # Round Setup: returned to the bag


def _dock_with_rogues(s, rogues: int) -> None:
    set_boat(s, 0, ["grey"] * rogues + ["red"] * (4 - rogues))
    turn(s, 0)
    R.dock(s, 0, 0)


def test_mc_stash_rogue_pirates_3_gold_for_each_rogue_on_the_docked_boat():
    s = new(2, rogue="pirates")
    _dock_with_rogues(s, 2)
    assert s.gold[0] == 6


def test_mc_stash_rogue_pirates_peddler_gains_too():
    s = new(1, rogue="pirates")
    set_boat(s, 0, ["grey", "red", "red", "red"])
    s.actor = 1
    gold = s.gold[1]
    s.slot_boat[0] = -1
    R.dock(s, 0, 0)
    assert s.gold[1] == gold + 3


def test_mc_stash_rogue_warlocks_advance_the_timepiece_1_hour():
    s = new(2, rogue="warlocks")
    _dock_with_rogues(s, 1)
    assert R.AdvanceTimepiece(1) in s.frames
    t0 = s.time[0]
    go_on(s)
    assert s.time[0] == t0 + 1


def test_mc_stash_rogue_raiders_corruption_for_a_town_square_ability():
    s = new(2, rogue="raiders")
    _dock_with_rogues(s, 1)
    go_on(s)
    assert s.phase == R.RAID and "skip" in texts(s)
    target = s.square[0]
    n = len(s.corr[0])
    s.apply(f"raid {C.townsfolk[target].id}")
    assert len(s.corr[0]) == n + 1 and target not in s.square and s.tf_bottom[-1] == target


def test_mc_stash_rogue_kraken_returns_and_drags_a_customer_into_the_bay():
    s = new(2, rogue="kraken")
    turn(s, 0)
    s.bag[GREY] -= 1  # the Rogue just drawn
    assert stash.rogue_drawn(s, GREY)
    assert s.bag[GREY] == C.rogues[stash.ROGUE_BY_ID["kraken"]].bag and s.phase == R.KRAKEN
    fresh(s)
    b, c = next((b, c) for b in range(6) for c in s.boats[b] if c != GREY)
    before = len(s.boats[b])
    s.apply(f"kraken {b + 1} {R.COLOURS[c]}")
    assert len(s.boats[b]) == before - 1 and s.bay[c] == 1


def test_mc_stash_rogue_ghost_sailors_send_customers_to_the_lair():
    s = new(2, rogue="ghost-sailors")
    set_boat(s, 0, ["grey", "red", "blue"])
    lair, red = s.lair, s.halls[0]
    R.start_market(s)
    assert s.lair >= lair + 3 and s.halls[0] >= red


def test_mc_stash_rogue_grey_walkers_must_join_a_boat_with_a_rogue():
    s = new(2, rogue="grey-walkers")
    for b in range(6):
        set_boat(s, b, ["red"])
    set_boat(s, 4, ["grey"])
    s.drawn = GREY
    assert stash.place_targets(s, R.sailing_open(s)) == [4]


def test_mc_stash_rogue_charlatans_count_as_each_missing_colour():
    s = new(2, rogue="charlatans")
    set_slot(s, 0, ["grey", "grey", "blue"])
    assert R.customers(s, 0, colour("red")) == 2 and R.customers(s, 0, colour("blue")) == 1


def test_mc_stash_rogue_doppelgangers_join_a_hall_and_send_one_home():
    s = new(2, rogue="doppelgangers")
    turn(s, 0)
    s.bag[GREY] -= 1
    assert stash.rogue_drawn(s, GREY) and s.phase == R.HALL
    fresh(s)
    blue = s.halls[2]
    s.apply("hall blue")
    assert s.hall_rogues[2] == 1 and s.halls[2] == blue - 1 and R.hall_count(s, 2) == blue


def test_mc_stash_rogue_assassins_discard_a_town_square_card():
    s = new(2, rogue="assassins")
    turn(s, 0)
    s.bag[GREY] -= 1
    assert stash.rogue_drawn(s, GREY) and s.phase == R.ASSASSIN
    fresh(s)
    t = s.square[1]
    s.apply(f"kill {C.townsfolk[t].id}")
    assert t not in s.square and len(s.square) == C.square


def test_mc_stash_rogue_mind_controllers_return_a_customer_for_corruption():
    s = new(2, rogue="mind-controllers")
    set_boat(s, 0, ["red"])
    turn(s, 0)
    s.bag[GREY] -= 1
    s.drawn = GREY
    R.place_on_boat(s, 0)
    go_on(s)
    assert s.phase == R.MIND
    fresh(s)
    s.apply("mind red")
    assert s.boats[0] == [GREY] and len(s.corr[0]) == 1


def test_mc_stash_rogue_backers_must_make_a_boat_dock():
    s = new(2, rogue="backers")
    for b in range(6):
        set_boat(s, b, ["red"])
    set_boat(s, 2, ["red", "green", "blue"])
    s.drawn = GREY
    assert stash.place_targets(s, R.sailing_open(s)) == [2]


def test_mc_stash_multiple_rogues_three_cards_top_removed_at_clean_up():
    s = new(2, rogue="pirates", multiple_rogues=True)
    assert len(s.rogues) == 3 and s.rogues[0] == stash.ROGUE_BY_ID["pirates"]
    stash.multiple_rogues_clean_up(s)
    assert len(s.rogues) == 2 and stash.ROGUE_BY_ID["pirates"] not in s.rogues


def test_mc_stash_grey_good_to_three_rogues_is_36_gold():
    """Printed example: selling 1 Grey Good to 3 Rogues grants 36 Gold (12 x 3)."""
    s = new(2, townsfolk="locals+underworld")
    assert s.grey == 8 and C.values[stash.GREY_GOOD] == 12
    stash.gain_grey_good(s, 0)
    set_slot(s, 0, ["grey", "grey", "grey"])  # the Bazaar takes large goods only: Grey sells at any Pier
    assert (stash.GREY_GOOD, 0, 36, False) in R.sale_options(s, 0)
    R.sell(s, 0, stash.GREY_GOOD, 0, False)
    assert s.gold[0] == 36 and s.grey == 8 and s.shelf[0][stash.GREY_GOOD] == 0


def test_mc_stash_no_grey_goods_without_underworld():
    assert new(2).grey == 0


def _hire(s, ability: str, sets: str):
    t = next(c.index for c in C.townsfolk if c.ability == ability and c.set == sets)
    turn(s, 0)
    set_gold(s, 0, 20)
    s.square[0] = t
    s.actor, s.frames = 0, (R.CLOCK, R.RECRUIT_FRAME)
    fresh(s)
    s.apply(f"hire {C.townsfolk[t].id}")
    return t


def test_mc_stash_officials_any_or_all_staff_abilities():
    s = new(2, townsfolk="officials+locals")
    _hire(s, "staff-all", "officials")
    assert s.phase == R.STAFF and texts(s) == ["staff 1", "staff 2", "staff 3", "skip"]
    s.apply("staff 2")
    assert "staff 2" not in texts(s)
    s = new(2, townsfolk="officials+locals")
    _hire(s, "staff-one", "officials")
    assert texts(s) == ["staff 1", "staff 2", "staff 3"]
    gold = s.gold[0]
    s.apply("staff 2")  # the 2-gold Staff space
    assert s.gold[0] >= gold + 2


def test_mc_stash_artisans_good_and_corruption_discard():
    s = new(2, townsfolk="artisans+locals")
    give_corruption(s, 0, "c1", 2)
    t = _hire(s, "good-small-discard", "artisans")
    card = C.townsfolk[t]
    assert card.amount in (1, 2) and s.shelf[0][card.colour * 2] == 1
    assert s.phase == R.DISCARD


def test_mc_stash_underworld_grey_good_and_recruit_again():
    s = new(2, townsfolk="underworld+locals")
    _hire(s, "grey-good", "underworld")
    assert s.shelf[0][stash.GREY_GOOD] == 1 and s.grey == 7
    s = new(2, townsfolk="underworld+locals")
    _hire(s, "recruit", "underworld")
    assert s.phase == R.RECRUIT and len(s.square) == C.square - 1  # before refilling the Town Square


def test_mc_stash_legends_gain_3_gold_and_draw_1_corruption():
    s = new(2, townsfolk="legends+locals")
    t = _hire(s, "gold", "legends")
    assert C.townsfolk[t].amount == 3 and s.gold[0] == 20 - C.townsfolk[t].cost + 3
    s = new(2, townsfolk="legends+locals")
    _hire(s, "corruption", "legends")
    assert len(s.corr[0]) == 1


def test_mc_stash_corruption_mixed_or_replacing_12_one_icon_cards():
    new_cards = [c for c in C.corruption if c.box != "base"]
    assert len(new_cards) == 12 and all(c.icons > 1 and c.cost[0] for c in new_cards)
    assert len(new(2, corruption="mixed").cdeck) == 72
    s = new(2, corruption="replace")
    one_icon = new(2).cdeck.count(R.CORR_BY_ID["c1"])
    assert len(s.cdeck) == 60 and s.cdeck.count(R.CORR_BY_ID["c1"]) == one_icon - 12


def test_mc_stash_corruption_cost_pays_for_that_card_only_goods_to_supply():
    s = new(2, corruption="mixed")
    give_corruption(s, 0, "s2-gold4")
    give_corruption(s, 0, "s2-good1")
    turn(s, 0)
    set_gold(s, 0, 4)
    assert "pay s2-gold4" in texts(s) and "pay s2-good1" not in texts(s)  # no Good on the shelf
    s.apply("pay s2-gold4")
    assert s.gold[0] == 0 and R.CORR_BY_ID["s2-gold4"] not in s.corr[0] and s.phase == R.MAIN
    s.supply[0][0] -= 1
    s.shelf[0][0] += 1
    fresh(s)
    s.apply("pay s2-good1")
    s.apply("give small-red")
    assert s.corr[0] == [] and s.supply[0][0] == C.supply[0] and s.phase == R.MAIN


def test_mc_stash_halls_of_plenty_most_2_tied_1():
    s = new(3, halls_of_plenty=True)
    icons = [[3, 1, 0, 0], [1, 1, 0, 0], [0, 0, 0, 0]]
    stash.halls_of_plenty(s, icons)
    assert icons == [[5, 2, 0, 0], [1, 2, 0, 0], [0, 0, 0, 0]]


def test_mc_stash_lair_of_villainy_most_5_tied_2():
    s = new(3)
    corrupt = [4, 2, 0]
    stash.lair_of_villainy(s, corrupt)
    assert corrupt == [9, 2, 0]
    corrupt = [3, 3, 1]
    stash.lair_of_villainy(s, corrupt)
    assert corrupt == [5, 5, 1]


def test_mc_stash_festival_eight_guests_and_lure_instead_of_drawing():
    s = new(2, festival=True)
    assert len(s.island) == 8 and GREY not in s.island
    turn(s, 0)
    then(s, R.LOAD)
    assert s.phase == R.FESTIVAL and texts(s)[0] == "draw"
    c = s.island[0]
    s.apply(f"lure {R.COLOURS[c]} corruption")
    assert s.phase == R.PLACE and s.drawn == c and len(s.island) == 7 and len(s.corr[0]) == 1


# == solo: Challenge cards ====================================================================
def test_mc_stash_challenge_deck_4_of_8_on_top_of_2_of_4():
    s = new(1, challenges=True)
    assert len(C.challenges) == 12 and sum(c.dumbbell for c in C.challenges) == 4
    assert [C.challenges[c].dumbbell for c in s.chal_deck] == [False] * 4 + [True] * 2
    with pytest.raises(BadOption):
        new(2, challenges=True)


def _active(s, kind: str, dumbbell: bool = False):
    from freetrader.games.merchants_cove import challenges

    card = next(c for c in C.challenges if c.kind == kind and c.dumbbell == dumbbell)
    s.chal_deck = [card.index] + [c for c in s.chal_deck if c != card.index][:5]
    for g in card.goods:
        s.supply[0][g] -= 1
        s.shelf[0][g] += 1
    turn(s, 0)
    return card, challenges


def test_mc_stash_challenge_completed_before_the_move_margin_0_to_6_pays_gold():
    s = new(1, challenges=True)
    card, ch = _active(s, "lose")
    s.chal_at = ch.hour(s) - 3
    gold = s.gold[0]
    assert texts(s)[0] == "challenge"
    s.apply("challenge")
    assert s.gold[0] == gold + card.gold[3] and card.index not in s.chal_deck and s.phase == R.MAIN
    assert s.shelf[0][card.goods[0]] == 0  # lost: back to the supply
    assert s.chal_at == ch.hour(s)


def test_mc_stash_challenge_margin_exactly_7_set_aside_8_under_the_deck():
    s = new(1, challenges=True)
    card, ch = _active(s, "have")
    s.chal_at = ch.hour(s) - 7
    s.apply("challenge")
    assert s.chal_aside == [card.index] and s.shelf[0][card.goods[0]] >= 1  # have: Goods stay
    s = new(1, challenges=True)
    card, ch = _active(s, "have")
    s.chal_at = ch.hour(s) - 8
    s.apply("challenge")
    assert s.chal_deck[-1] == card.index and len(s.chal_deck) == 6


def test_mc_stash_challenge_timepiece_reached_draws_corruption_mouse_pushes_it():
    s = new(1, challenges=True)
    from freetrader.games.merchants_cove import challenges as ch

    top = s.chal_deck[0]
    s.chal_at = ch.hour(s) - 12
    n = len(s.corr[0])
    ch.timepiece_moved(s)
    assert len(s.corr[0]) == n + 1 and s.chal_deck[-1] == top
    at = s.chal_at
    ch.mouse_moved(s, (at - 1) % 12 + 1)
    assert s.chal_at == at + 1


def test_mc_stash_challenge_final_scoring_2_and_1_corruption_icons():
    """Printed example: no Challenge completed: 12 Corruption icons, 2 for each of the 6 cards."""
    from freetrader.games.merchants_cove import challenges as ch

    s = new(1, challenges=True)
    assert ch.corruption_icons(s) == 12
    s.chal_aside.append(s.chal_deck.pop())
    assert ch.corruption_icons(s) == 11


# == new Boats and Boat Setup cards ==============================================================
def test_mc_stash_two_seater_empty_at_arrival_docks_at_any_pier_and_joins_its_customers():
    from freetrader.games.merchants_cove import boats

    s = new(2, boats="2-seater")
    assert len(s.boats) == 9 and s.boats[boats.TWO] == [] and boats.capacity(boats.TWO) == 2
    assert not s.afloat[boats.FIVES[0]]
    set_slot(s, 0, ["red", "blue"])
    s.slot_boat[0] = 0
    set_boat(s, boats.TWO, ["red"])
    turn(s, 0)
    s.drawn = colour("green")
    s.bag[colour("green")] -= 1
    R.place_on_boat(s, boats.TWO)
    go_on(s)
    fresh(s)
    assert s.phase == R.DOCK and texts(s) == ["dock bazaar", "dock square-left", "dock black"]  # occupied too
    s.apply("dock bazaar")
    assert s.slot_boat[0] == 0 and sorted(s.slot_adv[0]) == sorted([0, 2, 0, 1])  # fills no Pier space


def test_mc_stash_five_seaters_3_with_the_two_seater_2_without_and_the_variant():
    from freetrader.games.merchants_cove import boats

    s = new(2, boats="both")
    assert [len(s.boats[b]) for b in boats.FIVES] == [3, 3] and boats.capacity(boats.FIVES[0]) == 5
    assert [boats.side(b) for b in boats.FIVES] == [0, 1]
    s = new(2, boats="5-seaters")
    assert [len(s.boats[b]) for b in boats.FIVES] == [2, 2]
    s = new(2, boats="both", five_seaters_two=True)
    assert [len(s.boats[b]) for b in boats.FIVES] == [2, 2]


def test_mc_stash_boat_setup_3_of_8_one_revealed_each_arrival():
    s = new(2, boat_setup=True)
    assert len(C.boat_setups) == 8 and len(s.bdeck) == 2 and s.bcard >= 0
    card = C.boat_setups[s.bcard]
    assert [b for b in range(6) if s.afloat[b]] == list(card.four)
    assert all(not s.boats[b] for b in range(6) if not s.afloat[b])


def test_mc_stash_peddler_two_arrow_icon_targets_the_two_seater():
    from freetrader.games.merchants_cove import boats

    s = new(1, boats="2-seater")
    s.pcard = next(c.index for c in C.peddler_cards if c.arrows)
    holding(s, colour("red"), p=1)
    s.bag[colour("red")] -= 1
    go_on(s)  # the Peddler's decision is taken at once, by its own rule
    assert colour("red") in s.boats[boats.TWO]


# == Faction Leaders ===========================================================================
RED_LEADER, GREY_LEADER = 5, 9


def test_mc_stash_faction_leaders_replace_one_adventurer_of_each_colour():
    s = new(2, faction_leaders=True)
    plain = new(2)
    on = [sum(b.count(c) for b in s.boats) for c in range(10)]
    on_plain = [sum(b.count(c) for b in plain.boats) for c in range(5)]
    assert [s.bag[c] + s.bag[c + 5] + on[c] + on[c + 5] for c in range(5)] == [plain.bag[c] + on_plain[c] for c in range(5)]
    assert [s.bag[c] + on[c] for c in range(5, 10)] == [1] * 5


def test_mc_stash_faction_leader_counts_as_two_when_buying():
    s = new(2, faction_leaders=True)
    s.slot_adv[1] = [RED_LEADER, 0]
    s.bag[RED_LEADER] = 0
    s.bag[0] -= 1
    fresh(s)
    assert R.customers(s, 1, 0) == 3  # a small red good sells for 3 x 3


def test_mc_stash_faction_leader_counts_as_two_in_its_hall_for_sponsorship_and_scoring():
    s = new(2, faction_leaders=True)
    for b in range(len(s.boats)):
        for c in s.boats[b]:
            s.bag[c] += 1
        s.boats[b] = []
    s.bag[RED_LEADER] -= 1
    s.boats[0] = [RED_LEADER]
    before = R.hall_count(s, 0)
    R.start_market(s)
    assert s.hall_leaders[0] == 1 and R.hall_count(s, 0) == before + 2


def test_mc_stash_rogue_leader_doubles_counting_effects_not_optional_ones():
    """Pirates count Rogues: the Rogue Leader gives 6 Gold; Raiders' optional effect happens once."""
    s = new(2, rogue="pirates", faction_leaders=True)
    s.boats[0] = [GREY_LEADER, 0, 0, 0]
    s.bag[GREY_LEADER] = 0
    s.bag[0] -= 3
    turn(s, 0)
    R.dock(s, 0, 0)
    assert s.gold[0] == 6
    s = new(2, rogue="raiders", faction_leaders=True)
    s.boats[0] = [GREY_LEADER, 0, 0, 0]
    s.bag[GREY_LEADER] = 0
    s.bag[0] -= 3
    turn(s, 0)
    R.dock(s, 0, 0)
    assert s.frames.count(R.RAID_FRAME) == 1
