"""``freetrader tournament``: lineups over seat permutations, openskill ratings with intervals."""

from __future__ import annotations

import re

import pytest

from freetrader.cli import main
from freetrader.sim import SimulationError
from freetrader.sim.tournament import Ratings, lineups, tournament_tasks


def test_lineups_cover_every_seat():
    three = lineups(["a", "b", "c"], 3)
    assert len(three) == 6 and all(sorted(t) == ["a", "b", "c"] for t in three)
    four = lineups(["a", "b", "c", "d"], 3)
    assert len(four) == 24
    fewer = lineups(["a", "b"], 3)
    assert len(fewer) == 6 and all(set(t) == {"a", "b"} for t in fewer)
    for seat in range(3):  # every bot in every seat equally often
        assert sorted(t[seat] for t in three) == ["a", "a", "b", "b", "c", "c"]
    with pytest.raises(SimulationError):
        lineups(["a"], 3)
    with pytest.raises(SimulationError):
        lineups(["a", "a"], 3)


def test_tasks_cycle_lineups_with_run_seeds():
    table, tasks = tournament_tasks("contraband", ["random", "heuristic"], 3, 8, 5)
    tasks = list(tasks)
    assert [t[1] for t in tasks] == [list(table[i % 6]) for i in range(8)]
    assert len({t[2] for t in tasks}) == 8


def test_ratings_order_and_intervals():
    r = Ratings(["strong", "weak", "mid"])
    for _ in range(20):
        r.add({"seats": ["weak", "mid", "strong"], "scores": [1, 5, 9], "winners": [2]})
    rows = r.table()
    assert [x.bot for x in rows] == ["strong", "mid", "weak"]
    assert rows[0].low > rows[2].high  # separated
    assert rows[0].win_rate == 1.0 and rows[2].wins == 0
    r.add({"seats": ["weak", "weak", "strong"], "scores": [3, 3, 1], "winners": [0, 1]})  # a bot twice, a tie
    assert r.wins["weak"] == 1.0 and r.games["weak"] == 21


def test_head_to_head_counts_who_finished_ahead():
    r = Ratings(["a", "b", "c"])
    r.add({"seats": ["a", "b", "c"], "scores": [5, 3, 5], "winners": [0, 2]})
    r.add({"seats": ["c", "a", "b"], "scores": [1, 2, 4], "winners": [2]})
    assert r.head_to_head("a", "b")[:2] == (1.0, 2)  # ahead once, behind once
    assert r.head_to_head("a", "c")[:2] == (1.5, 2)  # a tie counts half
    assert r.head_to_head("b", "c")[:2] == (1.0, 2)
    k, n, lo, hi = r.head_to_head("c", "a")
    assert (k, n) == (0.5, 2) and 0.0 <= lo < 0.25 < hi <= 1.0
    assert r.head_to_head("a", "a")[1] == 0


def test_tournament_command(capsys, tmp_path, monkeypatch):
    monkeypatch.setenv("COLUMNS", "200")
    out = tmp_path / "t.jsonl"
    code = main(["tournament", "--game", "contraband", "--bots", "random,heuristic", "-n", "6", "--workers", "2",
                 "--out", str(out), "--no-progress"])
    text = capsys.readouterr().out
    assert code == 0
    assert "heuristic" in text and "random" in text and "95% interval" in text
    assert text.index("heuristic") < text.index("random")  # rated first
    assert "Head to head" in text
    assert re.search(r"\d+(\.5)?/12 \(\d+%", text)  # two of three seats are the same bot: 12 pairs in 6 games
    assert len(out.read_text().splitlines()) == 6


def test_tournament_resumes_its_out_file(capsys, tmp_path, monkeypatch):
    monkeypatch.setenv("COLUMNS", "200")
    whole, cut = tmp_path / "whole.jsonl", tmp_path / "cut.jsonl"
    args = ["tournament", "--game", "contraband", "--bots", "random,heuristic", "-n", "8", "--workers", "1",
            "--no-progress", "--out"]
    assert main(args + [str(whole)]) == 0
    lines = whole.read_bytes().splitlines(keepends=True)
    cut.write_bytes(b"".join(lines[:3]) + lines[3][:40])  # three games and a write cut short
    capsys.readouterr()
    assert main(args + [str(cut)]) == 0
    captured = capsys.readouterr()
    assert "Resuming" in captured.err and "3 of 8" in captured.err
    assert "Played 5 games" in captured.out
    assert cut.read_bytes() == whole.read_bytes()  # nothing lost, nothing twice
    # Another run's file is refused, untouched.
    before = cut.read_bytes()
    assert main(args[:-1] + ["--seed", "5", "--out", str(cut)]) == 2
    assert "another run" in capsys.readouterr().err
    assert cut.read_bytes() == before
