"""PettingZoo AEC environments for every registered game.

>>> from freetrader.adapters.pettingzoo import env
>>> e = env("cornish-smuggler", seats=2)
>>> e.reset(seed=1)
>>> obs, reward, terminated, truncated, info = e.last()
>>> sorted(obs)
['action_mask', 'observation']

Agents are ``player_0`` .. ``player_{n-1}`` (seat ``i`` is ``player_i``).
``agent_selection`` is the seat the game asks; out-of-turn reactions are
simply that seat's turn. An observation is a dict: ``observation``, the
encoder's ``float32`` vector built from that seat's view only, and
``action_mask``, ``int8`` over the encoder's action index space (all zeros
for an agent that is not to act). Rewards come at the end (``rewards="win"``:
zero-sum, +1/-1 with two seats; ``"score"``: final scores). ``reset(seed=s)``
fixes the game's seed; without a seed the next game continues the previous
sequence (or fresh entropy the first time). ``max_steps`` truncates long games.
An illegal action index raises ``IllegalAction``.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from freetrader._extras import missing_extra

try:
    import numpy as np
    from gymnasium import spaces
    from pettingzoo import AECEnv
except ImportError as _exc:
    raise missing_extra("rl", "freetrader.adapters.pettingzoo", _exc) from _exc

from freetrader.core import Game

from ._session import Session, check_rewards, final_rewards
from .encoders import Encoder

__all__ = ["env", "FreetraderAECEnv"]


class FreetraderAECEnv(AECEnv):  # type: ignore[misc]
    """One Freetrader game as a PettingZoo AEC environment."""

    metadata = {"render_modes": ["ansi", "human"], "name": "freetrader", "is_parallelizable": False}

    def __init__(
        self,
        game: Game | str,
        seats: int | None = None,
        *,
        encoder: str | Encoder | Any = "auto",
        rewards: str = "win",
        max_steps: int | None = None,
        render_mode: str | None = None,
        options: Mapping[str, Any] | None = None,
    ) -> None:
        super().__init__()
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']}, got {render_mode!r}")
        self.session = Session(game, seats, options, encoder)
        self.rewards_scheme = check_rewards(rewards)
        self.max_steps = max_steps
        self.render_mode = render_mode
        s = self.session
        self.metadata = dict(self.metadata, name=f"freetrader_{s.game.spec.name.replace('-', '_')}")
        self.possible_agents = [f"player_{i}" for i in range(s.seats)]
        self._seat = {a: i for i, a in enumerate(self.possible_agents)}
        self.agents: list[str] = []  # filled by reset()
        self._observation_space = spaces.Dict({
            "observation": spaces.Box(*s.encoder.bounds, (s.observation_size,), np.float32),
            "action_mask": spaces.Box(0, 1, (s.num_actions,), np.int8),
        })
        self._action_space = spaces.Discrete(s.num_actions)
        self.observation_spaces = dict.fromkeys(self.possible_agents, self._observation_space)
        self.action_spaces = dict.fromkeys(self.possible_agents, self._action_space)
        self._seeds: random.Random | None = None
        self._steps = 0

    @property
    def encoder(self) -> Encoder:
        return self.session.encoder

    def observation_space(self, agent: str) -> spaces.Space:
        return self._observation_space

    def action_space(self, agent: str) -> spaces.Space:
        return self._action_space

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            self._seeds = random.Random(seed)
        elif self._seeds is None:
            self._seeds = random.Random()
        state = self.session.new_game(self._seeds.getrandbits(63))
        self._steps = 0
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        if state.is_over:  # a game could end during set-up
            self._finish()
        else:
            self.agent_selection = self.agents[state.to_act]  # type: ignore[index]

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        s = self.session
        seat = self._seat[agent]
        return {"observation": s.observe(seat), "action_mask": s.mask() if seat == s.state.to_act else s.no_mask}

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        s = self.session
        s.play(action)
        self._cumulative_rewards[agent] = 0.0
        self._steps += 1
        who = s.state.to_act
        if who is None:
            self._finish()
        else:
            if self.max_steps is not None and self._steps >= self.max_steps:
                self.truncations = dict.fromkeys(self.agents, True)
            self.agent_selection = self.agents[who]
            # The rewards of the previous step are cleared only when there were any (they come at the end).
        if self.render_mode == "human":
            self.render()

    def _finish(self) -> None:
        rewards = final_rewards(self.session.state, self.rewards_scheme)
        for a in self.agents:
            self.rewards[a] = rewards[self._seat[a]]
            self.terminations[a] = True
        self._accumulate_rewards()
        self.agent_selection = self.agents[0]

    def render(self) -> str | None:
        return self.session.render(self.render_mode)

    def close(self) -> None:
        pass


def env(game: Game | str, seats: int | None = None, **kwargs: Any) -> FreetraderAECEnv:
    """A PettingZoo AEC environment: ``env("contraband", seats=4, turn_limit=20)``.

    Keyword arguments ``encoder``, ``rewards``, ``max_steps`` and
    ``render_mode`` configure the adapter; any other keyword is a game option.
    """
    own = {k: kwargs.pop(k) for k in ("encoder", "rewards", "max_steps", "render_mode") if k in kwargs}
    return FreetraderAECEnv(game, seats, options=kwargs, **own)
