"""Data files: every entry carries provenance; established counts are as researched."""

from __future__ import annotations

import tomllib
from importlib import resources

import pytest

from freetrader.core import DataError
from freetrader.games.merchants_cove.components import load_components

FILES = ("board.toml", "rogues.toml", "townsfolk.toml", "corruption.toml", "merchants.toml", "peddler.toml", "stash.toml")


def _tables(obj):
    if isinstance(obj, dict):
        if any(isinstance(v, (str, int, list)) for v in obj.values()):
            yield obj
        for v in obj.values():
            if isinstance(v, (dict, list)):
                yield from _tables(v)
    elif isinstance(obj, list):
        for v in obj:
            if isinstance(v, dict):
                yield from _tables(v)


@pytest.mark.parametrize("name", FILES)
def test_every_entry_has_provenance(name):
    raw = tomllib.loads(resources.files("freetrader.games.merchants_cove").joinpath("data", name).read_text())
    for key, value in raw.items():
        entries = value if isinstance(value, list) else [value]
        for e in entries:
            assert e.get("provenance") in ("public", "designed", "rulebook"), f"{name} {key}: {e.get('id')}"
            if e["provenance"] == "public":
                assert e.get("source"), f"{name} {key}: a public entry names its source"


def test_designed_md_exists_and_lists_each_file():
    text = resources.files("freetrader.games.merchants_cove").joinpath("data", "DESIGNED.md").read_text()
    for name in FILES:
        assert name in text


def test_a_bad_data_pack_fails_with_a_clear_message(tmp_path):
    src = resources.files("freetrader.games.merchants_cove").joinpath("data", "rogues.toml").read_text()
    (tmp_path / "rogues.toml").write_text(src.replace('effect = "rob"', 'effect = "steal"'))
    with pytest.raises(DataError, match="effect 'steal' must be one of"):
        load_components(tmp_path)
