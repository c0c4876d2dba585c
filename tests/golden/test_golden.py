"""Stored complete games replay step by step to exactly the stored prompts, views and scores."""

from __future__ import annotations

from pathlib import Path

import pytest
from make_golden import HEADER, read_record

import freetrader
from freetrader.core.registry import game_package
from freetrader.testing.golden import check_playthrough, difference

FILES = sorted(Path(__file__).parent.glob("*.txt"))


def test_every_shipped_game_has_golden_playthroughs():
    """Each game that ships in ``freetrader.games`` (found by the registry, not by a list) has one."""
    shipped = {n for n in freetrader.games() if game_package(n).startswith("freetrader.games.")}
    games = {freetrader.game(read_record(p)["game"]).spec.name for p in FILES}
    assert games == shipped


def test_every_record_names_its_bots():
    """So that ``make_golden.py --bots`` can play each game again after an intended rule change."""
    for p in FILES:
        record = read_record(p)
        assert len(record.get("bots", ())) == record["seats"], p.name


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_golden_playthrough_replays_exactly(path):
    assert path.read_text().splitlines()[0] == HEADER
    try:
        check_playthrough(path)
    except AssertionError as exc:
        pytest.fail(str(exc))


def test_a_changed_view_is_reported_with_its_step_and_seat(tmp_path):
    path = FILES[0]
    lines = path.read_text().splitlines()
    parts = lines[5].split(" | ")
    digests = parts[4].split(" ")
    digests[1] = "000000000000"
    parts[4] = " ".join(digests)
    assert difference(lines[5], " | ".join(parts)) == "the view of seat 1 differs"
    broken = tmp_path / path.name
    broken.write_text("\n".join(lines[:5] + [" | ".join(parts)] + lines[6:]) + "\n")
    with pytest.raises(AssertionError, match=r"step 4 .*the view of seat 1 differs"):
        check_playthrough(broken)
