"""Stored complete games must replay to exactly the stored final state."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from make_golden import fingerprint

import freetrader

FILES = sorted(Path(__file__).parent.glob("*.json"))


def test_there_are_golden_records():
    assert len(FILES) >= 3


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_golden_record_replays_exactly(path):
    gold = json.loads(path.read_text())
    state = freetrader.replay(gold["record"])
    assert state.is_over
    assert state.scores() == gold["scores"]
    assert state.winners() == gold["winners"]
    assert state.events[-1] == gold["last_event"]
    assert fingerprint(state) == gold["sha256"]
