"""Every game is written one way: on the frame stack, without string continuations or private stack surgery.

Issue 33: a sub-decision is a frame, a pending effect is a typed object. So in every game package:

- its state is a ``FrameState`` (the top frame decides), not a phase machine;
- no state or frame field is a continuation register: an Enum named like ``Then`` or a field named
  ``then``/``after``/``resume``/``cont`` saying what to do next;
- no module-level table from text (or Enum members) to functions is looked up by a field
  (``_THEN[self.then](...)``): a dispatch table of continuations;
- no function builds a new stack from the old one (``s.frames = s.frames[:-1]``): frames leave the stack
  through core's ``finish`` (which closes them and tells the frame below), never a private ``drop``.

The reading is of the code (ast) and the declared fields, so a game passes by being written this way.
"""

from __future__ import annotations

import ast
import dataclasses
import enum
import importlib
import pkgutil
import types
import typing
from pathlib import Path
from typing import Any

import pytest

import freetrader
from freetrader.core.fields import declared_fields
from freetrader.core.frames import Frame, FrameState
from freetrader.core.registry import game_package

CONTINUATION_NAMES = {"then", "after", "resume", "cont", "continuation", "next_step"}
CONTINUATION_ENUMS = {"then", "resume", "continuation", "next", "step"}


def _packages() -> list[Any]:
    out = [pytest.param("freetrader.games._template", id="template")]
    for name in freetrader.games():
        out.append(pytest.param(game_package(name), id=name))
    return out


def _modules(package: str) -> list[types.ModuleType]:
    pkg = importlib.import_module(package)
    found = [pkg]
    for info in pkgutil.walk_packages(pkg.__path__, package + "."):
        if info.name.rsplit(".", 1)[-1] not in ("bot", "render", "analysis", "web", "balance", "__main__"):
            found.append(importlib.import_module(info.name))
    return found


def _state_class(package: str) -> type:
    return importlib.import_module(package).GAME.state_class  # type: ignore[no-any-return]


def _frame_classes(package: str) -> list[type]:
    mods = {m.__name__ for m in _modules(package)}
    seen: dict[str, type] = {}
    for m in _modules(package):
        for obj in vars(m).values():
            if isinstance(obj, type) and issubclass(obj, Frame) and obj.__module__ in mods:
                seen[f"{obj.__module__}.{obj.__qualname__}"] = obj
    return list(seen.values())


def is_continuation(name: str, kind: Any) -> bool:
    """A field saying what to do next by name: an Enum named like ``Then``, or ``then``/``after``/... as text or Enum."""
    is_enum = isinstance(kind, type) and issubclass(kind, enum.Enum)
    if is_enum and kind.__name__.lower() in CONTINUATION_ENUMS:
        return True
    return name in CONTINUATION_NAMES and (is_enum or kind in (str, None))


def continuation_fields(package: str) -> list[str]:
    """State and frame fields that hold what to do next by name (a text or an Enum continuation)."""
    state = _state_class(package)
    fields: list[tuple[str, str, Any]] = [(state.__name__, f.name, f.item) for f in declared_fields(state)]
    for cls in _frame_classes(package):
        if not dataclasses.is_dataclass(cls):  # a shared base of a game's frames: its dataclasses are checked
            continue
        hints = typing.get_type_hints(cls)
        fields += [(cls.__name__, f.name, hints.get(f.name)) for f in dataclasses.fields(cls)]
    return [f"{owner}.{name}" for owner, name, kind in fields if is_continuation(name, kind)]


def _tables(module: types.ModuleType) -> set[str]:
    """Module-level dicts from text or Enum members to functions."""
    out = set()
    for name, obj in vars(module).items():
        if isinstance(obj, dict) and obj and all(isinstance(k, (str, enum.Enum)) for k in obj) and all(
                isinstance(v, (types.FunctionType, types.BuiltinFunctionType)) for v in obj.values()):
            out.add(name)
    return out


def continuation_tables(package: str) -> list[str]:
    """Function tables looked up by a field (``_THEN[self.then]``, ``TABLE[s.step]``): continuations by name."""
    bad = []
    for m in _modules(package):
        tables = _tables(m)
        if not tables or not getattr(m, "__file__", None):
            continue
        for node in ast.walk(ast.parse(Path(m.__file__ or "").read_text(encoding="utf-8"))):
            if (isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name) and node.value.id in tables
                    and isinstance(node.slice, ast.Attribute)):
                bad.append(f"{m.__name__}.{node.value.id}[{ast.unparse(node.slice)}]")
    return bad


def _reads_frames(node: ast.AST) -> bool:
    return any((isinstance(n, ast.Attribute) and n.attr == "frames") or (isinstance(n, ast.Name) and n.id == "frames")
               for n in ast.walk(node))


def stack_rewrites(package: str) -> list[str]:
    """Assignments that build a frame stack from the old one (``s.frames = s.frames[:-1]``), bypassing ``finish``."""
    bad = []
    for m in _modules(package):
        if not getattr(m, "__file__", None):
            continue
        for node in ast.walk(ast.parse(Path(m.__file__ or "").read_text(encoding="utf-8"))):
            if isinstance(node, ast.Assign) and any(isinstance(t, ast.Attribute) and t.attr == "frames"
                                                    for t in node.targets) and _reads_frames(node.value):
                bad.append(f"{m.__name__}:{node.lineno}: {ast.unparse(node)}")
    return bad


@pytest.mark.parametrize("package", _packages())
def test_the_game_is_written_on_the_frame_stack(package: str) -> None:
    assert issubclass(_state_class(package), FrameState), f"{package}: its state is not a FrameState"
    assert continuation_fields(package) == [], f"{package}: continuation registers"
    assert continuation_tables(package) == [], f"{package}: continuations looked up by name"
    assert stack_rewrites(package) == [], f"{package}: frames removed without core's finish"


def test_the_checks_find_what_they_look_for(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A package written the old way fails each check (so a pass above means something)."""
    pkg = tmp_path / "old_way_game"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("", encoding="utf-8")
    (pkg / "rules.py").write_text(
        "import dataclasses\n"
        "from freetrader.core.frames import Frame\n"
        "def _land(s): pass\n"
        "_THEN = {'land': _land}\n"
        "@dataclasses.dataclass(frozen=True, slots=True)\n"
        "class Main(Frame):\n"
        "    then: str\n"
        "    def apply(self, s, a):\n"
        "        _THEN[self.then](s)\n"
        "def drop(s):\n"
        "    s.frames = s.frames[:-1]\n", encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    assert continuation_tables("old_way_game") == ["old_way_game.rules._THEN[self.then]"]
    assert stack_rewrites("old_way_game") == ["old_way_game.rules:11: s.frames = s.frames[:-1]"]
    frames = _frame_classes("old_way_game")
    assert [c.__name__ for c in frames] == ["Main"]
    hints = typing.get_type_hints(frames[0])
    assert [is_continuation(f.name, hints[f.name]) for f in dataclasses.fields(frames[0])] == [True]
    # the register Contraband kept before its port (``after: Then``), and a field that is no continuation
    then = enum.Enum("Then", "NOTHING DRAW_AFTER_SEARCH")
    assert is_continuation("after", then) and is_continuation("next_up", then)
    assert not is_continuation("seat", int) and not is_continuation("phase", enum.Enum("Phase", "DECLARE"))
