"""The Cornish Smuggler heuristic (issue 23): it plays to a rulebook end, spends what it earns, and sells."""

from __future__ import annotations

import pytest

import freetrader
from freetrader.bots import decide, make_bot
from freetrader.core import Rng, derive_seed
from freetrader.games.cornish_smuggler import bot as B
from freetrader.games.cornish_smuggler import rules as R

GAME = freetrader.game("cornish-smuggler")
#: Far more than any game the heuristic plays (a few hundred actions): reaching it means a stall.
BOUND = 5000


def self_play(seats: int, seed: int, watch=None):
    """A heuristic-only game with no turn cap; ``watch(state, seat, action)`` sees every decision first."""
    s = GAME.new_state(seats, seed)
    bots = [make_bot("heuristic", GAME, derive_seed(seed, k)) for k in range(seats)]
    rngs = [Rng(derive_seed(seed, 1000 + k)) for k in range(seats)]
    while not s.is_over:
        assert s.action_count < BOUND, f"{seats} seats, seed {seed}: no end after {BOUND} actions (a stall)"
        p = s.to_act
        a = decide(bots[p], s, p, rngs[p])
        if watch is not None:
            watch(s, p, a)
        s.apply(a)
    return s


def test_the_registered_heuristic_is_the_new_one_and_the_old_ones_keep_their_names():
    assert type(make_bot("heuristic", GAME, 0)) is B.CornishBot
    assert type(make_bot("cornish-heuristic-v2", GAME, 0)) is B.CornishBotV2
    assert type(make_bot("cornish-heuristic-v1", GAME, 0)) is B.CornishBotV1


@pytest.mark.parametrize("seats", [2, 3, 4, 5])
def test_self_play_ends_by_a_rulebook_trigger(seats):
    """Every game reaches one of the two triggers of End of the Game, with no cap to stop it."""
    for seed in range(2):
        s = self_play(seats, seed)
        assert s.ending and not R.cut_by_cap(s) and s.winners()
        assert any(e.startswith("The end of the game is triggered") for e in s.events)


@pytest.mark.parametrize("seats", [2, 4])
def test_it_spends_its_influence_and_sells_what_it_can(seats):
    """No Turn ends with more than 40 Influence carried over, and it never passes with goods it could sell."""
    carried: list[int] = []
    passes_with_a_sale: list[str] = []
    last = {"turn": 0, "infl": []}

    def watch(s, p, a):
        if s.turn != last["turn"]:
            if last["infl"]:
                carried.extend(last["infl"])
            last["turn"] = s.turn
        if str(a) == "pass":
            if any(x.verb == "sell" for x in s.legal_actions()):
                passes_with_a_sale.append(f"turn {s.turn} seat {p}")
        last["infl"] = list(s.infl)  # a pass changes no Influence: the last snapshot of a Turn is its end

    for seed in range(2):
        self_play(seats, 10 + seed, watch)
    assert carried and max(carried) <= 40
    assert passes_with_a_sale == []


def test_it_lands_where_it_can_hide_the_landing():
    """Landing Goods draws officers by the Landing Risk above the Discovery Level: the heuristic unloads only
    what its Influence can hide from every unbribed officer (or what goes straight into its storehouse)."""
    bot = make_bot("heuristic", GAME, 0)
    s = GAME.new_state(2, 5)
    while s.phase != R.MAIN:
        s.apply(s.legal_actions()[0])
    p = s.to_act
    loc = C_loc("penzance")
    s.counters[p] = [loc]
    s.stores[p] = []
    s.off_at = [C_loc("newlyn")] + [-1] * (R.N_OFFICERS - 1)  # one space from Penzance
    s.off_bribe = [-1] * R.N_OFFICERS
    pieces = [g for g in range(len(s.g_where)) if s.g_where[g] == R.MERCHANT][:3]
    sizes = sum(B.C.shapes[B.C.goods[g]].size for g in pieces)
    risk = B.C.locations[loc].risk + sizes - B.C.discovery[s.track]
    s.infl[p] = 2
    chosen = bot._landable(s, p, loc, pieces, s.infl[p])
    squares = sum(B.C.shapes[B.C.goods[g]].size for g in chosen)
    assert risk > 2  # all three would need more Influence than it has
    assert B.C.locations[loc].risk + squares - B.C.discovery[s.track] <= s.infl[p]  # the officer stays short
    s.infl[p] = 40
    assert sorted(bot._landable(s, p, loc, pieces, s.infl[p])) == sorted(pieces)


def C_loc(name: str) -> int:
    return B.C.loc_by_id[name]


def test_a_seat_that_cannot_buy_or_sell_raids_the_customs_house_and_keeps_penzance():
    """Stuck (no goods, Honest Work worth 1 Gold, no piece it can pay for), the heuristic takes the way back
    into trade that is left: the seized piece. It discards its lesser Mob and a counter other than
    Penzance's, where the piece is liberated and must be sold (a sweep's seat passed for 500 Turns here)."""
    from cornish_scenario import after_setup, loc

    from freetrader.bots import make_bot
    from freetrader.games.cornish_smuggler import rules as R
    from freetrader.games.cornish_smuggler.components import COMPONENTS as C

    s = after_setup(2, seed=3)
    p = s.to_act
    chars = [c.id for c in C.characters]
    fishwives, zennor = chars.index("the-newlyn-fishwives"), chars.index("the-gentlemen-of-zennor")
    s.chars[p] = [fishwives, zennor]
    s.counters[p] = [C.penzance, loc("zennor")]
    for g in range(len(C.goods)):
        if s.g_owner[g] == p:
            s.g_where[g], s.g_owner[g] = R.SOLD, -1
    seized = next(g for g in range(len(C.goods)) if s.g_where[g] == R.MERCHANT and C.shapes[C.goods[g]].size == 4)
    s.g_where[seized] = R.WAREHOUSE
    s.gold[p], s.rep[p], s.infl[p] = 0, 10, 3
    s.secrets[p] = []
    assert R.honest_work_gain(s, p) == 1
    bot = make_bot("heuristic", GAME, 1)
    officer = next(o for o in range(R.N_OFFICERS) if s.off_at[o] == C.penzance)  # set up there by the rules
    s.infl[p] = 3 + 4  # the officer walked off first (4 Influence a space), or the piece is seized at once
    walk = bot.choose(s, p)
    assert str(walk).startswith(f"officer {officer} to ") and str(walk).endswith("with influence")
    s.apply(walk)
    while s.to_act != p or s.phase != R.MAIN:  # the other seat passes; reaction windows declined
        s.apply("pass" if s.phase == R.MAIN else "decline")
    assert not R.unbribed_officer_at(s, p, C.penzance)
    assert str(bot.choose(s, p)) == f"raid {R.GOODS_IDS[seized]}"
    s.apply(bot.choose(s, p))
    lesser = min((fishwives, zennor), key=lambda c: C.characters[c].reputation)
    assert str(bot.choose(s, p)) == f"discard {chars[lesser]}"
    s.apply(bot.choose(s, p))
    assert str(bot.choose(s, p)) == "remove zennor"
    s.apply(bot.choose(s, p))
    assert s.g_where[seized] == R.LAND and s.g_at[seized] == C.penzance and s.g_owner[seized] == p


def test_a_seat_whose_piece_lies_where_it_has_no_counter_walks_a_counter_to_it():
    """A piece of its own on land where its network no longer stands can be neither carried nor sold, and keeps
    the game from ending (ruling 31 waits while anyone owns a piece): the heuristic walks its nearest counter
    towards it. Found in a 2-seat sweep game that passed for 2,000 Turns (seed 1372809655574590458)."""
    from cornish_scenario import after_setup, loc

    from freetrader.games.cornish_smuggler.components import COMPONENTS as C

    s = after_setup(2, seed=3)
    p = s.to_act
    for g in range(len(C.goods)):
        if s.g_owner[g] == p:
            s.g_where[g], s.g_owner[g] = R.SOLD, -1
    lost = next(g for g in range(len(C.goods)) if s.g_where[g] == R.MERCHANT)
    s.g_where[lost], s.g_at[lost], s.g_owner[lost] = R.LAND, loc("madron"), p
    s.counters[p] = [C.penzance, loc("st-ives")]
    s.gold[p], s.rep[p], s.infl[p], s.secrets[p] = 0, 11, 6, []
    for q in range(R.N_OFFICERS):
        if s.off_at[q] >= 0:
            s.off_at[q] = loc("sennen")
    move = make_bot("heuristic", GAME, 1).choose(s, p)
    assert str(move) == "counter penzance to madron with influence"  # one space from it, the nearest counter
    s.apply(move)
    assert loc("madron") in s.counters[p] and s.g_owner[lost] == p


def test_a_seat_one_gold_short_of_the_last_piece_it_can_take_does_honest_work():
    """Ruling 31 keeps the game going while a seat could still pay for a piece left at a Merchant, counting
    Honest Work; worth 1 Gold, the heuristic used to skip it, and a sweep's 2-seat game (10 Reputation,
    4 Gold, one P-pentomino at 5 left) passed for 300 Turns. Now it works for that Gold, then buys."""
    from cornish_scenario import after_setup

    from freetrader.games.cornish_smuggler.components import COMPONENTS as C

    s = after_setup(2, seed=3)
    p = s.to_act
    hold = R.hold_of_ship(s.ship_card[p])
    last = next(g for g in range(len(C.goods)) if s.g_where[g] == R.MERCHANT
                and R.fits(hold, [C.goods[g]], s.options["flip_goods"]))
    for g in range(len(C.goods)):
        if g != last and s.g_where[g] in (R.MERCHANT, R.SHIP) or s.g_owner[g] >= 0:
            s.g_where[g], s.g_owner[g] = R.SOLD, -1
    s.infl[p], s.secrets[p] = 6, []
    bot = make_bot("heuristic", GAME, 1)
    for short, works in ((1, True), (2, False)):  # 2 short: the Gold would not buy it, so nothing is gained
        s.gold[p] = R.buy_price(s, last) - short
        s.rep[p] = 10 - s.gold[p]  # Honest Work pays 11 minus Reputation minus Gold: 1
        assert R.honest_work_gain(s, p) == 1 and not R.market_closed(s)
        assert (str(bot.choose(s, p)) == "honest-work") is works


def test_it_counts_the_turns_left_from_the_space_its_game_started_on():
    """2-4 players start the Customs Counter six spaces in (tracks.toml start_space): the heuristic's sense of
    how far the game has gone is the same as with a track that began there (found by the 1,000-game tables,
    where counting from space 0 made 2-4 player games end by the track two to five times as often)."""
    game = freetrader.game("cornish-smuggler")
    for seats in (3, 5):
        s = game.new_state(seats, 1)
        s.turn = 2
        start, end = s.track, len(B.C.discovery) - 1
        assert B.CornishBot._turns_left(s) == 8.0  # no progress yet: the cap
        half = (end - start) // 2
        s.track = start + half  # half way after two Turns: as many again
        assert B.CornishBot._turns_left(s) == pytest.approx(2 * (end - start - half) / half)
