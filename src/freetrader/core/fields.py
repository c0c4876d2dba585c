"""Declared state fields: a game names each field once, with its type.

A game state class lists its fields as annotations and nothing else::

    class MyState(DeclaredState):
        gold: PerSeat[list[int]]          # one int per seat
        hands: Hidden[PerSeat[list[list[int]]]]
        deck: Hidden[list[int]]           # a zone no seat sees in order
        bank: int
        phase: Phase                      # an Enum: saved by its name in lower case
        frames: tuple[Frame[Any], ...]    # the decision stack (core.frames)

From that one declaration core derives ``__slots__`` (when the class body
gives none), a ``clone()`` copy generated once per class as straight-line
code (as fast as a hand-written one), JSON save and load, the zero values a
set-up starts from (``init_fields``) and consistency checks on load (a
per-seat field has one entry per seat; every value has its declared type).

The copy is decided by the type: plain values and tuples are shared (they
are immutable), ``list[V]`` is sliced, ``list[list[V]]`` is sliced twice and
``list[tuple[...]]`` is sliced (its tuples are shared).
"""

from __future__ import annotations

import enum
import sys
import types
import typing
from abc import ABCMeta
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from dataclasses import fields as dataclass_fields
from typing import Annotated, Any, ClassVar, TypeVar

from .errors import BadRecord

__all__ = ["DeclaredMeta", "Field", "Hidden", "PerSeat", "declared_fields", "hidden_fields", "init_fields",
           "refuse_unknown_keys"]

T = TypeVar("T")


class _Mark:
    __slots__ = ("name",)

    def __init__(self, name: str) -> None:
        self.name = name

    def __repr__(self) -> str:
        return self.name


PER_SEAT = _Mark("per-seat")
HIDDEN = _Mark("hidden")
#: A list with one entry per seat (checked on load, zeroed per seat by ``init_fields``).
PerSeat = Annotated[T, PER_SEAT]
#: A zone whose content or order some seat may not see (``determinize`` must resample it).
Hidden = Annotated[T, HIDDEN]

# How a field is copied and saved, from its type.
VALUE, ENUM, LIST, LISTS, TUPLES, TUPLE, FRAMES = "value", "enum", "list", "lists", "tuples", "tuple", "frames"
_PLAIN = (int, bool, str, float)


@dataclass(frozen=True, slots=True)
class Field:
    """One declared field: its name, how it is copied and saved, and its marks."""

    name: str
    kind: str
    per_seat: bool
    hidden: bool
    item: Any  # the element type (a plain type, an Enum, or a frame type); None if not checked


class DeclaredMeta(ABCMeta):
    """Gives a state class without ``__slots__`` the slots its annotations name."""

    def __new__(mcls, name: str, bases: tuple[type, ...], ns: dict[str, Any], **kw: Any) -> DeclaredMeta:
        if "__slots__" not in ns and ns.get("__annotations__"):
            names = tuple(
                n for n, hint in ns["__annotations__"].items()
                if not (isinstance(hint, str) and hint.replace("typing.", "").startswith("ClassVar"))
                and typing.get_origin(hint) is not ClassVar
            )
            ns["__slots__"] = names
            ns["_declared_here"] = names
        return super().__new__(mcls, name, bases, ns, **kw)


def declared_fields(cls: type) -> tuple[Field, ...]:
    """The declared fields of a state class and its declared bases, in declaration order."""
    cached = cls.__dict__.get("_fields_cache")
    if cached is not None:
        return cached  # type: ignore[no-any-return]
    out: list[Field] = []
    for klass in reversed(cls.__mro__):
        names = klass.__dict__.get("_declared_here")
        if not names:
            continue
        scope = vars(sys.modules[klass.__module__])
        own = klass.__dict__["__annotations__"]
        # Only this class's own annotations: the protocol's (``game``, ``rng``) are not declared fields.
        out.extend(_field(klass, n, eval(own[n], scope) if isinstance(own[n], str) else own[n]) for n in names)
    fields = tuple(out)
    type.__setattr__(cls, "_fields_cache", fields)
    return fields


def hidden_fields(cls: type) -> tuple[str, ...]:
    """Names of the fields marked ``Hidden``: the zones ``determinize`` must resample."""
    return tuple(f.name for f in declared_fields(cls) if f.hidden)


def _field(cls: type, name: str, hint: Any) -> Field:
    marks: tuple[Any, ...] = ()
    if typing.get_origin(hint) is Annotated:
        marks = hint.__metadata__
        hint = hint.__origin__
    per_seat, hidden = PER_SEAT in marks, HIDDEN in marks
    kind, item = _kind(hint)
    if kind == "":
        raise TypeError(f"{cls.__name__}.{name}: cannot copy or save a field of type {hint!r}; "
                        "declare a plain value, an Enum, list[V], list[list[V]], list[tuple[...]] or tuple[...]")
    if per_seat and kind not in (LIST, LISTS, TUPLES):
        raise TypeError(f"{cls.__name__}.{name}: PerSeat needs a list type, got {hint!r}")
    return Field(name, kind, per_seat, hidden, item)


def _kind(hint: Any) -> tuple[str, Any]:
    if hint in _PLAIN:
        return VALUE, hint
    if isinstance(hint, type) and issubclass(hint, enum.Enum):
        return ENUM, hint
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if origin in (types.UnionType, typing.Union):  # ``int | None`` and the like: shared, saved as is
        return (VALUE, None) if all(a in _PLAIN or a is type(None) for a in args) else ("", None)
    if origin is list and len(args) == 1:
        inner = args[0]
        if inner in _PLAIN:
            return LIST, inner
        if typing.get_origin(inner) is list and typing.get_args(inner)[0] in _PLAIN:
            return LISTS, typing.get_args(inner)[0]
        if typing.get_origin(inner) is tuple:
            return TUPLES, None
        return "", None
    if origin is tuple:
        from .frames import Frame  # frames import fields' users, not fields: no cycle at import time

        item = typing.get_origin(args[0]) or args[0] if args else None  # Frame[SomeState] counts as Frame
        if len(args) == 2 and args[1] is Ellipsis and isinstance(item, type) and issubclass(item, Frame):
            return FRAMES, item
        return TUPLE, None
    return "", None


# == generated copy ===========================================================================
def compile_copy(cls: type, sample: Any = None) -> Any:
    """``_copy_into(self, other)`` for ``cls`` as straight-line code (no loop, no lookup of kinds).

    A list of lists is copied item by item for the outer length ``sample`` (an instance) has, with a
    comprehension only for other lengths: in Python 3.11 a comprehension is a function call, which
    cost Precious Cargo's clone about 10% (callgrind) against the hand-written copy it replaced.
    """
    lines = ["def _copy_into(self, other):"]
    for f in declared_fields(cls):
        if f.kind in (LIST, TUPLES):
            lines.append(f"    other.{f.name} = self.{f.name}[:]")
        elif f.kind == LISTS:
            value = getattr(sample, f.name, None)
            n = len(value) if isinstance(value, list) and len(value) <= 8 else -1
            items = ", ".join(f"x[{i}][:]" for i in range(n))
            lines.append(f"    x = self.{f.name}")
            lines.append(f"    other.{f.name} = [{items}] if len(x) == {n} else [y[:] for y in x]" if n >= 0
                         else f"    other.{f.name} = [y[:] for y in x]")
        else:
            lines.append(f"    other.{f.name} = self.{f.name}")
    if len(lines) == 1:
        lines.append("    pass")
    scope: dict[str, Any] = {}
    exec(compile("\n".join(lines), f"<{cls.__qualname__} copy>", "exec"), scope)  # noqa: S102 - our own code
    return scope["_copy_into"]


def init_fields(state: Any) -> None:
    """Set every declared field to its zero: 0, False, "", empty lists (one per seat), no frames."""
    n = state.seats
    for f in declared_fields(type(state)):
        if f.kind == VALUE:
            value: Any = f.item() if f.item is not None else None
        elif f.kind == ENUM:
            value = next(iter(f.item))
        elif f.kind == LIST:
            value = [f.item()] * n if f.per_seat else []
        elif f.kind == LISTS:
            value = [[] for _ in range(n)] if f.per_seat else []
        elif f.kind == TUPLES:
            value = []
        else:
            value = ()
        setattr(state, f.name, value)


# == JSON ===========================================================================================
def fields_to_json(state: Any) -> dict[str, Any]:
    from .frames import frame_to_json

    out: dict[str, Any] = {}
    for f in declared_fields(type(state)):
        v = getattr(state, f.name)
        if f.kind == ENUM:
            out[f.name] = v.name.lower()
        elif f.kind == FRAMES:
            out[f.name] = [frame_to_json(x) for x in v]
        elif f.kind in (LIST, VALUE):
            out[f.name] = list(v) if f.kind == LIST else v
        else:
            out[f.name] = _plain(v)
    return out


def _plain(v: Any) -> Any:
    if isinstance(v, (list, tuple)):
        return [_plain(x) for x in v]
    return v


def fields_from_json(state: Any, data: Mapping[str, Any]) -> None:
    """Load and check every declared field; ``BadRecord`` names the first wrong one.

    A key no field declares is refused too: an edited or mistyped save must not load as a
    different position (an older layout loads through its format's migration, never here).
    """
    from .frames import frame_from_json

    n = state.seats
    fields = declared_fields(type(state))
    refuse_unknown_keys(data, (f.name for f in fields), "saved state")
    for f in fields:
        if f.name not in data:
            raise BadRecord(f"saved state lacks the field {f.name!r}")
        raw = data[f.name]
        where = f"saved state field {f.name!r}"
        if f.kind == VALUE:
            if f.item is not None:
                _check_plain(raw, f.item, where)
            value: Any = raw
        elif f.kind == ENUM:
            value = f.item.__members__.get(raw.upper()) if isinstance(raw, str) else None
            if value is None:
                allowed = ", ".join(m.lower() for m in f.item.__members__)
                raise BadRecord(f"{where} is {raw!r}; expected one of {allowed}")
        elif f.kind == FRAMES:
            if not isinstance(raw, list):
                raise BadRecord(f"{where} must be a list of frames, got {type(raw).__name__}")
            value = tuple(_frame(x, state.game, frame_from_json) for x in raw)
        else:
            if not isinstance(raw, list):
                raise BadRecord(f"{where} must be a list, got {type(raw).__name__}")
            if f.kind == LIST:
                for x in raw:
                    _check_plain(x, f.item, where)
                value = list(raw)
            elif f.kind == LISTS:
                value = []
                for row in raw:
                    if not isinstance(row, list):
                        raise BadRecord(f"{where} must be a list of lists, got an item {row!r}")
                    for x in row:
                        _check_plain(x, f.item, where)
                    value.append(list(row))
            elif f.kind == TUPLES:
                value = [_tuple(x, where) for x in raw]
            else:
                value = _tuple(raw, where)
            if f.per_seat and len(value) != n:
                raise BadRecord(f"{where} has {len(value)} entries; expected one per seat ({n})")
        setattr(state, f.name, value)


def refuse_unknown_keys(data: Mapping[str, Any], known: Iterable[str], where: str) -> None:
    """``BadRecord`` naming the first key of ``data`` (in its order) that is not ``known``."""
    names = set(known)
    for key in data:
        if key not in names:
            listed = ", ".join(sorted(names))
            raise BadRecord(f"{where} has an unknown field {key!r}; its fields are: {listed}")


def _frame(raw: Any, game: Any, load: Callable[[Any, Any], Any]) -> Any:
    """A saved frame loaded, with a key its class does not declare refused as for a state."""
    frame = load(raw, game)
    refuse_unknown_keys(raw, ("frame", *(f.name for f in dataclass_fields(frame))), f"saved frame {raw['frame']}")
    return frame


def _tuple(v: Any, where: str) -> Any:
    if isinstance(v, list):
        return tuple(_tuple(x, where) for x in v)
    if v is None or isinstance(v, _PLAIN):
        return v
    raise BadRecord(f"{where} holds {v!r}; expected numbers, text or lists of them")


def _check_plain(x: Any, kind: type, where: str) -> None:
    ok = isinstance(x, kind) and (kind is bool or not isinstance(x, bool))
    if kind is float and isinstance(x, int) and not isinstance(x, bool):
        ok = True
    if not ok:
        raise BadRecord(f"{where} holds {x!r}; expected {kind.__name__}")

