"""One way to write the game (issue 33): decisions are typed frames, a card effect is one class.

Read from the source and the registry: no string-keyed table of continuations or handlers, no stack edited
by hand, no frame method typed ``s: Any``; every effect id of the data carried out by one ``CardEffect`` class,
whose frames save and load with their own fields.
"""

from __future__ import annotations

import ast
import dataclasses
from pathlib import Path

import pytest

import freetrader
from freetrader.core.frames import frame_from_json, frame_to_json
from freetrader.games.cornish_smuggler import abilities as A
from freetrader.games.cornish_smuggler import frames as F
from freetrader.games.cornish_smuggler.components import COMPONENTS as C

GAME = freetrader.game("cornish-smuggler")
SRC = Path(F.__file__).parent
RULES_MODULES = ("abilities.py", "frames.py", "rules.py", "state.py")


def _trees():
    return [(name, ast.parse((SRC / name).read_text())) for name in RULES_MODULES]


def test_no_string_keyed_table_of_handlers():
    """A dict literal keyed by strings whose values are functions was how a continuation or an effect was found."""
    for name, tree in _trees():
        funcs = {n.name for n in ast.walk(tree) if isinstance(n, ast.FunctionDef)}
        for node in ast.walk(tree):
            if isinstance(node, ast.Dict) and node.keys and all(
                    isinstance(k, ast.Constant) and isinstance(k.value, str) for k in node.keys):
                handlers = [v for v in node.values
                            if isinstance(v, ast.Lambda) or isinstance(v, ast.Name) and v.id in funcs]
                assert not handlers, f"{name}:{node.lineno} dispatches on strings"


def test_no_frame_keeps_a_continuation_name_and_no_stack_is_cut_by_hand():
    for name, tree in _trees():
        for node in ast.walk(tree):
            if isinstance(node, ast.Assign):
                for t in node.targets:
                    if isinstance(t, ast.Attribute) and t.attr == "frames":
                        cut = [n for n in ast.walk(node.value) if isinstance(n, ast.Subscript)
                               and isinstance(n.value, ast.Attribute) and n.value.attr == "frames"]
                        assert not cut, f"{name}:{node.lineno} cuts or rewrites the stack by hand"
    for cls in _frame_classes():
        names = {f.name for f in dataclasses.fields(cls)}
        assert not names & {"then", "resume", "eff"}, cls.__name__


def test_frame_methods_type_the_state():
    for name, tree in _trees():
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef):
                for a in node.args.args:
                    if a.arg == "s":
                        assert not (isinstance(a.annotation, ast.Name) and a.annotation.id == "Any"), \
                            f"{name}:{node.lineno} {node.name}(s: Any)"


def test_every_effect_id_of_the_data_is_one_class():
    ids = {c.effect for c in C.characters if c.effect and c.event != "passive"} | {x.effect for x in C.secrets}
    assert ids <= set(A.EFFECTS)
    for effect, cls in A.EFFECTS.items():
        assert issubclass(cls, F.CardEffect) and cls is not F.CardEffect, effect


def _frame_classes():
    out = set()
    todo = [F.CornishFrame, F.CardWindow]
    while todo:
        cls = todo.pop()
        for sub in cls.__subclasses__():
            todo.append(sub)
            if dataclasses.is_dataclass(sub) and not sub.__name__.startswith("_"):
                out.add(sub)
    return sorted(out, key=lambda c: c.__qualname__)


@pytest.mark.parametrize("cls", sorted({c for c in A.EFFECTS.values() if "__dataclass_fields__" in c.__dict__},
                                       key=lambda c: c.__name__), ids=lambda c: c.__name__)
def test_an_effect_frame_saves_and_loads_with_its_own_fields(cls):
    fields = [f for f in dataclasses.fields(cls) if f.name not in ("card", "seat")]
    assert all(f.type in ("int", "bool") for f in fields), cls.__name__
    changed = {f.name: (True if f.type == "bool" else 3) for f in fields}
    frame = cls(card=1, seat=2, **changed)
    assert frame_from_json(frame_to_json(frame), GAME) == frame
