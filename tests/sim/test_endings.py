"""Every game tells what ended it and how long it lasted in its own unit; the lines and the report carry it."""

from __future__ import annotations

import freetrader
from freetrader.sim import ends_of, play_game, position
from freetrader.sim.metrics import end_and_length


def _events(r):
    return freetrader.replay(r["record"]).events


def test_cornish_smuggler_ends_by_a_trigger_and_counts_turns():
    r = play_game("cornish-smuggler", ["heuristic"] * 3, 4, {"first_player": 2})
    assert r["end"] in ("Customs Track", "last Goods Shape") and r["unit"] == "Turns" and r["first"] == 2
    assert r["length"] == sum(1 for e in _events(r) if e.startswith("Turn ") and " begins" in e)
    trigger = next(e for e in _events(r) if e.startswith("The end of the game is triggered"))
    assert ("Customs Track" in trigger) == (r["end"] == "Customs Track")
    cut = play_game("cornish-smuggler", ["heuristic"] * 3, 4, {"turn_limit": 1})
    assert cut["end"] == "safety cap" and cut["cut"] and cut["length"] == 1


def test_contraband_names_each_end_of_par_10():
    assert play_game("contraband", ["random"] * 3, 2, {"end": "reshuffles", "reshuffles": 1})["end"] in (
        "reshuffles", "retirements")
    turns = play_game("contraband", ["heuristic"] * 3, 2, {"end": "turns", "turn_limit": 5})
    assert turns["end"] == "declarations" and turns["unit"] == "rounds"
    assert turns["length"] == sum(1 for e in _events(turns) if e.startswith("Round ") and "Customs Officer" in e)
    assert f"Round 1: seat {turns['first']} is the Customs Officer" in _events(turns)


def test_precious_cargo_counts_rounds_of_two_turns():
    r = play_game("precious-cargo", ["heuristic"] * 2, 6)
    state = freetrader.replay(r["record"])
    assert r["end"] == "target reached" and max(r["scores"]) >= 25
    assert r["length"] == (state.turn + 1) // 2 and r["first"] == state.first
    assert play_game("precious-cargo", ["random"] * 2, 6, {"turn_limit": 2})["end"] == "safety cap"


def test_merchants_cove_lasts_its_days_and_knows_a_chosen_first_seat():
    r = play_game("merchants-cove", ["heuristic"] * 3, 1, {"first_player": "seat1"})
    assert (r["end"], r["length"], r["unit"], r["first"]) == ("last day", 3, "days", 1)
    firsts = set()
    for seed in range(1, 5):
        drawn = play_game("merchants-cove", ["heuristic"] * 3, seed)  # first_player=random: the stack is drawn
        first_clock = next(i for i, a in enumerate(drawn["record"]["actions"]) if a.startswith("do "))
        clock = freetrader.replay(drawn["record"], upto=first_clock)  # just before the first Clock action
        assert drawn["first"] == clock.to_act
        firsts.add(drawn["first"])
    assert len(firsts) > 1  # drawn, not always seat 0


def test_every_game_lists_its_ends_and_turn_positions_count_from_the_first_seat():
    for slug in freetrader.games():
        ends = ends_of(freetrader.game(slug))
        assert ends and ends[-1] == "truncated", slug
    r = {"seats": ["a", "b", "c"], "first": 2}
    assert [position(r, s) for s in range(3)] == [1, 2, 0]
    assert position({"seats": ["a", "b"]}, 0) is None


def test_the_report_metric_reads_the_line_or_asks_the_game_for_an_old_line():
    r = play_game("contraband", ["random"] * 3, 5)
    old = {k: v for k, v in r.items() if k not in ("end", "length", "unit", "first")}
    got = end_and_length(r)
    assert got == end_and_length(old)
    assert got[-1][f"% ended by: {r['end']}"] == 100.0 and got[-1]["length (rounds)"] == r["length"]
    assert set(got[-1]) == {f"% ended by: {e}" for e in ends_of(freetrader.game("contraband"))} | {"length (rounds)"}
    short = play_game("contraband", ["random"] * 3, 5, max_actions=9)
    assert end_and_length({k: v for k, v in short.items() if k != "end"})[-1]["% ended by: truncated"] == 100.0
