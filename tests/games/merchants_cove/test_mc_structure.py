"""The package's shape: no import cycle, a grammar complete at definition, notation that round-trips."""

from __future__ import annotations

import ast
import json
from pathlib import Path

import freetrader
from freetrader.core import Rng
from freetrader.games.merchants_cove import actions
from freetrader.games.merchants_cove import rules as R

PACKAGE = Path(R.__file__).parent
GOLDEN = Path(__file__).parents[2] / "golden" / "merchants-cove-4p-seed2.txt"


def _module(path: Path) -> str:
    rel = path.relative_to(PACKAGE).with_suffix("")
    parts = list(rel.parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _runtime_imports(path: Path) -> set[str]:
    """Modules of the package that ``path`` imports when it runs (``if TYPE_CHECKING:`` blocks left out)."""
    here = _module(path).split(".") if _module(path) else []
    package = here if path.name == "__init__.py" else here[:-1]
    out: set[str] = set()

    def visit(node: ast.AST) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.If) and "TYPE_CHECKING" in ast.unparse(child.test):
                for other in child.orelse:
                    visit(other)
                continue
            if isinstance(child, ast.ImportFrom) and child.level:
                base = package[: len(package) - (child.level - 1)]
                target = ".".join(base + ([child.module] if child.module else []))
                if child.module:
                    out.add(target)
                else:  # from . import x: x is a module of the package, or a name of its __init__
                    for alias in child.names:
                        name = ".".join(base + [alias.name])
                        out.add(name if _exists(name) else target)
            visit(child)

    visit(ast.parse(path.read_text()))
    out.discard(_module(path))
    return out


def _exists(module: str) -> bool:
    p = PACKAGE.joinpath(*module.split("."))
    return p.with_suffix(".py").exists() or (p / "__init__.py").exists()


def test_no_import_cycle_inside_the_package():
    graph = {_module(p): _runtime_imports(p) for p in PACKAGE.rglob("*.py")}
    assert graph["stash"] and "rules" not in graph["stash"]  # the walk sees imports, and the old cycle is gone
    done: set[str] = set()

    def walk(m: str, path: tuple[str, ...]) -> None:
        assert m not in path, f"import cycle: {' -> '.join(path[path.index(m):] + (m,))}"
        if m in done:
            return
        for n in sorted(graph.get(m, ())):
            walk(n, path + (m,))
        done.add(m)

    for m in sorted(graph):
        walk(m, ())


def test_the_phases_module_is_a_leaf():
    assert _runtime_imports(PACKAGE / "phases.py") == set()


def test_every_action_round_trips_and_the_grammar_is_fixed():
    verbs = set(actions.VERBS)
    s = freetrader.game("merchants-cove").new_state(2, 4, {"rogue": "random-all", "townsfolk": "all", "festival": True,
                                                           "corruption": "mixed", "boats": "both"})
    rng = Rng(9)
    seen = 0
    while not s.is_over:
        legal = s.legal_actions()
        for a in legal:
            assert actions.parse(str(a)) == a and str(actions.parse(str(a))) == str(a), a
            seen += 1
        s.apply(legal[rng.below(len(legal))])
    assert seen > 500 and set(actions.VERBS) == verbs  # playing registered no verb


def test_the_golden_record_notation_is_unchanged():
    line = next(x for x in GOLDEN.read_text().splitlines() if x.startswith("record "))
    record = json.loads(line[len("record "):])
    state = freetrader.replay(record)
    assert state.record()["actions"] == record["actions"]


def test_the_stack_changes_only_through_core_frames():
    """No module of the game writes ``state.frames`` itself (no private removal, no driver of its own): frames
    move by core's ``push``, ``replace`` and ``finish``; and no merchant board keeps a step continuation."""
    writes = []
    for path in PACKAGE.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target] if isinstance(
                node, (ast.AugAssign, ast.AnnAssign)) else []
            writes += [f"{path.name}:{node.lineno}" for t in targets
                       if isinstance(t, ast.Attribute) and t.attr == "frames"]
    assert writes == []
    from freetrader.core.fields import declared_fields
    from freetrader.games.merchants_cove.merchants import MERCHANTS

    for m in MERCHANTS.values():
        names = {f.name for f in declared_fields(m.board_class)}
        assert names and not names & {"step", "ship", "rewound"}, m.id
