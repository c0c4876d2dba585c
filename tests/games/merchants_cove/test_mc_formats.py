"""Saved states: format 1 (the task queue and scratch registers, written before the decision frames) still loads.

``fixtures/format1-states.json`` holds states saved by the format-1 code at commit
8bd2b6d, run with today's rebalanced designed values as its data pack: a 4-seat
game (the golden record's first 180 actions), and a 2-seat game with every
Secret Stash module mid-way through a Chronomancer's Shift (its timepiece's
advance still queued).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from mc_scenario import GAME

from freetrader.core import BadRecord
from freetrader.games.merchants_cove import rules as R

FIXTURES = json.loads((Path(__file__).parent / "fixtures" / "format1-states.json").read_text())
# what format 2 keeps in frames instead, the stage (saved by its member name now), the boards (by field name now)
SCRATCH = {"tasks", "phase", "sub", "sub2", "picked", "pending", "resume", "stage", "mb"}


def _flat(merchant: str, b: dict) -> list[int]:
    """A board saved by field name (format 4) laid out as formats 1-3 saved it: a flat list; the multi-step
    action's progress (its step, the Captain's ship, the Chronomancer's rewind), which frames keep now, as None."""
    if merchant == "alchemist":
        return [*b["bag"], len(b["slide"]), *b["slide"], *[-1] * (6 - len(b["slide"])), *b["cauldron"], *b["ichor"],
                b["toxic"], b["pours"], b["waiting"]]
    if merchant == "blacksmith":
        return [b["unlocked"], *b["pips"], *b["colour"], *b["furnace"], *b["heat"], b["coal"], None, b["placed"]]
    if merchant == "captain":
        return [*b["at_sea"], *(x for h in b["hold"] for x in h), b["treasures"], None, None, b["spins"], b["waiting"]]
    return [*b["grid"], b["spare"], *b["workers"], *b["shards"], None, None]


@pytest.mark.parametrize("name", sorted(FIXTURES))
def test_a_format_1_state_loads_as_the_same_position(name):
    old = FIXTURES[name]
    assert "format" not in old and "tasks" in old["state"]  # really a format-1 file
    s = GAME.state_from_json(old)
    assert s.to_json()["format"] == 4 and s.events == old["events"] and s.rng.state == old["rng"]
    kept = {k: v for k, v in old["state"].items() if k not in SCRATCH}
    assert {k: v for k, v in s.to_json()["state"].items() if k in kept} == kept
    boards = s.to_json()["state"]["mb"]
    flat = [_flat(m, b) for m, b in zip(s.merchant, boards, strict=True)]
    assert flat == [[x if y is not None else None for x, y in zip(o, f, strict=True)]
                    for o, f in zip(old["state"]["mb"], flat, strict=True)]
    assert R.STAGES[s.stage] == old["state"]["stage"] and R.PHASES[s.phase] == old["state"]["phase"]
    assert s.to_act == old["state"]["actor"] and s.legal_actions()
    assert GAME.state_from_json(s.to_json()).to_json() == s.to_json()  # and it saves in format 4


def test_the_queued_work_of_a_format_1_state_is_on_its_stack():
    s = GAME.state_from_json(FIXTURES["stash-2p"])
    assert FIXTURES["stash-2p"]["state"]["tasks"] == [["advance", 1]]
    assert R.AdvanceTimepiece(1) in s.frames and s.phase == R.MERCH
    p = s.actor
    t0 = s.time[p]
    s.apply(s.legal_actions()[0])  # the Shift's one decision: the queued hour is advanced after it
    assert s.time[p] == t0 + 1 and R.AdvanceTimepiece(1) not in s.frames


def test_a_format_1_state_edited_by_hand_is_refused():
    old = json.loads(json.dumps(FIXTURES["golden-4p-180"]))
    old["events"][-1] += " (edited)"
    with pytest.raises(BadRecord, match="cannot be migrated"):
        GAME.state_from_json(old)
