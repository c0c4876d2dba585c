"""OpenSpiel's random-simulation test on every registered game, serialization, seeds, information states, IS-MCTS."""

from __future__ import annotations

import json
import pickle

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


def _history(state) -> list[tuple[int, int]]:
    return [(h.player, h.action) for h in state.full_history()]


def _same(a, b, game) -> None:
    """Two states that must be the same position, seen every way OpenSpiel offers."""
    assert str(a) == str(b)
    assert _history(a) == _history(b) and a.move_number() == b.move_number()
    assert a.is_terminal() == b.is_terminal() and a.current_player() == b.current_player()
    assert a.legal_actions() == b.legal_actions()
    if a.is_terminal():
        assert a.returns() == b.returns()
        return
    for p in range(game.num_players()):
        assert a.observation_tensor(p) == b.observation_tensor(p)
        assert a.information_state_string(p) == b.information_state_string(p)
        assert a.information_state_tensor(p) == b.information_state_tensor(p)


def _sim(game, seed: int, serialize: bool = True) -> int:
    """One random game in the manner of OpenSpiel's games_sim_test: clones, observations, information
    states and (at the first ten steps and every power of two) serialization and pickling checked."""
    rng = np.random.default_rng(seed)
    state = game.new_initial_state()
    n = game.num_players()
    obs_size = game.observation_tensor_size()
    info_size = game.information_state_tensor_size()
    step = 0
    while True:
        if not state.is_terminal():
            for p in range(n):
                assert len(state.observation_tensor(p)) == obs_size
                assert len(state.information_state_tensor(p)) == info_size
                assert isinstance(state.observation_string(p), str)
        if serialize and (step < 10 or step & (step - 1) == 0 or state.is_terminal()):
            if not state.is_terminal():
                for p in range(n):  # the state's own methods give what pyspiel's C++ observer path gives
                    assert state.observation_tensor(p) == pyspiel.State.observation_tensor(state, p)
                    assert state.information_state_tensor(p) == pyspiel.State.information_state_tensor(state, p)
                    assert state.observation_string(p) == pyspiel.State.observation_string(state, p)
                    assert state.information_state_string(p) == pyspiel.State.information_state_string(state, p)
            text = fos.serialize_game_and_state(game, state)
            game2, state2 = fos.deserialize_game_and_state(text)
            assert str(game2) == str(game)
            _same(state, state2, game)
            _same(state, pickle.loads(pickle.dumps(state)), game)
        clone = state.clone()
        _same(state, clone, game)
        if state.is_terminal():
            break
        legal = state.legal_actions()
        assert legal and all(0 <= a < game.num_distinct_actions() for a in legal)
        state.apply_action(int(rng.choice(legal)))
        step += 1
        assert step <= game.max_game_length()
    returns = state.returns()
    assert all(game.min_utility() <= r <= game.max_utility() for r in returns)
    if game.get_type().utility == pyspiel.GameType.Utility.ZERO_SUM:
        assert sum(returns) == pytest.approx(0.0)
    return step


def test_games_sim_with_serialization(game_name):
    game = _load(game_name)
    for seed in range(2):
        _sim(game, seed)


def test_pyspiel_cannot_serialize_sampled_python_games_so_ours_does():
    # Recorded so that a pyspiel that forwards GetRNGState to Python shows up here: then its own
    # serialize_game_and_state can be tested instead.
    game = _load("contraband")
    state = game.new_initial_state()
    with pytest.raises(pyspiel.SpielError, match="GetRNGState"):
        pyspiel.serialize_game_and_state(game, state)
    with pytest.raises(ValueError, match="expected the sections"):
        fos.deserialize_game_and_state("not a saved game")


def test_pickled_games_continue_the_same_sequence_of_deals(game_name):
    game = _load(game_name, seed=11)
    game.new_initial_state().current_player()  # deal one game
    copy = pickle.loads(pickle.dumps(game))
    assert str(copy) == str(game)
    assert str(copy.new_initial_state()) == str(game.new_initial_state())


def _deals(game, observe: bool, games: int = 3) -> list[str]:
    out = []
    for g in range(games):
        state = game.new_initial_state()
        rng = np.random.default_rng(g)
        for _ in range(12):
            if state.is_terminal():
                break
            if observe:
                p = state.current_player()
                state.observation_tensor(p)
                state.information_state_tensor(p)
                state.clone().clone()
                state.resample_from_infostate(p, None)
                fos.serialize_game_and_state(game, state)
            state.apply_action(int(rng.choice(state.legal_actions())))
        out.append(str(state))
    return out


def test_the_same_seed_gives_the_same_games_whatever_is_observed(game_name):
    assert _deals(_load(game_name, seed=5), observe=False) == _deals(_load(game_name, seed=5), observe=True)
    assert _deals(_load(game_name, seed=5), observe=False) != _deals(_load(game_name, seed=6), observe=False)


def test_information_states_have_perfect_recall_where_observations_do_not():
    game = fos.load_game("contraband", players=3, end="turns", turn_limit=6)
    assert game.get_type().provides_information_state_tensor
    by_tensor: dict[bytes, str] = {}
    by_string: dict[str, bytes] = {}
    obs_to_string: dict[bytes, set[str]] = {}
    for seed in range(40):
        state = game.new_initial_state()
        rng = np.random.default_rng(seed)
        while not state.is_terminal():
            p = state.current_player()
            t = np.asarray(state.information_state_tensor(p), np.float32).tobytes()
            s = state.information_state_string(p)
            assert by_tensor.setdefault(t, s) == s
            assert by_string.setdefault(s, t) == t
            obs_to_string.setdefault(np.asarray(state.observation_tensor(p), np.float32).tobytes(), set()).add(s)
            state.apply_action(int(rng.choice(state.legal_actions())))
    assert len(by_tensor) > 500
    # The observation alone forgets: some observation tensors stand for several information states.
    assert any(len(v) > 1 for v in obs_to_string.values())


def test_information_state_records_own_decisions_and_hides_the_others():
    game = fos.load_game("contraband", players=3, end="turns", turn_limit=6)
    state = game.new_initial_state()
    rng = np.random.default_rng(0)
    mine: list[list[int]] = []
    for step in range(15):
        p = state.current_player()
        a = int(rng.choice(state.legal_actions()))
        if p == 0:
            mine.append([step, a])
        state.apply_action(a)
    info = json.loads(state.information_state_string(0))
    assert info["decisions"] == mine and len(info["event_marks"]) == 16
    n = game.observation_tensor_size()
    t = np.asarray(state.information_state_tensor(0))
    own = t[n + 2::3][:15]
    assert [int(x) - 1 for x in own if x] == [a for _, a in mine]
    other = np.asarray(state.information_state_tensor(1))[n + 2::3][:15]
    assert not any(other[s] for s, _ in mine)  # seat 1 is not told what seat 0 chose, only its public effects


def test_too_large_an_information_state_tensor_is_refused_with_the_bound_that_fits():
    game = fos.load_game("contraband", players=3, max_game_length=2_000_000)
    with pytest.raises(Exception, match="pass max_game_length="):
        game.new_initial_state().information_state_tensor(0)


def test_max_game_length_is_enforced_with_rank_returns(game_name):
    from freetrader.adapters.limits import default_max_actions, standing_rewards

    game = fos.load_game(game_name, players=small_seats(game_name))
    assert game.max_game_length() == default_max_actions(game_name, small_seats(game_name))
    short = fos.load_game(game_name, players=small_seats(game_name), max_game_length=9)
    state = short.new_initial_state()
    rng = np.random.default_rng(1)
    while not state.is_terminal():
        state.apply_action(int(rng.choice(state.legal_actions())))
    assert len(state.history()) <= 9
    if not state.ft_state.is_over:
        assert state.is_truncated() and len(state.history()) == 9 and state.legal_actions() == []
        assert state.returns() == standing_rewards(state.ft_state, "win")
        assert state.current_player() == pyspiel.PlayerId.TERMINAL


def test_a_stalling_cornish_smuggler_ends_at_the_default_bound():
    game = fos.load_game("cornish-smuggler", players=2)
    state = game.new_initial_state()
    while not state.is_terminal():
        last = state.ft_state.legal_actions()[-1]
        state.apply_action(next(i for i, a in state._legal().items() if a is last))
    assert state.is_truncated() and len(state.history()) == game.max_game_length()
    assert sum(state.returns()) == pytest.approx(0.0)


def test_long_tensors_come_out_as_tolist_gives_them_whatever_the_caller_does_with_them() -> None:
    lister = fos._Lister(600)
    rng = np.random.default_rng(5)
    for _ in range(30):
        v = np.zeros(600, np.float32)
        at = rng.choice(600, 20, replace=False)
        v[at] = rng.normal(size=20).astype(np.float32)
        v[at[:2]] = [-0.0, np.nan]  # bits, not values, are compared
        got = lister(v)
        assert np.array_equal(np.asarray(got, np.float32).view(np.uint32), v.view(np.uint32))
        got[:] = [7.0] * 600  # a caller changing its list does not change the next one
    game = fos.load_game("cornish-smuggler", players=2)
    state = game.new_initial_state()
    enc = game.encoder
    for _ in range(60):
        p = state.current_player()
        assert state.observation_tensor(p) == enc.encode_state(state.ft_state, p).tolist()
        state.apply_action(state.legal_actions()[0])


@pytest.mark.parametrize(("name", "seats"), [("cornish-smuggler", 2), ("cornish-smuggler", 5), ("merchants-cove", 1),
                                             ("merchants-cove", 4)])
def test_tensor_lists_made_from_the_encoders_blocks_are_the_vectors_as_tolist_gives_them(name: str, seats: int) -> None:
    import random

    game = fos.load_game(name, players=seats)
    enc = game.encoder
    paths = (True, False) if enc.compiled else (False,)
    rng = random.Random(f"blocks/{name}/{seats}")
    for compiled in paths:  # Merchants Cove: the compiled tail is cut into blocks too
        enc.compiled = compiled
        state = game.new_initial_state()
        steps = 0
        while not state.is_terminal() and steps < 300:
            for p in range(seats):
                parts = enc.encode_parts(state.ft_state, p)
                want = enc.encode_state(state.ft_state, p)
                assert parts is not None and b"".join(parts) == want.tobytes()
                got = state.observation_tensor(p)
                assert got == want.tolist()
                got[:] = [7.0] * len(got)  # a caller changing its list does not change the next one
                assert state.observation_tensor(p) == want.tolist()
            state.apply_action(rng.choice(state.legal_actions()))
            steps += 1
    enc.compiled = paths[0]
    assert enc.encode_parts(state.ft_state, seats) is None  # a seat out of range: encode_state raises the error


def test_lists_from_blocks_keep_the_bits_of_negative_zero_and_nan() -> None:
    lister = fos._Lister(8)
    a = np.array([0.0, -0.0, np.nan, 1.5], np.float32).tobytes()
    b = np.array([0.0, 0.0, 0.0, 0.0], np.float32).tobytes()
    for parts in ([a, b], [b, a], [a, a]):
        got = lister.from_parts(parts)
        assert np.array_equal(np.asarray(got, np.float32).view(np.uint32),
                              np.frombuffer(b"".join(parts), np.float32).view(np.uint32))


def test_information_state_tensor_size_follows_the_options():
    short = fos.load_game("contraband", players=3, end="turns", turn_limit=2)
    n = short.observation_tensor_size()
    assert short.max_game_length() == 22
    assert short.information_state_tensor_size() == n + 2 + 3 * 22
    assert len(short.new_initial_state().information_state_tensor(0)) == n + 2 + 3 * 22


def test_ismcts_plays_through_evaluate_bots_out_of_the_box():
    from open_spiel.python.algorithms import evaluate_bots

    game = fos.load_game("contraband", players=3, end="turns", turn_limit=2)
    rng = np.random.RandomState(4)
    bots = [fos.ismcts_bot(game, max_simulations=8, random_state=rng)] + [
        pyspiel.make_uniform_random_bot(p, 7 + p) for p in (1, 2)]
    returns = evaluate_bots.evaluate_bots(game.new_initial_state(), bots, rng)
    assert len(returns) == 3 and sum(returns) == pytest.approx(0.0)
    # pyspiel's own ISMCTSBot still lacks restart_at: the one line the docs give is what makes it seatable
    from open_spiel.python.algorithms import ismcts, mcts

    plain = ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(1, rng), 2.0, 8, random_state=rng)
    with pytest.raises(pyspiel.SpielError, match="RestartAt"):
        evaluate_bots.evaluate_bots(game.new_initial_state(), [plain] + bots[1:], rng)
    plain.restart_at = lambda state: plain.reset()
    assert len(evaluate_bots.evaluate_bots(game.new_initial_state(), [plain] + bots[1:], rng)) == 3


def test_small_contraband_has_explicit_chance_and_pyspiels_own_serializer_works():
    game = fos.load_small_contraband()
    assert game.get_type().chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    state = game.new_initial_state()
    outcomes = state.chance_outcomes()
    assert state.is_chance_node() and len(outcomes) == game.max_chance_outcomes() == 60  # 6! / (3! 2! 1!)
    assert sum(p for _, p in outcomes) == pytest.approx(1.0)
    hands = set()
    for action, _ in outcomes:
        child = state.child(action)
        assert child.current_player() == 1
        hands.add(tuple(json.loads(child.information_state_string(1))["your_luggage"]))
        assert "your_luggage" not in json.loads(child.information_state_string(0))
    assert len(hands) == 5  # the luggages of four from 3 duty-free, 2 Brandy, 1 Crown Jewels: 3+1+0, 3+0+1, 2+2+0, 2+1+1, 1+2+1
    pyspiel.random_sim_test(game, num_sims=5, serialize=True, verbose=False)
    child = state.child(11)
    child.apply_action(child.legal_actions()[0])
    text = pyspiel.serialize_game_and_state(game, child)
    assert str(pyspiel.deserialize_game_and_state(text)[1]) == str(child)


def test_cfr_lowers_exploitability_on_small_contraband():
    from open_spiel.python.algorithms import cfr, exploitability

    game = fos.load_small_contraband()
    solver = cfr.CFRSolver(game)
    solver.evaluate_and_update_policy()
    first = exploitability.nash_conv(game, solver.average_policy())
    solver.evaluate_and_update_policy()
    second = exploitability.nash_conv(game, solver.average_policy())
    assert 0.0 <= second < first
