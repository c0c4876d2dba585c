"""PettingZoo's own conformance tests on every registered game."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

pytest.importorskip("pettingzoo")
from pettingzoo.test import api_test, seed_test  # noqa: E402

from freetrader.adapters.pettingzoo import env  # noqa: E402
from freetrader.core import IllegalAction  # noqa: E402

from .conftest import short_options, small_seats  # noqa: E402


def _env(name: str, **kw):
    return env(name, seats=small_seats(name), **short_options(name), **kw)


@pytest.mark.parametrize("encoder", ["auto", "generic"])
def test_api_test(game_name, encoder):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # api_test warns about dict observations, which PettingZoo's own classic envs use
        api_test(_env(game_name, encoder=encoder), num_cycles=200)


def test_seed_test(game_name):
    seed_test(lambda: _env(game_name), num_cycles=100)


def test_full_game_rewards_and_reproducibility(game_name):
    def play(seed: int) -> tuple[list[float], list[int]]:
        e = _env(game_name)
        e.reset(seed=seed)
        rng = np.random.default_rng(seed)
        taken: list[int] = []
        total = dict.fromkeys(e.possible_agents, 0.0)
        for agent in e.agent_iter():
            obs, reward, term, trunc, _ = e.last()
            total[agent] += reward
            if term or trunc:
                e.step(None)
                continue
            a = int(rng.choice(np.flatnonzero(obs["action_mask"])))
            taken.append(a)
            e.step(a)
        return [total[a] for a in e.possible_agents], taken

    first = play(4)
    assert first == play(4)
    rewards = first[0]
    assert abs(sum(rewards)) < 1e-9  # zero-sum
    assert max(rewards) > 0 or rewards == [0.0] * len(rewards)  # somebody won, or an all-way tie


def test_illegal_action_is_refused_with_the_legal_ones():
    e = _env("contraband")
    e.reset(seed=1)
    mask = e.last()[0]["action_mask"]
    bad = int(np.flatnonzero(mask == 0)[0])
    with pytest.raises(IllegalAction, match="legal:"):
        e.step(bad)


def test_game_options_and_unknown_option():
    e = env("contraband", seats=4, end="turns", turn_limit=5)
    assert e.session.options["turn_limit"] == 5 and e.num_agents == 0
    e.reset(seed=0)
    assert e.num_agents == 4
    with pytest.raises(Exception, match="no option"):
        env("contraband", seats=3, bogus=1)


def test_state_is_the_spectators_encoding_within_its_space(game_name):
    from pettingzoo.test.state_test import test_state_space

    e = _env(game_name)
    test_state_space(e)
    e.reset(seed=2)
    rng = np.random.default_rng(2)
    for _agent in e.agent_iter(400):
        obs, _, term, trunc, _ = e.last()
        state = e.state()
        assert e.state_space.contains(state)
        assert np.array_equal(state, e.session.encoder.encode_state(e.session.state, None))
        e.step(None if term or trunc else int(rng.choice(np.flatnonzero(obs["action_mask"]))))


def test_flattened_observations_with_the_mask_in_infos(game_name):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        api_test(_env(game_name, flatten=True), num_cycles=100)
    e = _env(game_name, flatten=True)
    e.reset(seed=5)
    rng = np.random.default_rng(5)
    for agent in e.agent_iter(300):
        obs, _, term, trunc, info = e.last()
        assert isinstance(obs, np.ndarray) and e.observation_space(agent).contains(obs)
        masks = {a: e.infos[a]["action_mask"] for a in e.agents}
        if term or trunc:
            assert not any(m.any() for m in masks.values())
            e.step(None)
            continue
        assert masks[agent].any() and not any(m.any() for a, m in masks.items() if a != agent)
        e.step(int(rng.choice(np.flatnonzero(info["action_mask"]))))


def test_observations_are_read_only_so_no_caller_can_change_what_another_is_shown(game_name):
    e = _env(game_name)
    e.reset(seed=2)
    agent = e.agent_selection
    obs = e.observe(agent)["observation"]
    before = obs.copy()
    with pytest.raises(ValueError, match="read-only"):
        obs[0] = 99.0
    mine = np.array(obs)  # a copy the caller owns
    mine[0] = 99.0
    assert np.array_equal(e.last()[0]["observation"], before)
    flat = env(game_name, seats=small_seats(game_name), flatten=True, **short_options(game_name))
    flat.reset(seed=2)
    assert not flat.observe(flat.agent_selection).flags.writeable


def test_last_shows_what_observe_shows_and_agent_iter_stops_as_pettingzoos_does(game_name):
    """``last()`` (through ``Session.observe_and_mask``) hands out the very arrays ``observe`` does, position
    after position; ``agent_iter`` (a generator here) yields the agent to act, stops after ``max_iter`` and
    once no agent is left, as PettingZoo's ``AECIterable`` does."""
    from pettingzoo.utils.env import AECIterable

    e = _env(game_name)
    e.reset(seed=4)
    assert list(e.agent_iter(3)) == [e.agent_selection] * 3 == list(AECIterable(e, 3))
    assert list(e.agent_iter(0)) == []
    rng = np.random.default_rng(4)
    seen = 0
    for agent in e.agent_iter():
        obs, _, term, trunc, _ = e.last()
        if term or trunc:
            e.step(None)
            continue
        again = e.observe(agent)
        assert obs["observation"] is again["observation"] and obs["action_mask"] is again["action_mask"]
        assert np.array_equal(obs["action_mask"], e.session.mask()) and obs["action_mask"].any()
        e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        seen += 1
    assert seen > 0 and e.agents == [] and list(e.agent_iter()) == [] == list(AECIterable(e, 5))
