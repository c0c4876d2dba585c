"""The take-back rule never calls a revealing move undoable: golden records and random games.

The ground truth is a *witness*: a determinization of the position, for some
seat, in which the same action is refused or leaves that seat a different
view than the real game did. A witness proves the action showed that seat
something it could not see before, so an "undoable" answer with a witness is
a false one. The search draws many more samples than the rule, with other
seeds; the test also shows that this search does find the false answers of
a rule that trusts a single determinization (the old quick hint), so it can
fail.

The default run covers every action of the golden records and 300 random
actions per game; the ``slow`` tests (run with ``FREETRADER_SLOW=1``) play
10,000 random actions per game.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from pathlib import Path

import pytest

import freetrader
from freetrader.core import Rng, State, derive_seed
from freetrader.server.takeback import undoable

GOLDEN = sorted((Path(__file__).parents[1] / "golden").glob("*.json"))
GAMES = {"contraband": (3, 5), "cornish-smuggler": (3, 4), "precious-cargo": (2,), "merchants-cove": (2, 3, 4)}
WITNESS_SAMPLES = 8


def _witness(before: State, action: str, after: State, samples: int = WITNESS_SAMPLES, base: int = 10**6) -> bool:
    n_events = before.event_count
    new_events = after.events_since(n_events)
    for seat in range(before.seats):
        expected = after.view(seat, events=False)
        for k in range(samples):
            sample = before.determinize(seat, Rng(derive_seed(base, before.action_count, seat, k)))
            sample._legal_cache = None
            try:
                sample.apply(action)
            except freetrader.IllegalAction:
                return True
            if sample.view(seat, events=False) != expected or sample.events_since(n_events) != new_events:
                return True
    return False


def _one_sample_rule(before: State, action: str, after: State) -> bool:
    """The old quick hint: no RNG draw and one determinization per seat agrees."""
    return before.rng.state == after.rng.state and not _witness(before, action, after, samples=1, base=7)


def _positions(state: State, actions: list[str]) -> Iterator[tuple[State, str, State]]:
    for text in actions:
        before = state.clone()
        state.apply(text)
        yield before, text, state.clone()


def _random_actions(name: str, total: int) -> Iterator[tuple[State, str, State]]:
    g = freetrader.game(name)
    pick = random.Random(16)
    seats = GAMES[name]
    done, game_no = 0, 0
    while done < total:
        state = g.new_state(seats[game_no % len(seats)], derive_seed(16, game_no))
        game_no += 1
        while not state.is_over and done < total:
            text = str(pick.choice(state.legal_actions()))
            before = state.clone()
            state.apply(text)
            done += 1
            yield before, text, state


def _false_undoable(positions: Iterator[tuple[State, str, State]]) -> tuple[int, int, list[str]]:
    undoable_count = checked = 0
    bad: list[str] = []
    for before, text, after in positions:
        checked += 1
        if undoable(before, text, after):
            undoable_count += 1
            if _witness(before, text, after):
                bad.append(f"{before.game.slug} seed {before.seed} action {before.action_count}: {text!r}")
    return checked, undoable_count, bad


@pytest.mark.parametrize("path", GOLDEN, ids=[p.stem for p in GOLDEN])
def test_no_false_undoable_over_every_golden_action(path: Path) -> None:
    rec = json.loads(path.read_text())["record"]
    g = freetrader.game(rec["game"])
    start = g.new_state(rec["seats"], rec["seed"], rec.get("options"))
    checked, n_undoable, bad = _false_undoable(_positions(start, rec["actions"]))
    assert checked == len(rec["actions"])
    assert bad == [], f"{len(bad)} false undoable of {n_undoable}: {bad[:5]}"


@pytest.mark.parametrize("name", sorted(GAMES))
def test_no_false_undoable_over_random_game_actions(name: str) -> None:
    checked, n_undoable, bad = _false_undoable(_random_actions(name, 300))
    assert checked == 300 and n_undoable > 0
    assert bad == [], f"{len(bad)} false undoable of {n_undoable} ({checked} actions): {bad[:5]}"


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(GAMES))
def test_no_false_undoable_over_10000_random_actions_per_game(name: str) -> None:
    checked, n_undoable, bad = _false_undoable(_random_actions(name, 10_000))
    assert checked == 10_000 and bad == [], f"{len(bad)} false undoable of {n_undoable}: {bad[:5]}"


def test_the_witness_search_catches_a_one_sample_rule() -> None:
    """Contraband discards draw the pack's top card into the holder's hand: one sample often misses that."""
    caught = 0
    for before, text, after in _random_actions("contraband", 1_500):
        if text.startswith("discard") and _one_sample_rule(before, text, after):
            assert not undoable(before, text, after)
            caught += _witness(before, text, after)
    assert caught > 0


def test_contraband_discard_and_search_are_never_undoable_claims_are() -> None:
    seen: dict[str, set[bool]] = {}
    for before, text, after in _random_actions("contraband", 600):
        verb = text.split()[0]
        if verb in ("discard", "search", "accept", "claim", "declare"):
            seen.setdefault(verb, set()).add(undoable(before, text, after))
    assert seen["discard"] == seen["search"] == seen["accept"] == {False}
    assert True in seen["claim"] and True in seen["declare"]
