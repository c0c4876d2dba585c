"""Secret Stash rules exactly as printed (issue 17, items 7-11): one scenario per rule, named after its
section of ``shared/rulebooks/merchants-cove-secret-stash.txt``, played through the public API (legal
actions, ``apply``, views) from a real set-up with pieces moved (``mc_scenario``)."""

from __future__ import annotations

import random

import numpy as np
from mc_scenario import (
    GAME,
    fresh,
    give_corruption,
    give_goods,
    new,
    set_boat,
    set_gold,
    set_slot,
    texts,
    to_market,
    turn,
)

from freetrader.adapters.encoders import encoder_for
from freetrader.adapters.encoders.merchants_cove import _AT, NR
from freetrader.games.merchants_cove import rules as R
from freetrader.games.merchants_cove import stash
from freetrader.games.merchants_cove.components import COMPONENTS as C


def _card(ability: str) -> str:
    return next(t.id for t in C.townsfolk if t.ability == ability)


def _in_square(s, tid: str) -> None:
    """Townsfolk ``tid`` into the Town Square from wherever it is; the card it displaces goes under the deck."""
    t = R.TF_BY_ID[tid]
    if t in s.square:
        return
    for pile in (s.tf_deck, s.tf_bottom):
        if t in pile:
            pile.remove(t)
    s.tf_bottom.append(s.square[0])
    s.square[0] = t
    fresh(s)


def _recruit(s, tid: str, gold: int = 20) -> None:
    """Seat 0 takes the Recruit/Replace Townsfolk action and hires ``tid``."""
    _in_square(s, tid)
    turn(s, 0)
    set_gold(s, 0, gold)
    s.apply("do recruit")
    s.apply(f"hire {tid}")


# == New Corruption Cards =================================================================================
def test_new_corruption_cards_can_be_discarded_at_any_decision_of_the_holder():
    """New Corruption Cards: "these cards can be discarded at any time by paying the cost shown on them.
    The cost shown on each card only pays for itself ... Any Good discarded from your Sale Shelf to pay this
    cost is returned to your supply." Offered at every decision of the holder, not only the main action."""
    s = new(2, corruption="mixed")
    give_corruption(s, 0, "s2-gold4")
    give_corruption(s, 0, "s2-good1")
    turn(s, 0)
    set_gold(s, 0, 10)
    s.apply("do load")  # draws an adventurer: the decision now is where to place it
    assert s.phase == R.PLACE and "pay s2-gold4" in texts(s) and "pay s2-good1" not in texts(s)  # no Good yet
    drawn = s.view(0)["drawn"]
    s.apply("pay s2-gold4")
    assert s.phase == R.PLACE and s.view(0)["drawn"] == drawn and s.gold[0] == 6  # the placing is still pending
    assert s.view(0)["your_corruption"] == ["s2-good1"] and "s2-gold4" in s.view(1)["corruption_discards"]
    give_goods(s, 0, "small-red")
    assert "pay s2-good1" in texts(s)
    s.apply("pay s2-good1")
    assert s.phase == R.PAYGOOD and not any(a.startswith("pay ") for a in texts(s))  # one cost at a time
    s.apply("give small-red")
    assert s.phase == R.PLACE and s.view(0)["your_corruption"] == [] and s.supply[0][0] == C.supply[0]
    s.apply(texts(s)[0])  # and the adventurer is placed as before


def test_new_corruption_cards_are_not_offered_at_a_rivals_decision():
    """New Corruption Cards: the cost is paid by the card's holder; a rival's decision offers nothing of it."""
    s = new(2, corruption="mixed")
    give_corruption(s, 0, "s2-gold4")
    set_gold(s, 0, 10)
    turn(s, 1)
    assert s.to_act == 1 and not any(a.startswith("pay ") for a in texts(s))


def test_new_corruption_cards_drawn_by_the_last_sale_of_day_3_can_be_paid_off_before_final_scoring():
    """New Corruption Cards: "can be discarded at any time by paying the cost shown on them", so a card drawn
    by the last sale of the game (the Black Market's Corruption) can still be paid off before final scoring."""
    s = new(2, corruption="mixed")
    s.day = 3
    for k in range(4):
        set_slot(s, k, [])
    black = R.SLOT_IDS.index(next(k for k in R.SLOT_IDS if k.startswith("black")))
    set_slot(s, black, ["blue", "blue"])
    give_goods(s, 0, "large-blue")
    for b in range(6):
        set_boat(s, b, [])
    s.stack = [10, 11]
    set_gold(s, 0, 60)  # enough that the Corruption penalty is paid in full either way
    card = R.CORR_BY_ID["s2-gold4"]
    s.cdeck.remove(card)
    s.cdeck.append(card)  # the top of the deck: the Black Market's first Corruption card
    to_market(s)
    assert s.to_act == 0 and "sell large-blue black" in texts(s)
    s.apply("sell large-blue black")
    assert "s2-gold4" in s.view(0)["your_corruption"]
    assert s.phase == R.DISCARD and s.to_act == 0 and not s.is_over  # the Market is over: a last decision
    assert "pay s2-gold4" in texts(s) and "done" in texts(s)
    keep = s.clone()
    s.apply("pay s2-gold4")
    assert s.phase == R.DISCARD and not any(a.startswith("pay s2-gold4") for a in texts(s))
    s.apply("done")
    keep.apply("done")
    assert s.is_over and keep.is_over
    rate = C.corruption_base + (s.lair + s.lair_leaders) // C.corruption_per_lair
    assert s.gold[0] == keep.gold[0] - 4 + C.corruption[card].icons * rate  # 4 Gold instead of its icons


# == Underworld ===========================================================================================
def test_underworld_the_town_square_refills_after_the_recruit_action_even_when_declined():
    """Underworld: "Immediately take the Recruit/Replace Townsfolk action before refilling the Town Square."
    The extra action is taken with the Square one card short; whether it is taken or declined, the Square
    refills after it."""
    s = new(2, townsfolk="underworld+locals")
    _recruit(s, _card("recruit"))
    assert s.phase == R.RECRUIT and len(s.view(0)["town_square"]) == C.square - 1  # before refilling
    s.apply("skip")
    assert len(s.view(0)["town_square"]) == C.square  # declined: refilled all the same
    s = new(2, townsfolk="underworld+locals")
    _recruit(s, _card("recruit"))
    s.apply(next(a for a in texts(s) if a.startswith("hire ")))  # taken: the hire refills it
    while s.phase not in (R.MAIN, R.RECRUIT):
        s.apply(texts(s)[0])
    assert len(s.view(0)["town_square"]) == C.square


# == Officials ============================================================================================
def test_officials_in_any_order_activate_any_or_all_staff_abilities_and_stop_after_any_number():
    """Officials: "In any order, activate any or all Staff Abilities on your Staff board." The player may
    stop after any number of them, the last one included."""
    s = new(2, townsfolk="officials+locals")
    give_corruption(s, 0, "c1")
    _recruit(s, next(t.id for t in C.townsfolk if t.ability == "staff-all"))
    assert s.phase == R.STAFF and texts(s) == ["staff 1", "staff 2", "staff 3", "skip"]
    s.apply("staff 2")  # 2 gold, then the merchant's own bonus
    s.apply("staff 1")
    assert s.phase == R.STAFF and texts(s) == ["staff 3", "skip"]  # the third is not forced
    s.apply("skip")
    assert s.phase != R.STAFF and len(s.corr[0]) == 1  # Staff Ability 3 (discard a Corruption card) not used
    s = new(2, townsfolk="officials+locals")
    _recruit(s, next(t.id for t in C.townsfolk if t.ability == "staff-one"))
    assert texts(s) == ["staff 1", "staff 2", "staff 3"]  # "Activate any 1 Staff Ability": one is chosen


# == Challenge Cards ======================================================================================
def _peddler_passes_the_mouse(chal_space: int):
    """Solo with Challenge cards: the Peddler (on top at hour 2) reveals a 1-hour card and passes the Mouse at 3."""
    s = new(1, challenges=True)
    s.time, s.stack, s.mice = [2, 2], [1, 2], list(C.mice)
    one = next(c.index for c in C.peddler_cards if c.hours == 1)
    s.pdeck.remove(one) if one in s.pdeck else s.pdiscard.remove(one)
    s.pdeck.append(one)
    s.chal_at = chal_space  # day 1: the Challenge Timepiece on this Clock space
    s.frames = (R.CLOCK,)
    R.CLOCK.next_turn(s)
    fresh(s)
    return s


def test_challenge_cards_the_mouse_moved_by_the_peddler_onto_the_challenge_timepiece_advances_it():
    """Challenge Cards: "If the Mouse ever needs to move onto the space with the Challenge Timepiece, advance
    the Challenge Timepiece 1 Hour forward." Also when the Peddler's Timepiece moves the Mouse."""
    mouse = C.mice[0]
    s = _peddler_passes_the_mouse(mouse + C.mouse_step)
    assert s.time[1] == mouse and s.view(0)["clock"]["mice"][0] == mouse + C.mouse_step
    assert s.to_act == 0 and s.view(0)["challenge"]["timepiece_hour"] == mouse + C.mouse_step + 1
    s = _peddler_passes_the_mouse(mouse + C.mouse_step + 1)  # the Mouse lands elsewhere: it stays
    assert s.view(0)["challenge"]["timepiece_hour"] == mouse + C.mouse_step + 1


# == Multiple Rogues ======================================================================================
def test_multiple_rogues_the_view_and_the_encoder_show_the_cards_in_force_after_each_clean_up():
    """Multiple Rogues: three Rogue cards, and "remove the top card at each Clean-Up": from day 2 the view's
    Rogue card is the new top card, and the encoder's (both of its paths) with it."""
    opts = {"merchants": "alchemist,captain", "rogue": "pirates", "multiple_rogues": True}
    s = GAME.new_state(2, 3, opts)
    first = s.view(None)["rogue_cards"]
    assert len(first) == 3 and s.view(None)["rogue_card"] == first[0] and first[0]["id"] == "pirates"
    enc = encoder_for("merchants-cove", 2, opts)
    rng = random.Random(3)
    while s.day == 1:
        s.apply(rng.choice(s.legal_actions()))
    v = s.view(0)
    assert v["rogue_cards"] == first[1:] and v["rogue_card"] == first[1]  # pirates removed at the Clean-Up
    assert not stash.active(s, "pirates")
    hot = enc.encode(v)[_AT["rogue"]: _AT["rogue"] + NR]
    assert hot[R.ROGUE_BY_ID[first[1]["id"]]] == 1.0 and hot.sum() == 1.0
    assert np.array_equal(enc.encode_state(s, 0), enc.encode(v))
