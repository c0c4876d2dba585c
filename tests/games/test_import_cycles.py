"""No import cycle inside a game package: its modules' imports of each other go one way."""

from __future__ import annotations

import ast
import importlib
from pathlib import Path

import pytest

GAMES = Path(importlib.import_module("freetrader.games").__file__ or "").parent
PACKAGES = sorted(p.name for p in GAMES.iterdir() if (p / "__init__.py").exists())


def _runtime_nodes(tree: ast.AST) -> list[ast.AST]:
    """Every node except those under ``if TYPE_CHECKING:`` (annotations only, never imported at run time)."""
    out: list[ast.AST] = []
    todo = [tree]
    while todo:
        node = todo.pop()
        out.append(node)
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            todo.extend(node.orelse)
            continue
        todo.extend(ast.iter_child_nodes(node))
    return out


def _imports(pkg: Path, name: str) -> set[str]:
    """The sibling modules one module imports at run time, wherever the statement is (inside functions too)."""
    tree = ast.parse((pkg / f"{name}.py").read_text())
    siblings = {p.stem for p in pkg.glob("*.py")}
    out: set[str] = set()
    for node in _runtime_nodes(tree):
        if isinstance(node, ast.ImportFrom) and node.level == 1:
            if node.module:
                out.add(node.module.split(".")[0])
            else:
                out.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.module.startswith(f"freetrader.games.{pkg.name}."):
            out.add(node.module.split(".")[3])
    return out & siblings - {name}


def _cycle(graph: dict[str, set[str]]) -> list[str] | None:
    state: dict[str, int] = {}
    path: list[str] = []

    def visit(m: str) -> list[str] | None:
        state[m] = 1
        path.append(m)
        for n in sorted(graph[m]):
            if state.get(n) == 1:
                return path[path.index(n):] + [n]
            if n not in state:
                found = visit(n)
                if found:
                    return found
        path.pop()
        state[m] = 2
        return None

    for m in sorted(graph):
        if m not in state:
            found = visit(m)
            if found:
                return found
    return None


@pytest.mark.parametrize("package", PACKAGES)
def test_no_import_cycle_inside_the_game_package(package: str) -> None:
    pkg = GAMES / package
    graph = {p.stem: _imports(pkg, p.stem) for p in pkg.glob("*.py")}
    assert len(graph) > 1
    assert _cycle(graph) is None, f"{package}: import cycle {' -> '.join(_cycle(graph) or [])}"


def test_imports_for_type_checking_only_are_not_followed(tmp_path: Path) -> None:
    pkg = tmp_path / "toy"
    pkg.mkdir()
    (pkg / "a.py").write_text("from . import b\n")
    (pkg / "b.py").write_text("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from .a import X\n")
    (pkg / "c.py").write_text("def f():\n    from . import a\n")
    assert _imports(pkg, "a") == {"b"} and _imports(pkg, "b") == set() and _imports(pkg, "c") == {"a"}


def test_the_walk_finds_a_cycle_when_there_is_one() -> None:
    assert _cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert _cycle({"a": {"b"}, "b": set()}) is None
