"""RULES.md cites tests by name: every test and test file it names exists (issue 17, "Shown by")."""

from __future__ import annotations

import re
from pathlib import Path

from freetrader.games.cornish_smuggler import rules as R

HERE = Path(__file__).parent
DOC = (Path(R.__file__).parent / "RULES.md").read_text()
# ``name...`` or ``name_*`` cite every test whose name starts so; ``file.py::name`` a test in that file.
CITED = re.compile(r"(?:(test_\w+\.py)::)?(test_[A-Za-z0-9_]*[A-Za-z0-9])(\.\.\.|_\.\.\.|_\*)?(?!\w|\.py)")
FILE = re.compile(r"(test_\w+\.py)")


def _defined() -> dict[str, set[str]]:
    out: dict[str, set[str]] = {}
    for path in HERE.glob("test_*.py"):
        out[path.name] = set(re.findall(r"^def (test_\w+)", path.read_text(), re.M))
    return out


def test_every_test_rules_md_names_exists():
    defined = _defined()
    every = set().union(*defined.values())
    missing = []
    for m in CITED.finditer(DOC):
        where, name, more = m.group(1), m.group(2), m.group(3)
        pool = defined.get(where, set()) if where else every
        found = any(t.startswith(name) for t in pool) if more else name in pool
        if not found:
            missing.append(m.group(0))
    assert CITED.search(DOC) is not None
    assert not missing, f"RULES.md names tests that do not exist: {missing}"


def test_every_test_file_rules_md_names_exists():
    named = set(FILE.findall(DOC))
    assert "test_cornish_as_printed.py" in named
    assert not [n for n in named if not (HERE / n).exists()]
