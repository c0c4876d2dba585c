"""No internal code reaches a player (issue 34): every button label, prompt, choice note and log line of
seeded games of each game and module, and a refused move's message, reads as words, never an id.

The labels are the games' own ``web.js`` ``label`` functions run in Node (no browser); the log lines are
the server's rendering (``server/log.py``) of the engine's events and each seat's private news.
"""

from __future__ import annotations

import importlib
import json
import random
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
from layout import TABLES

import freetrader
from freetrader.core import FreetraderError
from freetrader.core.registry import game_package, load_part
from freetrader.server.log import choice_notes_of, display_names, item_names, private_lines, render_event

#: An id-like token: letters glued to digits (c1, g00, sc03), or a snake_case word. Not after "dot ":
#: Precious Cargo's route board prints each dot's grid name (b5) beside it, so the log's "dot b5" is
#: what the player reads on the board.
ID_LIKE = re.compile(r"(?<!dot )\b(?:[a-z]+\d+[a-z\d]*|[a-z]+(?:_[a-z]+)+)\b")
#: Words of that shape that are words: none so far (an entry here needs a reason).
ALLOWED: frozenset[str] = frozenset()
ACTIONS = 250
SAMPLES = 60


def faults_in(text: str) -> list[str]:
    return [m for m in ID_LIKE.findall(text) if m not in ALLOWED]


def walk(game: str, options: dict[str, Any], seats: int, seed: int) -> tuple[list[str], list[dict[str, Any]]]:
    """Texts a player reads over ``ACTIONS`` random moves (prompts, notes, log lines), and decisions to label."""
    g = freetrader.game(game)
    comps = load_part(g, "web").components()
    ids, items = display_names(comps), item_names(comps)
    names = [f"Seat {k}" for k in range(seats)]
    state = g.new_state(seats, seed=seed, options=options)
    rng = random.Random(seed)
    texts: list[str] = []
    samples: list[dict[str, Any]] = []
    fields = [dict() for _ in range(seats)]  # type: list[dict[str, Any]]
    part = load_part(g, "web")
    notes_of = getattr(part, "choice_notes", None)
    for k in range(ACTIONS):
        for seat in range(seats):
            view = state.view(seat, events=False)
            now = {key: v for key, v in view.items() if key.startswith("your_")}
            texts += private_lines(fields[seat], now, items)
            fields[seat] = now
        if state.is_over:
            break
        seat = state.to_act
        view = state.view(seat, events=False)
        legal = [str(a) for a in state.legal_actions()]
        texts.append(str(view.get("prompt", "")))
        if notes_of is not None:
            texts += list(notes_of(state, seat).values())
        moves = choice_notes_of(state, seat)  # what the table sends: each move's label and note (core/moves.py)
        texts += [str(m[part]) for n, m in moves.items() if not n.startswith("@") for part in ("label", "note")]
        if k % max(1, ACTIONS // SAMPLES) == 0:
            samples.append({"view": view, "legal": legal[:40], "notes": {n: moves[n] for n in legal[:40]}})
        state.apply(rng.choice(legal))
    texts += [render_event(e, names, ids) for e in state.events]
    return texts, samples


@pytest.mark.parametrize("table", TABLES, ids=lambda t: t[0])
def test_no_internal_code_in_labels_prompts_notes_or_log(table: tuple[str, str, dict[str, Any], int]) -> None:
    name, game, options, seats = table
    node = shutil.which("node")
    bad: list[str] = []
    for seed in (1, 2):
        texts, samples = walk(game, options, seats, seed)
        bad += [f"{t!r} holds {faults_in(t)}" for t in texts if faults_in(t)]
        if node is None:
            continue
        script = Path(importlib.import_module(game_package(freetrader.game(game))).__file__ or "").parent / "web.js"
        comps = load_part(freetrader.game(game), "web").components()
        out = subprocess.run([node, str(Path(__file__).parent / "labels.js")], check=True, capture_output=True, text=True,
                             input=json.dumps({"script": str(script), "components": comps, "samples": samples}, default=str))
        for sample, labels in zip(samples, json.loads(out.stdout), strict=True):
            for n, label in zip(sample["legal"], labels, strict=True):
                if faults_in(label) or (label == n and (" " in n or n.islower())):
                    bad.append(f"button {n!r} reads {label!r}")
    assert not bad, f"{name}: {len(set(bad))} texts show internal codes, e.g. " + "; ".join(sorted(set(bad))[:12])
    if node is None:
        pytest.skip("no Node: the button labels were not walked (apt-get install nodejs)")


def test_a_refusal_reads_as_words() -> None:
    state = freetrader.game("merchants-cove").new_state(2, seed=3)
    with pytest.raises(FreetraderError) as err:
        state.apply("sell small-red bazaar")
    assert not faults_in(str(err.value)), str(err.value)
