"""Golden playthroughs: ``python tests/golden/make_golden.py [GAME ...]``.

A golden file is a readable text playthrough of one complete game: at each
step the seat to act, the prompt, the action played and a digest of every
seat's view (and the spectator's) before it; then the final scores. The
test replays the actions and names the first step whose prompt or view
differs, so a change nobody meant to make says where it shows.

Views, not the saved-state layout, are compared: a refactor of a game's
fields keeps its playthroughs, a change of what any seat sees does not.
Regenerate only when a rule change is intended, and say so in the commit.
``--from-records`` rebuilds the playthroughs from the records already in
the files (the same games, replayed by the code of this checkout).
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path
from typing import Any

import freetrader
from freetrader.core import Rng, derive_seed

HERE = Path(__file__).parent
# (file name, game, seats, seed): the bots that played each stored game
CASES = [("contraband-3p-seed3", "contraband", ["heuristic", "random", "heuristic"], 3),
         ("contraband-5p-seed5", "contraband", ["heuristic"] * 5, 5),
         ("contraband-8p-seed8", "contraband", ["random", "heuristic"] * 4, 8),
         ("cornish-smuggler-3p-seed4", "cornish-smuggler", ["heuristic", "random", "heuristic"], 4),
         ("cornish-smuggler-5p-seed6", "cornish-smuggler", ["heuristic"] * 5, 6),
         ("merchants-cove-4p-seed2", "merchants-cove", ["heuristic", "random", "heuristic", "heuristic"], 2),
         ("precious-cargo-heuristic-heuristic-seed11", "precious-cargo", ["heuristic", "heuristic"], 11),
         ("precious-cargo-heuristic-random-seed7", "precious-cargo", ["heuristic", "random"], 7)]
HEADER = "# Golden playthrough (tests/golden/make_golden.py): step | seat | prompt | action | view digests"


def digest(view: dict[str, Any]) -> str:
    return hashlib.sha256(json.dumps(view, sort_keys=True).encode()).hexdigest()[:12]


def views_line(state: freetrader.State) -> str:
    seats = " ".join(digest(state.view(p)) for p in range(state.seats))
    return f"{seats} / {digest(state.view(None))}"


def step_line(i: int, state: freetrader.State, action: str) -> str:
    return f"{i} | {state.to_act} | {state.prompt} | {action} | {views_line(state)}"


def end_line(state: freetrader.State) -> str:
    return f"end | scores {json.dumps(state.scores())} | winners {json.dumps(state.winners())} | {views_line(state)}"


def playthrough(record: dict[str, Any]) -> str:
    game = freetrader.game(record["game"])
    state = game.new_state(record["seats"], record["seed"], record.get("options") or {})
    lines = [HEADER, "record " + json.dumps(record, sort_keys=True)]
    for i, text in enumerate(record["actions"], 1):
        lines.append(step_line(i, state, text))
        state.apply(text)
    lines.append(end_line(state))
    return "\n".join(lines) + "\n"


def read_record(path: Path) -> dict[str, Any]:
    for line in path.read_text().splitlines():
        if line.startswith("record "):
            return json.loads(line[len("record "):])  # type: ignore[no-any-return]
    raise ValueError(f"{path.name} has no 'record' line")


def play_case(name: str, seats: list[str], seed: int) -> dict[str, Any]:
    from freetrader.bots import decide, make_bot

    game = freetrader.game(name)
    state = game.new_state(len(seats), seed)
    bots = [make_bot(b, game, derive_seed(seed, i)) for i, b in enumerate(seats)]
    rngs = [Rng(derive_seed(seed, 1000 + i)) for i in range(len(seats))]
    while not state.is_over:
        p = state.to_act
        assert p is not None
        state.apply(decide(bots[p], state, p, rngs[p]))
    return state.record()


def main() -> None:
    args = sys.argv[1:]
    from_records = "--from-records" in args
    wanted = {a for a in args if not a.startswith("--")}
    if from_records:
        for path in sorted(HERE.glob("*.txt")):
            record = read_record(path)
            if not wanted or freetrader.game(record["game"]).spec.name in wanted:
                path.write_text(playthrough(record))
                print(path.name, len(record["actions"]), "actions")
        return
    for stem, name, seats, seed in CASES:
        if wanted and name not in wanted:
            continue
        path = HERE / f"{stem}.txt"
        record = play_case(name, seats, seed)
        path.write_text(playthrough(record))
        print(path.name, len(record["actions"]), "actions")


if __name__ == "__main__":
    main()
