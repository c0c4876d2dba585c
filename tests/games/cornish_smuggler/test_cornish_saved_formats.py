"""A state saved before decision frames (format 1) still loads: it is rebuilt by replaying its record.

The saves were made with the components before issue 30 moved two START storehouses and made Penzance a
size-5 town, so they load with that data, shipped as a pack (``examples/cornish-before-issue-30``, the files
that changed). Components are chosen before a game loads, so the tests of the saves run in a fresh process
with that pack (``test_the_saves_load_with_the_data_they_were_made_with``); run alone without it, they skip.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import freetrader
from freetrader.core import BadRecord, data
from freetrader.games.cornish_smuggler import _as_logged_before_issue_34
from freetrader.games.cornish_smuggler import rules as R

GAME = freetrader.game("cornish-smuggler")
FIXTURE = Path(__file__).parent / "fixtures" / "format1-3p-seed21.json"
FORMAT3 = sorted((Path(__file__).parent / "fixtures").glob("format3-*.json"))
ROOT = Path(__file__).resolve().parents[3]
OLD_DATA = ROOT / "examples" / "cornish-before-issue-30"
with_old_data = pytest.mark.skipif(data.pack_root() != OLD_DATA, reason="run with the pack of the data the saves "
                                   "were made with (test_the_saves_load_with_the_data_they_were_made_with does)")
FORMAT3_DECISION = {
    "format3-3p-seed0-1281.json": (2, ["decline", "play a-little-something-for-the-officer"]),  # a bribe held up
    "format3-3p-seed6-109.json": (0, ["choose st-ives-bay", "choose off-st-levan", "choose ireland", "choose st-just"]),
}


def test_the_saves_load_with_the_data_they_were_made_with():
    """This file's other tests, run in a process that uses the old components' pack."""
    env = {**os.environ, data.ENV: str(OLD_DATA)}
    proc = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-o", "addopts=",
                           "-k", "not with_the_data_they_were_made_with and not with_todays_data", __file__],
                          capture_output=True, text=True, timeout=600, env=env, cwd=ROOT)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-2000:]
    assert f"{4 + len(FORMAT3)} passed" in proc.stdout and "skipped" not in proc.stdout, proc.stdout[-1000:]


def test_the_saves_do_not_load_with_todays_data():
    """With the shipped components a save of the old ones is refused, with the reason (never loaded wrong)."""
    if data.pack_root() is not None:
        pytest.skip("runs with the shipped components")
    for path in [FIXTURE, *FORMAT3]:
        with pytest.raises(BadRecord, match="does not (match a )?replay"):  # its storehouse is unknown today
            GAME.state_from_json(json.loads(path.read_text()))


@with_old_data
def test_a_format_1_save_loads_into_the_same_position():
    """The fixture was written by the code before frames (commit 8bd2b6d): a "place" window was open, 72 actions in."""
    old = json.loads(FIXTURE.read_text())
    assert "format" not in old and "eff" in old["state"] and old["state"]["phase"] == "react"
    s = GAME.state_from_json(old)
    assert s.to_json()["format"] == 4 and s.action_count == 72
    assert s.options["yew_boy"] == "customs-movement"  # it goes on under the rules it began with (ruling 21)
    assert s.options["mob_start"] == "anywhere"  # and the first counter of a Mob card kept at set-up (ruling 28)
    assert s.options["goods_end"] == "last"  # and the Goods trigger of the literal reading (ruling 31)
    assert s.phase == R.REACT and s.win_event == "place"
    assert s.events == old["events"] and s.rng.state == old["rng"]
    for name in ("gold", "infl", "rep", "counters", "chars", "secrets", "g_where", "g_at", "off_at", "sdeck"):
        assert getattr(s, name) == old["state"][name], name
    assert GAME.state_from_json(s.to_json()).to_json() == s.to_json()


@with_old_data
def test_the_fixture_passed_a_moment_the_yew_boy_fix_changes():
    """Replayed under today's default, the same actions meet a Yew boy! window the old rules did not open."""
    old = json.loads(FIXTURE.read_text())
    record = {k: old[k] for k in ("game", "options", "seats", "seed", "actions")}
    record["options"] = {**record["options"], "mob_start": "anywhere"}
    with pytest.raises(BadRecord, match="customs-move"):
        freetrader.replay(record)


@with_old_data
def test_the_fixture_passed_a_moment_the_mob_start_fix_changes():
    """Seat 1 kept The Wreckers of Breage at set-up and placed the first counter in Godolphin: today the card's
    "you must place this Network Counter" sends it to Breage (issue 17 item 5)."""
    old = json.loads(FIXTURE.read_text())
    with pytest.raises(BadRecord, match="action 17 .*place breage"):
        freetrader.replay({k: old[k] for k in ("game", "options", "seats", "seed", "actions")})


@with_old_data
def test_a_format_1_save_edited_by_hand_is_refused():
    old = json.loads(FIXTURE.read_text())
    old["events"] = old["events"][:-1]
    with pytest.raises(BadRecord, match="cannot be migrated"):
        GAME.state_from_json(old)


@with_old_data
@pytest.mark.parametrize("path", FORMAT3, ids=lambda p: p.stem)
def test_a_format_3_save_loads_into_the_same_position(path):
    """Written by the code before card effects moved into their frames (commit 90d3309): the Turn's frame kept a
    continuation name (``then``) and the state the cards' scratch fields. It replays into today's frames, with
    the same decision, log and random state."""
    old = json.loads(path.read_text())
    assert old["format"] == 3 and "risk_mod" in old["state"] and "then" in old["state"]["frames"][0]
    s = GAME.state_from_json(old)
    assert s.to_json()["format"] == 4 and s.action_count == len(old["actions"])
    assert "risk_mod" not in s.to_json()["state"] and "then" not in s.to_json()["state"]["frames"][0]
    # the log is today's: the lines issue 34 added (who drew Secrets, a Buy's Influence) are in it
    assert _as_logged_before_issue_34(s.events) == old["events"] and s.rng.state == old["rng"]
    assert s.events == freetrader.replay({k: old[k] for k in ("game", "options", "seats", "seed", "actions")}).events
    for name in ("gold", "infl", "rep", "counters", "chars", "secrets", "g_where", "g_at", "off_at", "sdeck"):
        assert getattr(s, name) == old["state"][name], name
    # the decision pending, as the code of 90d3309 offered it when it loaded these saves
    assert (s.to_act, [str(a) for a in s.legal_actions()]) == FORMAT3_DECISION[path.name]
    assert GAME.state_from_json(s.to_json()).to_json() == s.to_json()
