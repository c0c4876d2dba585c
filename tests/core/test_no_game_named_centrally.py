"""No layer outside ``games/`` keeps a table naming a game: game facts live on each game's spec.

The simulator, adapters, bots, CLI, server and conformance suite read a game's facts (its length
bound, safety cap, ends, metrics) from its registration, so a new game's folder is all it needs.
This reads the code (not comments or docstrings) of those packages for a string that is a
registered game's name or slug.
"""

from __future__ import annotations

import ast
from pathlib import Path

import freetrader

SRC = Path(freetrader.__file__).parent
LAYERS = ("sim", "adapters", "bots", "cli", "server", "testing", "core")
#: Files that name a game on purpose, with the reason.
KNOWN = {
    # the designed small Contraband variant with an explicit chance node is an OpenSpiel game of its own,
    # built on Contraband's rules (``load_small_contraband``); not a table of facts about games
    "adapters/openspiel.py": {"contraband"},
}


def _names() -> set[str]:
    out = set()
    for slug in freetrader.games(all_versions=True):
        spec = freetrader.game(slug).spec
        out |= {spec.name, spec.slug}
    return out


def _docstrings(tree: ast.AST) -> set[int]:
    ids = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                ids.add(id(body[0].value))
    return ids


def named_games(path: Path, names: set[str]) -> set[str]:
    """The game names or slugs ``path``'s code holds as a whole string (docstrings left out)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    docs = _docstrings(tree)
    return {n.value for n in ast.walk(tree)
            if isinstance(n, ast.Constant) and isinstance(n.value, str) and id(n) not in docs and n.value in names}


def test_no_layer_names_a_game() -> None:
    names = _names()
    found = {}
    for layer in LAYERS:
        for path in sorted((SRC / layer).rglob("*.py")):
            rel = path.relative_to(SRC).as_posix()
            got = named_games(path, names) - KNOWN.get(rel, set())
            if got:
                found[rel] = sorted(got)
    assert not found, f"these modules name games; put the fact on the game's spec instead: {found}"


def test_the_check_finds_a_table_naming_a_game(tmp_path: Path) -> None:
    bad = tmp_path / "bad.py"
    bad.write_text('"""Mentions contraband in a docstring only."""\nCAPS = {"cornish-smuggler": "turn_limit"}\n')
    assert named_games(bad, _names()) == {"cornish-smuggler"}
