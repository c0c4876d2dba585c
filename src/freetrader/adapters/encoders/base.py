"""What every encoder provides, the action index spaces, and the view helper.

An encoder turns one seat's *view* (``State.view(seat)``, never the full
state) into a fixed-size ``float32`` vector, and maps actions to indices
``0 .. num_actions - 1``. Two index spaces are provided:

- ``Catalogue``: a fixed, ordered list of every notation the game can offer.
  An index always means the same action; a game module documents the order.
  A few overflow indices after the list catch notations the list lacks.
- ``HashedActions``: for games with no catalogue. An action's home slot is
  ``crc32(notation) % size``; when two actions legal at the same time share a
  slot, the later one (in ``legal_actions()`` order) takes the next free slot.
  An index therefore means the same action in every state except, rarely,
  for the colliding one, whose index then depends on what else is legal.
  The trade-off: no per-game code and a stable meaning for almost every
  index, against a large sparse action space and a learned policy that may
  confuse two actions whose notations collide.
"""

from __future__ import annotations

import zlib
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Mapping, Sequence
from functools import partial
from typing import TYPE_CHECKING, Any

from freetrader.core import Action, Game, State

from ._build import compiled

if TYPE_CHECKING:
    import numpy as np

    from .layout import Layout

# legal indices and mask in one C call (``_action_masks.c``); None where the install built no C
_MASKS: Any = getattr(compiled("_action_masks"), "masks", None)
#: ``legal_mask(actions)``'s indices and mask bytes, or None where the caller must ask ``legal_mask`` itself
MaskFunction = Callable[[Sequence[Action]], tuple[list[int], bytes] | None]


def _id_tuple(actions: Sequence[Action]) -> tuple[int, ...]:
    return tuple(map(id, actions))


#: ``legal_key(actions)``: a key for that very sequence of action objects (their ids in order), for caches by
#: legal set; valid while the actions live (games hand out interned actions: the same set, the same ids).
#: The C call gives the ids as bytes, a fifth of the cost of the tuple of ints, its Python fallback.
legal_key: Callable[[Sequence[Action]], bytes | tuple[int, ...]] = getattr(compiled("_action_masks"), "ids", _id_tuple)

__all__ = ["Encoder", "Catalogue", "HashedActions", "ActionSpace", "seat_view", "seat_in_range", "crc"]


def seat_in_range(seat: object, seats: int) -> bool:
    """Whether ``seat`` is a seat of a ``seats``-seat game or None (the spectator): what the fast paths serve."""
    return seat is None or (type(seat) is int and 0 <= seat < seats)


def crc(text: str) -> int:
    """A hash of text that is the same in every process (unlike ``hash``)."""
    return zlib.crc32(text.encode())


def seat_view(state: State, seat: int | None, events: bool = False) -> dict[str, Any]:
    """``state.view(seat)``, without the public log unless ``events``.

    The log grows with the game and walking it is most of the cost of a view
    late in a game; no encoder reads it.
    """
    return state.view(seat, events=events)


class ActionSpace(ABC):
    """Maps a state's legal actions to indices; ``size`` indices in all."""

    size: int

    @abstractmethod
    def legal_indices(self, actions: Sequence[Action]) -> list[int]:
        """The index of each action, in the same order (distinct indices).

        The same actions in the same order must always get the same indices.
        """
        ...

    @abstractmethod
    def describe(self, index: int) -> str:
        """What an index means, for people (the notation where it is fixed)."""
        ...

    def legal_mask(self, actions: Sequence[Action]) -> tuple[list[int], bytes]:
        """``legal_indices(actions)`` and the mask over all ``size`` indices: ``int8`` bytes, 1 at each."""
        idx = self.legal_indices(actions)
        return idx, mask_bytes(idx, self.size)

    def mask_function(self) -> MaskFunction | None:
        """A C function giving ``legal_mask(actions)`` for the common case and None otherwise (then ask
        ``legal_mask``), or None (the default) where there is none: see ``Encoder.mask_function``."""
        return None


def mask_bytes(indices: Iterable[int], size: int) -> bytes:
    """``size`` bytes, 1 at each of ``indices`` and 0 elsewhere: an ``int8`` action mask."""
    ones = bytearray(size)  # cheaper than numpy's fancy indexing for a few ones
    for i in indices:
        ones[i] = 1
    return bytes(ones)


class Catalogue(ActionSpace):
    """A fixed, ordered list of notations: index ``i`` is always ``notations[i]``.

    ``overflow`` extra indices after the list take notations the list lacks
    (a game that gained an action before its encoder did): they are hashed
    there as in ``HashedActions``, so play goes on, and ``unknown`` records
    them so that a test can insist on an empty overflow.
    """

    def __init__(self, notations: Iterable[str], name: str = "", overflow: int = 256) -> None:
        self.notations: tuple[str, ...] = tuple(notations)
        self.index: dict[str, int] = {}
        for i, text in enumerate(self.notations):
            if text in self.index:
                raise ValueError(f"action catalogue {name!r} lists {text!r} twice")
            self.index[text] = i
        self.name = name
        self.overflow = overflow
        self.size = len(self.notations) + overflow
        self.unknown: set[str] = set()
        self._by_action: dict[Action, int] = {}
        # catalogued actions met before (overflow ones take the slow way, their index may depend on
        # what else is legal); ``_kept`` holds each such action so that its id is never reused
        self._by_id: dict[int, int] = {}
        self._kept: list[Action] = []
        self._table = bytearray()  # _by_id as the C call's table of addresses (made and kept by it)

    def index_of(self, action: Action | str) -> int:
        """The fixed index of a catalogued notation; ``KeyError`` for one the catalogue lacks."""
        text = str(action)
        i = self.index.get(text)
        if i is None:
            raise KeyError(
                f"action {text!r} is not in the {self.name or 'action'} catalogue ({len(self.notations)} actions); "
                "the game offers an action its encoder does not know: update the encoder and its version"
            )
        return i

    def _home(self, action: Action) -> int:
        text = str(action)
        i = self.index.get(text)
        if i is None:
            if not self.overflow:
                return self.index_of(text)
            self.unknown.add(text)
            i = len(self.notations) + crc(text) % self.overflow
        return i

    def legal_indices(self, actions: Sequence[Action]) -> list[int]:
        # Games hand out interned action objects: look them up by identity, in one C-level
        # pass (hashing a dataclass runs Python code); only actions never met take the slow way.
        out: list[int | None] = list(map(self._by_id.get, map(id, actions)))
        if None not in out:
            return out  # type: ignore[return-value]  # all catalogued, so distinct
        n = len(self.notations)
        for k, i in enumerate(out):
            if i is None:
                a = actions[k]
                i = out[k] = self._by_action.get(a)
                if i is None:
                    i = out[k] = self._by_action[a] = self._home(a)
                if i < n and len(self._kept) < 100_000:
                    self._kept.append(a)
                    self._by_id[id(a)] = i
        found: list[int] = out  # type: ignore[assignment]  # no None left
        if self.overflow and max(found, default=0) >= n:
            taken: set[int] = set()
            for k, i in enumerate(found):
                while i in taken:
                    i = n + (i - n + 1) % self.overflow
                taken.add(i)
                found[k] = i
        return found

    def legal_mask(self, actions: Sequence[Action]) -> tuple[list[int], bytes]:
        # One C call where the install built it and every action was met before (the common case):
        # the Python way costs about as much as an engine step.
        if _MASKS is not None:
            got: tuple[list[int], bytes] | None = _MASKS(self._by_id, self._table, self.size, actions)
            if got is not None:
                return got
        return super().legal_mask(actions)

    def mask_function(self) -> MaskFunction | None:
        # the C call of legal_mask with its first two arguments bound: None from it for actions not met before
        return None if _MASKS is None else partial(_MASKS, self._by_id, self._table, self.size)

    def describe(self, index: int) -> str:
        if index < len(self.notations):
            return self.notations[index]
        names = sorted(t for t in self.unknown if len(self.notations) + crc(t) % self.overflow == index)
        return " | ".join(names) if names else f"overflow slot {index}"


class HashedActions(ActionSpace):
    """Notation hashed into ``size`` slots, collisions resolved by probing (see the module docstring)."""

    def __init__(self, size: int = 4096) -> None:
        if size < 2:
            raise ValueError(f"a hashed action space needs at least 2 slots, got {size}")
        self.size = size
        self._home: dict[Action, int] = {}
        self._seen: dict[int, set[str]] = {}

    def home(self, action: Action) -> int:
        slot = self._home.get(action)
        if slot is None:
            text = str(action)
            slot = self._home[action] = crc(text) % self.size
            self._seen.setdefault(slot, set()).add(text)
        return slot

    def legal_indices(self, actions: Sequence[Action]) -> list[int]:
        if len(actions) > self.size:
            raise ValueError(f"{len(actions)} legal actions do not fit a hashed space of {self.size} slots")
        home = self._home
        out = [home.get(a) if a in home else self.home(a) for a in actions]
        if len(set(out)) == len(out):
            return out  # type: ignore[return-value]
        taken: set[int] = set()
        for k, slot in enumerate(out):
            assert slot is not None
            while slot in taken:
                slot = (slot + 1) % self.size
            taken.add(slot)
            out[k] = slot
        return out  # type: ignore[return-value]

    def describe(self, index: int) -> str:
        names = sorted(self._seen.get(index, ()))
        return " | ".join(names) if names else f"slot {index}"


class Encoder(ABC):
    """A seat's view -> ``float32[observation_size]``; actions <-> ``0 .. num_actions - 1``.

    ``name`` is the encoder's id (``"contraband"``, ``"generic"``) and
    ``version`` changes whenever the layout changes, so a saved policy can
    check it was trained on the same layout.
    """

    name = "encoder"
    version = 1
    #: every feature lies within these; the per-feature bounds are ``observation_bounds()``
    bounds: tuple[float, float] = (-1e6, 1e6)
    #: the declared layout (named pieces with offsets and bounds), where the encoder has one
    layout: Layout | None = None
    observation_size: int
    actions: ActionSpace
    #: whether ``encode_state`` uses a compiled twin (where the encoder has one and the install
    #: built it); tests turn it off to check the Python path, which stays the reference
    compiled = False

    def __init__(self, game: Game, seats: int, options: Mapping[str, Any]) -> None:
        self.game = game
        self.seats = seats
        self.options = dict(options)

    def use_layout(self, layout: Layout) -> None:
        """Encode by ``layout``: the observation size and the overall bounds follow from it."""
        self.layout = layout
        self.observation_size = layout.size
        self.bounds = (0.0, max(p.high for _, p, _ in layout.pieces()))

    @property
    def num_actions(self) -> int:
        return self.actions.size

    def observation_bounds(self) -> tuple[np.ndarray, np.ndarray]:
        """Per-feature ``low`` and ``high`` (float32 arrays), the observation Box's bounds: from the
        declared layout where there is one, else ``bounds`` for every feature."""
        import numpy as np

        if self.layout is not None:
            return self.layout.bounds()
        return (np.full(self.observation_size, self.bounds[0], np.float32),
                np.full(self.observation_size, self.bounds[1], np.float32))

    def encode(self, view: Mapping[str, Any]) -> np.ndarray:
        """The observation vector of ``view`` (which is ``state.view(seat)``)."""
        import numpy as np

        out = np.asarray(self.features(view), dtype=np.float32)
        if out.shape != (self.observation_size,):
            raise ValueError(f"{self.name} encoder v{self.version} made {out.shape[0]} features, "
                             f"expected {self.observation_size}")
        return out

    def encode_state(self, state: State, seat: int | None) -> np.ndarray:
        """``encode(seat_view(state, seat))``, a new array on every call.

        An encoder may override this to read the state's fields directly,
        skipping the view (which is most of the cost of an observation). An
        override must read only what ``seat``'s view shows and give exactly
        the same vector; tests check both (``tests/adapters/test_fast_encoders.py``).
        """
        return self.encode(seat_view(state, seat))

    def encode_parts(self, state: State, seat: int | None) -> list[bytes] | None:
        """``encode_state(state, seat)`` as the float32 byte blocks it joins, or None (the default).

        An encoder that joins its vector from memoized blocks may return them unjoined: a caller
        that needs Python floats (OpenSpiel's tensor lists) then converts only blocks it has not
        met, knowing a block by its identity. The blocks joined must be exactly ``encode_state``'s
        bytes (tested); None for a seat out of range, so that ``encode_state`` raises the error.
        """
        return None

    def compiled_bytes(self, state: State, seat: int | None) -> bytes | bytearray | None:
        """``encode_state(state, seat)`` as the float32 bytes of the game's compiled encoder, or None.

        None (the default) where the game has none, the install did not build it, or it does not
        serve this call (a seat out of range: ``encode_state`` then raises the view's error).
        """
        return None

    def compiled_function(self) -> Callable[[State, int | None], bytes | bytearray] | None:
        """The compiled encoder's own ``f(state, seat)``, giving ``compiled_bytes(state, seat)`` for every seat in
        range (``None`` or ``0 .. seats - 1``), or None (the default) where there is no such single call or it is
        not in use now (``compiled`` off).

        For a caller that asks once per position and checks its seats itself (the adapters' sessions): it
        skips the Python method in between, a measurable part of a step for the games with a C twin.
        """
        return None

    def encode_buffer(self, state: State, seat: int | None) -> np.ndarray | bytes | bytearray | list[bytes]:
        """``encode_state(state, seat)``'s float32 values as one buffer or as blocks to join in order.

        For a caller that reads the values without needing an array (OpenSpiel's tensor lists,
        made in C): the compiled encoder's bytes, else the blocks unjoined, else the array. The
        values must be exactly ``encode_state``'s (tested).
        """
        got = self.compiled_bytes(state, seat)
        if got is not None:
            return got
        parts = self.encode_parts(state, seat)
        return parts if parts is not None else self.encode_state(state, seat)

    def encode_into(self, states: Sequence[State], seat: int | None, out: np.ndarray, rows: Sequence[int]) -> None:
        """Write ``encode_state(states[k], seat)`` into row ``rows[k]`` of ``out``, for every ``k``.

        The batched entry point: ``out`` is a C-contiguous ``float32[n, observation_size]`` array (a
        batched environment's stacked observations). Each row is copied straight from the compiled
        encoder's bytes or the joined blocks where the encoder has them, with no array made per row.
        """
        import numpy as np

        if out.dtype != np.float32 or out.ndim != 2 or out.shape[1] != self.observation_size \
                or not out.flags.c_contiguous:
            raise ValueError(f"encode_into needs a C-contiguous float32 array of shape (n, {self.observation_size}), "
                             f"got {out.dtype} {out.shape}")
        fast: Callable[[State, int | None], bytes | bytearray | None] | None
        fast = self.compiled_function() if seat_in_range(seat, self.seats) else None
        if fast is None and type(self).compiled_bytes is not Encoder.compiled_bytes:
            fast = self.compiled_bytes
        view = out.data.cast("B")
        width = self.observation_size * 4
        for state, row in zip(states, rows, strict=True):
            got: Any = None if fast is None else fast(state, seat)
            if got is None:
                got = self.encode_buffer(state, seat)  # the blocks unjoined or the array, as the encoder has them
                if type(got) is list:
                    got = b"".join(got)
            at = row * width
            if isinstance(got, np.ndarray):
                out[row] = got
            elif len(got) != width:
                raise ValueError(f"{self.name} encoder v{self.version} made {len(got) // 4} features, "
                                 f"expected {self.observation_size}")
            else:
                view[at:at + width] = got

    @abstractmethod
    def features(self, view: Mapping[str, Any]) -> list[float]:
        """The features as a plain list (``encode`` turns them into an array)."""
        ...

    def legal_indices(self, actions: Sequence[Action]) -> list[int]:
        return self.actions.legal_indices(actions)

    def legal_mask(self, actions: Sequence[Action]) -> tuple[list[int], bytes]:
        """``legal_indices(actions)`` and the ``int8`` bytes of the mask over ``num_actions`` (1 at each)."""
        if type(self).legal_indices is not Encoder.legal_indices:  # indices of its own: the mask follows them
            idx = self.legal_indices(actions)
            return idx, mask_bytes(idx, self.num_actions)
        return self.actions.legal_mask(actions)

    def mask_function(self) -> MaskFunction | None:
        """``legal_mask``'s C call itself where its index space has one, for a caller that asks once per position
        (the adapters' sessions): ``f(actions)`` is ``legal_mask(actions)``, or None when the C call defers (an
        action not met before, an overflow slot, a shared index): then ``legal_mask`` decides. None where there is
        no such call: no C build, or an encoder with indices of its own.

        It skips the two Python methods in between, a measurable part of a step in the games with a compiled
        encoder.
        """
        if type(self).legal_indices is not Encoder.legal_indices or type(self).legal_mask is not Encoder.legal_mask:
            return None
        return self.actions.mask_function()

    def describe(self, index: int) -> str:
        return self.actions.describe(index)

    def __repr__(self) -> str:
        return f"<{self.name} encoder v{self.version}: {self.observation_size} features, {self.num_actions} actions>"
