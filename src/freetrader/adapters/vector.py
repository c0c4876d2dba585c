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
choice does not depend on hidden cards); other bots decide through
``freetrader.bots.decide`` as in the Gymnasium adapter. An illegal index
raises ``IllegalAction`` naming the game.

Speed. Beside ``gymnasium.vector.SyncVectorEnv`` of ``FreetraderGymEnv`` it
skips, per game and step: the dicts of observations and infos and their
copies (each row is written in place, straight from the compiled encoder's
bytes, by ``Encoder.encode_into``; each mask row from the bytes
``Encoder.legal_mask`` gives), the second legality check (an index is
looked up once among the position's legal indices and applied unchecked)
and the bots' ``decide`` for random opponents. What is left is the engine
and the encoder, which no adapter can skip: ``benchmarks/bench_adapters.py``
prints the batched env beside SyncVectorEnv and beside that floor (an
engine + encoder loop) in one run. With the engines as they are, the floor
itself is only about 1.8-3.1x SyncVectorEnv (SyncVectorEnv takes 2.1-3.0x
the raw engine's time, and the learner's observations cost a large share of
an engine step), so issue 32's 5x is out of reach for Python-level batching
in one process, and two worker processes on a 2-core machine could at most
double it; see the README.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from freetrader._extras import missing_extra

try:
    import numpy as np
except ImportError as _exc:
    raise missing_extra("rl", "freetrader.adapters.vector", _exc) from _exc

from freetrader.bots import Bot, decide, make_bot
from freetrader.core import Action, BadOption, Game, IllegalAction, Rng, State, derive_seed
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
        first = Session(g, seats, opts, encoder)
        # one encoder for every game: its memos serve them all, and one call encodes the batch
        self.sessions = [first] + [Session(g, seats, first.options, first.encoder) for _ in range(num_envs - 1)]
        self.encoder = first.encoder
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
        # The masks are written in place through a byte view, each row from the bytes of its mask,
        # with no array made per game and step.
        self._mask_bytes = self.mask.data.cast("B")
        self._mask_of = self.encoder.mask_function()  # legal_mask's C call itself (None from it: ask legal_mask)
        # the learner's legal actions in each game and their indices, as its row of ``mask`` shows them
        self._legal: list[list[Action]] = [[] for _ in range(num_envs)]
        self._idx: list[list[int]] = [[] for _ in range(num_envs)]
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
        self._show(range(self.num_envs))
        self.reward[:] = 0.0
        self.terminated[:] = False
        self.truncated[:] = False
        return self.obs, self.mask

    def _new_game(self, i: int) -> None:
        """Deal game ``i`` again and play its opponents up to the learner's first decision (not shown yet)."""
        while True:
            base = self._seeds.getrandbits(62)
            others = [p for p in range(self.seats) if p != self.seat]
            self._bots[i] = {p: make_bot(spec, self.game, seed=derive_seed(base, p + 1))
                             for p, spec, rnd in zip(others, self.opponent_specs, self._random, strict=True)
                             if not rnd}
            self._pick[i] = random.Random(derive_seed(base, 0))
            self._rng[i] = Rng(derive_seed(base, 0))
            state = self.sessions[i].new_game(derive_seed(base, 99))
            if self._run_opponents(i, state) == self.seat and state.action_count < self.max_actions:
                return
            # the opponents ended it before the learner's first turn: deal again

    def _run_opponents(self, i: int, state: State) -> int | None:
        """Play game ``i``'s opponents until the learner is to act, the game ends or reaches the bound;
        returns the seat to act (None once over)."""
        limit, seat, bots = self.max_actions, self.seat, self._bots[i]
        choice = self._pick[i].choice
        while True:
            who = state.to_act
            if who == seat or who is None or state.action_count >= limit:
                return who
            bot = bots.get(who) if bots else None
            if bot is None:
                state.apply_unchecked(choice(state.legal_actions()))  # from the legal actions of this very state
            else:
                state.apply(decide(bot, state, who, self._rng[i]), seat=who)

    def _show(self, rows: Iterable[int]) -> None:
        """Write the learner's observation and mask of each game in ``rows`` into the stacked arrays."""
        rows = list(rows)
        sessions, seat = self.sessions, self.seat
        states = [sessions[i].state for i in rows]
        self.encoder.encode_into(states, seat, self.obs, rows)
        width, view, legal_mask, mask_of = self.num_actions, self._mask_bytes, self.encoder.legal_mask, self._mask_of
        for i, state in zip(rows, states, strict=True):
            legal = state.legal_actions()
            # the indices and the row's bytes in one call (C where built)
            got = None if mask_of is None else mask_of(legal)
            idx, ones = legal_mask(legal) if got is None else got
            self._legal[i] = legal
            self._idx[i] = idx
            at = i * width
            view[at:at + width] = ones

    def step(self, actions: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """One learner action per game; returns ``(obs, mask, reward, terminated, truncated)``."""
        n = self.num_envs
        # a list of ints as it is (its items are checked one by one below); anything else through numpy
        acts: list[Any] = actions if type(actions) is list else np.asarray(actions).reshape(-1).tolist()
        if len(acts) != n:
            raise IllegalAction(f"step needs one action per game ({n}), got {len(acts)}")
        ended: list[int] = []  # the games whose episode ended: their reward and flags are set below
        reward = [0.0] * n
        terminated = [False] * n
        truncated = [False] * n
        show: list[int] = []
        sessions, legals, indices, limit, seat = self.sessions, self._legal, self._idx, self.max_actions, self.seat
        for i, a in enumerate(acts):
            s = sessions[i]
            state = s.state
            try:
                k = indices[i].index(a) if type(a) is int else -1
            except ValueError:
                k = -1
            if k < 0:  # not an index the mask shows: the session says why (or plays it, for an int-like index)
                try:
                    s.play(a)
                except IllegalAction as exc:
                    raise IllegalAction(f"game {i}: {exc}") from None
            else:
                state.apply_unchecked(legals[i][k])  # one of this very position's legal actions
            who = self._run_opponents(i, state)
            if who is None:
                reward[i] = final_rewards(state, self.rewards_scheme)[seat]
                terminated[i] = True
            elif state.action_count >= limit:
                reward[i] = truncation_rewards(state, self.rewards_scheme, self.truncation_reward)[seat]
                truncated[i] = True
            else:
                show.append(i)
                continue
            self.last_scores[i] = state.scores()
            self._new_game(i)
            show.append(i)
            ended.append(i)
        self._show(show)
        if ended:
            self.reward[:] = reward
            self.terminated[:] = terminated
            self.truncated[:] = truncated
        else:  # the common step: nothing ended, and filling is cheaper than converting three lists
            self.reward.fill(0.0)
            self.terminated.fill(False)
            self.truncated.fill(False)
        return self.obs, self.mask, self.reward, self.terminated, self.truncated
