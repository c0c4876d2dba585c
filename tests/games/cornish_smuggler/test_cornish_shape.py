"""The shipped design meets the game's shape (data/DESIGNED.md, "The game's shape: the target").

A small seeded run of heuristic games with the First Player rotated: a statistical check with a
fixed seed, not a timed one. The full figures (1,000 games a seat count) come from the commands in
DESIGNED.md; this run is small, so its thresholds are the target's, read on few games.
"""

from __future__ import annotations

import statistics

import pytest

import freetrader
from freetrader.bots import decide, make_bot
from freetrader.core import Rng, derive_seed

GAME = freetrader.game("cornish-smuggler")
#: The box's playing time (about 120 minutes) in engine actions, at about 8 seconds each.
BOX_ACTIONS = 900


def _shape(seats: int, games: int, seed: int = 30) -> list[tuple[int, int, str]]:
    """(Turns, actions, end trigger) of ``games`` heuristic games, the First Player rotated."""
    out = []
    for i in range(games):
        game_seed = derive_seed(seed, i)
        s = GAME.new_state(seats, game_seed, {"first_player": i % seats})
        bots = [make_bot("heuristic", GAME, derive_seed(game_seed, p)) for p in range(seats)]
        rngs = [Rng(derive_seed(game_seed, 1000 + p)) for p in range(seats)]
        while not s.is_over:
            assert s.action_count < 5 * BOX_ACTIONS, f"seed {game_seed}: no end in {5 * BOX_ACTIONS} actions"
            p = s.to_act
            s.apply(decide(bots[p], s, p, rngs[p]))
        trigger = next(e for e in s.events if "end of the game is triggered" in e)
        out.append((s.turn, s.action_count, "goods" if "Goods Shape" in trigger else "track"))
    return out


@pytest.fixture(scope="module")
def runs() -> dict[int, list[tuple[int, int, str]]]:
    return {2: _shape(2, 8), 5: _shape(5, 8)}


def _marker_held(games: list[tuple[int, int, str]], seats: int) -> None:
    held = sum(turns >= seats for turns, _, _ in games)
    assert held >= 7, f"{seats} seats: every player held the marker in only {held} of {len(games)} games"


def test_every_player_holds_the_first_player_marker_in_nearly_every_game(runs):
    _marker_held(runs[2], 2)


def test_every_player_holds_the_first_player_marker_in_nearly_every_5_seat_game(runs):
    """Met again since the 5-player components (DESIGNED.md, "Five players"); an expected failure before."""
    _marker_held(runs[5], 5)


def test_the_game_lasts_turns_enough_for_a_network_and_fits_the_box(runs):
    for seats, games in runs.items():
        turns = statistics.median(t for t, _, _ in games)
        assert 5 <= turns <= 10, f"{seats} seats: median {turns} Turns"
        actions = statistics.median(a for _, a, _ in games)
        assert actions <= BOX_ACTIONS, f"{seats} seats: median {actions} actions, over the box's {BOX_ACTIONS}"


def test_both_end_triggers_fire(runs):
    ends = [trigger for games in runs.values() for _, _, trigger in games]
    assert "track" in ends and "goods" in ends
    assert ends.count("goods") >= 2  # the target: at least 10% of games at some seat count
