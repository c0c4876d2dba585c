"""Designs that separate causes: rotated seats, a random first player, heuristics that vary their drafts."""

from __future__ import annotations

import json

import pytest

import freetrader
from freetrader.bots import make_bot
from freetrader.bots.base import near_best
from freetrader.cli import main
from freetrader.core import Rng
from freetrader.sim import SimulationError, game_seed, plan, simulate
from freetrader.sim.analysis import analyze

FAST = ["heuristic", "random", "random"]


def test_rotate_plays_each_deal_in_every_rotation():
    got = list(simulate("contraband", FAST, 6, seed=4, workers=1, rotate=True))
    assert [r["seats"] for r in got[:3]] == [FAST, ["random", "heuristic", "random"], ["random", "random", "heuristic"]]
    assert [r["seed"] for r in got] == [game_seed(4, 0)] * 3 + [game_seed(4, 1)] * 3
    assert [(r["deal"], r["rotation"]) for r in got] == [(d, k) for d in range(2) for k in range(3)]
    a = analyze(got)
    assert a.rotated and a.deals == 2
    assert all(row[1] == "2 bots (rotated)" for row in a.tables["seats"].rows)
    assert "rotated, so every bot sat in every seat" in a.tables["bots"].note
    assert _bot_rate(a, "heuristic")[1] == 6  # the heuristic held each seat of each deal once


def _bot_rate(a, bot):
    return next(r for r in a.tables["bots"].rows if r[0] == bot)


def test_rotate_needs_a_multiple_of_the_seats():
    with pytest.raises(SimulationError, match="multiple of 3"):
        list(simulate("contraband", FAST, 7, workers=1, rotate=True))


def test_random_first_player_goes_through_the_games_own_option():
    g = freetrader.game("cornish-smuggler")
    firsts = {plan(g, ["random"] * 3, 1, {}, i, random_first=True).options["first_player"] for i in range(30)}
    assert firsts == {0, 1, 2}
    p = plan(freetrader.game("precious-cargo"), ["random"] * 2, 1, {}, 0, random_first=True)
    assert p.options["first_player"] == "random"  # the game draws it from its own seed
    with pytest.raises(SimulationError, match="no first_player option"):
        plan(freetrader.game("contraband"), FAST, 1, {}, 0, random_first=True)


def test_random_first_player_is_in_the_records_and_the_report(tmp_path):
    got = list(simulate("precious-cargo", ["random", "random"], 8, seed=2, workers=1, random_first=True))
    assert all(r["record"]["options"]["first_player"] == "random" for r in got)
    a = analyze(got)
    assert a.first_varies and "first_player" in a.tables
    assert a.tables["first_player"].rows[0][0] == "first to act"


def test_fixed_first_player_is_not_repeated_as_its_own_finding():
    # random play triggers no End of the Game: an explicit safety cap stops (cuts) these games
    got = list(simulate("cornish-smuggler", ["random"] * 2, 2, seed=2, options={"turn_limit": 10}, workers=1))
    a = analyze(got)
    assert "first_player" not in a.tables
    assert any("acted first in every game" in n for n in a.notes)


def test_cli_simulate_rotate_resumes_and_checks_the_design(tmp_path, capsys):
    out = tmp_path / "rot.jsonl"
    args = ["simulate", "contraband", "-n", "3", "--seats", ",".join(FAST), "--rotate", "--workers", "1",
            "--no-progress", "--out", str(out)]
    assert main(args) == 0
    text = capsys.readouterr().out
    assert "rotated" in text and "By bot" in text
    lines = [json.loads(x) for x in out.read_text().splitlines()]
    assert [x["rotation"] for x in lines] == [0, 1, 2]
    assert main(args[:3] + ["6"] + args[4:]) == 0  # resumes: the first three games are kept
    assert len(out.read_text().splitlines()) == 6
    assert main([*args[:3], "6", *args[4:6], "--workers", "1", "--no-progress", "--out", str(out)]) == 2
    assert "from another run" in capsys.readouterr().err  # the same file without --rotate is another run
    assert main(["simulate", "contraband", "-n", "4", "--seats", ",".join(FAST), "--rotate"]) == 2
    assert "multiple of 3" in capsys.readouterr().err


def test_near_best_draws_among_near_equal_choices():
    rng = Rng(3)
    picks = {near_best(rng, [1, 2, 3, 9, 10], float, within=1) for _ in range(50)}
    assert picks == {9, 10}
    assert {near_best(rng, [1, 5, 5], float) for _ in range(30)} == {5}


def test_heuristic_drafts_vary_with_the_deal():
    g = freetrader.game("merchants-cove")
    firsts = set()
    for seed in range(12):
        s = g.new_state(2, seed)
        firsts.add(str(make_bot("heuristic", g, seed).choose(s, s.to_act)))
    assert len(firsts) >= 3  # not the same merchant every deal
