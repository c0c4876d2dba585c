"""The batched environment: stacked observations and masks, auto-reset, the Gymnasium adapter's episode semantics."""

from __future__ import annotations

import numpy as np
import pytest

import freetrader

pytest.importorskip("gymnasium")
from freetrader.adapters.encoders import encoder_for  # noqa: E402
from freetrader.adapters.vector import BatchedEnv  # noqa: E402
from freetrader.core import BadOption, IllegalAction  # noqa: E402

from .conftest import short_options, small_seats  # noqa: E402


def _play(env: BatchedEnv, steps: int, seed: int) -> tuple[list[float], int, int]:
    rng = np.random.default_rng(seed)
    obs, mask = env.reset(seed=seed)
    rewards: list[float] = []
    ends = truncs = 0
    for _ in range(steps):
        assert obs.shape == (env.num_envs, env.observation_size) and mask.shape == (env.num_envs, env.num_actions)
        assert (mask.sum(axis=1) > 0).all()  # every game's learner is to act: auto-reset keeps it so
        actions = [int(rng.choice(np.flatnonzero(m))) for m in mask]
        obs, mask, reward, terminated, truncated = env.step(actions)
        assert not (terminated & truncated).any()
        assert (reward[~(terminated | truncated)] == 0).all()
        rewards += reward[terminated | truncated].tolist()
        ends += int(terminated.sum())
        truncs += int(truncated.sum())
    return rewards, ends, truncs


def test_batched_games_end_reset_and_pay_as_the_gymnasium_adapter(game_name):
    env = BatchedEnv(game_name, 3, seats=small_seats(game_name), **short_options(game_name))
    rewards, ends, truncs = _play(env, 150, seed=1)
    assert ends + truncs > 0 and len(rewards) == ends + truncs
    lo, hi = (-1.0 / (env.seats - 1), 1.0) if env.seats > 1 else (0.0, 1.0)
    assert all(lo - 1e-6 <= r <= hi + 1e-6 for r in rewards)
    assert any(s is not None and len(s) == env.seats for s in env.last_scores)


def test_the_same_seed_gives_the_same_batch():
    a = BatchedEnv("contraband", 4, end="turns", turn_limit=6)
    b = BatchedEnv("contraband", 4, end="turns", turn_limit=6)
    assert _play(a, 60, seed=7) == _play(b, 60, seed=7)
    assert np.array_equal(a.obs, b.obs) and np.array_equal(a.mask, b.mask)


def test_observations_are_the_learners_and_truncation_follows_the_bound():
    env = BatchedEnv("contraband", 2, max_actions=30)
    obs, mask = env.reset(seed=3)
    for i, s in enumerate(env.sessions):
        assert s.state.to_act == env.seat
        assert np.array_equal(obs[i], s.encoder.encode_state(s.state, env.seat))
        assert np.array_equal(mask[i], s.mask())
    _, ends, truncs = _play(env, 40, seed=3)
    assert truncs > 0


def test_bad_arguments_and_illegal_actions_are_refused_with_a_reason():
    with pytest.raises(BadOption, match="num_envs"):
        BatchedEnv("contraband", 0)
    env = BatchedEnv("contraband", 2)
    obs, mask = env.reset(seed=0)
    with pytest.raises(IllegalAction, match="one action per game"):
        env.step([0])
    bad = [int(np.flatnonzero(m == 0)[0]) for m in mask]
    with pytest.raises(IllegalAction, match="game 0"):
        env.step(bad)


def test_other_bots_play_through_decide():
    env = BatchedEnv("contraband", 2, ["heuristic"], end="turns", turn_limit=4)
    _, ends, truncs = _play(env, 40, seed=2)
    assert ends > 0


def test_every_row_is_the_learners_encoding_and_mask_after_steps(game_name):
    """Rows are written in place (compiled bytes copied, masks set through a byte view): after every step
    each row must still be exactly ``encode_state`` and the session's mask of that game's position."""
    env = BatchedEnv(game_name, 3, seats=small_seats(game_name), **short_options(game_name))
    rng = np.random.default_rng(5)
    obs, mask = env.reset(seed=5)
    for _ in range(40):
        for i, s in enumerate(env.sessions):
            assert s.state.to_act == env.seat
            assert np.array_equal(obs[i], s.encoder.encode_state(s.state, env.seat))
            assert np.array_equal(mask[i], s.mask())
        obs, mask, *_ = env.step([int(rng.choice(np.flatnonzero(m))) for m in mask])


@pytest.mark.parametrize("compiled", [True, False])
def test_encode_into_writes_each_state_into_its_row(game_name, compiled):
    seats = small_seats(game_name)
    enc = encoder_for(game_name, seats)
    enc.compiled = compiled and enc.compiled  # the Python path (blocks or encode_state) as well as the C twin
    g = freetrader.game(game_name)
    rng = np.random.default_rng(1)
    states = []
    for seed in range(3):
        state = g.new_state(seats, seed)
        for _ in range(int(rng.integers(0, 30))):
            if state.is_over:
                break
            legal = state.legal_actions()
            state.apply(legal[int(rng.integers(len(legal)))])
        states.append(state)
    out = np.full((5, enc.observation_size), -7.0, np.float32)
    enc.encode_into(states, 0, out, [4, 0, 2])
    for row, state in zip([4, 0, 2], states, strict=True):
        assert np.array_equal(out[row], enc.encode_state(state, 0))
    assert (out[[1, 3]] == -7.0).all()  # rows not named are left alone
    with pytest.raises(ValueError, match="float32"):
        enc.encode_into(states, 0, np.zeros((3, enc.observation_size)), [0, 1, 2])


def test_actions_as_a_list_or_an_array_play_alike_and_every_step_rewrites_its_buffers():
    """A list of ints is read as it is, anything else through numpy: the same play. Rewards and flags are
    rewritten at every step, whether or not a game ended in it, whatever the caller wrote into them."""
    a = BatchedEnv("contraband", 3, end="turns", turn_limit=4)
    b = BatchedEnv("contraband", 3, end="turns", turn_limit=4)
    a.reset(seed=5)
    b.reset(seed=5)
    ended = quiet = 0
    for _ in range(60):
        acts = [int(np.flatnonzero(m)[-1]) for m in a.mask]
        a.reward[:] = 9.0  # the caller's own scribbles on the buffers it was handed
        a.terminated[:] = a.truncated[:] = True
        got = a.step(acts)
        want = b.step(np.array(acts))
        assert all(np.array_equal(x, y) for x, y in zip(got, want, strict=True))
        if (got[3] | got[4]).any():
            ended += 1
        else:
            quiet += 1
            assert not got[2].any() and not got[3].any() and not got[4].any()
    assert ended > 0 and quiet > 0
