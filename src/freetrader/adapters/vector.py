"""N games stepped at once, for learners that act in batches: stacked NumPy observations and masks, auto-reset.

>>> from freetrader.adapters.vector import BatchedEnv
>>> env = BatchedEnv("contraband", num_envs=8, end="turns", turn_limit=12)
>>> obs, mask = env.reset(seed=0)
>>> obs.shape, mask.shape
((8, 206), (8, 132))

Each of the ``num_envs`` games seats one learner (``seat``, default 0) against
``opponents`` (bot specs as in the Gymnasium adapter; seats default to one
plus their number, and with a single spec to at least the game's fewest).
``step(actions)`` takes one action index per game for its learner, plays the
opponents until each game's learner is to act again, and returns
``(obs, mask, reward, terminated, truncated)``: ``float32[N, size]``,
``int8[N, num_actions]``, ``float32[N]`` and two ``bool[N]``. The episode
semantics are the Gymnasium adapter's (rewards at the end, ``rewards="win"``
or ``"score"``; truncation at ``max_actions`` actions of all seats with
``truncation_reward``). A game whose episode ended in that step is reset at
once (auto-reset, the "same step" mode): its row of ``obs`` and ``mask`` is
the first position of the next episode, its reward and flags those of the
episode that ended (``last_scores`` keeps that episode's final scores).
The arrays returned are the environment's own buffers, overwritten by the
next call: copy what you keep.

``"random"`` opponents pick uniformly among the legal actions of the true
state directly (what the ``random`` bot does from a determinized one; the
choice does not depend on hidden cards), which is most of this class's speed
over ``gymnasium.vector.SyncVectorEnv`` of ``FreetraderGymEnv``
(``benchmarks/bench_adapters.py`` prints both side by side). Other bots
decide through ``freetrader.bots.decide`` as in the Gymnasium adapter. An
illegal index raises ``IllegalAction`` naming the game.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from freetrader._extras import missing_extra

try:
    import numpy as np
except ImportError as _exc:
    raise missing_extra("rl", "freetrader.adapters.vector", _exc) from _exc

from freetrader.bots import Bot, decide, make_bot
from freetrader.core import BadOption, Game, IllegalAction, Rng, derive_seed
from freetrader.core import game as find_game

from ._session import Session, check_rewards, final_rewards
from .limits import check_max_actions, check_truncation_reward, truncation_rewards

__all__ = ["BatchedEnv"]


class BatchedEnv:
    """``num_envs`` games of one learner seat against opponents, stepped together (see the module docstring)."""

    def __init__(
        self,
        game: Game | str,
        num_envs: int,
        opponents: Sequence[str] = ("random",),
        *,
        seats: int | None = None,
        seat: int = 0,
        encoder: Any = "auto",
        rewards: str = "win",
        max_actions: int | None = None,
        truncation_reward: str | float = "rank",
        options: Mapping[str, Any] | None = None,
        **game_options: Any,
    ) -> None:
        if isinstance(num_envs, bool) or not isinstance(num_envs, int) or num_envs < 1:
            raise BadOption(f"num_envs must be a whole number of at least 1, got {num_envs!r}")
        if isinstance(opponents, str):
            opponents = [opponents]
        if not opponents:
            raise BadOption("opponents needs at least one bot spec, e.g. ['random']")
        g = find_game(game) if isinstance(game, str) else game
        if seats is None:
            seats = max(1 + len(opponents), g.spec.min_seats) if len(opponents) == 1 else 1 + len(opponents)
        opts = dict(options or {}, **game_options)
        self.sessions = [Session(g, seats, opts, encoder) for _ in range(num_envs)]
        first = self.sessions[0]
        n = first.seats
        if len(opponents) == 1:
            opponents = list(opponents) * (n - 1)
        if len(opponents) != n - 1:
            raise BadOption(f"{n} seats need {n - 1} opponents (or one spec for all), got {len(opponents)}")
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < n:
            raise BadOption(f"seat must be 0..{n - 1}, got {seat!r}")
        for spec in opponents:  # fail now, not at the first reset
            make_bot(spec, g)
        self.game = g
        self.num_envs = num_envs
        self.seats = n
        self.seat = seat
        self.opponent_specs = list(opponents)
        self.rewards_scheme = check_rewards(rewards)
        self.max_actions = check_max_actions(max_actions, g, n, first.options)
        self.truncation_reward = check_truncation_reward(truncation_reward)
        self.observation_size = first.observation_size
        self.num_actions = first.num_actions
        self.obs = np.zeros((num_envs, self.observation_size), np.float32)
        self.mask = np.zeros((num_envs, self.num_actions), np.int8)
        self.reward = np.zeros(num_envs, np.float32)
        self.terminated = np.zeros(num_envs, bool)
        self.truncated = np.zeros(num_envs, bool)
        self.last_scores: list[list[float] | None] = [None] * num_envs
        self._random = [spec == "random" for spec in self.opponent_specs]
        self._bots: list[dict[int, Bot]] = [{} for _ in range(num_envs)]
        self._pick: list[random.Random] = [random.Random(0) for _ in range(num_envs)]
        self._rng: list[Rng] = [Rng(0) for _ in range(num_envs)]
        self._seeds = random.Random(0)

    def reset(self, seed: int | None = None) -> tuple[np.ndarray, np.ndarray]:
        """Start a new game in every slot (seeded from ``seed``); returns ``(obs, mask)``."""
        self._seeds = random.Random(seed)
        for i in range(self.num_envs):
            self._new_game(i)
        self.reward[:] = 0.0
        self.terminated[:] = False
        self.truncated[:] = False
        return self.obs, self.mask

    def _new_game(self, i: int) -> None:
        base = self._seeds.getrandbits(62)
        others = [p for p in range(self.seats) if p != self.seat]
        self._bots[i] = {p: make_bot(spec, self.game, seed=derive_seed(base, p + 1))
                         for p, spec, rnd in zip(others, self.opponent_specs, self._random, strict=True) if not rnd}
        self._pick[i] = random.Random(derive_seed(base, 0))
        self._rng[i] = Rng(derive_seed(base, 0))
        self.sessions[i].new_game(derive_seed(base, 99))
        self._run_opponents(i)
        if self._ended(i) is not None:  # the opponents ended it before the learner's first turn: deal again
            self._new_game(i)
            return
        self._show(i)

    def _run_opponents(self, i: int) -> None:
        state = self.sessions[i].state
        limit, seat, bots, pick = self.max_actions, self.seat, self._bots[i], self._pick[i]
        while not state.is_over and state.action_count < limit:
            who = state.to_act
            if who == seat:
                return
            assert who is not None
            bot = bots.get(who)
            if bot is None:
                state.apply_unchecked(pick.choice(state.legal_actions()))
            else:
                state.apply(decide(bot, state, who, self._rng[i]), seat=who)

    def _ended(self, i: int) -> tuple[float, bool] | None:
        """(reward, terminated) if game ``i``'s episode is over, else None."""
        state = self.sessions[i].state
        if state.is_over:
            return final_rewards(state, self.rewards_scheme)[self.seat], True
        if state.action_count >= self.max_actions:
            return truncation_rewards(state, self.rewards_scheme, self.truncation_reward)[self.seat], False
        return None

    def _show(self, i: int) -> None:
        s = self.sessions[i]
        self.obs[i] = s.observe(self.seat)
        self.mask[i] = s.mask()

    def step(self, actions: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """One learner action per game; returns ``(obs, mask, reward, terminated, truncated)``."""
        acts = np.asarray(actions).reshape(-1)
        if acts.shape[0] != self.num_envs:
            raise IllegalAction(f"step needs one action per game ({self.num_envs}), got {acts.shape[0]}")
        reward, terminated, truncated = self.reward, self.terminated, self.truncated
        for i, a in enumerate(acts.tolist()):
            s = self.sessions[i]
            try:
                s.play(a)
            except IllegalAction as exc:
                raise IllegalAction(f"game {i}: {exc}") from None
            self._run_opponents(i)
            ended = self._ended(i)
            if ended is None:
                reward[i] = 0.0
                terminated[i] = truncated[i] = False
                self._show(i)
            else:
                reward[i], terminated[i] = ended
                truncated[i] = not ended[1]
                self.last_scores[i] = s.state.scores()
                self._new_game(i)
        return self.obs, self.mask, reward, terminated, truncated
