"""A Gymnasium single-agent environment: one seat learns, registered bots play the others.

>>> from freetrader.adapters.gymnasium import FreetraderGymEnv
>>> e = FreetraderGymEnv("contraband", opponents=["heuristic", "random"], end="turns", turn_limit=12)
>>> obs, info = e.reset(seed=3)
>>> sorted(obs)
['action_mask', 'observation']

``opponents`` are bot specs as in ``freetrader.bots.make_bot`` (one per other
seat; a single spec fills every other seat). Seats default to one plus the
number of opponents, and with a single spec to at least the game's fewest
seats (so ``gym.make("freetrader/contraband-v1")`` is 3 seats against random
bots). ``seat`` is the learner's seat, or ``"random"`` to draw it
at each reset. Bots decide through ``decide``, from determinized states.

The observation is the same dict as in the PettingZoo adapter. The reward is 0
until the game ends, then the learner's final reward (``rewards="win"`` or
``"score"``). An index outside the mask is an illegal action:
``illegal="penalize"`` (the default) ends the episode with ``illegal_reward``
and ``info["illegal_action"] = True``; ``illegal="raise"`` raises
``IllegalAction``.

Bounded episodes (``freetrader.adapters.limits``): the episode is truncated
once the game has taken ``max_actions`` actions of all seats (default: the
game's measured bound), bots' actions included, so that bots stalling among
themselves end too; ``max_steps`` also truncates after that many learner
actions. A truncated step's reward is ``truncation_reward`` (default
``"rank"``: the learner's reward by its standing on the current scores, so
that stalling never pays more than playing), with ``info["truncated_at"]``
the action count.

Once the episode has ended (terminated or truncated), the observation's
``action_mask`` (and ``info["action_mask"]``) is all zeros.

``flatten=True`` makes the observation the bare ``float32`` vector (a
``Box``), the mask then only in ``info["action_mask"]`` and
``action_masks()``: the shape SuperSuit-style observation wrappers expect.

Registered ids (``register_envs()``, run on import): ``freetrader/<game>-v1``
for every game, e.g. ``gym.make("freetrader/contraband-v1",
opponents=["heuristic"], seats=3)`` and ``gym.make_vec(...)``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from freetrader._extras import missing_extra

try:
    import gymnasium as gym
    import numpy as np
    from gymnasium import spaces
except ImportError as _exc:
    raise missing_extra("rl", "freetrader.adapters.gymnasium", _exc) from _exc

from freetrader.bots import Bot, decide, make_bot
from freetrader.core import BadOption, Game, IllegalAction, Rng, derive_seed
from freetrader.core import game as find_game
from freetrader.core import games as registered_games

from ._session import Session, check_rewards, final_rewards
from .encoders import Encoder
from .limits import check_max_actions, check_truncation_reward, truncation_rewards

__all__ = ["FreetraderGymEnv", "make_env", "env_id", "register_envs"]

_OWN = ("seats", "seat", "encoder", "rewards", "illegal", "illegal_reward", "max_steps", "max_actions",
        "truncation_reward", "flatten", "render_mode")


class FreetraderGymEnv(gym.Env):
    metadata = {"render_modes": ["ansi", "human"]}

    def __init__(
        self,
        game: Game | str,
        opponents: Sequence[str] = ("random",),
        *,
        seats: int | None = None,
        seat: int | str = 0,
        encoder: str | Encoder | Any = "auto",
        rewards: str = "win",
        illegal: str = "penalize",
        illegal_reward: float = -1.0,
        max_steps: int | None = None,
        max_actions: int | None = None,
        truncation_reward: str | float = "rank",
        flatten: bool = False,
        render_mode: str | None = None,
        options: Mapping[str, Any] | None = None,
        **game_options: Any,
    ) -> None:
        if isinstance(opponents, str):
            opponents = [opponents]
        if not opponents:
            raise BadOption("opponents needs at least one bot spec, e.g. ['random']")
        if seats is not None:
            n = seats
        else:  # one spec fills every other seat: at least the game's fewest seats (Contraband's 3)
            found = find_game(game) if isinstance(game, str) else game
            n = max(1 + len(opponents), found.spec.min_seats) if len(opponents) == 1 else 1 + len(opponents)
        opts = dict(options or {}, **game_options)
        self.session = Session(game, n, opts, encoder)
        n = self.session.seats
        if len(opponents) == 1:
            opponents = list(opponents) * (n - 1)
        if len(opponents) != n - 1:
            raise BadOption(f"{n} seats need {n - 1} opponents (or one spec for all), got {len(opponents)}")
        if seat != "random" and (isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < n):
            raise BadOption(f"seat must be 0..{n - 1} or 'random', got {seat!r}")
        if illegal not in ("penalize", "raise"):
            raise BadOption(f"illegal must be 'penalize' or 'raise', got {illegal!r}")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise BadOption(f"render_mode must be one of {self.metadata['render_modes']}, got {render_mode!r}")
        for spec in opponents:  # fail now, not at the first reset
            make_bot(spec, self.session.game)
        self.opponent_specs = list(opponents)
        self.seat_choice = seat
        self.seat = 0 if seat == "random" else int(seat)
        self.rewards_scheme = check_rewards(rewards)
        self.illegal = illegal
        self.illegal_reward = float(illegal_reward)
        self.max_steps = max_steps
        self.max_actions = check_max_actions(max_actions, self.session.game, n, self.session.options)
        self.truncation_reward = check_truncation_reward(truncation_reward)
        self.flatten = bool(flatten)
        self.render_mode = render_mode
        s = self.session
        box = spaces.Box(*s.encoder.observation_bounds(), dtype=np.float32)  # per feature, from the layout
        self.observation_space: spaces.Space[Any] = box if self.flatten else spaces.Dict({
            "observation": box,
            "action_mask": spaces.Box(0, 1, (s.num_actions,), np.int8),
        })
        self.action_space = spaces.Discrete(s.num_actions)
        self._bots: dict[int, Bot] = {}
        self._rng = Rng(0)
        self._steps = 0
        self._ended = True

    @property
    def encoder(self) -> Encoder:
        return self.session.encoder

    def _mask(self) -> np.ndarray:
        s = self.session
        return s.mask().copy() if s.state.to_act == self.seat and not self._ended else s.no_mask.copy()

    def _obs(self) -> Any:
        # Gymnasium asks for fresh arrays on every call (the session caches and shares its own).
        if self.flatten:
            return self.session.observe(self.seat).copy()
        return {"observation": self.session.observe(self.seat).copy(), "action_mask": self._mask()}

    def _info(self, **extra: Any) -> dict[str, Any]:
        return {"seat": self.seat, "action_mask": self._mask(), **extra}

    def _run_bots(self) -> None:
        state = self.session.state
        limit = self.max_actions
        while not state.is_over and state.to_act != self.seat and state.action_count < limit:
            who = state.to_act
            assert who is not None
            state.apply(decide(self._bots[who], state, who, self._rng), seat=who)

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[dict[str, Any], dict[str, Any]]:
        super().reset(seed=seed)
        base = int(self.np_random.integers(0, 2**62))
        n = self.session.seats
        if self.seat_choice == "random":
            self.seat = int(self.np_random.integers(0, n))
        others = [p for p in range(n) if p != self.seat]
        g = self.session.game
        self._bots = {p: make_bot(spec, g, seed=derive_seed(base, p + 1)) for p, spec in zip(others, self.opponent_specs, strict=True)}
        self._rng = Rng(derive_seed(base, 0))
        self.session.new_game(derive_seed(base, 99))
        self._steps = 0
        self._ended = False
        self._run_bots()
        state = self.session.state
        # The bots may end the game (or reach the bound) before the learner's first turn.
        self._ended = state.is_over or state.action_count >= self.max_actions
        return self._obs(), self._info()

    def step(self, action: Any) -> tuple[dict[str, Any], float, bool, bool, dict[str, Any]]:
        s = self.session
        if self._ended:
            raise IllegalAction("the episode is over; call reset()")
        try:
            s.action_of(action)
        except IllegalAction:
            if self.illegal == "raise":
                raise
            self._ended = True
            return self._obs(), self.illegal_reward, True, False, self._info(illegal_action=True)
        s.play(action)
        self._steps += 1
        self._run_bots()
        if self.render_mode == "human":
            self.render()
        state = s.state
        if state.is_over:
            self._ended = True
            reward = final_rewards(state, self.rewards_scheme)[self.seat]
            return self._obs(), reward, True, False, self._info(winners=state.winners(), scores=state.scores())
        if state.action_count >= self.max_actions or (self.max_steps is not None and self._steps >= self.max_steps):
            self._ended = True
            reward = truncation_rewards(state, self.rewards_scheme, self.truncation_reward)[self.seat]
            return self._obs(), reward, False, True, self._info(truncated_at=state.action_count, scores=state.scores())
        return self._obs(), 0.0, False, False, self._info()

    def action_masks(self) -> np.ndarray:
        """The mask as a bool array (the name sb3-contrib's MaskablePPO looks for)."""
        return self._mask().astype(bool)

    def render(self) -> str | None:
        return self.session.render(self.render_mode)


def make_env(game: Game | str, opponents: Sequence[str] = ("random",), **kwargs: Any) -> FreetraderGymEnv:
    """``FreetraderGymEnv(game, opponents, **kwargs)``: adapter keywords as in the class, the rest are game options."""
    own = {k: kwargs.pop(k) for k in _OWN if k in kwargs}
    return FreetraderGymEnv(game, opponents, options=kwargs, **own)


def env_id(game: Game | str) -> str:
    """The Gymnasium id of a game: ``freetrader/<name>-v1`` (the adapter's version, not the game's)."""
    from freetrader.core import game as find_game

    g = find_game(game) if isinstance(game, str) else game
    return f"freetrader/{g.spec.name}-v1"


def register_envs() -> list[str]:
    """Register ``freetrader/<game>-v1`` with Gymnasium for every game registered now (again is harmless)."""
    ids = []
    for name in registered_games():
        eid = env_id(name)
        if eid not in gym.registry:
            gym.register(id=eid, entry_point=f"{__name__}:make_env", kwargs={"game": name})
        ids.append(eid)
    return ids


register_envs()
