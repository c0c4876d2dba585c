"""Golden playthroughs: a complete game written out step by step, and the check that it still replays.

A playthrough is readable text: a header, the game's record (with the bots that played it, when
known), then at each step the seat to act, the prompt, the action played and a digest of every
seat's view (and the spectator's) before it; then the final scores. ``check_playthrough`` replays
the actions and names the first step whose prompt or view differs, so a change nobody meant to
make says where it shows.

Views, not the saved-state layout, are compared: a refactor of a game's fields keeps its
playthroughs, a change of what any seat sees does not. Any registered game can have them
(``tests/golden/make_golden.py new GAME --seats ... --seed N``); no list names the games.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import freetrader
from freetrader.core import Rng, State, derive_seed

__all__ = ["HEADER", "check_playthrough", "difference", "end_line", "play", "playthrough", "read_record",
           "step_line", "stem"]

HEADER = "# Golden playthrough (tests/golden/make_golden.py): step | seat | prompt | action | view digests"


def digest(view: dict[str, Any]) -> str:
    return hashlib.sha256(json.dumps(view, sort_keys=True).encode()).hexdigest()[:12]


def views_line(state: State) -> str:
    seats = " ".join(digest(state.view(p)) for p in range(state.seats))
    return f"{seats} / {digest(state.view(None))}"


def step_line(i: int, state: State, action: str) -> str:
    return f"{i} | {state.to_act} | {state.prompt} | {action} | {views_line(state)}"


def end_line(state: State) -> str:
    return f"end | scores {json.dumps(state.scores())} | winners {json.dumps(state.winners())} | {views_line(state)}"


def playthrough(record: Mapping[str, Any]) -> str:
    """The golden text of ``record`` (which may name its ``bots``), replayed by this checkout's code."""
    game = freetrader.game(record["game"])
    state = game.new_state(record["seats"], record["seed"], record.get("options") or {})
    lines = [HEADER, "record " + json.dumps(dict(record), sort_keys=True)]
    for i, text in enumerate(record["actions"], 1):
        lines.append(step_line(i, state, text))
        state.apply(text)
    lines.append(end_line(state))
    return "\n".join(lines) + "\n"


def read_record(path: Path) -> dict[str, Any]:
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith("record "):
            return json.loads(line[len("record "):])  # type: ignore[no-any-return]
    raise ValueError(f"{path.name} has no 'record' line")


def play(name: str, bots: Sequence[str], seed: int, options: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """One bot game (seat ``k``'s bot seeded ``derive_seed(seed, k)``), its record naming the bots."""
    from freetrader.bots import decide, make_bot

    game = freetrader.game(name)
    state = game.new_state(len(bots), seed, options)
    players = [make_bot(b, game, derive_seed(seed, i)) for i, b in enumerate(bots)]
    rngs = [Rng(derive_seed(seed, 1000 + i)) for i in range(len(bots))]
    while not state.is_over:
        p = state.to_act
        assert p is not None
        state.apply(decide(players[p], state, p, rngs[p]))
    return {**state.record(), "bots": list(bots)}


def stem(record: Mapping[str, Any]) -> str:
    """The file name (without ``.txt``) of a new playthrough: ``<game>-<seats>p-seed<seed>``."""
    return f"{freetrader.game(record['game']).spec.name}-{record['seats']}p-seed{record['seed']}"


def difference(want: str, got: str) -> str:
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


def check_playthrough(path: Path) -> None:
    """Replay a stored playthrough; ``AssertionError`` naming the first step (and column) that differs."""
    lines = path.read_text(encoding="utf-8").splitlines()
    assert lines and lines[0] == HEADER, f"{path.name}: not a golden playthrough (its first line is not the header)"
    record = read_record(path)
    state = freetrader.game(record["game"]).new_state(record["seats"], record["seed"], record.get("options") or {})
    steps = lines[2:]
    assert len(steps) == len(record["actions"]) + 1, f"{path.name}: one line per action and an end line"
    for i, text in enumerate(record["actions"], 1):
        got = step_line(i, state, text)
        if got != steps[i - 1]:
            raise AssertionError(f"{path.name} step {i} ({text}): {difference(steps[i - 1], got)}")
        state.apply(text)
    assert state.is_over, f"{path.name}: the game is not over after its last action"
    got = end_line(state)
    if got != steps[-1]:
        raise AssertionError(f"{path.name} at the end: {difference(steps[-1], got)}")
