"""Bounded episodes: every adapter ends every game by its bound, and the truncation reward does not pay for stalling."""

from __future__ import annotations

import numpy as np
import pytest

import freetrader
from freetrader.adapters.limits import (
    MEASURED_MAX_ACTIONS,
    check_truncation_reward,
    default_max_actions,
    standing_rewards,
)
from freetrader.core import BadOption

from .conftest import small_seats

pytest.importorskip("pettingzoo")
from freetrader.adapters.gymnasium import FreetraderGymEnv  # noqa: E402
from freetrader.adapters.pettingzoo import env as pz_env  # noqa: E402


def _last_legal(session) -> int:
    """The index of the game's last legal action: the fixed preference that never ends a Cornish Smuggler turn."""
    last = session.state.legal_actions()[-1]
    return next(i for i, a in session.legal().items() if a is last)


def test_every_game_and_seat_count_has_a_measured_bound():
    for name in freetrader.games():
        spec = freetrader.game(name).spec
        for seats in range(spec.min_seats, spec.max_seats + 1):
            assert seats in MEASURED_MAX_ACTIONS.get(name, {}), f"{name} at {seats} seats: run benchmarks/game_lengths.py"
            bound = default_max_actions(name, seats)
            assert bound >= 3 * MEASURED_MAX_ACTIONS[name][seats] and bound % 100 == 0


def test_unknown_games_get_the_fallback_and_bad_settings_are_refused():
    assert default_max_actions("no-such-game", 2) == 100_000
    with pytest.raises(BadOption, match="max_actions must be a whole number"):
        pz_env("contraband", seats=3, max_actions=0)
    with pytest.raises(BadOption, match="truncation_reward must be 'rank' or a number"):
        check_truncation_reward("lose")


def test_standing_rewards_follow_the_current_scores():
    state = freetrader.game("contraband").new_state(3, 1)
    assert standing_rewards(state, "win") == [0.0, 0.0, 0.0]  # everyone starts level: an all-way tie
    state = freetrader.game("cornish-smuggler").new_state(2, 1)
    scores = state.scores()
    r = standing_rewards(state, "win")
    assert sum(r) == pytest.approx(0.0) and standing_rewards(state, "score") == [float(x) for x in scores]


@pytest.mark.parametrize("bound", [1, 37])
def test_pettingzoo_truncates_every_game_at_the_bound(game_name, bound):
    e = pz_env(game_name, seats=small_seats(game_name), max_actions=bound)
    e.reset(seed=3)
    rng = np.random.default_rng(3)
    total = dict.fromkeys(e.possible_agents, 0.0)
    ended = None
    for agent in e.agent_iter():
        obs, reward, term, trunc, _ = e.last()
        total[agent] += reward
        if term or trunc:
            if ended is None:
                ended = (term, trunc, e.session.state.action_count)
                assert not obs["action_mask"].any()  # the end-of-episode convention: no legal index
            e.step(None)
            continue
        e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    assert ended is not None
    term, trunc, count = ended
    assert count <= bound
    if trunc:  # cut off: each seat gets its standing
        assert count == bound and not term
        assert [total[a] for a in e.possible_agents] == standing_rewards(e.session.state, "win")


def test_a_stalling_policy_is_cut_off_at_the_default_bound_and_gains_nothing():
    # Always the last legal action loops within a Cornish Smuggler turn forever
    # (benchmarks/game_lengths.py: 10 of 10 such games reached 20,000 actions at 2 seats).
    e = pz_env("cornish-smuggler", seats=2)
    bound = default_max_actions("cornish-smuggler", 2)
    assert e.max_actions == bound
    e.reset(seed=0)
    total = dict.fromkeys(e.possible_agents, 0.0)
    for agent in e.agent_iter():
        _, reward, term, trunc, _ = e.last()
        total[agent] += reward
        if term or trunc:
            assert trunc and not term
            e.step(None)
            continue
        e.step(_last_legal(e.session))
    state = e.session.state
    assert state.action_count == bound and not state.is_over
    rewards = [total[a] for a in e.possible_agents]
    assert rewards == standing_rewards(state, "win") and sum(rewards) == pytest.approx(0.0)


def test_gymnasium_truncates_with_the_rank_reward_and_a_fixed_one():
    for truncation_reward in ("rank", -0.5):
        e = FreetraderGymEnv("cornish-smuggler", ["random"], max_actions=60, truncation_reward=truncation_reward)
        obs, info = e.reset(seed=5)
        done = False
        while not done:
            obs, reward, term, trunc, info = e.step(_last_legal(e.session))
            done = term or trunc
        state = e.session.state
        assert trunc and not term and info["truncated_at"] == state.action_count
        assert state.action_count == 60  # the bots stop at the bound too, so it is never passed
        expected = standing_rewards(state, "win")[e.seat] if truncation_reward == "rank" else -0.5
        assert reward == expected
        assert not obs["action_mask"].any() and not info["action_mask"].any() and not e.action_masks().any()



def test_a_game_cut_by_its_safety_cap_rewards_no_one():
    """A cap is no rule: a game it stops has no winner, so the zero-sum rewards are 0 for every seat."""
    import random

    from freetrader.adapters._session import final_rewards

    state = freetrader.game("cornish-smuggler").new_state(3, 5, {"turn_limit": 1})
    rng = random.Random(5)
    while not state.is_over:
        state.apply(rng.choice(state.legal_actions()))
    assert state.cut and state.winners() == []
    assert final_rewards(state, "win") == [0.0, 0.0, 0.0]


def test_contraband_bound_follows_its_turn_limit_and_holds_every_game():
    """``end=turns`` bounds a game by its declarations: the default bound and the tensor sizes follow it."""
    import random

    import freetrader
    from freetrader.games.contraband.rules import DECISIONS_PER_DECLARATION

    opts = {"end": "turns", "turn_limit": 2}
    assert default_max_actions("contraband", 3, opts) == 2 * DECISIONS_PER_DECLARATION
    assert default_max_actions("contraband", 3, {"end": "all-officers"}) == default_max_actions("contraband", 3)
    game = freetrader.game("contraband")
    longest = 0
    for seed in range(300):
        seats = 3 + seed % 4
        turns = 1 + seed % 5
        s = game.new_state(seats, seed, {"end": "turns", "turn_limit": turns, "first_officer": "agreement"})
        rng = random.Random(seed)
        while not s.is_over:
            legal = s.legal_actions()
            longer = [a for a in legal if str(a).startswith(("claim", "borrow", "inform"))]  # the longest turns
            s.apply(rng.choice(longer if longer and rng.random() < 0.8 else legal))
        bound = default_max_actions("contraband", seats, {"end": "turns", "turn_limit": turns})
        assert s.action_count <= bound
        longest = max(longest, s.action_count / turns)
    assert longest > DECISIONS_PER_DECLARATION / 2


@pytest.mark.parametrize("name", [n for n in freetrader.games() if n != "cornish-smuggler"])
def test_random_play_ends_by_the_rules_within_the_bound(name):
    """Uniform-random play finishes every game but Cornish Smuggler (which it never finishes: see the README's
    episode-length table, ``benchmarks/episode_ends.py``) before the adapters' bound, at the fewest and most seats."""
    import random

    spec = freetrader.game(name).spec
    for seats in sorted({spec.min_seats, spec.max_seats}):
        bound = default_max_actions(name, seats)
        for seed in range(3):
            state = freetrader.game(name).new_state(seats, seed)
            rng = random.Random(seed)
            while not state.is_over and state.action_count < bound:
                state.apply_unchecked(rng.choice(state.legal_actions()))
            assert state.is_over and not state.cut, f"{name} at {seats} seats, seed {seed}: {state.action_count} actions"
