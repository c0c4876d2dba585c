"""No function in ``src/freetrader/`` is over ``MAX_LINES`` lines unless its docstring says why.

A function's length runs from its ``def`` line to its last line (a nested function counts
in its outer one too). The reason is a docstring line that starts with ``Long because``.
"""

from __future__ import annotations

import ast
import textwrap
from collections.abc import Iterator
from pathlib import Path

import freetrader

MAX_LINES = 80
REASON = "Long because"
SRC = Path(freetrader.__file__).parent

# Functions over MAX_LINES let through while someone shortens them: empty now, kept so that a
# branch in progress can list one (the test then says to drop it once it is short).
ALLOWED: set[str] = set()


def _functions(tree: ast.AST, prefix: str = "") -> Iterator[tuple[str, ast.FunctionDef | ast.AsyncFunctionDef]]:
    """Every function under ``tree`` with its qualified name (``Class.method``, ``outer.inner``)."""
    for node in ast.iter_child_nodes(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            yield prefix + node.name, node
            yield from _functions(node, f"{prefix}{node.name}.")
        elif isinstance(node, ast.ClassDef):
            yield from _functions(node, f"{prefix}{node.name}.")
        else:
            yield from _functions(node, prefix)


def _length(node: ast.FunctionDef | ast.AsyncFunctionDef) -> int:
    return (node.end_lineno or node.lineno) - node.lineno + 1


def _has_reason(node: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    doc = ast.get_docstring(node) or ""
    return any(line.strip().startswith(REASON) for line in doc.splitlines())


def long_functions(source: str, path: str) -> dict[str, int]:
    """The functions of ``source`` over ``MAX_LINES`` lines with no reason given: ``path::name`` -> lines."""
    tree = ast.parse(source, path)
    return {f"{path}::{name}": _length(node) for name, node in _functions(tree)
            if _length(node) > MAX_LINES and not _has_reason(node)}


def _scan() -> dict[str, int]:
    found: dict[str, int] = {}
    for file in sorted(SRC.rglob("*.py")):
        found.update(long_functions(file.read_text(encoding="utf-8"), file.relative_to(SRC).as_posix()))
    return found


def test_no_function_is_long_without_a_reason() -> None:
    found = _scan()
    over = {name: n for name, n in found.items() if name not in ALLOWED}
    assert not over, (f"functions over {MAX_LINES} lines: split them, or give the reason in a docstring line "
                      f"starting {REASON!r}: " + ", ".join(f"{k} ({v} lines)" for k, v in sorted(over.items())))
    stale = sorted(ALLOWED - set(found))
    assert not stale, f"no longer long (or gone, or given a reason): remove from ALLOWED: {', '.join(stale)}"


def _body(lines: int) -> str:
    return "\n".join(f"    x{i} = {i}" for i in range(lines))


def test_the_scan_finds_a_long_function_and_accepts_a_reason() -> None:
    long_one = f"def f():\n{_body(MAX_LINES)}\n"  # the def line and MAX_LINES more
    short_one = f"def g():\n{_body(MAX_LINES - 1)}\n"
    reasoned = f'def h():\n    """One table.\n\n    Long because it is one table.\n    """\n{_body(MAX_LINES)}\n'
    nested = f"class C:\n    def outer(self):\n        def inner():\n{textwrap.indent(_body(MAX_LINES), ' ' * 8)}\n"
    assert long_functions(long_one, "m.py") == {"m.py::f": MAX_LINES + 1}
    assert long_functions(short_one, "m.py") == {}
    assert long_functions(reasoned, "m.py") == {}
    assert long_functions(nested, "m.py") == {"m.py::C.outer": MAX_LINES + 2, "m.py::C.outer.inner": MAX_LINES + 1}
