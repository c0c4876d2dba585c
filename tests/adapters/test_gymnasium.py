"""Gymnasium's env checker on every registered game; opponents are registered bots."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("gymnasium")
from gymnasium.utils.env_checker import check_env  # noqa: E402

import freetrader  # noqa: E402
from freetrader.adapters.gymnasium import FreetraderGymEnv, make_env  # noqa: E402
from freetrader.bots import bot_names  # noqa: E402
from freetrader.core import BadOption, IllegalAction  # noqa: E402

from .conftest import short_options, small_seats  # noqa: E402


def _opponent(name: str) -> str:
    return "heuristic" if "heuristic" in bot_names(freetrader.game(name)) else "random"


def test_check_env(game_name):
    seats = small_seats(game_name)
    e = make_env(game_name, [_opponent(game_name)], seats=seats, **short_options(game_name))
    check_env(e, skip_render_check=True)


def test_episode_against_bots_is_reproducible(game_name):
    def run(seed: int) -> tuple[float, int]:
        e = make_env(game_name, ["random"], seats=small_seats(game_name), seat="random", **short_options(game_name))
        obs, info = e.reset(seed=seed)
        rng = np.random.default_rng(seed)
        steps, done, reward = 0, False, 0.0
        while not done:
            assert obs["action_mask"].any()
            obs, reward, term, trunc, info = e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
            done = term or trunc
            steps += 1
        return reward, steps

    assert run(7) == run(7)


def test_illegal_actions():
    e = FreetraderGymEnv("contraband", ["heuristic", "random"], end="turns", turn_limit=6)
    obs, _ = e.reset(seed=2)
    bad = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    _, reward, term, _, info = e.step(bad)
    assert term and reward == -1.0 and info["illegal_action"]
    strict = FreetraderGymEnv("contraband", ["random"], seats=3, illegal="raise", end="turns", turn_limit=6)
    obs, _ = strict.reset(seed=2)
    with pytest.raises(IllegalAction):
        strict.step(int(np.flatnonzero(obs["action_mask"] == 0)[0]))


def test_bad_configuration_is_explained():
    with pytest.raises(BadOption, match="need 3 opponents"):
        FreetraderGymEnv("contraband", ["random", "random"], seats=4)
    with pytest.raises(BadOption, match="unknown bot"):
        FreetraderGymEnv("contraband", ["nobody", "random"])


def test_registered_ids_make_and_make_vec(game_name):
    import gymnasium as gym

    from freetrader.adapters.gymnasium import env_id

    eid = env_id(game_name)
    assert eid == f"freetrader/{freetrader.game(game_name).spec.name}-v1" and eid in gym.registry
    seats = small_seats(game_name)
    e = gym.make(eid, opponents=["random"], seats=seats, **short_options(game_name))
    assert e.spec.id == eid and e.unwrapped.session.game.spec.name == freetrader.game(game_name).spec.name
    obs, info = e.reset(seed=1)
    assert e.observation_space.contains(obs)
    vec = gym.make_vec(eid, num_envs=2, vectorization_mode="sync", opponents=["random"], seats=seats, flatten=True,
                       **short_options(game_name))
    obs, info = vec.reset(seed=2)
    assert obs.shape == (2, e.unwrapped.session.observation_size)
    assert info["action_mask"].shape == (2, e.unwrapped.session.num_actions) and info["action_mask"].any(axis=1).all()
    actions = [int(np.flatnonzero(m)[0]) for m in info["action_mask"]]
    obs, reward, term, trunc, info = vec.step(np.array(actions))
    assert obs.shape[0] == 2 and reward.shape == (2,)
    vec.close()


def test_flattened_observations_pass_the_checker_and_keep_the_mask_in_info(game_name):
    seats = small_seats(game_name)
    e = make_env(game_name, ["random"], seats=seats, flatten=True, **short_options(game_name))
    check_env(e, skip_render_check=True)
    obs, info = e.reset(seed=4)
    assert isinstance(obs, np.ndarray) and obs.dtype == np.float32 and e.observation_space.contains(obs)
    assert np.array_equal(info["action_mask"].astype(bool), e.action_masks())


def test_observations_lie_within_the_declared_bounds(game_name):
    seats = small_seats(game_name)
    e = make_env(game_name, ["random"], seats=seats, flatten=True, **short_options(game_name))
    box = e.observation_space
    rng = np.random.default_rng(0)
    for seed in range(3):
        obs, info = e.reset(seed=seed)
        done = False
        while not done:
            assert box.contains(obs), (obs.min(), obs.max(), box.low.min(), box.high.max())
            obs, _, term, trunc, info = e.step(int(rng.choice(np.flatnonzero(info["action_mask"]))))
            done = term or trunc


def test_gym_make_with_no_arguments_plays_the_fewest_seats_against_random(game_name):
    import gymnasium as gym

    from freetrader.adapters.gymnasium import env_id

    e = gym.make(env_id(game_name))
    spec = freetrader.game(game_name).spec
    inner = e.unwrapped
    assert inner.session.seats == max(2, spec.min_seats) and inner.opponent_specs == ["random"] * (inner.session.seats - 1)
    obs, info = e.reset(seed=0)
    legal = np.flatnonzero(obs["action_mask"])
    obs, reward, terminated, truncated, info = e.step(int(legal[0]))
    assert obs["observation"].shape == e.observation_space["observation"].shape
    e.close()
