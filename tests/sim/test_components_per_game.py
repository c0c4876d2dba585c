"""Every registered game has a component function for the balance report, and it names real choices."""

from __future__ import annotations

import pytest

import freetrader
from freetrader.core.registry import load_part
from freetrader.sim.analysis import _COMPONENTS
from freetrader.sim.runner import play_game

SEATS = {"contraband": 3, "cornish-smuggler": 3, "precious-cargo": 2, "merchants-cove": 2}
EXPECT = {"contraband": "played ", "cornish-smuggler": "ship ", "precious-cargo": "country ", "merchants-cove": "merchant "}


@pytest.mark.parametrize("name", sorted(SEATS))
def test_components_of_a_finished_game(name):
    assert name in freetrader.games()
    options = {"end": "turns", "turn_limit": 8} if name == "contraband" else {}
    result = play_game(name, ["heuristic"] * SEATS[name], 3, options)
    assert load_part(name, "analysis") is not None  # games/<game>/analysis.py, found through the registry
    comps = _COMPONENTS[name](result)
    assert sorted(comps) == list(range(SEATS[name]))
    for seat, names in comps.items():
        assert any(n.startswith(EXPECT[name]) for n in names), (seat, names)


def test_cornish_smuggler_secrets_held_and_played_are_in_play_components():
    from freetrader.sim.analysis import ACTION_PREFIXES

    result = play_game("cornish-smuggler", ["heuristic"] * 3, 1, {})
    load_part("cornish-smuggler", "analysis")
    comps = _COMPONENTS["cornish-smuggler"](result)
    played = {a.split()[1] for a in result["record"]["actions"] if a.startswith("play ")}
    assert played and {n.removeprefix("played secret ") for v in comps.values() for n in v
                       if n.startswith("played secret ")} == played
    for names in comps.values():
        for n in names:
            if n.startswith("played secret "):  # a Secret played was a Secret held
                assert "held secret " + n.removeprefix("played secret ") in names
    secrets = [n for v in comps.values() for n in v if "secret" in n]
    assert secrets and all(n.startswith(ACTION_PREFIXES) for n in secrets)  # the in-play table, not set-up


def test_turn_positions_where_the_game_moves_the_order():
    from freetrader.sim.analysis import _POSITIONS

    for name in ("merchants-cove", "contraband"):
        load_part(name, "analysis")
    mc = play_game("merchants-cove", ["heuristic"] * 3, 4, {"first_player": "seat1"})
    # seat 1's timepiece on top, the others below it in seat order after it (rules.start_game)
    assert _POSITIONS["merchants-cove"](mc) == [2, 0, 1]
    shuffled = [_POSITIONS["merchants-cove"](play_game("merchants-cove", ["random"] * 3, seed, {}))
                for seed in range(6)]
    assert all(sorted(p) == [0, 1, 2] for p in shuffled) and len({tuple(p) for p in shuffled}) > 1
    cb = play_game("contraband", ["random"] * 3, 3, {"end": "turns", "turn_limit": 2})
    officer = freetrader.game("contraband").new_state(3, cb["record"]["seed"], cb["record"]["options"]).view(None)["officer"]
    assert _POSITIONS["contraband"](cb)[officer] == 0
