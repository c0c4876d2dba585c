"""Saves from before the decision frames (format 1: ``phase``, ``actor`` and the turn's registers) still load.

``fixtures/format1-saves.json`` was written by the code of commit 90d3309, one save per phase (country,
first, home, move, actions, loading, selling, over) with the sha256 of each seat's view and the
spectator's as that code showed them. Format 1 is rebuilt by replaying its record (``Game._migrate``).
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest

import freetrader
from freetrader.core import BadRecord

GAME = freetrader.game("precious-cargo")
SAVES = json.loads((Path(__file__).parent / "fixtures" / "format1-saves.json").read_text())
PHASES = ("country", "first", "home", "move", "actions", "loading", "selling", "over")


def _digest(view: dict[str, object]) -> str:
    return hashlib.sha256(json.dumps(view, sort_keys=True).encode()).hexdigest()


@pytest.mark.parametrize("i", range(len(SAVES)), ids=PHASES)
def test_a_format_1_save_loads_into_the_same_position(i: int) -> None:
    old = SAVES[i]["save"]
    assert "format" not in old and old["state"]["phase"] == PHASES[i] and "actor" in old["state"]
    s = GAME.state_from_json(old)
    assert s.to_json()["format"] == 2 and "phase" not in s.to_json()["state"]
    assert s.view(None)["phase"] == PHASES[i]
    assert [_digest(s.view(q)) for q in (0, 1, None)] == SAVES[i]["views"]
    assert s.events == old["events"] and s.rng.state == old["rng"]
    assert s.to_act == (None if PHASES[i] == "over" else old["state"]["actor"])
    for name in ("coins", "at", "sails", "moves", "chips", "stock", "pools", "gov", "turn", "first"):
        assert getattr(s, name) == old["state"][name], name
    assert [list(h) for h in s.holds] == old["state"]["holds"]
    assert (s.used, s.cur_ship, s.sell_at) == (old["state"]["used"], old["state"]["cur_ship"], old["state"]["sell_at"])
    again = GAME.state_from_json(s.to_json())
    assert again.to_json() == s.to_json() and again.legal_actions() == s.legal_actions()


def test_a_format_1_save_edited_by_hand_is_refused() -> None:
    old = json.loads(json.dumps(SAVES[PHASES.index("selling")]["save"]))
    old["events"] = old["events"][:-1]  # no longer what its actions give
    with pytest.raises(BadRecord, match="cannot be migrated"):
        GAME.state_from_json(old)


def test_a_save_names_its_pending_decisions_as_frames() -> None:
    """Format 2 saves the stack: in the middle of a sale, the turn (with the sell bit) under the sale."""
    s = GAME.state_from_json(SAVES[PHASES.index("selling")]["save"])
    frames = s.to_json()["state"]["frames"]
    assert [f["frame"].rsplit(".", 1)[1] for f in frames] == ["Turn", "Selling"]
    assert frames[0]["used"] & 16 and frames[1]["place"] == s.sell_at
