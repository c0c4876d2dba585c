"""Decision frames: the stack of pending (sub-)decisions of a game.

A game's state keeps ``frames: tuple[Frame, ...]``. The top frame is the
decision now: it names the seat to act, its legal actions and its prompt,
and applies the chosen action. A decision that needs another one first (a
card that asks where to move, an event others may answer) pushes a frame
and returns; when that frame finishes it pops and the frame below is told
(``child_done``), so the rest of the work continues from a typed object rather
than a string key or a scratch register.

Frames are frozen dataclasses (``@dataclass(frozen=True, slots=True)``):
cloning a state shares its stack, and a frame that moves on replaces itself
(``replace``). Every frame class is found by name when a saved state loads.

The rule of the stack: after ``push`` return at once; the frame pushed may
have finished already (nothing to ask), and then ``child_done`` has run.

Core ships the frames games keep rewriting:

- ``ReactionWindow``: an event others may answer, asked in seat order from a
  given seat; only seats that could answer on public facts are asked; a
  decline writes no event, so the log never says who was asked. Windows
  nest: a card played in one may cause an event that opens another.
- ``AskSeats``: ask these seats in order, one decision each.
- ``ChooseOne``: one seat chooses one of these actions.
"""

from __future__ import annotations

import dataclasses
import enum
import sys
import typing
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar, Generic, TypeVar

from .errors import BadRecord
from .fields import DeclaredMeta, compile_copy, fields_from_json, fields_to_json, init_fields
from .state import Action, Game, State

__all__ = [
    "AskSeats",
    "ChooseOne",
    "DeclaredState",
    "Frame",
    "FrameState",
    "ModuleHooks",
    "ReactionWindow",
    "change_below",
    "finish",
    "frame_from_json",
    "frame_to_json",
    "push",
    "replace",
    "top",
]

_FRAME_TYPES: dict[str, type[Frame[Any]]] = {}

#: The game state a frame works on: a game's frames are ``Frame[ItsState]``, so mypy checks the rules code.
S = TypeVar("S", bound="FrameState")


class Frame(Generic[S]):
    """One pending decision about a state of type ``S``. Subclasses are frozen slotted dataclasses."""

    __slots__ = ()
    #: The name a saved state uses for this frame type (default: module and class name).
    frame_name: ClassVar[str] = ""

    def __init_subclass__(cls, **kw: Any) -> None:
        super().__init_subclass__(**kw)
        # ``dataclass(slots=True)`` makes a second class: the last one made is the one in use.
        _FRAME_TYPES[cls.__dict__.get("frame_name") or f"{cls.__module__}.{cls.__qualname__}"] = cls

    def actor(self, s: S) -> int:
        """The seat that decides this frame."""
        raise NotImplementedError(f"{type(self).__name__} must define actor()")

    def legal(self, s: S) -> Sequence[Action]:
        raise NotImplementedError(f"{type(self).__name__} must define legal()")

    def apply(self, s: S, action: Action) -> None:
        raise NotImplementedError(f"{type(self).__name__} must define apply()")

    def prompt(self, s: S) -> str:
        return ""

    def child_done(self, s: S, done: Frame[Any]) -> None:
        """A frame pushed above this one has finished; by default this one decides again."""
        return None

    def close(self, s: S) -> None:
        """Runs once this frame has popped, before the frame below resumes (it may push another)."""
        return None


# == the stack ==========================================================================================
def top(s: FrameState) -> Frame[Any]:
    return s.frames[-1]


def push(s: FrameState, frame: Frame[Any]) -> None:
    """Put ``frame`` on top. Return right after: the rest of the work belongs in ``child_done``."""
    s.frames = s.frames + (frame,)


def replace(s: FrameState, frame: Frame[Any]) -> None:
    """The top frame moves on: ``frame`` takes its place."""
    s.frames = s.frames[:-1] + (frame,)


def change_below(s: FrameState, old: Frame[Any], new: Frame[Any]) -> None:
    """A frame still pending below the top changes (a card played in a window alters the event it answers).

    ``new`` takes ``old``'s place; nothing pops, closes or resumes. A frame no
    longer on the stack amends nothing.
    """
    s.frames = tuple(new if f is old else f for f in s.frames)


def finish(s: FrameState, frame: Frame[Any]) -> None:
    """``frame`` (the top) is done: it pops, closes, and the frame below resumes.

    If closing pushed a frame of its own, the frame below resumes when that
    one finishes instead. A frame no longer on the stack (the game ended
    meanwhile) finishes nothing.
    """
    stack = s.frames
    if not stack or stack[-1] is not frame:
        return
    s.frames = below = stack[:-1]
    frame.close(s)
    if below and s.frames is below:
        below[-1].child_done(s, frame)


def _now_on_top(s: FrameState, depth: int, kind: type) -> Any:
    """After a frame's own handler ran: the frame to go on with now (it may have replaced itself),
    or None when the handler pushed a frame (the frame goes on from ``child_done``) or ended the game."""
    stack = s.frames
    if len(stack) == depth and isinstance(stack[-1], kind):
        return stack[-1]
    return None


# == frames every game needs ============================================================================
@dataclasses.dataclass(frozen=True, slots=True)
class ReactionWindow(Frame[S]):
    """An event that other cards may answer, asked seat by seat.

    ``ask`` holds the seats still to ask, the one asked now first. A game
    subclasses it with the event's own fields and the hooks below; ``open``
    asks only the seats that ``may_answer`` (public facts: a non-empty hand,
    a usable face-up card) and pushes nothing when there are none.
    """

    ask: tuple[int, ...]

    # -- hooks ---------------------------------------------------------------------------------------
    def may_answer(self, s: S, seat: int) -> bool:
        """Whether ``seat`` is asked, judged on what every seat can see."""
        raise NotImplementedError(f"{type(self).__name__} must define may_answer()")

    def answers(self, s: S, seat: int) -> Sequence[Action]:
        """The answers ``seat`` has besides declining (may be empty)."""
        raise NotImplementedError(f"{type(self).__name__} must define answers()")

    def decline(self, s: S) -> Action:
        """The game's ``decline`` action."""
        raise NotImplementedError(f"{type(self).__name__} must define decline()")

    def may_decline(self, s: S, seat: int) -> bool:
        return True

    def answer(self, s: S, seat: int, action: Action) -> None:
        """Play ``action`` (one of ``answers``); may replace the window (``replace``) and push frames."""
        raise NotImplementedError(f"{type(self).__name__} must define answer()")

    def settled(self, s: S) -> bool:
        """The event has nothing left to answer (say, no Goods left to seize): close now."""
        return False

    # -- the window ----------------------------------------------------------------------------------
    @classmethod
    def open(cls, s: S, first: int, **fields: Any) -> bool:
        """Push the window asking seats in order from ``first``; False (nothing pushed) if none may answer."""
        window = cls(ask=(), **fields)
        n = s.seats
        ask = tuple(q for q in ((first + i) % n for i in range(n)) if window.may_answer(s, q))
        if not ask:
            return False
        push(s, dataclasses.replace(window, ask=ask))
        return True

    def actor(self, s: S) -> int:
        return self.ask[0]

    def legal(self, s: S) -> Sequence[Action]:
        seat = self.ask[0]
        plays = tuple(self.answers(s, seat))
        if self.may_decline(s, seat) or not plays:
            return (self.decline(s),) + plays
        return plays

    def apply(self, s: S, action: Action) -> None:
        seat = self.ask[0]
        if action == self.decline(s):  # silent: no event, so the log never says who was asked
            self._next(s, played=False)
            return
        depth = len(s.frames)
        self.answer(s, seat, action)
        now = _now_on_top(s, depth, ReactionWindow)
        if now is not None:
            now._next(s, played=True)

    def child_done(self, s: S, done: Frame[Any]) -> None:
        self._next(s, played=True)

    def _next(self, s: S, played: bool) -> None:
        """After a play the same seat may play again; after a decline the next seat that may answer is asked."""
        if self.settled(s):
            finish(s, self)
            return
        if played and self.may_answer(s, self.ask[0]):
            return
        rest = self.ask[1:]
        while rest and not self.may_answer(s, rest[0]):
            rest = rest[1:]
        if rest:
            replace(s, dataclasses.replace(self, ask=rest))
        else:
            finish(s, self)


@dataclasses.dataclass(frozen=True, slots=True)
class AskSeats(Frame[S]):
    """Ask each seat of ``order`` in turn for one decision (say, each player discards)."""

    order: tuple[int, ...]

    def ask_legal(self, s: S, seat: int) -> Sequence[Action]:
        raise NotImplementedError(f"{type(self).__name__} must define ask_legal()")

    def answer(self, s: S, seat: int, action: Action) -> None:
        raise NotImplementedError(f"{type(self).__name__} must define answer()")

    def actor(self, s: S) -> int:
        return self.order[0]

    def legal(self, s: S) -> Sequence[Action]:
        return self.ask_legal(s, self.order[0])

    def apply(self, s: S, action: Action) -> None:
        depth = len(s.frames)
        self.answer(s, self.order[0], action)
        now = _now_on_top(s, depth, AskSeats)
        if now is not None:
            now._next(s)

    def child_done(self, s: S, done: Frame[Any]) -> None:
        self._next(s)

    def _next(self, s: S) -> None:
        if len(self.order) > 1:
            replace(s, dataclasses.replace(self, order=self.order[1:]))
        else:
            finish(s, self)


@dataclasses.dataclass(frozen=True, slots=True)
class ChooseOne(Frame[S]):
    """``seat`` chooses one of ``options``; ``chosen`` carries it out, then the frame finishes."""

    seat: int
    options: tuple[Action, ...]

    def chosen(self, s: S, action: Action) -> None:
        raise NotImplementedError(f"{type(self).__name__} must define chosen()")

    def actor(self, s: S) -> int:
        return self.seat

    def legal(self, s: S) -> Sequence[Action]:
        return self.options

    def apply(self, s: S, action: Action) -> None:
        depth = len(s.frames)
        self.chosen(s, action)
        now = _now_on_top(s, depth, ChooseOne)
        if now is not None:
            finish(s, now)

    def child_done(self, s: S, done: Frame[Any]) -> None:
        finish(s, self)


# == saving frames ======================================================================================
def frame_to_json(frame: Frame[Any]) -> dict[str, Any]:
    cls = type(frame)
    out: dict[str, Any] = {"frame": cls.__dict__.get("frame_name") or f"{cls.__module__}.{cls.__qualname__}"}
    for f in dataclasses.fields(frame):  # type: ignore[arg-type]
        out[f.name] = _encode(getattr(frame, f.name))
    return out


def _encode(v: Any) -> Any:
    if isinstance(v, Action):
        return str(v)
    if isinstance(v, enum.Enum):
        return v.name
    if isinstance(v, tuple):
        return [_encode(x) for x in v]
    return v


def frame_from_json(data: Any, game: Game) -> Frame[Any]:
    """The frame ``frame_to_json`` wrote; ``BadRecord`` naming what is wrong otherwise."""
    if not isinstance(data, Mapping) or not isinstance(data.get("frame"), str):
        raise BadRecord(f"a saved frame must be an object with a 'frame' name, got {data!r}")
    cls = _FRAME_TYPES.get(data["frame"])
    if cls is None:
        raise BadRecord(f"saved state names an unknown frame {data['frame']!r}")
    hints = _frame_hints(cls)
    kwargs: dict[str, Any] = {}
    for f in dataclasses.fields(cls):  # type: ignore[arg-type]
        if f.name not in data:
            raise BadRecord(f"saved frame {data['frame']} lacks the field {f.name!r}")
        kwargs[f.name] = _decode(data[f.name], hints[f.name], game, f"{data['frame']}.{f.name}")
    return cls(**kwargs)


def _frame_hints(cls: type) -> dict[str, Any]:
    hints: dict[str, Any] = {}
    for klass in reversed(cls.__mro__):
        scope = vars(sys.modules[klass.__module__])
        for name, ann in klass.__dict__.get("__annotations__", {}).items():
            hints[name] = eval(ann, scope) if isinstance(ann, str) else ann  # noqa: S307 - our own annotations
    return hints


def _decode(v: Any, hint: Any, game: Game, where: str) -> Any:
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if origin is tuple:
        if not isinstance(v, list):
            raise BadRecord(f"saved frame field {where} must be a list, got {v!r}")
        if len(args) == 2 and args[1] is Ellipsis:
            return tuple(_decode(x, args[0], game, where) for x in v)
        if len(args) != len(v):
            raise BadRecord(f"saved frame field {where} must have {len(args)} items, got {len(v)}")
        return tuple(_decode(x, a, game, where) for x, a in zip(v, args, strict=True))
    if isinstance(hint, type) and issubclass(hint, Action):
        return game.parse_action(v)
    if isinstance(hint, type) and issubclass(hint, enum.Enum):
        try:
            return hint[v]
        except (KeyError, TypeError):
            raise BadRecord(f"saved frame field {where} is {v!r}; expected one of {', '.join(hint.__members__)}") from None
    if hint in (int, str, bool) and (not isinstance(v, hint) or (hint is int and isinstance(v, bool))):
        raise BadRecord(f"saved frame field {where} is {v!r}; expected {hint.__name__}")
    return v


# == states built on declared fields and frames ==========================================================
class DeclaredState(State, metaclass=DeclaredMeta):
    """A State whose fields are its annotations (``core.fields``): clone and JSON come from them."""

    __slots__ = ()

    def __init_subclass__(cls, **kw: Any) -> None:
        super().__init_subclass__(**kw)
        if "_declared_here" in cls.__dict__:
            cls._copy_into = _compiling_copy(cls)  # type: ignore[method-assign]

    def _init_fields(self) -> None:
        init_fields(self)

    def _copy_into(self, other: Any) -> None:
        return None

    def _game_json(self) -> dict[str, Any]:
        return fields_to_json(self)

    def _load_game_json(self, data: Mapping[str, Any]) -> None:
        fields_from_json(self, data)
        self._check_consistent()

    def _check_consistent(self) -> None:
        """Game-specific checks of a loaded state (raise ``BadRecord``); none by default."""
        return None


def _compiling_copy(cls: type) -> Any:
    def _copy_into(self: Any, other: Any) -> None:
        fn = compile_copy(cls, self)
        type.__setattr__(cls, "_copy_into", fn)  # this class only: a subclass declaring more fields has its own
        fn(self, other)

    return _copy_into


class ModuleHooks(DeclaredState):
    """A DeclaredState whose set-up, views and checks come from a game's ``rules`` and ``views`` modules.

    The subclass names them (``rules = my_rules``, ``views = my_view``), as the
    DESIGN layout has every game keep its rules and views in those two files.
    ``rules`` provides ``setup`` and ``check_consistent``; ``views`` provides
    ``view`` and ``determinize``. Set-up starts from every field at its zero.
    """

    __slots__ = ()
    rules: ClassVar[Any]
    views: ClassVar[Any]

    def _setup(self) -> None:
        init_fields(self)
        self.rules.setup(self)

    def _view(self, seat: int | None) -> dict[str, Any]:
        return self.views.view(self, seat)  # type: ignore[no-any-return]

    def _determinize(self, seat: int, seed: int) -> None:
        self.views.determinize(self, seat, seed)

    def _check_consistent(self) -> None:
        self.rules.check_consistent(self)


class FrameState(ModuleHooks):
    """ModuleHooks whose pending decision is the top of ``frames``; the game is over when none is left.

    Besides the top frame's own actions, ``_anytime`` may offer a seat actions it
    can take at any decision of its own (a card "discarded at any time by paying
    the cost shown on it"); ``_take_anytime`` carries one out and the frame stays
    pending, asked again.
    """

    frames: tuple[Frame[Any], ...]

    @property
    def to_act(self) -> int | None:
        f = self.frames
        return f[-1].actor(self) if f else None

    @property
    def is_over(self) -> bool:
        return not self.frames  # as ``to_act is None``, without asking the top frame who acts

    def _anytime(self, seat: int) -> Sequence[Action]:
        """Actions ``seat`` may take at any decision of its own besides the top frame's; none by default."""
        return ()

    def _take_anytime(self, action: Action) -> None:
        """Carry out one of ``_anytime``'s actions; it may push a frame (the frame below is asked again after it)."""
        raise NotImplementedError(f"{type(self).__name__} offers actions at any decision: define _take_anytime()")

    def _legal(self) -> tuple[Action, ...]:
        f = self.frames[-1]
        own = tuple(f.legal(self))
        extra = self._anytime(f.actor(self))
        return own + tuple(a for a in extra if a not in own) if extra else own

    def _apply(self, action: Action) -> None:
        f = self.frames[-1]
        extra = self._anytime(f.actor(self))
        if extra and action in extra and action not in f.legal(self):  # the frame's own action of that name wins
            self._take_anytime(action)
        else:
            f.apply(self, action)

    def _prompt(self) -> str:
        return self.frames[-1].prompt(self)
