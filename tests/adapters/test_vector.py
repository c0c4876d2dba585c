"""The batched environment: stacked observations and masks, auto-reset, the Gymnasium adapter's episode semantics."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("gymnasium")
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
