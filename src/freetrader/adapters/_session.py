"""One game in progress seen through an encoder: what all three adapters share.

Everything a seat is shown comes from its view (``Encoder.encode_state``
gives exactly ``encode(seat_view(...))``, reading the state directly where an
encoder knows how); legality comes from ``legal_actions()`` only. Work is
cached per position (the action count), so asking twice for a mask or an
observation costs nothing. Masks are also cached by the legal actions
themselves (games hand out the same action objects, so a position whose
actions were seen before reuses their mask): they are read-only and shared;
each position's observation is a new array.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from freetrader.core import Action, BadOption, Game, IllegalAction, State
from freetrader.core import game as find_game

from .encoders import Encoder, encoder_for

__all__ = ["Session", "final_rewards", "REWARDS", "reward_range"]

REWARDS = ("win", "score")
_MASK_CACHE = 50_000  # distinct sets of legal actions remembered


def final_rewards(state: State, scheme: str) -> list[float]:
    """Each seat's reward at the end of the game.

    ``win`` (zero-sum): with ``n`` seats and ``w`` winners, a winner gets
    ``(n / w - 1) / (n - 1)`` and everyone else ``-1 / (n - 1)``: +1 / -1 in a
    two-seat game, 0 for all on an n-way tie. With one seat: 1 for a win, else 0.
    ``score``: the game's final scores (general-sum).
    """
    if scheme == "score":
        return [float(x) for x in state.scores()]
    n = state.seats
    won = state.winners()
    if n == 1:
        return [1.0 if won else 0.0]
    w = len(won)
    lose = -1.0 / (n - 1)
    win = (n / w - 1.0) / (n - 1) if w else lose
    return [win if seat in won else lose for seat in range(n)]


def reward_range(seats: int, scheme: str) -> tuple[float, float]:
    if scheme == "score":
        return (-float("inf"), float("inf"))
    if seats == 1:
        return (0.0, 1.0)
    return (-1.0 / (seats - 1), 1.0)


def check_rewards(scheme: str) -> str:
    if scheme not in REWARDS:
        raise BadOption(f"rewards must be one of {', '.join(REWARDS)}, got {scheme!r}")
    return scheme


class Session:
    """A game, its encoder and the current state."""

    def __init__(
        self,
        game: Game | str,
        seats: int | None = None,
        options: Mapping[str, Any] | None = None,
        encoder: Any = "auto",
    ) -> None:
        self.game = find_game(game) if isinstance(game, str) else game
        spec = self.game.spec
        self.seats = spec.check_seats(spec.min_seats if seats is None else seats)
        self.options = spec.resolve_options(options)
        self.encoder: Encoder = encoder_for(self.game, self.seats, self.options, encoder)
        self.num_actions = self.encoder.num_actions
        self.observation_size = self.encoder.observation_size
        self.state: State = self.game.new_state(self.seats, 0, self.options)
        self._at = -1  # the action count the mask and index below belong to
        self._obs_at = -1  # ... and the observations
        self._index: dict[int, Action] = {}
        self._mask: np.ndarray = np.zeros(self.num_actions, np.int8)
        self._obs: dict[int | None, np.ndarray] = {}
        # id of each legal action -> (the actions, their mask, index -> action); the
        # actions are kept so that their ids stay theirs
        self._masks: dict[tuple[int, ...], tuple[list[Action], np.ndarray, dict[int, Action]]] = {}
        self.no_mask = np.zeros(self.num_actions, np.int8)
        self.no_mask.flags.writeable = False

    def new_game(self, seed: int) -> State:
        self.state = self.game.new_state(self.seats, seed, self.options)
        self._at = self._obs_at = -1
        return self.state

    def _refresh(self) -> None:
        state = self.state
        self._at = state.action_count
        legal = state.legal_actions()
        key = tuple(map(id, legal))
        hit = self._masks.get(key)
        if hit is None:
            if len(self._masks) >= _MASK_CACHE:
                self._masks.clear()
            idx = self.encoder.legal_indices(legal)
            ones = bytearray(self.num_actions)  # cheaper than numpy's fancy indexing for a few ones
            for i in idx:
                ones[i] = 1
            mask = np.frombuffer(ones, np.int8)
            mask.flags.writeable = False
            hit = self._masks[key] = (legal, mask, dict(zip(idx, legal, strict=True)))
        _, self._mask, self._index = hit

    def legal(self) -> dict[int, Action]:
        """Index -> action for the seat to act (empty when the game is over; do not modify it)."""
        if self._at != self.state.action_count:
            self._refresh()
        return self._index

    def mask(self) -> np.ndarray:
        """``int8[num_actions]``: 1 where the index is a legal action now (read-only)."""
        if self._at != self.state.action_count:
            self._refresh()
        return self._mask

    def observe(self, seat: int | None) -> np.ndarray:
        """The observation vector of ``seat`` (``None``: a spectator), from what its view shows.

        The same array while the position lasts (do not modify it); a new one after each action.
        """
        at = self.state.action_count
        if self._obs_at != at:
            self._obs_at = at
            self._obs = {}
        obs = self._obs.get(seat)
        if obs is None:
            obs = self._obs[seat] = self.encoder.encode_state(self.state, seat)
        return obs

    def action_of(self, index: Any) -> Action:
        """The legal action at ``index``; ``IllegalAction`` naming the legal indices if none."""
        try:
            i = int(index)
        except (TypeError, ValueError):
            raise IllegalAction(f"an action index must be a whole number, got {index!r}") from None
        found = self.legal().get(i)
        if found is None:
            if self.state.is_over:
                raise IllegalAction(f"action {i} is not legal: the game is over")
            shown = ", ".join(f"{k}={a}" for k, a in sorted(self._index.items())[:20])
            more = "" if len(self._index) <= 20 else f", ... ({len(self._index)} in all)"
            raise IllegalAction(
                f"action index {i} ({self.encoder.describe(i) if 0 <= i < self.num_actions else 'out of range'}) "
                f"is not legal now for seat {self.state.to_act}; legal: {shown}{more}"
            )
        return found

    def play(self, index: Any) -> Action:
        # The common case first: a plain index into the legal actions of this very position.
        if type(index) is int and self._at == self.state.action_count:
            action = self._index.get(index)
            if action is not None:
                self.state.apply_unchecked(action)
                return action
        action = self.action_of(index)
        self.state.apply_unchecked(action)  # it came from legal_actions() of this very position
        return action

    def render(self, mode: str | None) -> str | None:
        """The state and its last five events: returned for ``"ansi"``, printed for ``"human"``."""
        if mode is None:
            return None
        state = self.state
        text = f"{state!r}\n" + "\n".join(state.events_since(max(0, state.event_count - 5)))
        if mode == "human":
            print(text)
            return None
        return text
