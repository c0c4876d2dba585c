"""Precious Cargo rules, one test per rule, named after the rulebook section it proves.

Amounts are the rulebook's: 5 coins to start, hulls 3, sails 1 each, cargo
values 2/3/3/4 in demand and 1 otherwise, 1 a crate to a Governor, 25 to win.
"""

from __future__ import annotations

import pytest
from pc_scenario import GAME, C, coins_in_play, legal, new, play, put_ship, set_chip, to_actions

from freetrader.core import IllegalAction, InvalidNotation


# -- The Gameboard, Types of Cargo, Game Components -------------------------------------
def test_gameboard_two_countries_four_seaside_settlements_each_with_two_docks():
    assert [c.name for c in C.countries] == ["Koruna", "Talonas"]
    assert [(c.color, c.emblem) for c in C.countries] == [("red", "sun"), ("yellow", "eagle")]
    for c in (0, 1):
        assert len(C.settlements_of[c]) == 4
        assert all(C.capacity[p] == 2 for p in C.settlements_of[c])
    dots = [p for p in C.places if not p.is_settlement]
    assert dots and all(p.capacity == 1 for p in dots)


@pytest.mark.parametrize(
    "cargo,country,value",
    [("food", -1, 2), ("textiles", 0, 3), ("livestock", 0, 3), ("spice", 0, 4),
     ("sugar", 1, 3), ("furs", 1, 3), ("ore", 1, 4)],
)
def test_types_of_cargo_as_printed(cargo, country, value):
    k = C.cargo[C.cargo_by_id[cargo]]
    assert (k.country, k.value) == (country, value)
    assert C.not_in_demand == 1


def test_game_components_20_crates_16_chips_3_hulls_9_sails_3_governors():
    assert sum(C.stock) == 20
    assert [len(C.chips[c]) for c in (0, 1)] == [8, 8]
    assert (C.hulls, C.sails, C.max_sails, C.ship_places, C.governors) == (3, 9, 3, 4, 3)
    assert (C.start_coins, C.coins_total, C.hull_cost, C.sail_cost, C.target) == (5, 50, 3, 1, 25)
    # A country's chips ask for what the other country sells, or food.
    for c in (0, 1):
        assert all(C.cargo[k].country in (-1, 1 - c) for k in C.chips[c])


# -- Set Up -----------------------------------------------------------------------------
def test_set_up_country_first_player_and_home_are_decisions_of_the_players():
    s = GAME.new_state(2, 5)
    assert s.to_act == 0 and legal(s) == {"country koruna", "country talonas"}
    s.apply("country talonas")
    assert s.view(None)["players"][0]["country"] == "talonas"
    assert s.to_act == 1 and legal(s) == {"first 0", "first 1"}
    s.apply("first 1")
    assert s.to_act == 1 and legal(s) == {f"home {C.places[p].id}" for p in C.settlements_of[0]}
    s.apply("home vidrava")
    assert s.to_act == 0 and legal(s) == {f"home {C.places[p].id}" for p in C.settlements_of[1]}
    s.apply("home solera")
    assert s.to_act == 1 and s.view(None)["phase"] == "move"


def test_set_up_home_settlement_gets_a_governor_and_a_one_sail_ship_and_5_coins():
    s = new(koruna_home="slunov", talonas_home="halcona")
    v = s.view(None)
    assert [p["coins"] for p in v["players"]] == [5, 5]
    assert [p["governors_left"] for p in v["players"]] == [2, 2]
    gov = {x["id"]: x["governor"] for x in v["settlements"]}
    assert gov["slunov"] == 0 and gov["halcona"] == 1
    assert sorted((sh["owner"], sh["at"], sh["sails"], sh["cargo"]) for sh in v["ships"]) == [
        (0, "slunov", 1, []), (1, "halcona", 1, [])]


def test_set_up_each_settlement_shows_one_of_its_countrys_chips_four_stay_face_down():
    s = new()
    for c in (0, 1):
        up = [s.chips[p] for p in C.settlements_of[c]]
        assert sorted(up + s.pools[c]) == list(C.chips[c])
        assert len(s.pools[c]) == 4
    assert s.view(None)["face_down_chips"] == {"koruna": 4, "talonas": 4}


def test_set_up_chips_are_dealt_after_the_homes_are_chosen():
    s = GAME.new_state(2, 3, {"countries": "seat0-koruna", "first_player": "seat0"})
    assert all(x["wants"] is None for x in s.view(None)["settlements"])
    play(s, "home slunov", "home solera")
    assert all(x["wants"] is not None for x in s.view(None)["settlements"])


def test_set_up_options_fix_or_randomise_the_countries_and_first_player():
    firsts = set()
    for seed in range(12):
        s = GAME.new_state(2, seed, {"countries": "random", "first_player": "random"})
        assert s.view(None)["phase"] == "home"
        firsts.add(s.first)
    assert firsts == {0, 1}
    s = GAME.new_state(2, 1, {"countries": "seat0-koruna", "first_player": "koruna"})
    assert s.country == [0, 1] and s.first == 0


# -- How to Play: movement and blockades ---------------------------------------------------
def test_how_to_play_a_ship_moves_up_to_its_sail_count_one_line_at_a_time():
    s = new()
    put_ship(s, 0, 1, "zlatobrad", sails=2)
    assert legal(s) == {"move 1 b1", "move 1 b3", "stop"}
    s.apply("move 1 b1")
    assert legal(s) >= {"move 1 c1", "move 1 c2", "move 1 slunov", "move 1 zlatobrad"}
    s.apply("move 1 c2")
    assert s.view(None)["phase"] == "actions"  # two sails, two spaces: the movement is over


def test_how_to_play_moving_is_optional_stop_goes_to_the_actions():
    s = new()
    s.apply("stop")
    assert s.view(None)["phase"] == "actions"
    assert "move 1 b1" not in legal(s)


def test_how_to_play_only_one_ship_at_a_time_can_occupy_a_dot():
    s = new()
    put_ship(s, 0, 1, "c2", sails=1)
    put_ship(s, 1, 1, "b1", sails=1)
    put_ship(s, 1, 2, "d3", sails=1)
    assert "move 1 b1" not in legal(s) and "move 1 d3" not in legal(s)


def test_gameplay_questions_a_blockade_stops_a_ship_passing_through_an_occupied_dot():
    # Slunov's only way out is dot b1: a ship left there blockades it.
    s = new(koruna_home="slunov")
    put_ship(s, 0, 1, "slunov", sails=3)
    put_ship(s, 1, 1, "b1", sails=1)
    assert legal(s) == {"stop"}  # three sails, nowhere to go
    s.apply("stop")
    assert not any(a.startswith("again") for a in legal(s))
    # A blockade also works on its owner's own ships ("yours or your opponent's").
    s = new(koruna_home="slunov")
    put_ship(s, 0, 1, "slunov", sails=3)
    put_ship(s, 0, 2, "b1", sails=0)
    assert legal(s) == {"stop"}


def test_how_to_play_a_settlement_holds_as_many_ships_as_it_has_docks():
    s = new()
    put_ship(s, 0, 1, "b1", sails=1)
    assert "move 1 slunov" in legal(s)
    put_ship(s, 1, 1, "slunov", sails=1)
    put_ship(s, 1, 2, "slunov", sails=1)
    assert "move 1 slunov" not in legal(s)


def test_ruling_a_ship_may_sail_through_a_settlement_with_a_free_dock():
    s = new()
    put_ship(s, 0, 1, "b1", sails=2)
    play(s, "move 1 zlatobrad")
    assert "move 1 b3" in legal(s)
    s = new(dock_ends_move=True)
    put_ship(s, 0, 1, "b1", sails=2)
    play(s, "move 1 zlatobrad")
    assert s.view(None)["phase"] == "actions"


def test_how_to_play_you_may_move_some_ships_and_not_others():
    s = new()
    put_ship(s, 0, 2, "b3", sails=1)
    s.apply("move 2 c3")
    assert "move 1 b1" in legal(s) and not any(a.startswith("move 2") for a in legal(s))
    s.apply("stop")
    assert s.at[0] == C.by_id["zlatobrad"]


# -- How to Play: the actions ----------------------------------------------------------------
def test_how_to_play_up_to_two_different_actions_each_once_a_turn():
    s = new()
    to_actions(s)
    s.apply("sails 1 1")
    assert s.to_act == 0 and not any(a.startswith("sails") for a in legal(s))
    # After two actions the turn passes.
    s4 = new()
    to_actions(s4)
    put_ship(s4, 0, 1, "zlatobrad", sails=1)
    play(s4, "sails 1 1", "again 1 b3")
    assert s4.to_act == 1


def test_how_to_play_end_ends_the_turn_with_actions_unused():
    s = new()
    to_actions(s)
    s.apply("end")
    assert s.to_act == 1 and s.view(None)["phase"] == "move"


def test_build_a_new_hull_costs_3_at_an_empty_dock_where_you_have_a_governor():
    s = new()
    to_actions(s)
    assert "build zlatobrad" in legal(s)
    assert "build slunov" not in legal(s)  # no Governor there
    s.apply("build zlatobrad")
    assert s.coins[0] == 2
    ship = [sh for sh in s.view(None)["ships"] if sh["owner"] == 0 and sh["number"] == 2][0]
    assert ship == {"owner": 0, "number": 2, "at": "zlatobrad", "sails": 0, "cargo": [], "moves_left": 0}
    assert not any(a.startswith("build") for a in legal(s))  # once a turn


def test_build_a_new_hull_needs_an_empty_dock_three_coins_and_fewer_than_three_ships():
    s = new()
    put_ship(s, 1, 2, "zlatobrad", sails=1)  # both docks full
    to_actions(s)
    assert "build zlatobrad" not in legal(s)
    s = new()
    s.coins[0] = 2
    to_actions(s)
    assert "build zlatobrad" not in legal(s)
    s = new()
    put_ship(s, 0, 2, "c3", sails=1)
    put_ship(s, 0, 3, "c5", sails=1)
    to_actions(s)
    assert "build zlatobrad" not in legal(s)


def test_add_sails_up_to_three_at_one_coin_each_where_you_have_a_governor():
    s = new()
    to_actions(s)
    assert {a for a in legal(s) if a.startswith("sails")} == {"sails 1 1", "sails 1 2"}  # 1 + 2 = 3 at most
    s.apply("sails 1 2")
    assert s.sails[0] == 3 and s.coins[0] == 3
    s = new()
    put_ship(s, 0, 1, "slunov", sails=1)  # no Governor at Slunov
    to_actions(s)
    assert not any(a.startswith("sails") for a in legal(s))


def test_ships_four_places_for_sails_or_cargo():
    s = new()
    put_ship(s, 0, 1, "zlatobrad", sails=1, cargo=(("food", "zlatobrad"), ("textiles", None)))
    to_actions(s)
    assert {a for a in legal(s) if a.startswith("sails")} == {"sails 1 1"}  # 1 sail + 2 crates + 1 = 4
    takes = {a for a in legal(s) if a.startswith("take")}
    assert takes  # one place left
    s.apply(sorted(takes)[0])
    assert s.sails[0] + len(s.holds[0]) == 4
    assert not any(a.startswith("take") for a in legal(s))


def test_add_sails_costs_coins_the_player_has():
    s = new()
    s.coins[0] = 1
    to_actions(s)
    assert {a for a in legal(s) if a.startswith("sails")} == {"sails 1 1"}


def test_install_a_governor_where_docked_none_there_either_country():
    s = new()
    put_ship(s, 0, 1, "halcona", sails=1)  # in Talonas
    to_actions(s)
    assert "governor halcona" in legal(s)
    s.apply("governor halcona")
    assert s.gov[C.by_id["halcona"]] == 0 and s.gov_left[0] == 1
    # Governors at home and at Halcona: the next one may go to a Koruna settlement too.
    s2 = new()
    put_ship(s2, 0, 1, "slunov", sails=1)
    to_actions(s2)
    assert "governor slunov" in legal(s2)


def test_install_a_governor_not_where_one_already_is_nor_where_the_opponent_is_docked():
    s = new()
    put_ship(s, 0, 1, "garra", sails=1)  # Talonas's home Governor is there
    to_actions(s)
    assert "governor garra" not in legal(s)
    s = new()
    put_ship(s, 0, 1, "solera", sails=1)
    put_ship(s, 1, 2, "solera", sails=1)
    to_actions(s)
    assert "governor solera" not in legal(s)


def test_install_a_governor_only_three_a_player():
    s = new()
    s.gov_left[0] = 0
    put_ship(s, 0, 1, "solera", sails=1)
    to_actions(s)
    assert "governor solera" not in legal(s)


def test_take_on_cargo_is_free_from_the_docked_countrys_stockpile():
    s = new()
    to_actions(s)
    assert {a for a in legal(s) if a.startswith("take")} == {
        "take 1 food", "take 1 textiles", "take 1 livestock", "take 1 spice"}
    play(s, "take 1 spice", "take 1 food")
    assert s.coins[0] == 5
    assert s.view(None)["ships"][0]["cargo"] == ["food@zlatobrad", "spice"]
    assert s.view(None)["supply"]["koruna"] == {"food": 3, "textiles": 2, "livestock": 2, "spice": 1}
    # Still loading: one place left; the last spice may not join the one aboard.
    assert legal(s) == {"take 1 food", "take 1 textiles", "take 1 livestock", "done"}
    s.apply("take 1 textiles")  # full: the action ends by itself
    assert s.view(None)["phase"] == "actions" and s.view(None)["actions_used"] == ["take"]


def test_take_on_cargo_not_the_last_crate_of_a_type_already_aboard():
    s = new()
    put_ship(s, 1, 1, "solera", sails=1, cargo=(("spice", None),))  # one spice left on the supply card
    to_actions(s)
    s.apply("take 1 spice")  # the last spice, but none aboard: allowed
    assert s.view(None)["supply"]["koruna"]["spice"] == 0
    s = new()
    put_ship(s, 1, 1, "solera", sails=1, cargo=(("food", "slunov"), ("food", "slunov")))
    to_actions(s)
    play(s, "take 1 food")  # food: 2 -> 1 left, one aboard
    assert "take 1 food" not in legal(s)


def test_sell_cargo_only_from_the_opposite_country():
    s = new()
    put_ship(s, 0, 1, "garra", sails=1, cargo=(("textiles", None), ("sugar", None)))
    to_actions(s)
    sells = {a for a in legal(s) if a.startswith("sell")}
    assert sells == {"sell 1 textiles"}


def test_sell_cargo_food_anywhere_but_where_it_was_bought_even_in_the_same_country():
    s = new()
    put_ship(s, 0, 1, "zlatobrad", sails=1, cargo=(("food", "zlatobrad"), ("food", "slunov")))
    to_actions(s)
    assert {a for a in legal(s) if a.startswith("sell")} == {"sell 1 food@slunov"}


def test_selling_example_red_earns_four_yellow_earns_two():
    # Red sells one textiles and one food at a settlement with a yellow Governor; textiles in demand.
    s = new()
    put_ship(s, 0, 1, "garra", sails=1, cargo=(("textiles", None), ("food", "zlatobrad")))
    set_chip(s, "garra", "textiles")
    assert s.gov[C.by_id["garra"]] == 1
    to_actions(s)
    play(s, "sell 1 textiles", "sell 1 food@zlatobrad")
    assert s.coins == [5 + 4, 5 + 2]


def test_sell_cargo_a_players_own_governor_pays_the_seller_too():
    s = new()
    put_ship(s, 1, 1, "zlatobrad", sails=1, cargo=(("ore", None),))
    put_ship(s, 0, 1, "b1", sails=1)
    s.apply("end") if s.view(None)["phase"] == "actions" else play(s, "stop", "end")
    set_chip(s, "zlatobrad", "ore")
    s.apply("stop") if s.view(None)["phase"] == "move" else None
    s.apply("sell 1 ore")
    assert s.coins == [5 + 1, 5 + 4]  # red's Governor at Zlatobrad earns 1 from yellow's sale
    # Selling where you have your own Governor pays you both.
    s = new()
    put_ship(s, 0, 1, "zlatobrad", sails=1, cargo=(("food", "slunov"),))
    set_chip(s, "zlatobrad", "food")
    to_actions(s)
    s.apply("sell 1 food@slunov")
    assert s.coins == [5 + 2 + 1, 5]


def test_sell_cargo_crates_go_back_to_the_supply_and_a_new_chip_is_drawn():
    s = new(seed=4)
    put_ship(s, 0, 1, "garra", sails=1, cargo=(("textiles", None),))
    set_chip(s, "garra", "textiles")
    before = sorted(s.pools[1])
    to_actions(s)
    s.apply("sell 1 textiles")
    assert s.view(None)["supply"]["koruna"]["textiles"] == 2
    garra = C.by_id["garra"]
    # The new chip came from the face-down pile; the sold one went back into it.
    assert sorted(s.pools[1] + [s.chips[garra]]) == sorted(before + [C.cargo_by_id["textiles"]])
    assert any("draws a new chip" in e for e in s.events)


def test_sell_cargo_without_the_in_demand_commodity_keeps_the_chip():
    s = new()
    put_ship(s, 0, 1, "garra", sails=1, cargo=(("food", "zlatobrad"),))
    set_chip(s, "garra", "spice")
    to_actions(s)
    s.apply("sell 1 food@zlatobrad")
    assert s.chips[C.by_id["garra"]] == C.cargo_by_id["spice"]
    s = new(chip_refresh="any-sale")
    put_ship(s, 0, 1, "garra", sails=1, cargo=(("food", "zlatobrad"),))
    set_chip(s, "garra", "spice")
    to_actions(s)
    s.apply("sell 1 food@zlatobrad")
    assert any("draws a new chip" in e for e in s.events)


def test_sell_cargo_any_or_all_then_done():
    s = new()
    put_ship(s, 0, 1, "garra", sails=1, cargo=(("textiles", None), ("livestock", None)))
    to_actions(s)
    s.apply("sell 1 textiles")
    assert legal(s) == {"sell 1 livestock", "done"}
    s.apply("done")
    assert s.view(None)["ships"][0]["cargo"] == ["livestock"]


def test_move_one_ship_again_one_more_space_even_after_a_full_move():
    s = new()
    s.apply("move 1 b1")  # one sail, one space
    assert s.view(None)["phase"] == "actions"
    s.apply("again 1 c1")
    assert s.at[0] == C.by_id["c1"]


def test_move_one_ship_again_needs_a_sail():
    s = new()
    put_ship(s, 0, 2, "c3", sails=0)
    to_actions(s)
    assert not any(a.startswith("again 2") for a in legal(s))


# -- Gameplay Questions ----------------------------------------------------------------------
@pytest.mark.parametrize("text", ["dump 1 food", "remove 1 sail", "move governor slunov", "sails 1 -1", "sails 1 0"])
def test_gameplay_questions_no_dumping_no_moving_governors_no_removing_sails(text):
    with pytest.raises(InvalidNotation):
        GAME.parse_action(text)


def test_gameplay_questions_cargo_leaves_a_ship_only_by_selling():
    s = new()
    put_ship(s, 0, 1, "zlatobrad", sails=1, cargo=(("textiles", None),))
    to_actions(s)
    assert not any("textiles" in a and not a.startswith("take") for a in legal(s))


# -- Winning the Game -----------------------------------------------------------------------
def test_winning_the_game_the_first_to_25_coins_wins_the_moment_it_has_them():
    s = new()
    s.coins[0] = 22
    put_ship(s, 0, 1, "garra", sails=1, cargo=(("textiles", None), ("spice", None)))
    set_chip(s, "garra", "textiles")
    to_actions(s)
    s.apply("sell 1 textiles")
    assert s.is_over and s.winners() == [0] and s.coins[0] == 25
    assert s.legal_actions() == []


def test_winning_the_game_a_governor_can_win_on_the_opponents_sale():
    s = new()
    s.coins[1] = 24
    put_ship(s, 0, 1, "garra", sails=1, cargo=(("livestock", None),))
    to_actions(s)
    s.apply("sell 1 livestock")
    assert s.is_over and s.winners() == [1]


def test_winning_the_game_a_safety_cap_cuts_a_stalled_game_with_no_winner():
    """The game ends when a player has 25 coins; the turn cap (off by default) is not in the rulebook, so a game
    it stops is cut, never an ordinary win."""
    assert GAME.spec.option("turn_limit").default == 0
    s = new(turn_limit=4)
    while not s.is_over:
        s.apply("stop" if s.view(None)["phase"] == "move" else "end")
    assert s.turn == 4 and s.winners() == [] and "cut by the safety cap of 4 turns" in s.events[-1]


def test_illegal_actions_raise_and_change_nothing():
    s = new()
    before = s.to_json()
    with pytest.raises(IllegalAction):
        s.apply("build slunov")
    assert s.to_json() == before
    assert coins_in_play(s) == 10


# -- What a seat sees ------------------------------------------------------------------------
def test_view_hides_the_face_down_chips_and_determinize_reshuffles_them():
    import random

    s = new(seed=9)
    v = s.view(0)
    assert "pools" not in v and v["face_down_chips"] == {"koruna": 4, "talonas": 4}
    orders = {tuple(s.determinize(0, random.Random(i)).pools[1]) for i in range(20)}
    assert len(orders) > 1
    assert all(sorted(o) == sorted(s.pools[1]) for o in orders)


def test_every_action_notation_round_trips():
    from freetrader.games.precious_cargo import actions as A

    for text, action in A._BY_TEXT.items():
        assert str(action) == text and GAME.parse_action(text) is action
