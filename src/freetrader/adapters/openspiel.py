"""Every registered game as an OpenSpiel Python game.

>>> from freetrader.adapters import openspiel as fos
>>> game = fos.load_game("contraband", players=3, end="turns", turn_limit=10)
>>> game.get_type().short_name
'freetrader_contraband'

Each game registers as ``freetrader_<name>`` (dashes become underscores):
``register_all()`` runs on import for the games registered then;
``register(name)`` adds one registered later (``load_game`` does it for you).
Parameters: ``players`` (seats; default the game's minimum), ``seed`` (the
seed of the game's sequence of deals), ``max_game_length`` (0, the default:
the game's measured bound for that seat count, ``limits.default_max_actions``),
``truncation_reward`` (``"rank"`` or ``"draw"``) and every game option by its
name.

- Chance is *sampled*: our dealing and shuffling happen inside ``apply``
  from the state's own RNG, so the game type is ``SAMPLED_STOCHASTIC`` and
  there are no chance nodes. Cloning a state clones its RNG.
- **Seeds**: a state from ``new_initial_state()`` is dealt when first used
  (asked anything), and then takes the next seed of the game's sequence.
  OpenSpiel's C++ side builds a throwaway state with ``new_initial_state()``
  on every ``clone()``, ``observation_tensor()`` and deserialization (to learn
  a tensor's shape or to have an object to copy into); those are never used,
  so they neither deal nor draw a seed, and the same ``seed`` gives the same
  sequence of games whatever is observed or cloned.
- **Bounded**: a game reaching ``max_game_length`` actions is terminal, with
  the returns of each seat's standing by the current scores (``"rank"``, see
  ``freetrader.adapters.limits``) or 0 for all (``"draw"``).
- Actions are the encoder's indices (``encoders``): ``num_distinct_actions``
  is its action space size and ``action_to_string`` gives the notation.
- Utilities are ``rewards="win"`` of the other adapters: zero-sum, +1/-1 with
  two seats, terminal only. Games that can be played solo are general-sum.
- **Observations**: the observation tensor is the encoder's vector; the
  observation string is the seat's view as JSON without the public log; with
  ``private_info=NONE`` the spectator's view (``view(None)``).
- **Information states** (perfect recall): a function of the seat's own
  observation history: its view after the deal and after every action (the
  cards it looked at and passed on, its own discards, what was revealed to it,
  whatever the view showed then), the public log and its own decisions. The
  string is JSON: the current view with its ``events``; ``"event_marks"``, the
  length of the log after set-up and after each action; ``"seen"``, a 48-bit
  digest (hex) of the seat's view (without the log) after set-up and after
  each action; ``"decisions"``, ``[step, index]`` of each of the seat's own
  actions (step counting every seat's actions from 0). The tensor is the
  observation tensor followed by two floats for set-up and then three floats
  per action of the game, up to ``max_game_length``: the index + 1 of that
  action if this seat took it (else 0), and a 48-bit digest of the public
  events that action caused and of the seat's view after it, split into
  24-bit halves (the high half + 1). Distinct histories could in principle
  share a digest (odds 2**-48 a pair); the raw values are for exact use
  (tabular methods, tests), not a network's input. A tensor larger than
  ``MAX_INFOSTATE_TENSOR`` floats is refused with an error naming the
  ``max_game_length`` that would fit. The views after each step are found
  when first asked for (replayed from the deal if steps were taken unasked),
  so play that never asks for an information state does not pay for them.
- **Serialization**: pyspiel's own ``serialize_game_and_state`` and
  ``State.serialize`` cannot save a sampled-stochastic Python game (they ask
  the game for ``GetRNGState``, which pyspiel does not forward to Python).
  ``serialize_game_and_state`` / ``deserialize_game_and_state`` here write
  and read OpenSpiel's format, with the game's seed sequence as its RNG state
  and the state as its saved-state JSON (``State.to_json``) plus the per-seat
  decisions; ``pickle`` of games and states goes through the same forms.
- ``resample_from_infostate`` is ``determinize`` (from a resampling RNG of
  its own, so that resampling does not move the sequence of deals), so
  OpenSpiel's IS-MCTS runs. A game's ``determinize`` keeps everything the
  seat saw (tested: ``tests/adapters/test_perfect_recall.py``). In the
  resampled world the other seats' information states hold only what the
  seat knows of them: their views as a spectator's and none of their
  decisions' indices (which could name a card the seat never saw).
- Outcome-sampling MCCFR runs as it is (tested on a two-turn Contraband):
  it samples chance, and each ``new_initial_state()`` is a new deal.
  Full-tree CFR needs explicit chance nodes, which sampled dealing does not
  offer. ``load_small_contraband()`` (``freetrader_contraband_small``) is a
  designed variant, not the printed game, small enough for it: three seats,
  a 6-card pack (Contraband's option ``pack=small``), one declaration, and
  the deal as an explicit chance node (60 orders of the pack); OpenSpiel's
  CFR, ``exploitability`` and ``pyspiel.serialize_game_and_state`` run on it
  (``examples/cfr_small_contraband.py``).
"""

from __future__ import annotations

import hashlib
import itertools
import json
import marshal
import random
import threading
from collections.abc import Callable
from typing import Any

from freetrader._extras import missing_extra

try:
    import numpy as np
    import pyspiel
except ImportError as _exc:
    raise missing_extra("openspiel", "freetrader.adapters.openspiel", _exc) from _exc

from freetrader.core import Action, Game, State
from freetrader.core import game as find_game
from freetrader.core import games as registered_games

from ._session import final_rewards, reward_range
from .encoders import encoder_for, seat_view
from .encoders._build import compiled
from .limits import default_max_actions, standing_rewards

__all__ = [
    "short_name", "register", "register_all", "load_game", "serialize_game_and_state",
    "deserialize_game_and_state", "MAX_INFOSTATE_TENSOR", "ismcts_bot", "load_small_contraband",
    "SMALL_CONTRABAND",
]

#: The largest information-state tensor (floats) an observer builds.
MAX_INFOSTATE_TENSOR = 1 << 21
_PREFIX = "freetrader_"
_REGISTERED: dict[str, str] = {}
_TRUNCATION = ("rank", "draw")
_META = "# Automatically generated by Freetrader serialize_game_and_state\n[Meta]\nVersion: 1\n\n"
_GAME_HEAD, _RNG_HEAD, _STATE_HEAD = "[Game]", "[GameRNGState]", "[State]"

# What each seat saw after a position: a 48-bit digest of its view (without the log) per seat,
# then the spectator's (``_seen``).
_Seen = tuple[int, ...]


class _Step:
    """An action taken through OpenSpiel and what each seat saw after it.

    Kept in a cons list (newest first) that clones share; ``seen`` is filled when first asked
    for (``_Position.recorded``), once for every clone that shares the step.
    """

    __slots__ = ("seat", "index", "events", "seen")

    def __init__(self, seat: int, index: int, events: int, seen: _Seen | None = None) -> None:
        self.seat = seat
        self.index = index  # the action's index; -1 where a resampled world does not know it
        self.events = events  # the event count after it
        self.seen = seen


_Steps = tuple[_Step, Any] | None


def short_name(game: Game | str) -> str:
    g = find_game(game) if isinstance(game, str) else game
    return _PREFIX + g.spec.name.replace("-", "_")


def _digest(texts: list[str], seen: int) -> tuple[float, float]:
    """48 bits of the events ``texts`` and of the view digest ``seen``, as two 24-bit floats (the high + 1)."""
    d = int.from_bytes(hashlib.blake2b("\n".join([*texts, f"{seen:012x}"]).encode(), digest_size=6).digest(), "big")
    return float((d >> 24) + 1), float(d & 0xFFFFFF)


def _seen(s: State) -> _Seen:
    """What each seat (and a spectator) sees in ``s``: a digest of its view without the log.

    The view is serialized with ``marshal`` format 0 (no back-references and no mark of interned
    text, so equal views give equal bytes whatever objects they share; a game builds its views'
    keys in one order), several times faster than JSON.
    """
    views = [s.view(p, events=False) for p in range(s.seats)] + [s.view(None, events=False)]
    return tuple(int.from_bytes(hashlib.blake2b(marshal.dumps(v, 0), digest_size=6).digest(), "big") for v in views)


class _Position:
    """Our state (dealt on first use), the steps taken through OpenSpiel, and the legal-index cache.

    OpenSpiel clones a Python state by deep-copying its attributes into a throwaway state;
    ``__deepcopy__`` makes that our cheap ``clone()``. ``start`` is a copy of the state at a
    step up to which every step's ``seen`` is known (the deal, or a resampled world) and the
    number of steps before it: the views after later steps are found by replaying from it.
    """

    __slots__ = ("game", "state", "steps", "setup_events", "setup_seen", "start", "at", "index")

    def __init__(self, game: FreetraderSpielGame, state: State | None = None, steps: _Steps = None,
                 setup_events: int = 0, setup_seen: _Seen | None = None,
                 start: tuple[State, int] | None = None) -> None:
        self.game = game
        self.state = state
        self.steps = steps
        self.setup_events = setup_events
        self.setup_seen = setup_seen
        self.start = start
        self.at = -1
        self.index: dict[int, Action] = {}

    def deal(self) -> State:
        g = self.game
        if g.chance_outcome_count():
            raise pyspiel.SpielError("this game deals at its chance node: apply a chance outcome first")
        s = self.state = g.ft_game.new_state(g.seats, g.next_seed(), g.options)
        self.setup_events = s.event_count
        self.start = (s.clone(), 0)
        return s

    def __deepcopy__(self, memo: Any) -> _Position:
        if self.state is None and self.game.chance_outcome_count():
            return _Position(self.game)  # still at the chance node
        s = self.state if self.state is not None else self.deal()
        return _Position(self.game, s.clone(), self.steps, self.setup_events, self.setup_seen, self.start)

    def recorded(self) -> tuple[_Seen, list[_Step]]:
        """What each seat saw after the deal, and the steps with what each saw after them, all known.

        The newest step's views are read from the state; older ones missing (steps taken while
        nobody asked) are found by replaying the actions from ``start``.
        """
        s = self.state if self.state is not None else self.deal()
        steps = _walk(self.steps)
        missing = [k for k, step in enumerate(steps) if step.seen is None]
        if self.setup_seen is None and not steps:
            self.setup_seen = _seen(s)
        elif missing == [len(steps) - 1] and self.setup_seen is not None:
            steps[-1].seen = _seen(s)
        elif missing or self.setup_seen is None:
            assert self.start is not None, "a position without a start knows every step"
            first, k0 = self.start
            replay = first.clone()
            if self.setup_seen is None:
                self.setup_seen = _seen(replay)
            actions = s.history
            for k in range(k0, len(steps)):
                replay.apply_unchecked(actions[k])
                if steps[k].seen is None:
                    steps[k].seen = _seen(replay)
        assert self.setup_seen is not None
        return self.setup_seen, steps

    def saved(self) -> dict[str, Any]:
        s = self.state if self.state is not None else self.deal()
        setup, steps = self.recorded()
        return {"state": s.to_json(), "setup_events": self.setup_events, "setup_seen": list(setup),
                "steps": [[st.seat, st.index, st.events, list(st.seen or ())] for st in steps]}

    @classmethod
    def from_saved(cls, game: FreetraderSpielGame, data: dict[str, Any]) -> _Position:
        state = game.ft_game.state_from_json(data["state"])
        steps: _Steps = None
        count = 0
        for seat, index, events, *seen in data["steps"]:
            steps = (_Step(int(seat), int(index), int(events), tuple(map(int, seen[0])) if seen else None), steps)
            count += 1
        setup = data.get("setup_seen")
        if setup is None:  # saved before what seats saw was kept: replay the record from its deal
            start = (game.ft_game.new_state(state.seats, state.seed, state.options), 0)
            return cls(game, state, steps, int(data["setup_events"]), None, start)
        return cls(game, state, steps, int(data["setup_events"]), tuple(map(int, setup)), (state.clone(), count))


# float32 values (a buffer or a list of byte blocks) -> the Python list pyspiel hands out, in C
# (``encoders/_float_lists.c``), sharing one float object per value; None where the install built no C
_FLOATS: Any = getattr(compiled("_float_lists"), "floats", None)
_KNOWN_BYTES = 1 << 21  # blocks whose floats are kept, in bytes (~8x that in floats); then all are forgotten at once


class _Lister:
    """Float32 vectors -> Python lists, as ``values.tolist()`` gives them, cheaper for long vectors.

    Where the install compiled ``_float_lists.c`` observation tensors take that instead (one call
    into C, sharing float objects: faster still); this stays the fallback, and makes the
    information-state lists, whose long vectors change in few places.

    pyspiel's API hands out tensors as Python lists, and for long vectors (Cornish Smuggler's
    3,258 floats) making the list costs more than encoding it. Where the encoder gives its
    vector as blocks (``Encoder.encode_parts``: Cornish Smuggler, Merchants Cove) the list is
    joined from each block's floats, kept (``from_parts``). Otherwise consecutive observations
    differ in a few entries, so the list last made is kept, the entries whose bits differ are
    set, and a copy is handed out (the caller may change it); bits, not values, are compared, so
    that -0.0 and NaN come out as ``tolist`` gives them.
    """

    def __init__(self, size: int) -> None:
        self.bits = np.zeros(size, np.uint32)
        self.list: list[float] = [0.0] * size
        self.lock = threading.Lock()  # games are shared; patching and copying must not interleave
        self.known: dict[bytes, list[float]] = {}  # a block's bytes -> its floats (``from_parts``)
        self.known_bytes = 0

    def from_parts(self, parts: list[bytes]) -> list[float]:
        """The list of the joined blocks (``Encoder.encode_parts``), as ``tolist`` gives it.

        Blocks repeat (an encoder's memoized blocks are the same objects while what they show is
        unchanged, and small ones recur with the same bytes), so each block's floats are kept,
        keyed by its bytes (a bytes object keeps its hash): the list is then a few dict look-ups
        and one copy of references, without making floats.
        """
        out: list[float] = []
        known = self.known
        for part in parts:
            got = known.get(part)
            if got is None:
                got = self._floats(part)
            out += got
        return out

    def _floats(self, part: bytes) -> list[float]:
        """A block's floats, kept (all forgotten at once past ``_KNOWN_BYTES`` of blocks)."""
        self.known_bytes += len(part)
        if self.known_bytes > _KNOWN_BYTES:
            self.known.clear()
            self.known_bytes = len(part)
        got: list[float] = memoryview(part).cast("f").tolist()  # type: ignore[assignment]  # floats for "f"
        self.known[part] = got
        return got

    def __call__(self, values: np.ndarray) -> list[float]:
        if values.shape[0] < 512:
            return values.tolist()  # type: ignore[no-any-return]
        bits = values.view(np.uint32)
        with self.lock:
            changed = np.flatnonzero(bits != self.bits)
            if changed.size:
                list(map(self.list.__setitem__, changed.tolist(), values[changed].tolist()))
                self.bits[changed] = bits[changed]
            return self.list[:]


class _Observer:
    """OpenSpiel's PyObserver interface over ``seat_view`` and the encoder."""

    def __init__(self, game: FreetraderSpielGame, iig_obs_type: Any) -> None:
        encoder = self.encoder = game.encoder
        self.recall = iig_obs_type is not None and bool(iig_obs_type.perfect_recall)
        self.public = iig_obs_type is not None and iig_obs_type.private_info == pyspiel.PrivateInfoType.NONE
        self.length = game.max_length
        size = encoder.observation_size
        if self.recall:
            size += 2 + 3 * self.length
            if size > MAX_INFOSTATE_TENSOR:
                fits = (MAX_INFOSTATE_TENSOR - encoder.observation_size - 2) // 3
                raise ValueError(
                    f"the information-state tensor of {short_name(game.ft_game)} with max_game_length="
                    f"{self.length} would hold {size:,} floats (3 per action); pass max_game_length={fits} or less")
        self.tensor = np.zeros(size, np.float32)
        self.dict = {"observation": self.tensor} if not self.recall else {"info_state": self.tensor}
        self.as_list = _Lister(size)
        self.blocks = True  # lists from the encoder's blocks (``as_tensor_list``); off: from the whole vector
        # observation lists made in C from the encoder's bytes (``Encoder.encode_buffer``); None: by ``as_list``
        self.fast: Callable[[Any], list[float]] | None = _FLOATS if not self.recall else None

    def set_from(self, state: FreetraderSpielState, player: int) -> None:
        if state._pos.state is None:
            return  # a throwaway state OpenSpiel built to learn the shape: never dealt, never read
        # OpenSpiel copies out of ``dict`` right after this call: hand it the new vector as it is
        self.dict["observation" if not self.recall else "info_state"] = self.values(state, player)

    def values(self, state: FreetraderSpielState, player: int) -> np.ndarray:
        """The tensor of ``player`` in ``state``, a new array."""
        pos = state._pos
        s = pos.state if pos.state is not None else pos.deal()
        seat = None if self.public else player
        if not self.recall:
            return self.encoder.encode_state(s, seat)
        t = np.zeros(self.tensor.shape[0], np.float32)
        n = self.encoder.observation_size
        t[:n] = self.encoder.encode_state(s, seat)
        events = s.events
        setup, steps = pos.recorded()
        eye = s.seats if seat is None else seat  # whose views: the seat's, or a spectator's
        t[n], t[n + 1] = _digest(events[:pos.setup_events], setup[eye])
        before = pos.setup_events
        for k, step in enumerate(steps):
            at = n + 2 + 3 * k
            if step.seat == seat and step.index >= 0:
                t[at] = step.index + 1
            assert step.seen is not None  # recorded() filled it
            t[at + 1], t[at + 2] = _digest(events[before:step.events], step.seen[eye])
            before = step.events
        return t

    def fast_list(self, pos: _Position, seat: int | None) -> list[float]:
        """The observation of ``seat`` as pyspiel's list, made in C from the encoder's bytes (``fast`` is set)."""
        assert self.fast is not None
        got: list[float] = self.fast(self.encoder.encode_buffer(pos.state if pos.state is not None else pos.deal(),
                                                                seat))
        return got

    def as_tensor_list(self, state: FreetraderSpielState, player: int) -> list[float]:
        """The tensor of ``player`` in ``state`` as pyspiel's list, from the encoder's blocks where it has them."""
        if self.fast is not None:
            return self.fast_list(state._pos, None if self.public else player)
        if self.blocks and not self.recall:
            pos = state._pos
            parts = self.encoder.encode_parts(pos.state if pos.state is not None else pos.deal(),
                                              None if self.public else player)
            if parts is not None:
                return self.as_list.from_parts(parts)
        return self.as_list(self.values(state, player))

    def string_from(self, state: FreetraderSpielState, player: int) -> str:
        s = state.ft_state
        if self.public:
            v = s.view(None)
            if not self.recall:
                v.pop("events", None)
        else:
            v = seat_view(s, player, events=self.recall)
        if self.recall:
            pos = state._pos
            setup, steps = pos.recorded()
            eye = s.seats if self.public else player
            v["event_marks"] = [pos.setup_events] + [step.events for step in steps]
            v["seen"] = [f"{setup[eye]:012x}"] + [f"{step.seen[eye]:012x}" for step in steps if step.seen]
            if not self.public:
                v["decisions"] = [[k, step.index] for k, step in enumerate(steps)
                                  if step.seat == player and step.index >= 0]
        return json.dumps(v, sort_keys=True, separators=(",", ":"))


def _walk(cons: _Steps) -> list[_Step]:
    out = []
    while cons is not None:
        out.append(cons[0])
        cons = cons[1]
    out.reverse()
    return out


class FreetraderSpielGame(pyspiel.Game):  # type: ignore[misc]
    """Base of the generated per-game classes; ``ft_game`` and ``game_type`` are set on each."""

    ft_game: Game
    game_type: Any
    fixed_options: dict[str, Any] = {}  # options a variant sets whatever the parameters say

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = dict(params or {})
        spec = self.ft_game.spec
        self.seats = spec.check_seats(int(params.get("players", spec.min_seats)))
        self.options = spec.resolve_options({**{o.name: params[o.name] for o in spec.options if o.name in params},
                                             **self.fixed_options})
        self.encoder = encoder_for(self.ft_game, self.seats, self.options)
        seed = int(params.get("seed", 0))
        self._seeds = random.Random(seed)
        self._resample = random.Random(seed ^ 0x5EED_5A3B_1E5)
        length = int(params.get("max_game_length", 0))
        if length < 0:
            raise ValueError(f"max_game_length must be 0 (the game's default) or a positive bound, got {length}")
        self.max_length = length or default_max_actions(self.ft_game, self.seats, self.options)
        self.truncation = str(params.get("truncation_reward", "rank"))
        if self.truncation not in _TRUNCATION:
            raise ValueError(f"truncation_reward must be one of {', '.join(_TRUNCATION)}, got {self.truncation!r}")
        lo, hi = reward_range(self.seats, "win")
        zero_sum = self.game_type.utility == pyspiel.GameType.Utility.ZERO_SUM
        info = pyspiel.GameInfo(
            num_distinct_actions=self.encoder.num_actions,
            max_chance_outcomes=self.chance_outcome_count(),
            num_players=self.seats,
            min_utility=lo,
            max_utility=hi,
            utility_sum=0.0 if zero_sum else None,
            max_game_length=self.max_length,
        )
        super().__init__(self.game_type, info, params)
        self._observers: dict[bool, _Observer] = {}

    def chance_outcome_count(self) -> int:
        """Outcomes of an explicit chance node (0: chance is sampled inside moves)."""
        return 0

    def next_seed(self) -> int:
        return self._seeds.getrandbits(63)

    def resample_seed(self) -> int:
        return self._resample.getrandbits(63)

    def new_initial_state(self) -> FreetraderSpielState:
        return FreetraderSpielState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> _Observer:
        return _Observer(self, iig_obs_type)

    def observer(self, recall: bool) -> _Observer:
        """The observer behind the state's own tensor and string methods (made once)."""
        found = self._observers.get(recall)
        if found is None:
            kind = pyspiel.IIGObservationType(perfect_recall=recall,
                                              private_info=pyspiel.PrivateInfoType.SINGLE_PLAYER)
            found = self._observers[recall] = _Observer(self, kind)
        return found

    def rng_state(self) -> str:
        """The game's seed sequence (and its resampling RNG), as text."""
        return json.dumps([_rng_json(self._seeds), _rng_json(self._resample)])

    def set_rng_state(self, text: str) -> None:
        seeds, resample = json.loads(text)
        self._seeds.setstate(_rng_from_json(seeds))
        self._resample.setstate(_rng_from_json(resample))

    def __deepcopy__(self, memo: Any) -> FreetraderSpielGame:
        return self  # states hold their game; a copied state shares it

    def __reduce__(self) -> tuple[Any, ...]:
        return (_unpickle_game, (str(self), self.rng_state()))


def _rng_json(r: random.Random) -> list[Any]:
    version, internal, gauss = r.getstate()
    return [version, list(internal), gauss]


def _rng_from_json(data: list[Any]) -> tuple[Any, ...]:
    return (data[0], tuple(data[1]), data[2])


def _unpickle_game(game_string: str, rng: str) -> FreetraderSpielGame:
    game = pyspiel.load_game(game_string)
    game.set_rng_state(rng)
    return game  # type: ignore[no-any-return]


class FreetraderSpielState(pyspiel.State):  # type: ignore[misc]
    """An OpenSpiel state around one of our states (``ft_state``)."""

    def __init__(self, game: FreetraderSpielGame, position: _Position | None = None) -> None:
        super().__init__(game)
        self._pos = position if position is not None else _Position(game)

    @property
    def ft_state(self) -> State:
        pos = self._pos
        s = pos.state
        return s if s is not None else pos.deal()

    def _legal(self) -> dict[int, Action]:
        pos = self._pos
        s = pos.state
        if s is None:
            s = pos.deal()
        if pos.at != s.action_count:
            legal = s.legal_actions() if s.action_count < pos.game.max_length else []
            pos.index = dict(zip(pos.game.encoder.legal_indices(legal), legal, strict=True))
            pos.at = s.action_count
        return pos.index

    def current_player(self) -> int:
        pos = self._pos
        s = pos.state
        if s is None:
            s = pos.deal()
        who = s.to_act
        return pyspiel.PlayerId.TERMINAL if who is None or s.action_count >= pos.game.max_length else who

    def _legal_actions(self, player: int) -> list[int]:
        if player != self.current_player():
            return []
        return sorted(self._legal())

    def _apply_action(self, action: int) -> None:
        found = self._legal().get(action)
        pos = self._pos
        s = pos.state
        assert s is not None  # _legal dealt it
        if found is None:
            raise pyspiel.SpielError(f"action {action} is not legal in {s!r}")
        seat = s.to_act
        assert seat is not None  # a legal action has a seat to take it
        s.apply_unchecked(found)
        pos.steps = (_Step(seat, action, s.event_count), pos.steps)

    def _action_to_string(self, player: int, action: int) -> str:
        found = self._legal().get(action) if player == self.ft_state.to_act else None
        return str(found) if found is not None else self._pos.game.encoder.describe(action)

    def is_terminal(self) -> bool:
        return bool(self.current_player() == pyspiel.PlayerId.TERMINAL)

    def is_truncated(self) -> bool:
        """Whether the game was cut off at ``max_game_length`` rather than finished."""
        s = self.ft_state
        return not s.is_over and s.action_count >= self._pos.game.max_length

    def returns(self) -> list[float]:
        s = self.ft_state
        if s.is_over:
            return final_rewards(s, "win")
        if s.action_count >= self._pos.game.max_length:
            return standing_rewards(s, "win") if self._pos.game.truncation == "rank" else [0.0] * s.seats
        return [0.0] * s.seats

    # Python callers of these four get the same values as through pyspiel's C++ observer path
    # (tested equal), without its round trip: that path builds a throwaway state to learn the
    # tensor's shape on every call, and that was most of an observation's cost.
    def observation_tensor(self, player: int | None = None) -> list[float]:
        """The observation tensor of ``player`` (default: the player to act), as pyspiel gives it."""
        pos = self._pos
        obs = pos.game.observer(False)
        if obs.fast is not None and type(player) is int and 0 <= player < pos.game.seats:
            return obs.fast_list(pos, player)  # the common call, a seat given: no check of the player to act
        return obs.as_tensor_list(self, self._seat(player))

    def information_state_tensor(self, player: int | None = None) -> list[float]:
        """The perfect-recall information-state tensor of ``player`` (default: the player to act)."""
        return self._pos.game.observer(True).as_tensor_list(self, self._seat(player))

    def observation_string(self, player: int | None = None) -> str:
        return self._pos.game.observer(False).string_from(self, self._seat(player))

    def information_state_string(self, player: int | None = None) -> str:
        return self._pos.game.observer(True).string_from(self, self._seat(player))

    def _seat(self, player: int | None) -> int:
        p = self.current_player() if player is None else player
        n = self._pos.game.seats
        if isinstance(p, bool) or not isinstance(p, int) or not 0 <= p < n:
            raise pyspiel.SpielError(f"player must be 0..{n - 1} (the player to act when left out), got {p!r}"
                                     + (" in a terminal state" if player is None else ""))
        return p

    def resample_from_infostate(self, player_id: int, probability_sampler: Any = None) -> FreetraderSpielState:
        """A state ``player_id`` cannot tell from this one (``State.determinize``)."""
        pos = self._pos
        game = pos.game
        setup, steps = pos.recorded()
        sample = self.ft_state.determinize(player_id, random.Random(game.resample_seed()))
        n = game.seats

        def known(seen: _Seen | None) -> _Seen:  # what player_id knows others saw: the public part
            assert seen is not None
            return tuple(seen[q] if q == player_id else seen[n] for q in range(n)) + (seen[n],)

        cons: _Steps = None
        for step in steps:
            cons = (_Step(step.seat, step.index if step.seat == player_id else -1, step.events, known(step.seen)), cons)
        return FreetraderSpielState(game, _Position(game, sample, cons, pos.setup_events, known(setup),
                                                    (sample.clone(), len(steps))))

    def saved(self) -> str:
        """The state as text: its saved-state JSON and the steps taken through OpenSpiel."""
        return json.dumps(self._pos.saved(), sort_keys=True, separators=(",", ":"))

    def __reduce__(self) -> tuple[Any, ...]:
        game = self._pos.game
        return (_unpickle_state, (str(game), self.saved(), [(h.player, h.action) for h in self.full_history()]))

    def __str__(self) -> str:
        return json.dumps(self.ft_state.to_json(), sort_keys=True, separators=(",", ":"))


def _restore(game: FreetraderSpielGame, saved: str, history: list[tuple[int, int]]) -> FreetraderSpielState:
    """A state of ``game`` from ``saved``, with OpenSpiel's C++ history rebuilt.

    The C++ side keeps the history (``history()``, ``move_number()``), which Python cannot set:
    the saved steps are applied to a stand-in that accepts exactly them, then the saved
    position replaces the stand-in.
    """
    pos = _Position.from_saved(game, json.loads(saved))
    stand_in = _Replay()
    rebuilding = _Position(game, stand_in)  # type: ignore[arg-type]
    state = FreetraderSpielState(game, rebuilding)
    for player, action in history:
        stand_in.to_act = player
        rebuilding.index = {action: _REPLAYED}
        rebuilding.at = stand_in.action_count
        pyspiel.State.apply_action(state, action)
    state._pos = pos
    return state


class _Replay:
    """Stands in for our state while OpenSpiel's C++ history is rebuilt (see ``_restore``)."""

    def __init__(self) -> None:
        self.action_count = 0
        self.event_count = 0
        self.to_act = 0
        self.is_over = False

    def apply_unchecked(self, action: Any) -> None:
        self.action_count += 1


_REPLAYED: Any = object()


def _unpickle_state(game_string: str, saved: str, history: list[tuple[int, int]]) -> FreetraderSpielState:
    return _restore(pyspiel.load_game(game_string), saved, history)


def serialize_game_and_state(game: FreetraderSpielGame, state: FreetraderSpielState) -> str:
    """OpenSpiel's ``serialize_game_and_state`` format, for our games (see the module docstring)."""
    body = json.dumps({"history": [[h.player, h.action] for h in state.full_history()], "position": json.loads(state.saved())},
                      sort_keys=True, separators=(",", ":"))
    return f"{_META}{_GAME_HEAD}\n{game}\n{_RNG_HEAD}\n{game.rng_state()}\n{_STATE_HEAD}\n{body}\n"


def deserialize_game_and_state(text: str) -> tuple[FreetraderSpielGame, FreetraderSpielState]:
    """The game and state ``serialize_game_and_state`` wrote; ``ValueError`` saying what is missing otherwise."""
    try:
        head, rest = text.split(f"\n{_GAME_HEAD}\n", 1)
        game_string, rest = rest.split(f"\n{_RNG_HEAD}\n", 1)
        rng, rest = rest.split(f"\n{_STATE_HEAD}\n", 1)
    except ValueError:
        raise ValueError(f"not a serialized game and state: expected the sections {_GAME_HEAD}, {_RNG_HEAD} and "
                         f"{_STATE_HEAD} in that order") from None
    game = pyspiel.load_game(game_string.strip())
    if not isinstance(game, FreetraderSpielGame):
        raise ValueError(f"{game_string.strip()!r} is not a Freetrader game; use pyspiel.deserialize_game_and_state")
    game.set_rng_state(rng.strip())
    body = json.loads(rest)
    saved = json.dumps(body["position"], sort_keys=True, separators=(",", ":"))
    return game, _restore(game, saved, [(int(p), int(a)) for p, a in body["history"]])


def _game_type(g: Game) -> Any:
    spec = g.spec
    solo = spec.min_seats < 2
    params: dict[str, Any] = {"players": spec.min_seats, "seed": 0, "max_game_length": 0, "truncation_reward": "rank"}
    for o in spec.options:
        if isinstance(o.default, (bool, int, float, str)):
            params[o.name] = o.default
    return pyspiel.GameType(
        short_name=short_name(g),
        long_name=f"Freetrader {spec.title}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC
        if spec.chance else pyspiel.GameType.ChanceMode.DETERMINISTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION
        if spec.hidden_information else pyspiel.GameType.Information.PERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.GENERAL_SUM if solo else pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=spec.max_seats,
        min_num_players=spec.min_seats,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=params,
    )


SMALL_CONTRABAND = "freetrader_contraband_small"


class _SmallContrabandGame(FreetraderSpielGame):
    """Contraband's designed small variant with the deal as an explicit chance node (``load_small_contraband``).

    Three seats, the 6-card pack (option ``pack=small``), seat 0 the officer by agreement, one
    declaration (``end=turns``, ``turn_limit=1``): seat 1 draws four cards and declares, seat 0
    searches or waves it through, and the game ends. The first node is chance: every distinct
    order of the pack, each as likely (the luggage is its top four cards). Nothing later draws
    on the state's RNG, so the game is explicit-stochastic and pyspiel's own
    ``serialize_game_and_state`` (a history of actions) works.
    """

    fixed_options = {"pack": "small", "end": "turns", "turn_limit": 1, "first_officer": "agreement"}

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        from freetrader.games.contraband.components import COMPONENTS

        self.orders = sorted(set(itertools.permutations(COMPONENTS.small_pack)))
        super().__init__({"players": 3, **(params or {})})

    def chance_outcome_count(self) -> int:
        return len(self.orders)

    def new_initial_state(self) -> _SmallContrabandState:
        return _SmallContrabandState(self)


class _SmallContrabandState(FreetraderSpielState):
    """Starts at the chance node (no state dealt); the chance action picks the pack's order."""

    def _dealt(self) -> bool:
        return self._pos.state is not None

    def current_player(self) -> int:
        return super().current_player() if self._dealt() else pyspiel.PlayerId.CHANCE

    def _legal_actions(self, player: int) -> list[int]:
        if not self._dealt():
            return list(range(len(self._game().orders))) if player == pyspiel.PlayerId.CHANCE else []
        return super()._legal_actions(player)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        if self._dealt():
            return []
        n = len(self._game().orders)
        return [(i, 1.0 / n) for i in range(n)]

    def _apply_action(self, action: int) -> None:
        if self._dealt():
            super()._apply_action(action)
            return
        from freetrader.games.contraband.rules import stack_pack

        game = self._game()
        if not 0 <= action < len(game.orders):
            raise pyspiel.SpielError(f"chance outcome {action} is not one of 0..{len(game.orders) - 1}")
        pos = self._pos
        s = game.ft_game.new_state(game.seats, 0, game.options)
        stack_pack(s, list(game.orders[action]))  # type: ignore[arg-type]  # a Contraband state
        pos.state, pos.setup_events, pos.start = s, s.event_count, (s.clone(), 0)

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            from freetrader.games.contraband.components import COMPONENTS

            return "deal " + " ".join(COMPONENTS.articles[k].id for k in self._game().orders[action])
        return super()._action_to_string(player, action)

    def returns(self) -> list[float]:
        return super().returns() if self._dealt() else [0.0] * 3

    def _game(self) -> _SmallContrabandGame:
        game = self._pos.game
        assert isinstance(game, _SmallContrabandGame)
        return game

    def __str__(self) -> str:
        return super().__str__() if self._dealt() else "chance node: the pack is not yet in order"


def _register_small_contraband() -> None:
    if SMALL_CONTRABAND in pyspiel.registered_names():
        return
    g = find_game("contraband")
    kind = _game_type(g)
    game_type = pyspiel.GameType(
        short_name=SMALL_CONTRABAND,
        long_name="Freetrader Contraband, small variant (6 cards, one declaration; not the printed game)",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=3,
        min_num_players=3,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification={"players": 3, "max_game_length": 0, "truncation_reward": "rank"},
    )
    del kind
    cls: Any = type("SmallContrabandGame", (_SmallContrabandGame,), {"ft_game": g, "game_type": game_type})
    pyspiel.register_game(game_type, cls)


def load_small_contraband() -> Any:
    """The small Contraband variant with an explicit chance node (see ``_SmallContrabandGame``)."""
    _register_small_contraband()
    return pyspiel.load_game(SMALL_CONTRABAND)


def register(game: Game | str) -> str:
    """Register one of our games with OpenSpiel (once); returns its OpenSpiel short name."""
    g = find_game(game) if isinstance(game, str) else game
    name = short_name(g)
    if _REGISTERED.get(name) == g.slug:
        return name
    if name in _REGISTERED or name in pyspiel.registered_names():
        raise ValueError(f"OpenSpiel already has a game called {name!r}")
    cls: Any = type(f"{name.title().replace('_', '')}Game", (FreetraderSpielGame,), {"ft_game": g, "game_type": _game_type(g)})
    pyspiel.register_game(cls.game_type, cls)
    _REGISTERED[name] = g.slug
    return name


def register_all() -> list[str]:
    """Register every game registered with Freetrader now; returns the OpenSpiel names."""
    return [register(n) for n in registered_games()]


def ismcts_bot(game: Any, evaluator: Any = None, **kwargs: Any) -> Any:
    """OpenSpiel's ``ISMCTSBot`` that ``evaluate_bots`` can seat: with the ``restart_at`` it lacks.

    ``evaluate_bots`` calls ``restart_at(state)`` on every bot before a game, and pyspiel's
    default raises. IS-MCTS searches afresh from each state it is asked about, so restarting
    only drops its tree (``reset``). The one line that does it for a bot you build yourself:
    ``bot.restart_at = lambda state: bot.reset()``. ``evaluator`` defaults to OpenSpiel's
    ``RandomRolloutEvaluator(1)``; keywords go to ``ISMCTSBot`` (``max_simulations``, ``uct_c``,
    ``random_state``, ...).
    """
    from open_spiel.python.algorithms import ismcts, mcts  # type: ignore[import-untyped]

    class _Bot(ismcts.ISMCTSBot):  # type: ignore[misc]
        def restart_at(self, state: Any) -> None:
            self.reset()

    kwargs.setdefault("uct_c", 2.0)
    kwargs.setdefault("max_simulations", 100)
    random_state = kwargs.setdefault("random_state", np.random.RandomState(0))
    return _Bot(game, evaluator if evaluator is not None else mcts.RandomRolloutEvaluator(1, random_state), **kwargs)


def load_game(game: Game | str, **params: Any) -> Any:
    """``pyspiel.load_game`` for one of our games, registering it first: ``load_game("contraband", players=4)``."""
    return pyspiel.load_game(register(game), params)


register_all()
_register_small_contraband()
