"""A broken data file fails at load with one line naming the file, entry and fix."""

from __future__ import annotations

import shutil
import subprocess
import sys
from importlib import resources

import pytest

import freetrader
from freetrader.games.contraband.components import load_components

SHIPPED = resources.files("freetrader.games.contraband").joinpath("data", "cards.toml").read_text()


def _pack(tmp_path, text):
    (tmp_path / "cards.toml").write_text(text)
    return tmp_path


def test_every_entry_has_provenance_and_the_pack_loads():
    c = load_components()
    assert {a.provenance for a in c.articles} == {"rulebook"}


@pytest.mark.parametrize(
    "edit,message",
    [
        (lambda t: t.replace("count = 24", "count = 23"), "must hold 54 cards"),
        (lambda t: t.replace("duty = 5\n", "duty = \"five\"\n", 1), "'duty' must be a whole number"),
        (lambda t: t.replace('provenance = "rulebook"\nnote = "paragraph 9"', 'provenance = "guess"\nnote = "paragraph 9"'), "provenance 'guess' must be one of"),
        (lambda t: t.replace("fine = 15\n", "fine = 15\nfines = 3\n", 1), "unknown key(s) 'fines'"),
        (lambda t: t + "[[article\n", "not valid TOML"),
        (lambda t: t.replace('special = "diplomatic-bag"\n', ""), "exactly one article must be special"),
    ],
)
def test_broken_data_pack_is_refused_with_a_clear_line(tmp_path, edit, message):
    with pytest.raises(freetrader.DataError, match=message.replace("(", r"\(").replace(")", r"\)")) as exc:
        load_components(_pack(tmp_path, edit(SHIPPED)))
    assert "\n" not in str(exc.value)


def test_a_data_pack_overrides_the_shipped_file(tmp_path):
    pack = _pack(tmp_path, SHIPPED.replace("total = 10000", "total = 12000"))
    assert load_components(pack).total_money == 12000


def test_freetrader_data_environment_variable_selects_a_pack(tmp_path):
    (tmp_path / "contraband").mkdir()
    shutil.copy(_pack(tmp_path, SHIPPED.replace("total = 10000", "total = 9000")) / "cards.toml", tmp_path / "contraband")
    code = "import freetrader; print(freetrader.game('contraband').new_state(3, 1).cash)"
    env = {"FREETRADER_DATA": str(tmp_path), "PATH": "/usr/bin:/bin"}
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True).stdout
    assert out.strip() == "[3000, 3000, 3000]"


def _without_small_pack(text: str) -> str:
    start = text.index("[small_pack]")
    return text[:start] + text[text.index("\n[", start) + 1:]


def test_a_pack_made_before_the_small_variant_still_loads_and_refuses_only_pack_small(tmp_path):
    older = _without_small_pack(SHIPPED)
    assert "small_pack" not in older
    assert load_components(_pack(tmp_path, older)).small_pack == ()
    (tmp_path / "contraband").mkdir()
    shutil.copy(tmp_path / "cards.toml", tmp_path / "contraband")
    code = ("import freetrader\n"
            "g = freetrader.game('contraband')\n"
            "print(len(g.new_state(3, 1).pack))\n"
            "try:\n"
            "    g.new_state(3, 1, {'pack': 'small'})\n"
            "except freetrader.BadOption as exc:\n"
            "    print(exc)\n")
    env = {"FREETRADER_DATA": str(tmp_path), "PATH": "/usr/bin:/bin"}
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True).stdout
    full, refusal = out.strip().splitlines()
    assert int(full) > 0  # the printed pack, dealt as before
    assert refusal.startswith("pack=small needs a [small_pack] table in cards.toml")
