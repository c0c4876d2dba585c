"""End of the Game: the game ends only by its two printed triggers; a safety cap, if asked for, cuts it."""

from __future__ import annotations

import pytest
from cornish_scenario import GAME, after_setup

import freetrader
from freetrader.core import BadOption
from freetrader.games.cornish_smuggler import rules as R


def pass_turn(s) -> None:
    """Every player passes: the Turn ends ("Play continues until all players have PASSED")."""
    turn = s.turn
    while not s.is_over and s.turn == turn:
        s.apply("pass")


def test_end_of_the_game_has_only_its_two_triggers():
    """"The end of the game is triggered by one of two events: The Customs Counter reaches the end of the
    Customs Track. The last Goods Shape is purchased." Turns in which nobody does anything trigger neither:
    by default no turn count ends the game."""
    assert GAME.spec.option("turn_limit").default == 0
    s = after_setup(3, seed=2)
    for _ in range(60):  # past the 40 Turns that used to end a game
        pass_turn(s)
    assert not s.is_over and s.turn == 61 and not s.ending


def test_end_of_the_game_a_trigger_ends_it_at_the_end_of_that_turn():
    """"When either of these events happen, the players have until the END of that TURN to spend any
    remaining resources ... after which the game ends": a game so ended has its winners and is not cut."""
    s = after_setup(2, seed=3)
    R.trigger_end(s, "the Customs Counter reached the end of the Customs Track")
    assert not s.is_over
    pass_turn(s)
    assert s.is_over and not R.cut_by_cap(s)
    assert s.winners() and s.winners() == [p for p in range(2) if s.scores()[p] == max(s.scores())]


def test_end_of_the_game_a_safety_cap_cuts_it_with_no_winner():
    """Not in the rulebook: an explicit ``turn_limit`` stops a game after that many Turns, for simulations.
    Such a game reached no End of the Game, so it is reported as cut, never as an ordinary win."""
    s = GAME.new_state(3, 2, {"turn_limit": 5})
    while s.phase != R.MAIN:
        s.apply(s.legal_actions()[0])
    for _ in range(5):
        pass_turn(s)
    assert s.is_over and s.turn == 5
    assert R.cut_by_cap(s) and s.winners() == []
    assert s.view(None)["winners"] == []
    assert "cut by the safety cap of 5 Turns" in s.events[-1]
    again = freetrader.replay(s.record())  # the cap stays in the record: it replays the same way
    assert again.is_over and again.winners() == [] and again.events == s.events


def test_end_of_the_game_records_with_the_old_40_turn_default_still_load():
    """Records saved when the cap was on by default (``turn_limit`` 40) keep that option and replay as before."""
    s = GAME.new_state(2, 4, {"turn_limit": 40})
    while s.phase != R.MAIN:
        s.apply(s.legal_actions()[0])
    for _ in range(40):
        pass_turn(s)
    assert s.is_over and s.turn == 40
    rec = s.record()
    assert rec["options"]["turn_limit"] == 40
    again = freetrader.replay(rec)
    assert again.to_json() == s.to_json()


@pytest.mark.parametrize("bad", [-1, 1001, "forty"])
def test_end_of_the_game_a_bad_cap_is_one_clear_line(bad):
    """The cap is a whole number of Turns, 0 for none."""
    with pytest.raises(BadOption) as err:
        GAME.new_state(2, 0, {"turn_limit": bad})
    assert "turn_limit" in str(err.value) and "\n" not in str(err.value)


@pytest.mark.parametrize("goods_end, ends", [("fits", True), ("last", False)])
def test_the_goods_trigger_fires_when_no_piece_left_fits_any_ship(goods_end, ends):
    """Ruling 31: square holds (The Dove, The Betsey) cannot take an I-pentomino. Once the last piece they
    can hold is bought, nothing is left that anyone can buy, and the Goods trigger fires (goods_end=fits);
    the literal reading (last) waits for pieces no one can ever buy."""
    from freetrader.games.cornish_smuggler.components import COMPONENTS as C

    s = GAME.new_state(2, 3, {"goods_end": goods_end})
    while s.phase != R.MAIN:
        s.apply(s.legal_actions()[0])
    ships = [sh.id for sh in C.ships]
    s.ship_card[0], s.ship_card[1] = ships.index("the-dove"), ships.index("the-betsey")
    shape = [C.shapes[C.goods[g]].id for g in range(len(C.goods))]
    domino = shape.index("domino")
    for g in range(len(C.goods)):
        if g != domino and shape[g] != "i-pentomino":
            s.g_where[g] = R.WAREHOUSE
    assert R.goods_left_to_buy(s)
    s.gold[0], s.infl[0] = 20, 5
    s.chars, s.secrets = [[], []], [[], []]  # no card answers the buy
    s.actor = 0
    s.ship_at[0] = C.merchant_nodes[s.g_at[domino]]
    s.apply(GAME.parse_action(f"buy {R.GOODS_IDS[domino]}"))
    assert not R.goods_left_to_buy(s) and any(s.g_where[g] == R.MERCHANT for g in range(len(C.goods)))
    assert s.ending is ends


def _stalled_market(goods_end: str, rep0: int):
    """The stall a sweep found (seed 1410417725197816672, docs/cornish/homes2.json): one piece left, an
    I-pentomino at a Merchant that fits seat 0's Lively Nancy but not seat 1's Good Intent; seat 0 has no
    Gold, and 10 Reputation leaves Honest Work worth 11 - 10 - 0 = 1 Gold; no one owns a piece."""
    from freetrader.games.cornish_smuggler.components import COMPONENTS as C

    s = after_setup(2, seed=3)
    s.options = {**s.options, "goods_end": goods_end}
    ships = [sh.id for sh in C.ships]
    s.ship_card[0], s.ship_card[1] = ships.index("the-lively-nancy"), ships.index("the-good-intent")
    shape = [C.shapes[C.goods[g]].id for g in range(len(C.goods))]
    last = next(g for g in range(len(C.goods)) if shape[g] == "i-pentomino" and s.g_where[g] == R.MERCHANT)
    for g in range(len(C.goods)):
        if g != last:
            s.g_where[g], s.g_owner[g] = R.SOLD, -1
    s.hold = [[], []]
    s.chars = [[], []]
    s.gold, s.rep = [0, 65], [rep0, 10]
    return s, R.buy_price(s, last)


def test_a_market_no_one_can_take_from_makes_the_next_turn_the_last():
    """Ruling 31, takeable: neither printed trigger can fire any more (nothing to sell moves the Customs
    Track, and the one piece left is never bought), so at the end of the Turn the Goods trigger fires,
    and as with the printed triggers the players have until the end of the next Turn."""
    s, price = _stalled_market("takeable", 10)
    assert price > 1 and R.honest_work_gain(s, 0) == 1
    assert R.market_closed(s)
    turn = s.turn
    pass_turn(s)
    assert not s.is_over and s.ending and s.turn == turn + 1
    assert any("no player can take a Goods Shape that is left" in e for e in s.events)
    pass_turn(s)
    assert s.is_over and s.turn == turn + 1
    assert GAME.spec.option("goods_end").default == "takeable"


def test_the_market_check_reads_only_what_every_player_sees():
    """Secrets cards in hand are hidden: whether seat 1 (65 Gold) holds a Backhander must not change the
    check, whose outcome every seat sees. The Secrets deck's cards are hidden too: only its size counts."""
    from freetrader.games.cornish_smuggler.components import COMPONENTS as C

    ids = [k.id for k in C.secrets]
    outcomes = set()
    for card in ("backhander", "sea-fret"):
        s, _ = _stalled_market("takeable", 10)
        s.g_where[next(g for g in range(len(C.goods)) if s.g_where[g] == R.SOLD)] = R.WAREHOUSE  # a seized piece
        s.sdeck = []
        s.stacks, s.faceup = [[], [], [], []], [-1, -1, -1, -1]  # every Character hired: no Mob to come
        s.secrets = [[], [ids.index(card)]]
        outcomes.add(R.market_closed(s))
    assert outcomes == {True}
    s.sdeck = [ids.index("sea-fret")]  # a card left to draw, for a seat with 3 Gold: maybe a Backhander
    assert not R.market_closed(s)


@pytest.mark.parametrize(("goods_end", "rep0"), [("takeable", 5), ("fits", 10), ("last", 10)])
def test_a_market_someone_can_still_take_from_or_an_older_reading_goes_on(goods_end, rep0):
    """With 5 Reputation, Honest Work pays seat 0 11 - 5 - 0 = 6 Gold, enough for the piece; the older
    readings (saved games go on under them) have no such end."""
    s, price = _stalled_market(goods_end, rep0)
    assert R.honest_work_gain(s, 0) == 11 - rep0
    assert (R.honest_work_gain(s, 0) >= price) is (goods_end == "takeable")
    pass_turn(s)
    assert not s.is_over and not s.ending
