"""One game in progress seen through an encoder: what all three adapters share.

Everything a seat is shown comes from its view (``Encoder.encode_state``
gives exactly ``encode(seat_view(...))``, reading the state directly where an
encoder knows how); legality comes from ``legal_actions()`` only. Work is
cached per position (the action count), so asking twice for a mask or an
observation costs nothing. Masks are read-only and shared by positions with
the same legal actions (a bounded cache); each position's observation is a
new array, read-only (callers share it).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from freetrader._extras import missing_extra

try:
    import numpy as np
except ImportError as _exc:
    raise missing_extra("rl", "the freetrader RL adapters", _exc) from _exc

from freetrader.core import Action, BadOption, Game, IllegalAction, State
from freetrader.core import game as find_game

from .encoders import Encoder, encoder_for
from .encoders.base import legal_key

__all__ = ["Session", "final_rewards", "REWARDS", "reward_range"]

REWARDS = ("win", "score")
_frombuffer, _INT8, _FLOAT32 = np.frombuffer, np.dtype(np.int8), np.dtype(np.float32)  # dtypes: no lookup per call
_MASK_BYTES = 4 << 20  # masks remembered per session, in bytes of mask (plus their keys and lists)
# Positions over which the mask cache must hit four times in five to stay on. Fewer hits save instructions
# (Precious Cargo's two in three: a hit saves a C call and an array, a miss costs a lookup), but not time:
# the masks found again are read from memory grown cold (measured: 2.50x the raw engine against 2.23x).
_MASK_TRIAL = 4096


def _compiles(encoder: Encoder) -> bool:
    """Whether ``encoder`` has its own ``compiled_bytes`` (it may still return None, e.g. when turned off)."""
    return getattr(type(encoder), "compiled_bytes", None) is not Encoder.compiled_bytes


def final_rewards(state: State, scheme: str) -> list[float]:
    """Each seat's reward at the end of the game.

    ``win`` (zero-sum): with ``n`` seats and ``w`` winners, a winner gets
    ``(n / w - 1) / (n - 1)`` and everyone else ``-1 / (n - 1)``: +1 / -1 in a
    two-seat game, 0 for all on an n-way tie. With one seat: 1 for a win, else 0.
    A game ``cut`` by a safety cap has no winner: 0 for everyone, still zero-sum.
    ``score``: the game's final scores (general-sum).
    """
    if scheme == "score":
        return [float(x) for x in state.scores()]
    n = state.seats
    won = state.winners()
    if n == 1:
        return [1.0 if won else 0.0]
    if state.cut:
        return [0.0] * n
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
        self._legal: list[Action] = []
        self._idx: list[int] = []  # the index of each legal action
        self._index: dict[int, Action] | None = None  # made from the two above when asked for
        self._mask: np.ndarray = np.zeros(self.num_actions, np.int8)
        # Masks by legal set, bounded by size, while most sets recur (in Contraband they do; in
        # Cornish Smuggler two thirds are new, its masks are 6 KB, and keeping them slowed every step)
        self._masks: dict[bytes | tuple[int, ...], tuple[list[Action], list[int], np.ndarray]] | None = {}
        self._hits = self._misses = 0
        self._mask_room = max(64, _MASK_BYTES // self.num_actions)
        self._obs: dict[int | None, np.ndarray] = {}
        # The encoder's compiled bytes where it has them, called directly: encode_state would call them
        # too, through one more Python layer per observation; its C function itself where it gives it
        # (our seats are always in range), while the encoder uses it.
        self._bytes = self.encoder.compiled_bytes if _compiles(self.encoder) else None
        self._c = self.encoder.compiled_function()
        self._legal_mask = self.encoder.legal_mask
        self._mask_of = self.encoder.mask_function()  # legal_mask's C call itself (None from it: ask legal_mask)
        self.no_mask = np.zeros(self.num_actions, np.int8)
        self.no_mask.flags.writeable = False

    def new_game(self, seed: int) -> State:
        self.state = self.game.new_state(self.seats, seed, self.options)
        self._at = self._obs_at = -1
        return self.state

    def _refresh(self, state: State, at: int) -> None:
        """Make the legal actions, their indices and the mask those of ``state`` (``self.state``) at ``at``, its
        action count (the callers have both at hand)."""
        self._at = at
        legal = state.legal_actions()
        masks = self._masks
        if masks is not None:
            key = legal_key(legal)  # games hand out interned actions: the same set, the same ids
            hit = masks.get(key)
            if hit is not None:
                self._hits += 1
                self._legal, self._idx, self._mask = hit
                self._index = None
                return
        # the indices and the mask's bytes in one call (C where built)
        got = None if self._mask_of is None else self._mask_of(legal)
        idx, ones = self._legal_mask(legal) if got is None else got
        self._legal, self._idx, self._mask = legal, idx, _frombuffer(ones, _INT8)  # read-only, as bytes are
        self._index = None
        if masks is not None:
            self._misses += 1
            if self._misses + self._hits >= _MASK_TRIAL:
                if self._hits < 4 * self._misses:  # mostly new sets: keeping them costs more than it saves
                    self._masks = None
                    return
                self._hits = self._misses = 0
            if len(masks) >= self._mask_room:
                masks.clear()
            # the actions are kept with their mask, so that no other object can take their ids
            masks[key] = (legal, idx, self._mask)

    def legal(self) -> dict[int, Action]:
        """Index -> action for the seat to act (empty when the game is over; do not modify it)."""
        state = self.state
        if self._at != state.action_count:
            self._refresh(state, state.action_count)
        if self._index is None:
            self._index = dict(zip(self._idx, self._legal, strict=True))
        return self._index

    def mask(self) -> np.ndarray:
        """``int8[num_actions]``: 1 where the index is a legal action now (read-only, shared by positions with
        the same legal actions)."""
        state = self.state
        if self._at != state.action_count:
            self._refresh(state, state.action_count)
        return self._mask

    def observe(self, seat: int | None) -> np.ndarray:
        """The observation vector of ``seat`` (``None``: a spectator), from what its view shows.

        Read-only: the same array while the position lasts, handed to every caller who asks
        (``np.array(obs)`` for a copy to change); a new one after each action.
        """
        state = self.state
        at = state.action_count
        if self._obs_at != at:
            self._obs_at = at
            self._obs = {}
        else:
            obs = self._obs.get(seat)
            if obs is not None:
                return obs
        c = self._c
        got: bytes | bytearray | None
        if c is not None and self.encoder.compiled:
            got = c(state, seat)
        else:
            got = None if self._bytes is None else self._bytes(state, seat)
        if type(got) is bytes:
            obs = _frombuffer(got, _FLOAT32)  # read-only as made: the compiled encoders give bytes
        else:
            obs = self.encoder.encode_state(state, seat) if got is None else _frombuffer(got, _FLOAT32)
            obs.setflags(write=False)  # cheaper than through .flags, which makes a flags object per call
        self._obs[seat] = obs
        return obs

    def observe_and_mask(self, seat: int) -> tuple[np.ndarray, np.ndarray]:
        """``(observe(seat), mask())``, what an agent to act is shown: one call and one look at the position."""
        state = self.state
        at = state.action_count
        c = self._c
        if self._obs_at == at or c is None or not self.encoder.compiled:
            obs = self.observe(seat)
        else:  # the first look at a new position, observe()'s common case without its call and checks
            got = c(state, seat)
            if type(got) is not bytes:
                self._obs_at = -1
                obs = self.observe(seat)
            else:
                self._obs_at = at
                obs = _frombuffer(got, _FLOAT32)
                self._obs = {seat: obs}
        if self._at == at:
            return obs, self._mask
        mask_of = self._mask_of
        if self._masks is None and mask_of is not None:  # _refresh's commonest case without its call
            legal = state.legal_actions()
            pair = mask_of(legal)
            if pair is not None:
                self._at = at
                self._legal, (self._idx, ones), self._index = legal, pair, None
                mask = self._mask = _frombuffer(ones, _INT8)
                return obs, mask
        self._refresh(state, at)
        return obs, self._mask

    def action_of(self, index: Any) -> Action:
        """The legal action at ``index``; ``IllegalAction`` naming the legal indices if none."""
        try:
            i = int(index)
        except (TypeError, ValueError):
            raise IllegalAction(f"an action index must be a whole number, got {index!r}") from None
        legal = self.legal()
        found = legal.get(i)
        if found is None:
            if self.state.is_over:
                raise IllegalAction(f"action {i} is not legal: the game is over")
            shown = ", ".join(f"{k}={a}" for k, a in sorted(legal.items())[:20])
            more = "" if len(legal) <= 20 else f", ... ({len(legal)} in all)"
            raise IllegalAction(
                f"action index {i} ({self.encoder.describe(i) if 0 <= i < self.num_actions else 'out of range'}) "
                f"is not legal now for seat {self.state.to_act}; legal: {shown}{more}"
            )
        return found

    def play(self, index: Any) -> Action:
        # The common case first: a plain index into the legal actions of this very position.
        state = self.state
        if type(index) is int and self._at == state.action_count:
            try:
                action = self._legal[self._idx.index(index)]
            except ValueError:  # not legal: action_of says why
                action = self.action_of(index)
        else:
            action = self.action_of(index)
        state.apply_unchecked(action)  # it came from legal_actions() of this very position
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
