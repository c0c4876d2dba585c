"""Stored complete games replay step by step to exactly the stored prompts, views and scores."""

from __future__ import annotations

from pathlib import Path

import pytest
from make_golden import HEADER, end_line, read_record, step_line

import freetrader

FILES = sorted(Path(__file__).parent.glob("*.txt"))


def test_every_game_has_golden_playthroughs():
    games = {freetrader.game(read_record(p)["game"]).spec.name for p in FILES}
    assert games == set(freetrader.games())


def _difference(want: str, got: str) -> str:
    """Which column of a playthrough line differs, in words."""
    w, g = want.split(" | "), got.split(" | ")
    if len(w) != len(g):
        return f"expected {want!r}, got {got!r}"
    names = ["step", "seat to act", "prompt", "action", "views"] if w[0] != "end" else ["end", "scores", "winners", "views"]
    for name, a, b in zip(names, w, g, strict=True):
        if a != b:
            if name == "views":
                seats_a, seats_b = a.split(" "), b.split(" ")
                who = [("spectator" if x == len(seats_a) - 1 else f"seat {x}") for x, (p, q)
                       in enumerate(zip([s for s in seats_a if s != "/"], [s for s in seats_b if s != "/"], strict=True))
                       if p != q]
                return f"the view of {', '.join(who)} differs"
            return f"{name}: expected {a!r}, got {b!r}"
    return "lines differ"


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_golden_playthrough_replays_exactly(path):
    lines = path.read_text().splitlines()
    assert lines[0] == HEADER
    record = read_record(path)
    state = freetrader.game(record["game"]).new_state(record["seats"], record["seed"], record.get("options") or {})
    steps = lines[2:]
    assert len(steps) == len(record["actions"]) + 1, f"{path.name}: one line per action and an end line"
    for i, text in enumerate(record["actions"], 1):
        got = step_line(i, state, text)
        if got != steps[i - 1]:
            pytest.fail(f"{path.name} step {i} ({text}): {_difference(steps[i - 1], got)}")
        state.apply(text)
    assert state.is_over, f"{path.name}: the game is not over after its last action"
    got = end_line(state)
    if got != steps[-1]:
        pytest.fail(f"{path.name} at the end: {_difference(steps[-1], got)}")


def test_a_changed_view_is_reported_with_its_step_and_seat(tmp_path):
    path = FILES[0]
    lines = path.read_text().splitlines()
    parts = lines[5].split(" | ")
    digests = parts[4].split(" ")
    digests[1] = "000000000000"
    parts[4] = " ".join(digests)
    assert _difference(lines[5], " | ".join(parts)) == "the view of seat 1 differs"
