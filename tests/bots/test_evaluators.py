"""The games' rollout-cut evaluators (estimated final scores) and IS-MCTS's credit to the heuristic's move."""

from __future__ import annotations

import math
from typing import Any

import pytest

import freetrader
from freetrader.bots import make_bot
from freetrader.bots.ismcts import evaluator_for
from freetrader.core import BadOption, Rng, State


def _position(name: str, seats: int, seed: int, steps: int) -> State:
    state = freetrader.game(name).new_state(seats, seed)
    rng = Rng(seed)
    while not state.is_over and (state.action_count < steps or len(state.legal_actions()) < 2):
        state.apply(rng.choice(state.legal_actions()))
    return state


@pytest.mark.parametrize("name", ["cornish-smuggler", "precious-cargo", "merchants-cove"])
def test_estimates_are_finite_and_at_least_the_scores(name: str) -> None:
    g = freetrader.game(name)
    estimate = evaluator_for(g)
    assert estimate is not None
    for seed in range(6):
        s = _position(name, 2, seed, 20 + 25 * seed)
        values = estimate(s)
        assert len(values) == s.seats and all(math.isfinite(v) for v in values)
        if name != "merchants-cove":  # goods and cargo only add; Merchants Cove also charges Corruption
            assert all(v >= sc for v, sc in zip(values, s.scores(), strict=True))


def test_merchants_cove_estimate_is_the_gold_once_the_game_is_over() -> None:
    s = _position("merchants-cove", 2, 3, 10_000)
    assert s.is_over
    assert evaluator_for(s.game)(s) == s.scores()  # type: ignore[misc]


def test_precious_cargo_values_cargo_aboard() -> None:
    from freetrader.games.precious_cargo.rules import SHIPS, sellable

    s: Any = _position("precious-cargo", 2, 1, 30)
    estimate = evaluator_for(s.game)
    assert estimate is not None
    seat = 0
    slot = next(k for k in range(seat * SHIPS, seat * SHIPS + SHIPS) if s.at[k] >= 0)
    empty = s.clone()
    empty.holds[slot] = ()
    # Food bought at settlement 0 sells anywhere else: aboard, it is worth something to its owner only.
    loaded = s.clone()
    loaded.holds[slot] = (0,)
    assert any(sellable(loaded, 0, q) for q in range(1, 8))
    assert estimate(loaded)[seat] > estimate(empty)[seat]
    assert estimate(loaded)[1] == estimate(empty)[1]
    richer = empty.clone()
    richer.coins[seat] += 3
    assert estimate(richer)[seat] == estimate(empty)[seat] + 3


def test_cornish_goods_are_worth_more_the_nearer_a_sale() -> None:
    from freetrader.games.cornish_smuggler import rules as R

    s: Any = _position("cornish-smuggler", 2, 2, 10)
    estimate = evaluator_for(s.game)
    assert estimate is not None
    g = 0
    values = {}
    for where in (R.SHIP, R.LAND, R.STORE, R.WAREHOUSE, R.SOLD):
        w = s.clone()
        w.g_where[g], w.g_owner[g] = where, 1
        values[where] = estimate(w)[1]
    assert values[R.SOLD] < values[R.SHIP] < values[R.LAND] < values[R.STORE] < values[R.WAREHOUSE]


def test_prior_keeps_the_heuristic_move_on_a_tiny_budget() -> None:
    # With one iteration, no other move can out-collect the credit the heuristic's move gets.
    g = freetrader.game("precious-cargo")
    for seed in range(5):
        s = _position("precious-cargo", 2, seed, 15 + 10 * seed)
        seat = s.to_act
        assert seat is not None
        world = s.determinize(seat, Rng(seed))
        heuristic = make_bot("heuristic", g, 0).choose(world.clone(), seat)
        bot = make_bot("ismcts:iters=1;prior=2", g, 0)
        assert bot.choose(world, seat) == heuristic


def test_prior_parameter() -> None:
    g = freetrader.game("precious-cargo")
    assert make_bot("ismcts", g).prior == 0.25  # type: ignore[attr-defined]
    assert make_bot("ismcts:playout=random", g).prior == 0.0  # type: ignore[attr-defined]
    with pytest.raises(BadOption):
        make_bot("ismcts:prior=-1", g)


def test_games_register_their_rollout_depth() -> None:
    depth = {name: make_bot("ismcts", freetrader.game(name)).depth for name in freetrader.games()}  # type: ignore[attr-defined]
    assert depth["contraband"] == 10 and depth["merchants-cove"] == 4 and depth["precious-cargo"] == 20
    assert make_bot("ismcts:depth=7", freetrader.game("contraband")).depth == 7  # type: ignore[attr-defined]
