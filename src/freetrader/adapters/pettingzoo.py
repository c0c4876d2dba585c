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
sequence (or fresh entropy the first time). An illegal action index raises
``IllegalAction``.

Bounded episodes (``freetrader.adapters.limits``): after ``max_actions``
actions (default: the game's measured bound, ``default_max_actions``) every
agent is truncated and handed ``truncation_reward`` (default ``"rank"``: the
reward of its standing by the current scores, so that stalling never pays
more than playing). ``max_steps`` is an older, extra bound on the same count.

Once an episode has ended (terminated or truncated) every agent's
``action_mask`` is all zeros, and its observation is its last view.

``flatten=True`` makes observations the bare ``float32`` vector (a ``Box``
space, for SuperSuit-style observation wrappers) and puts the mask in
``infos[agent]["action_mask"]`` instead (all zeros for agents not to act).

``state()`` is the spectator's encoding (``encoder.encode_state(state,
None)``: what a watcher with no seat sees, no hidden card of any seat), with
``state_space`` its Box; it is not the full hidden state, which no encoder
exposes.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Mapping
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
from .limits import check_max_actions, check_truncation_reward, truncation_rewards

__all__ = ["env", "FreetraderAECEnv"]

_OWN = ("encoder", "rewards", "max_steps", "max_actions", "truncation_reward", "flatten", "render_mode")


class FreetraderAECEnv(AECEnv):  # type: ignore[misc]
    """One Freetrader game as a PettingZoo AEC environment."""

    metadata: dict[str, Any] = {"render_modes": ["ansi", "human"], "name": "freetrader", "is_parallelizable": False}

    def __init__(
        self,
        game: Game | str,
        seats: int | None = None,
        *,
        encoder: str | Encoder | Any = "auto",
        rewards: str = "win",
        max_steps: int | None = None,
        max_actions: int | None = None,
        truncation_reward: str | float = "rank",
        flatten: bool = False,
        render_mode: str | None = None,
        options: Mapping[str, Any] | None = None,
    ) -> None:
        super().__init__()
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']}, got {render_mode!r}")
        self.session = Session(game, seats, options, encoder)
        self.rewards_scheme = check_rewards(rewards)
        self.max_steps = max_steps
        self.max_actions = check_max_actions(max_actions, self.session.game, self.session.seats, self.session.options)
        self._limit = self.max_actions if max_steps is None else min(self.max_actions, max_steps)
        self.truncation_reward = check_truncation_reward(truncation_reward)
        self.flatten = bool(flatten)
        self.render_mode = render_mode
        s = self.session
        self.metadata = dict(self.metadata, name=f"freetrader_{s.game.spec.name.replace('-', '_')}")
        self.possible_agents = [f"player_{i}" for i in range(s.seats)]
        self._seat = {a: i for i, a in enumerate(self.possible_agents)}
        self.agents: list[str] = []  # filled by reset()
        box = spaces.Box(*s.encoder.observation_bounds(), dtype=np.float32)  # per feature, from the layout
        self._observation_space: spaces.Space[Any] = box if self.flatten else spaces.Dict({
            "observation": box,
            "action_mask": spaces.Box(0, 1, (s.num_actions,), np.int8),
        })
        self.state_space = box
        self._action_space = spaces.Discrete(s.num_actions)
        self.observation_spaces = dict.fromkeys(self.possible_agents, self._observation_space)
        self.action_spaces = dict.fromkeys(self.possible_agents, self._action_space)
        self._seeds: random.Random | None = None
        self._ended = True
        self._live = -1  # the seat to act while the episode runs (its mask is shown), else -1
        self._shown: str | None = None  # its agent, while last() shows it a dict observation (not flatten)
        self._masked: str | None = None  # the agent whose info holds a mask (flatten)

    @property
    def encoder(self) -> Encoder:
        return self.session.encoder

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self._observation_space

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self._action_space

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            self._seeds = random.Random(seed)
        elif self._seeds is None:
            self._seeds = random.Random()
        state = self.session.new_game(self._seeds.getrandbits(63))
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._ended = False
        self._masked = None
        if self.flatten:
            for a in self.agents:
                self.infos[a]["action_mask"] = self.session.no_mask
        who = state.to_act
        if who is None:  # a game could end during set-up
            self._finish()
        else:
            self._live = who
            agent = self.agent_selection = self.agents[who]
            self._shown = None if self.flatten else agent
            self._show_mask()

    def _show_mask(self) -> None:
        if self.flatten:
            if self._masked is not None:
                self.infos[self._masked]["action_mask"] = self.session.no_mask
            agent = self._masked = self.agent_selection
            self.infos[agent]["action_mask"] = self.session.no_mask if self._ended else self.session.mask()

    def observe(self, agent: str) -> Any:
        s = self.session
        seat = self._seat[agent]
        if self.flatten:
            return s.observe(seat)
        return {"observation": s.observe(seat), "action_mask": s.mask() if seat == self._live else s.no_mask}

    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        # AECEnv.last with observe() inlined for the common case (the agent to act, dict observations):
        # it is called once per step, and the call layer was a measurable part of the step.
        agent = self.agent_selection
        obs: Any
        if agent is self._shown and observe:  # any other agent (or an equal string set from outside): observe()
            got, mask = self.session.observe_and_mask(self._live)
            obs = {"observation": got, "action_mask": mask}
        else:
            obs = self.observe(agent) if observe else None
        return obs, self._cumulative_rewards[agent], self.terminations[agent], self.truncations[agent], \
            self.infos[agent]

    def agent_iter(self, max_iter: int = 2**63) -> Iterator[str]:
        """``AECEnv.agent_iter`` as a generator: the same agents until none is left or after ``max_iter``,
        with a resumed generator per step instead of a Python ``__next__`` call."""
        left = max_iter
        while self.agents and left > 0:
            left -= 1
            yield self.agent_selection

    def state(self) -> np.ndarray:
        """The spectator's encoding of the position (no seat's hidden cards; see the module docstring)."""
        return self.session.observe(None)

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self._ended:  # every agent ends at once, so the one asked is terminated or truncated
            self._was_dead_step(action)
            return
        s = self.session
        state = s.state
        # Session.play's common case without its call: an index into the legal actions of this very position
        # (last() made them current); anything else (another type, an illegal index) is play's to judge.
        chosen = None
        if type(action) is int and s._at == state.action_count:
            try:
                chosen = s._legal[s._idx.index(action)]
            except ValueError:  # not a legal index
                pass
        if chosen is None:
            s.play(action)
        else:
            state.apply_unchecked(chosen)
        self._cumulative_rewards[agent] = 0.0
        who = state.to_act
        if who is None:
            self._finish()
        elif state.action_count >= self._limit:
            self._truncate()
        else:
            # The rewards of the previous step need no clearing: there are none before the end.
            self._live = who
            agent = self.agent_selection = self.agents[who]
            if self.flatten:
                self._show_mask()
            else:
                self._shown = agent
        if self.render_mode == "human":
            self.render()

    def _finish(self) -> None:
        self._end(final_rewards(self.session.state, self.rewards_scheme), self.terminations)

    def _truncate(self) -> None:
        self._end(truncation_rewards(self.session.state, self.rewards_scheme, self.truncation_reward), self.truncations)

    def _end(self, rewards: list[float], flags: dict[str, bool]) -> None:
        self._ended = True
        self._live = -1
        self._shown = None
        for a in self.agents:
            self.rewards[a] = rewards[self._seat[a]]
            flags[a] = True
        self._accumulate_rewards()
        self.agent_selection = self.agents[0]
        self._show_mask()

    def render(self) -> str | None:
        return self.session.render(self.render_mode)

    def close(self) -> None:
        pass


def env(game: Game | str, seats: int | None = None, **kwargs: Any) -> FreetraderAECEnv:
    """A PettingZoo AEC environment: ``env("contraband", seats=4, turn_limit=20)``.

    Keyword arguments ``encoder``, ``rewards``, ``max_steps``, ``max_actions``,
    ``truncation_reward``, ``flatten`` and ``render_mode`` configure the
    adapter; any other keyword is a game option.
    """
    own = {k: kwargs.pop(k) for k in _OWN if k in kwargs}
    return FreetraderAECEnv(game, seats, options=kwargs, **own)
