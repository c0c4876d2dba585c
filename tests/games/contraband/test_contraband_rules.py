"""Contraband rules, one test per rule, named after the rulebook paragraph it proves.

Every amount is the rulebook's: Lists A and B, the $200 compensation, the $50
Informer's reward, the $200 Diplomatic Bag fine, the $10,000 money.
"""

from __future__ import annotations

import pytest
from contraband_scenario import GAME, k, money, new, play, put_on_top, set_luggage

import freetrader
from freetrader.games.contraband.components import COMPONENTS as C

# (article, List A duty, List B fine) exactly as printed.
LISTS = [
    ("brandy", 5, 15),
    ("whisky", 5, 15),
    ("perfume", 10, 30),
    ("nylons", 10, 30),
    ("camera", 15, 40),
    ("watch", 20, 50),
    ("diamond-necklace", 50, 100),
    ("crown-jewels", 200, 400),
]


# -- The Game: the pack -------------------------------------------------------
def test_the_game_pack_has_54_cards_7_sets_of_four_24_duty_free_2_special():
    assert len(C.pack) == 54
    counts = {a.id: a.count for a in C.articles}
    sets = [a for a in C.articles if a.dutiable and a.count == 4]
    assert len(sets) == 7
    assert counts["personal-effects"] == 24
    assert counts["diplomatic-bag"] == 1 and counts["crown-jewels"] == 1


@pytest.mark.parametrize("article,duty,fine", LISTS)
def test_lists_a_and_b_as_printed(article, duty, fine):
    assert C.duty[k(article)] == duty
    assert C.fine[k(article)] == fine


# -- 1. Customs Officer ---------------------------------------------------------
@pytest.mark.parametrize("seed", range(12))
def test_par1_officer_is_the_player_dealt_the_highest_dutiable_card(seed):
    s = GAME.new_state(5, seed)
    deals = [e for e in s.events if e.startswith("Dealing for Customs Officer")]
    last = deals[-1].split(": ", 1)[1].split("; ")
    dealt = {int(p.split()[1]): p.split(" ", 2)[2] for p in last}
    duty = {a.name: a.duty for a in C.articles}
    best = max(duty[name] for name in dealt.values())
    assert [seat for seat, name in dealt.items() if duty[name] == best] == [s.officer]


def test_par1_tie_for_officer_is_dealt_again_among_the_tied():
    ties = 0
    for seed in range(40):
        s = GAME.new_state(6, seed)
        if any(e.startswith("Tie between") for e in s.events):
            ties += 1
            tie_line = next(e for e in s.events if e.startswith("Tie between"))
            tied = {int(x) for x in tie_line.split("seats ")[1].split(":")[0].split(", ")}
            assert s.officer in tied
    assert ties > 0


def test_par1_tie_option_first_seat_takes_the_lowest_tied_seat():
    for seed in range(40):
        s = GAME.new_state(6, seed, {"officer_tie": "first-seat"})
        assert not any(e.startswith("Tie between") for e in s.events)


def test_par1_by_agreement_seat_0_is_officer():
    assert new(4).officer == 0


@pytest.mark.parametrize("seats,each,unused", [(3, 3333, 1), (4, 2500, 0), (6, 1666, 4), (7, 1428, 4), (8, 1250, 0)])
def test_par1_officer_divides_10000_equally_remainder_unused(seats, each, unused):
    s = new(seats)
    assert s.cash == [each] * seats
    assert s.unused == unused
    assert money(s) == 10_000


def test_par1_officer_changes_each_time_the_pack_is_exhausted():
    s = new(4)
    assert s.officer == 0
    # Wave everything through and accept everything until the pack runs out.
    while s.round == 1:
        if s.to_act == s.officer:
            s.apply("wave")
        elif str(s.legal_actions()[0]) == "accept":
            s.apply("accept")
        else:
            s.apply(s.legal_actions()[-1])
    assert s.officer == 1
    assert s.reshuffles == 1
    assert len(s.pack) == 54 - 4 and s.discard_hidden == [] and s.discard_shown == []
    assert s.to_act == 2  # the player on the new officer's left draws


# -- 2. The First Player --------------------------------------------------------
def test_par2_player_left_of_officer_draws_top_four_unseen_by_others():
    s = new(4)
    assert s.to_act == 1 and s.holder == 1
    assert len(s.luggage) == 4 and len(s.pack) == 50
    assert sorted(s.view(1)["your_luggage"]) == sorted(C.articles[x].id for x in s.luggage)
    for seat in (0, 2, 3, None):
        assert "your_luggage" not in s.view(seat)


# -- 3. The Declaration -----------------------------------------------------------
@pytest.mark.parametrize("article,duty,fine", LISTS)
def test_par3_declared_articles_pay_list_a_duty_to_the_officer(article, duty, fine):
    s = new(4)
    set_luggage(s, article, "personal-effects", "personal-effects", "personal-effects")
    play(s, f"claim {article}", "declare")
    assert s.cash[1] == 2500 - duty and s.cash[0] == 2500 + duty


def test_par3_declaration_says_how_many_of_an_article():
    s = new(4)
    set_luggage(s, "brandy", "brandy", "watch", "personal-effects")
    play(s, "claim brandy", "claim brandy", "claim watch", "declare")
    assert s.cash[1] == 2500 - (5 + 5 + 20)
    assert "2 Brandy, Watch" in s.events[-1]


def test_par3_a_false_declaration_is_allowed_and_pays_only_what_it_declares():
    s = new(4)
    set_luggage(s, "diamond-necklace", "watch", "personal-effects", "personal-effects")
    play(s, "claim brandy", "declare")
    assert s.cash[1] == 2500 - 5


def test_par3_declaration_is_at_most_four_articles_in_article_order():
    s = new(4)
    play(s, "claim perfume")
    assert "claim brandy" not in [str(a) for a in s.legal_actions()]
    play(s, "claim perfume", "claim watch", "claim watch")
    assert [str(a) for a in s.legal_actions()] == ["declare"]


def test_par3_officer_may_search_or_wave_after_the_declaration():
    s = new(4)
    play(s, "declare")
    assert s.to_act == 0
    assert [str(a) for a in s.legal_actions()] == ["search", "wave"]


# -- 4. The Search -----------------------------------------------------------------
@pytest.mark.parametrize("article,duty,fine", LISTS)
def test_par4_search_finding_contraband_levies_list_b_fines(article, duty, fine):
    s = new(4)
    set_luggage(s, article, "personal-effects", "personal-effects", "personal-effects")
    play(s, "declare", "search")
    assert s.cash[1] == 2500 - fine and s.cash[0] == 2500 + fine


def test_par4_fines_only_on_the_undeclared_articles():
    s = new(4)
    set_luggage(s, "brandy", "brandy", "camera", "watch")
    play(s, "claim brandy", "claim camera", "declare", "search")
    # duty 5 + 15 paid; one Brandy (15) and the Watch (50) undeclared
    assert s.cash[1] == 2500 - 20 - 15 - 50


def test_par4_true_declaration_searched_gets_200_from_the_officer():
    s = new(4)
    set_luggage(s, "camera", "personal-effects", "personal-effects", "personal-effects")
    play(s, "claim camera", "declare", "search")
    assert s.cash[1] == 2500 - 15 + 200 and s.cash[0] == 2500 + 15 - 200


def test_par4_compensation_only_if_the_statement_is_proved_correct_not_for_an_over_declaration():
    """Par. 4: "If, on the other hand, the statement is proved correct, the player receives $200
    compensation"; par. 6: "Should the declaration have been true, the Informer must pay $200". A declaration
    of articles not in the luggage is a false statement even though no contraband is found: by default
    (``compensation=exact-claim``) it earns nothing; ``no-contraband`` is the older, looser reading."""
    assert GAME.spec.resolve_options({})["compensation"] == "exact-claim"
    s = new(4)
    set_luggage(s, "camera", "personal-effects", "personal-effects", "personal-effects")
    play(s, "claim camera", "claim watch", "declare", "search")  # no Watch: over-declared
    assert s.cash[1] == 2500 - 35 and s.cash[0] == 2500 + 35
    assert "No contraband, but the declaration was not exact: no compensation" in s.events
    s = new(4)  # an Informer proves nothing against an over-declaration: he pays no compensation either
    set_luggage(s, "camera", "personal-effects", "personal-effects", "personal-effects")
    play(s, "claim camera", "claim watch", "declare", "wave", "inform")
    assert s.cash[1] == 2500 - 35 and s.cash[2] == 2500
    s = new(4)  # exactly true: compensation, from the officer
    set_luggage(s, "camera", "personal-effects", "personal-effects", "personal-effects")
    play(s, "claim camera", "declare", "search")
    assert s.cash[1] == 2500 - 15 + 200
    s = new(4, compensation="no-contraband")
    set_luggage(s, "camera", "personal-effects", "personal-effects", "personal-effects")
    play(s, "claim camera", "claim watch", "declare", "search")
    assert s.cash[1] == 2500 - 35 + 200


def test_par4_searched_luggage_is_impounded_and_the_next_player_draws_four():
    s = new(4)
    set_luggage(s, "camera", "brandy", "personal-effects", "personal-effects")
    play(s, "declare", "search")
    assert sorted(s.discard_shown) == sorted([k("camera"), k("brandy"), k("personal-effects"), k("personal-effects")])
    assert s.holder == 2 and s.to_act == 2 and len(s.luggage) == 4 and len(s.pack) == 46
    assert s.view(3)["discard"]["revealed"] == [C.articles[x].id for x in s.discard_shown]


# -- 5. The Second Player ----------------------------------------------------------------
def test_par5_unsearched_luggage_passes_face_down_to_the_next_player():
    s = new(4)
    play(s, "declare", "wave")
    assert s.to_act == 2 and s.holder == 2
    assert [str(a) for a in s.legal_actions()] == ["accept", "inform"]
    assert "your_luggage" not in s.view(2)  # not looked at yet


def test_par5_accepting_means_discard_one_draw_one_then_declare():
    s = new(4)
    set_luggage(s, "brandy", "watch", "perfume", "personal-effects")
    put_on_top(s, "camera")
    play(s, "declare", "wave", "accept")
    assert sorted(str(a) for a in s.legal_actions()) == sorted(
        ["discard brandy", "discard watch", "discard perfume", "discard personal-effects"]
    )
    play(s, "discard watch")
    assert sorted(s.luggage) == sorted([k("brandy"), k("perfume"), k("personal-effects"), k("camera")])
    assert s.discard_hidden == [k("watch")]
    assert s.to_act == 2 and s.view(2)["phase"] == "declare"
    play(s, "claim brandy", "claim perfume", "claim camera", "declare")
    assert s.cash[2] == 2500 - 30


# -- 6. Informers -------------------------------------------------------------------------
def test_par6_informer_right_gets_50_from_officer_and_smuggler_pays_fines():
    s = new(4)
    set_luggage(s, "watch", "personal-effects", "personal-effects", "personal-effects")
    play(s, "declare", "wave", "inform")
    assert s.cash == [2500 + 50 - 50, 2500 - 50, 2500 + 50, 2500]


def test_par6_informer_wrong_pays_200_to_the_accused():
    s = new(4)
    set_luggage(s, "watch", "personal-effects", "personal-effects", "personal-effects")
    play(s, "claim watch", "declare", "wave", "inform")
    assert s.cash == [2500 + 20, 2500 - 20 + 200, 2500 - 200, 2500]


def test_par6_ruling_informer_draws_the_new_luggage():
    s = new(4)
    play(s, "declare", "wave", "inform")
    assert s.holder == 2 and s.to_act == 2 and s.examined


def test_par6_option_player_after_the_informer_draws():
    s = new(4, after_informer="next-player-draws")
    play(s, "declare", "wave", "inform")
    assert s.holder == 3


# -- 7. Player No. 3, etc. ------------------------------------------------------------------
def test_par7_play_passes_round_to_player_1_skipping_the_officer():
    s = new(4)
    holders = []
    for _ in range(4):
        holders.append(s.holder)
        play(s, "declare", "wave", "accept")
        s.apply(s.legal_actions()[0])
    assert holders == [1, 2, 3, 1]


def test_par7_player_out_of_funds_may_borrow_and_the_loan_counts_at_the_end():
    s = new(4)
    s.cash[1], s.cash[0] = 10, 4990  # money moved between players, still conserved
    set_luggage(s, "diamond-necklace", "personal-effects", "personal-effects", "personal-effects")
    play(s, "claim diamond-necklace", "declare")
    assert s.to_act == 1 and s.view(1)["phase"] == "broke"
    assert [str(a) for a in s.legal_actions()] == ["borrow 2", "borrow 3", "borrow 0", "retire"]
    play(s, "borrow 3")
    assert s.cash[1] == 0 and s.cash[3] == 2460 and s.cash[0] == 4990 + 50
    assert s.scores()[1] == -40.0 and s.scores()[3] == 2500.0
    assert money(s) == 10_000


def test_par7_player_out_of_funds_may_retire_paying_what_is_left():
    s = new(4)
    s.cash[1], s.cash[0] = 10, 4990
    set_luggage(s, "diamond-necklace", "personal-effects", "personal-effects", "personal-effects")
    play(s, "claim diamond-necklace", "declare", "retire")
    assert s.retired[1] and s.cash[1] == 0 and s.cash[0] == 5000
    assert s.to_act == 2 and s.holder == 2  # the retired player's luggage is impounded; next draws
    assert money(s) == 10_000


def test_par7_option_borrow_only_and_retire_only():
    for opt, expected in (("borrow", ["borrow 2", "borrow 3", "borrow 0"]), ("retire", ["retire"])):
        s = new(4, insolvency=opt)
        s.cash[1], s.cash[0] = 10, 4990
        set_luggage(s, "diamond-necklace", "personal-effects", "personal-effects", "personal-effects")
        play(s, "claim diamond-necklace", "declare")
        assert [str(a) for a in s.legal_actions()] == expected


def test_par7_game_ends_when_fewer_than_three_players_remain():
    s = new(3)
    s.cash[1], s.cash[0] = 10, 3333 + 3323
    set_luggage(s, "diamond-necklace", "personal-effects", "personal-effects", "personal-effects")
    play(s, "claim diamond-necklace", "declare", "retire")
    assert s.is_over
    assert s.winners() == [0]


def test_par7_pack_exhausted_cards_are_reshuffled_and_play_continues():
    s = new(4, end="reshuffles", reshuffles=2)
    while s.reshuffles == 0:
        s.apply("search" if s.to_act == s.officer else s.legal_actions()[-1])
    assert not s.is_over and len(s.pack) + len(s.luggage) == 54


# -- 8. The Diplomatic Bag -----------------------------------------------------------------------
def test_par8_diplomatic_bag_passes_without_duty():
    s = new(4)
    set_luggage(s, "diplomatic-bag", "diamond-necklace", "watch", "camera")
    play(s, "claim diplomatic-bag")
    assert s.cash[1] == 2500 and s.to_act == 0


def test_par8_true_diplomatic_bag_challenged_by_officer_earns_200():
    s = new(4)
    set_luggage(s, "diplomatic-bag", "diamond-necklace", "watch", "camera")
    play(s, "claim diplomatic-bag", "search")
    assert s.cash[1] == 2700 and s.cash[0] == 2300


def test_par8_true_diplomatic_bag_challenged_by_informer_earns_200_from_informer():
    s = new(4)
    set_luggage(s, "diplomatic-bag", "diamond-necklace", "watch", "camera")
    play(s, "claim diplomatic-bag", "wave", "inform")
    assert s.cash == [2500, 2700, 2300, 2500]


def test_par8_false_diplomatic_bag_fined_200_plus_fines_on_dutiable_articles():
    s = new(4)
    set_luggage(s, "watch", "brandy", "personal-effects", "personal-effects")
    play(s, "claim diplomatic-bag", "search")
    assert s.cash[1] == 2500 - (200 + 50 + 15)


def test_par8_passed_hand_with_the_diplomatic_bag_must_discard_it():
    s = new(4)
    set_luggage(s, "diplomatic-bag", "watch", "personal-effects", "personal-effects")
    play(s, "claim diplomatic-bag", "wave", "accept")
    assert [str(a) for a in s.legal_actions()] == ["discard diplomatic-bag"]
    with pytest.raises(freetrader.IllegalAction, match="legal: discard diplomatic-bag"):
        s.apply("discard watch")


# -- 9. Ruritanian Crown Jewels -------------------------------------------------------------------
def test_par9_crown_jewels_duty_200_or_fine_400():
    s = new(4)
    set_luggage(s, "crown-jewels", "personal-effects", "personal-effects", "personal-effects")
    play(s, "claim crown-jewels", "declare")
    assert s.cash[1] == 2300
    s = new(4)
    set_luggage(s, "crown-jewels", "personal-effects", "personal-effects", "personal-effects")
    play(s, "declare", "search")
    assert s.cash[1] == 2100


def test_par9_only_one_crown_jewels_can_be_declared():
    s = new(4)
    play(s, "claim crown-jewels")
    assert "claim crown-jewels" not in [str(a) for a in s.legal_actions()]


# -- 10. The Game Ends ----------------------------------------------------------------------------------
def _play_out(s, choose=lambda s: s.legal_actions()[-1]):
    while not s.is_over:
        s.apply(choose(s))
    return s


def test_par10_default_after_all_players_have_acted_as_officer():
    s = _play_out(new(4))
    assert s.round == 4 and s.reshuffles == 4
    assert "every player has been the Customs Officer" in s.events[-1]


def test_par10_after_an_agreed_number_of_reshuffles():
    s = _play_out(new(4, end="reshuffles", reshuffles=2))
    assert s.reshuffles == 2 and s.round == 2


def test_par10_after_a_time_fixed_beforehand_counted_in_declarations():
    s = _play_out(new(4, end="turns", turn_limit=7))
    assert s.declarations == 7


def test_par10_winner_has_most_money_after_loans():
    s = _play_out(new(3, end="turns", turn_limit=1))  # over after one declaration; then the money is set
    assert s.is_over
    s.cash = [3000, 3500, 3499]
    s.loans = [(0, 0, 0), (0, 0, 600), (0, 0, 0)]  # seat 1 owes seat 2 $600
    assert s.scores() == [3000.0, 2900.0, 4099.0]
    assert s.winners() == [2]


# -- errors ---------------------------------------------------------------------------------------------
def test_illegal_action_says_why_and_what_is_legal_and_changes_nothing():
    s = new(4)
    before = s.to_json()
    with pytest.raises(freetrader.IllegalAction) as exc:
        s.apply("search")
    msg = str(exc.value)
    assert "seat 1" in msg and "legal: claim diplomatic-bag" in msg and "declare" in msg
    assert s.to_json() == before


def test_unknown_notation_is_rejected_with_the_accepted_forms():
    s = new(4)
    with pytest.raises(freetrader.InvalidNotation, match="claim <article>"):
        s.apply("smuggle everything")
