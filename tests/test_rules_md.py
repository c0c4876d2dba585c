"""Every test file a game's RULES.md names exists, so the rules-to-tests map never points at nothing.

A path with a folder (``tests/games/contraband/test_contraband_rules.py``) is read from the project root;
a bare file name (``test_mc_stash_pairs.py``) must be in that game's own test folder or in ``tests/``.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
GAMES = ROOT / "src" / "freetrader" / "games"
RULES = sorted(GAMES.glob("*/RULES.md"))
TEST_FILE = re.compile(r"(?<![\w/.-])((?:[\w.-]+/)*test_\w+\.py)\b")


def named_test_files(text: str) -> list[str]:
    """The test file paths a RULES.md text names, in order, each once."""
    return list(dict.fromkeys(TEST_FILE.findall(text)))


def missing(rules_md: Path, text: str) -> list[str]:
    """The named test files that do not exist."""
    here = [ROOT / "tests" / "games" / rules_md.parent.name, ROOT / "tests"]
    out = []
    for name in named_test_files(text):
        places = [ROOT / name] if "/" in name else [d / name for d in here]
        if not any(p.is_file() for p in places):
            out.append(name)
    return out


def test_the_games_have_rules_md_files() -> None:
    assert {p.parent.name for p in RULES} >= {"contraband", "cornish_smuggler", "merchants_cove", "precious_cargo"}


@pytest.mark.parametrize("rules_md", RULES, ids=lambda p: p.parent.name)
def test_every_test_file_a_rules_md_names_exists(rules_md: Path) -> None:
    text = rules_md.read_text(encoding="utf-8")
    assert missing(rules_md, text) == [], f"{rules_md.relative_to(ROOT)} names test files that do not exist"


def test_the_check_finds_a_missing_file_and_reads_both_forms() -> None:
    rules_md = GAMES / "merchants_cove" / "RULES.md"
    text = ("Tests: `tests/games/merchants_cove/test_mc_rules.py`, `test_mc_stash_pairs.py`, "
            "`tests/test_conformance.py`, `tests/games/merchants_cove/test_mc_nowhere.py`, `test_nowhere.py`.")
    assert named_test_files(text) == ["tests/games/merchants_cove/test_mc_rules.py", "test_mc_stash_pairs.py",
                                      "tests/test_conformance.py", "tests/games/merchants_cove/test_mc_nowhere.py",
                                      "test_nowhere.py"]
    assert missing(rules_md, text) == ["tests/games/merchants_cove/test_mc_nowhere.py", "test_nowhere.py"]
