"""Cornish Smuggler cards (issue 4): every card named in the rulebook, each ability mechanism, reaction windows.

Each rulebook card's test asserts its printed text, then its behaviour.
"""

from __future__ import annotations

import pytest
from cornish_scenario import (
    after_setup,
    char_index,
    counters,
    decline_yew_boy,
    give_char,
    give_hold,
    give_secret,
    legal,
    loc,
    node,
    officers_at,
    piece,
    put_on_land,
    set_gold,
    strip,
    touch,
)

from freetrader.games.cornish_smuggler import abilities as A
from freetrader.games.cornish_smuggler import rules as R
from freetrader.games.cornish_smuggler.components import COMPONENTS as C

GID = R.GOODS_IDS


def table(seats: int = 3, seed: int = 1):
    s = after_setup(seats, seed)
    strip(s)
    for p in range(seats):
        s.infl[p] = 10
        set_gold(s, p, 13)
    return s


def text(cid: str) -> str:
    return C.characters[char_index(cid)].ability


def secret(sid: str):
    return next(x for x in C.secrets if x.id == sid)


def seizure_of_two_shapes(s, victim: int = 0, where: str = "madron"):
    """Two of ``victim``'s shapes lie in ``where``; seat 0 then walks the Penzance officer onto them."""
    g1 = piece(s, 2)
    g2 = piece(s, 3, exclude=[g1])
    put_on_land(s, victim, g1, where)
    put_on_land(s, victim, g2, where)
    counters(s, victim, where, "penzance")
    officers_at(s, "penzance", "st-ives")
    touch(s)
    return g1, g2


# == the rulebook's cards ==============================================================================
def test_francis_oprey_gain_2_influence_for_each_goods_shape_seized():
    assert text("francis-oprey") == "Gain 2 Influence for each Goods Shape seized by Customs."
    s = table()
    give_char(s, 1, "francis-oprey")
    g1, g2 = seizure_of_two_shapes(s)
    s.apply("officer 0 to madron with influence")
    decline_yew_boy(s)  # an officer being moved: the Yew boy! window comes first
    assert s.g_where[g1] == s.g_where[g2] == R.WAREHOUSE
    assert s.infl[1] == 10 + 4
    assert s.infl[0] == 10 - 4  # the mover paid 4; Oprey is not theirs


def test_holly_and_olivia_pay_2_influence_to_reduce_or_increase_the_landing_risk_by_2():
    assert text("holly-and-olivia") == ("Motivate when Goods are being Landed: Pay 2 Influence to reduce or increase "
                                        "the Landing Risk by 2.")
    s = table()
    give_char(s, 2, "holly-and-olivia")  # a rival's card: any landing
    g = piece(s, 2)
    give_hold(s, 0, [g])
    s.ship_at[0] = node("penzance")
    counters(s, 0, "penzance")
    officers_at(s, "st-ives")  # far away
    s.apply("land")
    s.apply(f"unload {GID[g]}")
    s.apply("done")  # risk 6 + 2 = 8 against Discovery 8: no movement
    assert s.phase == R.REACT and s.actor == 2
    assert legal(s) == ["decline", "motivate holly-and-olivia"]
    s.apply("motivate holly-and-olivia")
    s.apply("choose increase")
    assert s.infl[2] == 8 and s.risk_mod == 2
    assert char_index("holly-and-olivia") in s.motivated[2]
    assert s.phase == R.LAND_HIDE and s.excess == 2  # now 10 against 8


def test_william_bodinar_motivate_on_move_ship_for_1_extra_space_face_down_until_next_turn():
    assert text("william-bodinar") == "Motivate when taking the 'Move Ship' action to move your ship 1 extra space."
    s = table()
    c = give_char(s, 0, "william-bodinar")
    s.ship_at[0] = node("mounts-bay-east")
    s.apply("sail to mounts-bay-west with influence")
    assert s.phase == R.REACT and s.actor == 0
    s.apply("motivate william-bodinar")
    s.apply("choose penzance")
    assert s.ship_at[0] == node("penzance") and s.infl[0] == 9  # two spaces for one Influence
    assert s.view(1)["players"][0]["motivated"] == ["william-bodinar"]
    s.apply("pass"); s.apply("pass"); s.apply("pass")  # noqa: E702 - the turn ends
    assert s.motivated[0] == [] and c in s.chars[0]  # Re-Motivate All Cards


def test_john_thomas_when_goods_are_seized_pay_to_remove_one_of_that_players_characters():
    assert text("john-thomas") == ("When goods are seized, Pay 7 Gold / 5 Influence / 3 Reputation to remove one of "
                                   "that player's Characters from the game.")
    s = table()
    give_char(s, 1, "john-thomas")
    victim = give_char(s, 0, "allen-cutler")
    seizure_of_two_shapes(s)
    s.apply("officer 0 to madron with influence")
    decline_yew_boy(s)  # an officer being moved: the Yew boy! window comes first
    assert s.phase == R.REACT and s.actor == 1 and s.win_event == "seized"
    assert set(legal(s)) == {"decline", "motivate john-thomas with gold", "motivate john-thomas with influence",
                             "motivate john-thomas with reputation"}
    s.apply("motivate john-thomas with gold")
    s.apply("choose allen-cutler")
    assert s.phase == R.LOSE_COUNTER and s.actor == 0  # the loser chooses which Network Counter goes
    s.apply("remove madron")
    assert victim not in s.chars[0] and s.rep[0] == 0 and s.counters[0] == [loc("penzance")]
    assert s.gold[1] == 13 - 7


def test_niall_horabain_motivate_as_an_action_permanently_remove_1_reputation():
    assert text("niall-horabain") == ("Motivate as an Action: Permanently remove 1 Reputation from a player of your "
                                      "choice.")
    s = table()
    give_char(s, 0, "niall-horabain")
    s.rep[2] = 3
    s.apply("motivate niall-horabain")
    assert legal(s) == ["choose seat-0", "choose seat-1", "choose seat-2"]  # any player (issue 17 item 6)
    s.apply("choose seat-2")
    assert s.rep[2] == 2 and s.actor == 1  # it was the Action


def test_allen_cutler_2_gold_3_reputation_motivate_pay_1_reputation_to_move_a_customs_officer():
    ch = C.characters[char_index("allen-cutler")]
    assert (ch.gold, ch.reputation) == (2, 3)
    assert ch.ability == "Motivate as an Action: Pay 1 Reputation to move one Customs Officer 1 space."
    s = table()
    give_char(s, 0, "allen-cutler")
    officers_at(s, "penzance")
    s.apply("motivate allen-cutler")
    assert s.rep[0] == 2
    assert set(legal(s)) == {"choose 0 to madron", "choose 0 to newlyn", "choose 0 to marazion"}
    s.apply("choose 0 to newlyn")
    assert s.off_at[0] == loc("newlyn") and s.actor == 1


def test_henry_baker_5_gold_2_reputation_receives_the_mayors_wine_cellar():
    ch = C.characters[char_index("henry-baker")]
    assert (ch.gold, ch.reputation, ch.ability) == (5, 2, "Receive 'The Mayor's Wine Cellar' Storehouse.")
    s = table()
    s.faceup[ch.deck] = ch.index
    for st in s.stacks:
        if ch.index in st:
            st.remove(ch.index)
    s.apply("hire henry-baker with influence")
    assert C.storehouses[ch.storehouse].id == "the-mayors-wine-cellar" and ch.storehouse in s.stores[0]
    assert s.gold[0] == 13 - 5 and s.rep[0] == 2


def _hire(s, cid: str) -> None:
    c = char_index(cid)
    for st in s.stacks:
        if c in st:
            st.remove(c)
    if c in s.char_discard:
        s.char_discard.remove(c)
    old = s.faceup[C.characters[c].deck]
    if old >= 0:
        s.char_discard.append(old)
    s.faceup[C.characters[c].deck] = c
    touch(s)
    s.apply(f"hire {cid} with influence")


@pytest.mark.parametrize("cid,place,printed", [
    ("the-hayle-underworld", "hayle", "If you have no Network Counter in Hayle, you must place this Network Counter in "
                                      "Hayle. Gain +1 Influence per turn."),
    ("the-gentlemen-of-zennor", "zennor", "If you have no Network Counter in Zennor, you must place this Network "
                                          "Counter in Zennor."),
    ("the-gwithian-fellowship", "gwithian", "If you have no Network Counter in Gwithian, you must place this Network "
                                            "Counter in Gwithian. Allows Landing at Gwithian."),
])
def test_mob_cards_must_place_their_network_counter_at_home(cid, place, printed):
    assert text(cid) == printed and C.characters[char_index(cid)].mob
    s = table()
    counters(s, 0, "penzance")
    _hire(s, cid)
    assert legal(s) == [f"place {place}"]  # even far from the network
    s.apply(f"place {place}")
    # With a counter already there, the usual rule applies.
    s2 = table()
    counters(s2, 0, place)
    _hire(s2, cid)
    assert len(legal(s2)) > 1


def test_hayle_underworld_gains_1_influence_per_turn():
    s = table()
    give_char(s, 0, "the-hayle-underworld")
    before = s.infl[0]
    for _ in range(3):
        s.apply("pass")
    assert s.infl[0] == before + s.rep[0] + 1


def test_gwithian_fellowship_allows_landing_at_gwithian():
    s = table()
    counters(s, 0, "gwithian")
    give_hold(s, 0, [piece(s, 2)])
    s.ship_at[0] = node("gwithian")
    assert "land" not in legal(s)
    give_char(s, 0, "the-gwithian-fellowship")
    assert "land" in legal(s)


def test_witch_of_st_levan_reputation_0_takes_cargo_from_ships_passing_off_st_levan():
    ch = C.characters[char_index("the-witch-of-st-levan")]
    assert ch.reputation == 0 and "Motivate when another player's ship moves into the sea space off St Levan" in ch.ability
    s = table()
    give_char(s, 1, "the-witch-of-st-levan")
    g = piece(s, 2)
    give_hold(s, 0, [g])
    s.ship_at[0] = node("sennen")
    s.apply("sail to off-st-levan with influence")
    assert s.phase == R.REACT and s.actor == 1 and s.win_event == "ship-enters"
    s.apply("motivate the-witch-of-st-levan")
    assert s.actor == 0 and set(legal(s)) == {"choose pay", "choose cargo"}  # the passing player decides
    s.apply("choose cargo")
    assert s.actor == 1
    s.apply(f"choose {GID[g]}")
    assert g not in s.hold[0] and s.g_owner[g] in (1, -1)


def test_witch_of_st_levan_toll_of_3_gold():
    s = table()
    give_char(s, 1, "the-witch-of-st-levan")
    s.ship_at[0] = node("sennen")
    s.apply("sail to off-st-levan with influence")
    s.apply("motivate the-witch-of-st-levan")
    assert legal(s) == ["choose pay"]  # an empty hold: pay
    s.apply("choose pay")
    assert (s.gold[0], s.gold[1]) == (10, 16)


def test_yew_boy_you_decide_where_the_customs_officer_moves():
    x = secret("yew-boy")
    assert (x.name, x.timing, x.cost_text) == ("Yew boy!", "any-time", "2 Influence")
    assert x.ability == "Play when a Customs Officer is being moved: You decide where the Customs Officer moves. " \
                        "Discard after use."
    s = table()
    give_secret(s, 2, "yew-boy")
    g = piece(s, 5)
    give_hold(s, 0, [g])
    s.ship_at[0] = node("penzance")
    counters(s, 0, "penzance")
    officers_at(s, "madron")
    s.apply("land")
    s.apply(f"unload {GID[g]}")
    s.apply("done")  # risk 6 + 5 = 11 against 8: the Madron officer would walk in and seize
    s.apply("hide 0")
    assert s.phase == R.REACT and s.win_event == "customs-move" and s.actor == 2
    s.apply("play yew-boy")
    assert s.infl[2] == 8 and s.director == 2
    assert s.actor == 2 and set(legal(s)) == {"step st-just", "step nancledra", "step penzance"}
    s.apply("step st-just")
    s.apply("step pendeen")
    s.apply("step zennor")
    assert s.g_where[g] == R.LAND and s.off_at[0] == loc("zennor")
    assert s.secrets[2] == [] and secret("yew-boy").index in s.sdiscard


def test_backhander_buys_from_the_customs_warehouse_at_the_printed_prices():
    x = secret("backhander")
    assert x.timing == "action" and "Size 2 Good = 3 Gold, Size 3 Good = 5 Gold, Size 4 Good = 8 Gold, Size 5 " \
                                     "Good = 12 Gold" in x.ability
    assert A.BACKHANDER_PRICES == {2: 3, 3: 5, 4: 8, 5: 12}
    s = table()
    g = piece(s, 4)
    s.g_where[g], s.g_at[g] = R.WAREHOUSE, C.penzance
    give_secret(s, 0, "backhander")
    assert "play backhander" not in legal(s)  # no Network Counter in Penzance
    counters(s, 0, "penzance")
    s.apply("play backhander")
    s.apply(f"choose {GID[g]}")
    assert s.gold[0] == 13 - 8 and s.g_where[g] == R.LAND and s.g_owner[g] == 0


def test_drunken_distraction_moves_the_officer_2_spaces_away_goods_not_seized_costs_a_character():
    x = secret("drunken-distraction")
    assert x.timing == "out-of-turn" and x.ability.startswith("Play when Goods are about to be seized by Customs to "
                                                              "move that Customs Officer 2 spaces away.")
    s = table()
    g1, g2 = seizure_of_two_shapes(s, victim=1)
    give_char(s, 1, "allen-cutler")
    give_secret(s, 1, "drunken-distraction")
    s.apply("officer 0 to madron with influence")
    decline_yew_boy(s)  # an officer being moved: the Yew boy! window comes first
    assert s.phase == R.REACT and s.win_event == "seizure" and s.actor == 1
    s.apply("play drunken-distraction")
    opts = legal(s)
    assert all(C.dist[loc("madron")][loc(o.split()[1])] == 2 for o in opts)
    s.apply("choose zennor")
    s.apply("choose allen-cutler")
    s.apply("remove penzance")
    assert s.g_where[g1] == s.g_where[g2] == R.LAND and s.off_at[0] == loc("zennor")
    assert s.chars[1] == [] and s.rep[1] == 0 and s.counters[1] == [loc("madron")]
    assert s.actor == 1 and s.phase == R.MAIN  # seat 0's Action is over


# == mechanisms ==========================================================================================
def test_reaction_window_asks_in_seat_order_from_the_active_player_and_a_decline_is_silent():
    s = table(4)
    s.actor = s.active = 2
    for p, card in ((0, "friends-in-high-places"), (1, "becalmed"), (3, "fair-wind")):
        give_secret(s, p, card)  # nothing playable on a seizure, but a hand is a hand
    give_secret(s, 2, "sea-fret")
    g1, _ = seizure_of_two_shapes(s, victim=0)
    s.infl[2] = 10
    n = len(s.events)
    s.apply("officer 0 to madron with influence")
    decline_yew_boy(s)  # an officer being moved: the Yew boy! window comes first
    asked = []
    while s.phase == R.REACT:
        asked.append(s.actor)
        assert legal(s) == ["decline"]
        s.apply("decline")
    assert asked == [2, 3, 0, 1]
    new = s.events[n:]
    assert not any("decline" in e or "asked" in e for e in new)
    assert sum("seize" in e for e in new) == 2


def test_reaction_window_asks_only_on_public_facts_and_hides_the_hands():
    s = table(3)
    give_secret(s, 1, "drunken-distraction")
    give_secret(s, 2, "sea-fret")  # unplayable here, still asked (the hand is not empty)
    seizure_of_two_shapes(s, victim=0)
    s.apply("officer 0 to madron with influence")
    decline_yew_boy(s)  # an officer being moved: the Yew boy! window comes first
    assert s.actor == 1
    v0, v2 = s.view(0), s.view(2)
    for v in (v0, v2, s.view(None)):
        text = repr(v) + repr(s.events)
        assert "drunken" not in text
        assert v["reaction"]["event"] == "seizure"
    assert v2["your_secrets"] == ["sea-fret"]
    s.apply("decline")
    assert s.actor == 2 and legal(s) == ["decline"]


def test_hidden_hands_never_in_error_messages():
    s = table(3)
    give_secret(s, 1, "drunken-distraction")
    seizure_of_two_shapes(s, victim=0)
    s.apply("officer 0 to madron with influence")
    decline_yew_boy(s)  # an officer being moved: the Yew boy! window comes first
    with pytest.raises(ValueError) as err:
        s.apply("decline", seat=0)
    assert "drunken" not in str(err.value)


def test_motivate_as_an_action_turns_the_card_face_down_until_the_next_turn():
    s = table(2)
    give_char(s, 0, "william-kitto")
    s.apply("motivate william-kitto")
    assert len(s.secrets[0]) == 1 and s.actor == 1
    s.apply("pass")
    assert "motivate william-kitto" not in legal(s)
    s.apply("pass")
    assert s.turn == 2 and s.actor == 1
    s.apply("pass")
    assert "motivate william-kitto" in legal(s)


def test_passives_influence_gold_hire_bribe_escort_honest_work():
    s = table(2)
    for cid in ("josiah-pender", "jane-wallis", "richard-uren", "walter-pascoe", "edward-tregear", "dick-jenkin",
                "benjamin-edwards"):
        give_char(s, 0, cid)
    assert A.passive(s, 0, "influence-per-turn") == 2 and A.passive(s, 0, "gold-per-turn") == 1
    assert R.hire_price(s, 0, char_index("henry-baker")) == 4
    assert A.passive(s, 0, "escort-cost") == 1  # escort: 2 Influence or 4 Gold
    assert R.bribe_cost(s, 0, 0) == max(0, C.bribe[0] - 2)
    set_gold(s, 0, 0)
    assert R.honest_work_gain(s, 0) == 11 - s.rep[0] + 3
    infl, gold = s.infl[0], s.gold[0]
    s.apply("pass"); s.apply("pass")  # noqa: E702
    assert s.infl[0] == infl + s.rep[0] + 2 and s.gold[0] == gold + 1


def test_lost_character_takes_reputation_storehouse_and_a_counter_goods_stay_on_the_board():
    s = table(2)
    c = give_char(s, 0, "henry-baker")
    st = C.characters[c].storehouse
    s.stores[0].append(st)
    g = piece(s, 2)
    s.g_where[g], s.g_at[g], s.g_owner[g] = R.STORE, st, 0
    counters(s, 0, "penzance", "madron")
    officers_at(s, "st-ives")
    A.lose_now(s, 0, c)
    assert s.rep[0] == 0 and st not in s.stores[0]
    assert s.g_where[g] == R.LAND and s.g_at[g] == loc("penzance") and s.g_owner[g] == 0
    assert s.phase == R.LOSE_COUNTER and legal(s) == ["remove madron", "remove penzance"]


def test_polglase_keeps_a_character_a_rival_card_would_take():
    s = table(3)
    give_char(s, 1, "george-keast")
    give_char(s, 0, "humphry-polglase")
    loveday = give_char(s, 0, "loveday-nance")
    s.actor = s.active = 1
    s.apply("motivate george-keast")
    s.apply("choose seat-0")
    assert s.actor == 0
    s.apply("choose loveday-nance")
    assert s.phase == R.PROTECT and s.actor == 0
    s.apply("motivate humphry-polglase")
    assert loveday in s.chars[0] and s.infl[0] == 8


def test_secrets_played_are_discarded_and_public():
    s = table(2)
    k = give_secret(s, 0, "friends-in-high-places")
    s.apply("play friends-in-high-places")  # free: still seat 0's turn
    assert s.infl[0] == 12 and s.actor == 0 and s.sdiscard == [k]
    assert s.view(1)["secrets_discarded"] == ["friends-in-high-places"]


# == designed cards ==========================================================================================
def _landing(s, size: int = 2, where: str = "penzance"):
    g = piece(s, size)
    give_hold(s, 0, [g])
    s.ship_at[0] = node(where)
    counters(s, 0, where)
    officers_at(s, "zennor")
    s.apply("land")
    s.apply(f"unload {GID[g]}")
    s.apply("done")
    return g


@pytest.mark.parametrize("card,kind,delta", [("sea-fret", "play", -4), ("samuel-nankervis", "motivate", -2)])
def test_landing_risk_cards(card, kind, delta):
    s = table(2)
    if kind == "play":
        give_secret(s, 0, card)
    else:
        give_char(s, 0, card)
    _landing(s, 5)
    s.apply(f"{kind} {card}")
    assert f"The Landing Risk is now {6 + 5 + delta}" in s.events


def test_silas_stevens_only_at_st_ives_hayle_gwithian():
    s = table(2)
    give_char(s, 0, "silas-stevens")
    _landing(s, 5, "penzance")
    assert s.phase != R.REACT
    s = table(2)
    give_char(s, 0, "silas-stevens")
    _landing(s, 5, "hayle")
    s.apply("motivate silas-stevens")
    assert f"The Landing Risk is now {4 + 5 - 3}" in s.events


def test_dark_of_the_moon_no_customs_move():
    s = table(2)
    give_secret(s, 0, "dark-of-the-moon")
    _landing(s, 5)
    s.apply("play dark-of-the-moon")
    assert s.excess == 0 and s.infl[0] == 10 - 1 - 2


def test_forged_cocket_bottom_row_without_its_cost_and_quick_and_curnow():
    s = table(3)
    g = piece(s, 3)
    put_on_land(s, 0, g, "penzance")
    counters(s, 0, "penzance")
    counters(s, 2, "penzance")
    officers_at(s, "zennor")
    give_secret(s, 0, "forged-cocket")
    give_char(s, 0, "elizabeth-quick")
    give_char(s, 2, "peter-curnow")
    s.apply(f"sell {GID[g]}")
    s.apply("play forged-cocket")
    s.apply("motivate elizabeth-quick")
    assert s.actor == 2  # seat 1 could not react; seat 2's Curnow can
    s.apply("motivate peter-curnow")
    assert "price bottom" in legal(s)
    s.apply("price bottom")
    while s.phase != R.MAIN:
        s.apply(legal(s)[0])
    # 13 Gold, the bottom row for a size-3 piece in Penzance (size 5: 13), Quick's +2, Curnow's toll of 2
    assert s.gold[0] == 13 + 13 + 2 - 2 and s.gold[2] == 15 and s.infl[0] == 10


def test_under_the_floorboards_and_ringers_slip_one_goods_shape_away():
    for card, kind in (("under-the-floorboards", "play"), ("the-ringers-of-st-just", "motivate")):
        s = table(2)
        g1, g2 = seizure_of_two_shapes(s, victim=1)
        counters(s, 1, "madron", "st-just")
        if kind == "play":
            give_secret(s, 1, card)
        else:
            give_char(s, 1, card)
        s.apply("officer 0 to madron with influence")
        decline_yew_boy(s)  # an officer being moved: the Yew boy! window comes first
        s.apply(f"{kind} {card}")
        s.apply(f"choose {GID[g1]} to st-just")
        while s.phase == R.REACT:
            s.apply("decline")
        assert s.g_where[g1] == R.LAND and s.g_at[g1] == loc("st-just") and s.g_where[g2] == R.WAREHOUSE


def test_newlyn_fishwives_and_tinners_lead_the_officer_1_space_away():
    s = table(2)
    g1, g2 = seizure_of_two_shapes(s, victim=1, where="newlyn")
    give_char(s, 1, "the-newlyn-fishwives")
    s.apply("officer 0 to newlyn with influence")
    s.apply("motivate the-newlyn-fishwives")
    s.apply("choose mousehole")
    assert s.g_where[g1] == R.LAND and s.off_at[0] == loc("mousehole") and s.infl[1] == 8
    s = table(2)
    seizure_of_two_shapes(s, victim=1)
    give_char(s, 0, "the-tinners-of-st-just")
    counters(s, 0, "madron")
    s.actor = s.active = 0
    s.apply("officer 0 to madron with influence")  # a move onto seat 1's goods, then protected by seat 0's tinners
    decline_yew_boy(s)  # an officer being moved: the Yew boy! window comes first
    assert "motivate the-tinners-of-st-just" in legal(s)


@pytest.mark.parametrize("card,kind,target", [
    ("thomas-rowe", "motivate", ["choose 0 to madron", "choose 0 to st-just"]),
    ("a-whisper-in-the-wrong-ear", "play", ["choose 0 to madron", "choose 1 to zennor"]),
])
def test_officer_moving_cards(card, kind, target):
    s = table(2)
    officers_at(s, "penzance", "st-ives")
    (give_secret if kind == "play" else give_char)(s, 0, card)
    s.apply(f"{kind} {card}")
    for t in target:
        s.apply(t)
    assert s.actor == 1
    assert s.off_at[0] in (loc("madron"), loc("st-just"))


def test_arthur_jago_removes_a_bribe_marker_and_the_officer_seizes():
    s = table(2)
    give_char(s, 0, "arthur-jago")
    g = piece(s, 2)
    put_on_land(s, 1, g, "penzance")
    counters(s, 1, "penzance")
    officers_at(s, "penzance")
    s.off_bribe[0] = 1
    s.apply("motivate arthur-jago")
    s.apply("choose 0")
    assert s.off_bribe[0] == -1 and s.g_where[g] == R.WAREHOUSE


@pytest.mark.parametrize("card,kind,steps", [("loveday-nance", "motivate", 1), ("jabez-trewhella", "motivate", 2),
                                             ("mock-funeral", "play", 3)])
def test_carrying_cards_move_goods_along_the_network_free(card, kind, steps):
    s = table(2)
    officers_at(s, "st-ives")
    g = piece(s, 2)
    put_on_land(s, 0, g, "penzance")
    counters(s, 0, "penzance", "madron", "st-just", "sennen")
    s.stores[0] = []  # no storehouse on the way: play passes on when the carry is done
    (give_secret if kind == "play" else give_char)(s, 0, card)
    s.apply(f"{kind} {card}")
    route = ["madron", "st-just", "sennen"][:steps]
    for place in route:
        s.apply(f"choose {GID[g]} to {place}")
    assert s.g_at[g] == loc(route[-1]) and s.actor == 1


def test_lanyon_and_wreckers_take_from_a_rival_ship_in_a_port_of_your_network():
    for card in ("james-lanyon", "the-wreckers-of-breage"):
        s = table(2)
        officers_at(s, "st-ives")
        give_char(s, 0, card)
        counters(s, 0, "newlyn")
        g = piece(s, 2)
        give_hold(s, 1, [g])
        s.ship_at[1] = node("newlyn")
        s.apply(f"motivate {card}")
        if card == "james-lanyon":
            s.apply(f"choose {GID[g]}")
            assert s.g_where[g] == R.WAREHOUSE
        else:
            s.apply("choose seat-1")
            assert s.actor == 1  # the owner chooses which
            s.apply(f"choose {GID[g]}")
            assert s.g_where[g] == R.LAND and s.g_owner[g] == 0 and s.g_at[g] == loc("newlyn")


def test_light_fingers_takes_a_rivals_goods_where_you_have_a_counter():
    s = table(2)
    officers_at(s, "st-ives")
    g = piece(s, 2)
    put_on_land(s, 1, g, "madron")
    counters(s, 0, "madron")
    counters(s, 1, "madron")  # attended goods: abandoned ones could simply be claimed
    give_secret(s, 0, "light-fingers")
    s.apply("play light-fingers")
    s.apply(f"choose {GID[g]}")
    assert s.g_owner[g] == 0


def test_fair_wind_becalmed_and_nicholls():
    s = table(2)
    give_secret(s, 0, "becalmed")
    s.apply("play becalmed")
    s.apply("choose seat-1")
    assert s.becalmed[1] and s.actor == 0
    give_secret(s, 0, "fair-wind")
    s.ship_at[0] = node("mounts-bay-east")
    s.apply("play fair-wind")
    for place in ("mounts-bay-west", "off-st-levan", "north-coast"):
        s.apply(f"choose {place}")
    assert s.ship_at[0] == node("north-coast") and s.actor == 1
    assert not any(a.startswith("sail") for a in legal(s))  # becalmed
    s2 = table(2)
    give_char(s2, 0, "joseph-nicholls")
    s2.ship_at[0] = node("mounts-bay-east")
    s2.apply("sail to mounts-bay-west with influence")
    s2.apply("motivate joseph-nicholls")
    s2.apply("choose penzance")
    assert s2.gold[0] == 12 and s2.ship_at[0] == node("penzance")


def test_discounts_le_page_grace_and_a_little_something():
    s = table(2)
    give_char(s, 0, "grace-trembath")
    set_gold(s, 0, 3)
    s.apply("buy-reputation")
    assert legal(s) == ["motivate grace-trembath"]  # it cannot be afforded without her
    s.apply("motivate grace-trembath")
    assert s.gold[0] == 1 and s.rep[0] == 2 + 1
    s = table(2)
    give_secret(s, 0, "a-little-something-for-the-officer")
    counters(s, 0, "penzance")
    officers_at(s, "penzance")
    set_gold(s, 0, 0)
    s.apply("bribe 0")
    s.apply("play a-little-something-for-the-officer")
    assert s.off_bribe[0] == 0 and s.gold[0] == 0


def test_nicholas_le_page_buys_2_gold_cheaper():
    s = table(2)
    give_char(s, 0, "nicholas-le-page")
    s.ship_at[0] = C.merchant_nodes[0]
    set_gold(s, 0, 2)
    buys = [a for a in legal(s) if a.startswith("buy g")]
    assert buys  # a size-4 piece is within reach only with the discount
    g = R.GOODS_BY_ID[buys[-1].split()[1]]
    s.apply(buys[-1])
    s.apply("motivate nicholas-le-page")
    assert s.gold[0] == 2 - max(1, C.shapes[C.goods[g]].size - 2) and g in s.hold[0]


def test_secrets_drawing_and_stealing_kitto_jory_billy_mann():
    s = table(2)
    give_char(s, 0, "matthew-jory")
    s.apply("motivate matthew-jory")
    assert len(s.secrets[0]) == 2
    give_char(s, 1, "billy-mann")
    s.apply("motivate billy-mann")
    s.apply("choose seat-0")
    assert len(s.secrets[0]) == 1 and len(s.secrets[1]) == 1
    assert "takes a Secrets card" in s.events[-1] and not any(x.name in s.events[-1] for x in C.secrets)


def test_dolly_pentreath_sells_a_size_2_good_in_a_village_at_size_2_prices():
    s = table(2)
    officers_at(s, "st-ives")
    g = piece(s, 2)
    put_on_land(s, 0, g, "mousehole")
    counters(s, 0, "mousehole")
    give_char(s, 0, "dolly-pentreath")
    s.apply("motivate dolly-pentreath")
    s.apply(f"choose {GID[g]}")
    s.apply("price top")
    assert s.g_where[g] == R.SOLD and s.gold[0] == 13 + 2


def test_market_jew_street_mob_counts_twice_and_john_carter_raids_with_one():
    s = table(2)
    give_char(s, 0, "the-market-jew-street-mob")
    counters(s, 0, "penzance")
    g = piece(s, 2)
    s.g_where[g], s.g_at[g] = R.WAREHOUSE, C.penzance
    assert f"raid {GID[g]}" in legal(s)
    s = table(2)
    give_char(s, 0, "john-carter")
    give_char(s, 0, "the-gentlemen-of-zennor")
    counters(s, 0, "penzance")
    s.g_where[g], s.g_at[g] = R.WAREHOUSE, C.penzance
    assert f"raid {GID[g]}" in legal(s)


def test_anonymous_letter_and_lantern_and_old_packhorse_road():
    s = table(2)
    officers_at(s, "madron")
    g = piece(s, 2)
    put_on_land(s, 1, g, "st-just")
    counters(s, 1, "st-just")
    give_secret(s, 0, "anonymous-letter")
    s.apply("play anonymous-letter")
    s.apply(f"choose {GID[g]}")
    assert s.g_where[g] == R.WAREHOUSE and s.actor == 1
    s = table(2)
    counters(s, 0, "prussia-cove")
    give_hold(s, 0, [piece(s, 2)])
    s.ship_at[0] = node("prussia-cove")
    give_secret(s, 0, "a-lantern-on-the-cliff")
    assert "land" not in legal(s)
    s.apply("play a-lantern-on-the-cliff")
    assert "land" in legal(s)
    s = table(2)
    counters(s, 0, "penzance")
    give_secret(s, 0, "the-old-packhorse-road")
    _hire(s, "loveday-nance")
    s.apply("play the-old-packhorse-road")
    assert "place up-north" in legal(s)


def test_harry_carter_plus_1_reputation_at_the_top_price():
    s = table(2)
    give_char(s, 0, "harry-carter")
    officers_at(s, "zennor")
    g = piece(s, 2)
    put_on_land(s, 0, g, "penzance")
    counters(s, 0, "penzance")
    rep = s.rep[0]
    s.apply(f"sell {GID[g]}")
    s.apply("price top")
    assert s.rep[0] == rep + C.price(C.locations[C.penzance].size, 2, 0)[1] + 1


# == data =============================================================================================================
def test_every_card_has_a_coded_mechanism_or_is_structural():
    for c in C.characters:
        assert c.effect or c.storehouse >= 0 or c.coves or c.must_place >= 0, c.id
        if c.effect and c.event != "passive":
            assert c.effect in A.EFFECTS, c.id
    for x in C.secrets:
        assert x.effect in A.EFFECTS, x.id


def test_rules_md_lists_every_card():
    from pathlib import Path

    doc = (Path(R.__file__).parent / "RULES.md").read_text()
    for c in list(C.characters) + list(C.secrets):
        assert f"`{c.id}`" in doc, c.id
