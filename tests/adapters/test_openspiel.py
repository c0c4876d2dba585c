"""OpenSpiel's random-simulation test on every registered game, and IS-MCTS through resampling."""

from __future__ import annotations

import json

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")
from freetrader.adapters import openspiel as fos  # noqa: E402

from .conftest import short_options, small_seats  # noqa: E402


def _load(name: str, **extra):
    return fos.load_game(name, players=small_seats(name), **short_options(name), **extra)


def test_random_sim_test(game_name):
    game = _load(game_name)
    assert game.get_type().chance_mode == pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC
    pyspiel.random_sim_test(game, num_sims=1, serialize=False, verbose=False)


def test_registered_under_freetrader_names(game_name):
    name = fos.short_name(game_name)
    assert name in pyspiel.registered_names() and fos.register(game_name) == name


def test_resampling_keeps_the_information_state(game_name):
    game = _load(game_name)
    state = game.new_initial_state()
    rng = np.random.default_rng(0)
    for _ in range(25):
        if state.is_terminal():
            break
        state.apply_action(int(rng.choice(state.legal_actions())))
    if state.is_terminal():
        pytest.skip("game ended early")
    p = state.current_player()
    other = state.resample_from_infostate(p, None)
    assert other.information_state_string(p) == state.information_state_string(p)
    assert np.array_equal(other.observation_tensor(p), state.observation_tensor(p))
    assert other.legal_actions() == state.legal_actions()
    assert "events" in json.loads(state.information_state_string(p))
    assert "events" not in json.loads(state.observation_string(p))


def test_ismcts_plays_contraband():
    from open_spiel.python.algorithms import ismcts, mcts

    game = _load("contraband")
    state = game.new_initial_state()
    rng = np.random.RandomState(1)
    bot = ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(1, rng), uct_c=2.0, max_simulations=20, random_state=rng)
    action = bot.step(state)
    assert action in state.legal_actions()


def test_outcome_sampling_mccfr_learns_a_policy_on_a_small_contraband():
    # Chance is sampled inside the game (each new_initial_state draws a new deal), which is
    # what outcome-sampling MCCFR samples anyway; full-tree CFR needs explicit chance nodes.
    from open_spiel.python.algorithms import outcome_sampling_mccfr

    game = fos.load_game("contraband", players=3, end="turns", turn_limit=2)
    solver = outcome_sampling_mccfr.OutcomeSamplingSolver(game)
    for _ in range(60):
        solver.iteration()
    policy = solver.average_policy()
    state = game.new_initial_state()
    steps = 0
    while not state.is_terminal():
        probs = policy.action_probabilities(state)
        assert set(probs) == set(state.legal_actions())
        assert sum(probs.values()) == pytest.approx(1.0)
        state.apply_action(max(probs, key=probs.get))
        steps += 1
    assert steps > 0 and len(state.returns()) == 3
