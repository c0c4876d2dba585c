"""freetrader.sim and ``freetrader simulate``: determinism, resuming, summaries, interrupts."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from cli_process import cli_argv, signal_when_ready

import freetrader
from freetrader.cli import main
from freetrader.core import Rng, derive_seed
from freetrader.sim import (
    ResultFileError,
    game_seed,
    play_game,
    result_line,
    resume,
    simulate,
    summarize,
    wilson_interval,
)

SEATS = "heuristic,random,random"
FAST = "random,random,random"


def sim(capsys, out: Path, n: int, *extra: str, seats: str = SEATS, seed: str = "1") -> tuple[int, str, str]:
    argv = ["simulate", "contraband", "-n", str(n), "--seats", seats, "--seed", seed, "--out", str(out), *extra]
    code = main(argv)
    o, e = capsys.readouterr()
    return code, o, e


# -- the runner ------------------------------------------------------------------------
def test_play_game_result_shape_and_seeding():
    r = play_game("contraband", ["heuristic", "random", "random"], 42)
    assert sorted(r) == ["actions", "end", "first", "game", "length", "record", "scores", "seats", "seed", "unit",
                         "winners"]
    assert r["game"] == "contraband-v1" and r["seed"] == 42 and r["seats"] == ["heuristic", "random", "random"]
    state = freetrader.replay(r["record"])
    assert state.is_over
    assert state.scores() == r["scores"] and state.winners() == r["winners"]
    assert state.action_count == r["actions"] == len(r["record"]["actions"])
    # Same game by hand, following the documented seeding.
    from freetrader.bots import decide, make_bot

    g = freetrader.game("contraband")
    s = g.new_state(3, 42)
    bots = [make_bot(spec, g, derive_seed(42, k)) for k, spec in enumerate(r["seats"])]
    rngs = [Rng(derive_seed(42, 1000 + k)) for k in range(3)]
    while not s.is_over:
        seat = s.to_act
        s.apply(decide(bots[seat], s, seat, rngs[seat]))
    assert s.record() == r["record"]


def test_a_game_past_the_action_bound_is_recorded_truncated_not_raised():
    r = play_game("contraband", FAST.split(","), 1, max_actions=5)
    assert r["truncated"] is True and r["end"] == "truncated" and r["winners"] == []
    assert r["actions"] == 5 and r["length"] == 1 and r["unit"] == "rounds"
    state = freetrader.replay(r["record"])  # the record replays to where the game was stopped
    assert not state.is_over and state.action_count == 5 and state.scores() == r["scores"]
    whole = play_game("contraband", FAST.split(","), 1)
    assert "truncated" not in whole and whole["end"] in ("every player officer", "retirements")


def test_simulate_generator_order_and_workers_agree():
    one = list(simulate("contraband", FAST.split(","), 6, seed=9, workers=1))
    two = list(simulate("contraband", FAST.split(","), 6, seed=9, workers=2, chunksize=1))
    assert one == two
    assert [r["seed"] for r in one] == [game_seed(9, i) for i in range(6)]
    assert list(simulate("contraband", FAST.split(","), 6, seed=9, workers=2, start=4)) == one[4:]


def test_wilson_interval():
    lo, hi = wilson_interval(50, 100)
    assert lo == pytest.approx(0.4038, abs=1e-3) and hi == pytest.approx(0.5962, abs=1e-3)
    assert wilson_interval(0, 0) == (0.0, 1.0)
    lo, hi = wilson_interval(0, 10)
    assert lo == 0.0 and 0 < hi < 0.35
    assert wilson_interval(10, 10)[1] == 1.0


def test_summary_splits_ties():
    results = [
        {"winners": [0, 1], "scores": [5.0, 5.0, 1.0], "actions": 10},
        {"winners": [2], "scores": [0.0, 1.0, 9.0], "actions": 30},
    ]
    s = summarize(results, ["a", "b", "c"])
    assert [x.wins for x in s.seats] == [0.5, 0.5, 1.0]
    assert s.seats[2].win_rate == 0.5
    assert s.seats[0].mean_score == 2.5
    assert s.mean_length == 20 and s.median_length == 20


# -- the command ---------------------------------------------------------------------------
def test_simulate_twice_is_byte_identical(capsys, tmp_path):
    a, b = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    code, out, err = sim(capsys, a, 20, "--workers", "2")
    assert code == 0, err
    assert sim(capsys, b, 20, "--workers", "2")[0] == 0
    assert a.read_bytes() == b.read_bytes()
    lines = a.read_text().splitlines()
    assert len(lines) == 20
    for i, line in enumerate(lines):
        obj = json.loads(line)
        assert sorted(obj) == ["actions", "end", "first", "game", "length", "record", "scores", "seats", "seed",
                               "unit", "winners"]
        assert obj["seed"] == derive_seed(1, i)
        assert obj["seats"] == SEATS.split(",")
        assert line == json.dumps(obj, sort_keys=True, separators=(",", ":"))
    # The summary: one row per seat, wins, rates with intervals, lengths, speed.
    assert "heuristic" in out and "random" in out
    assert "95% CI" in out and "mean score" in out
    assert "Game length: mean" in out and "median" in out
    assert "games/s" in out
    # The file replays.
    code = main(["replay", str(a), "--verify"])
    assert code == 0
    assert "20 records replay" in capsys.readouterr().out


def test_simulate_resume_matches_fresh_run(capsys, tmp_path):
    fresh, resumed = tmp_path / "fresh.jsonl", tmp_path / "resumed.jsonl"
    assert sim(capsys, fresh, 20, "--workers", "2")[0] == 0
    assert sim(capsys, resumed, 10, "--workers", "1")[0] == 0
    assert resumed.read_bytes() == b"".join(fresh.read_bytes().splitlines(keepends=True)[:10])
    code, out, err = sim(capsys, resumed, 20, "--workers", "2")
    assert code == 0
    assert "10 of 20" in err  # says it resumed
    assert resumed.read_bytes() == fresh.read_bytes()
    # Running again with the file complete plays nothing and changes nothing.
    code, out, _ = sim(capsys, resumed, 20)
    assert code == 0 and "Played 0 games" in out and "20 games" in out
    assert resumed.read_bytes() == fresh.read_bytes()


def test_simulate_truncates_partial_last_line(capsys, tmp_path):
    fresh, cut = tmp_path / "fresh.jsonl", tmp_path / "cut.jsonl"
    assert sim(capsys, fresh, 8, seats=FAST)[0] == 0
    data = fresh.read_bytes()
    lines = data.splitlines(keepends=True)
    cut.write_bytes(b"".join(lines[:5]) + lines[5][: len(lines[5]) // 2])  # a write cut short
    assert len(resume(cut, "contraband-v1", FAST.split(","), 1, json.loads(lines[0])["record"]["options"], 8)) == 5
    assert cut.read_bytes() == b"".join(lines[:5])  # the partial line is gone
    cut.write_bytes(b"".join(lines[:5]) + lines[5][:-1])  # a complete line but no newline: also redone
    assert sim(capsys, cut, 8, seats=FAST)[0] == 0
    assert cut.read_bytes() == data


def test_simulate_refuses_another_runs_file(capsys, tmp_path):
    out = tmp_path / "g.jsonl"
    assert sim(capsys, out, 3, seats=FAST)[0] == 0
    before = out.read_bytes()
    for extra, kwargs, needle in [
        ((), {"seed": "2"}, "seed"),
        ((), {"seats": "random,random,heuristic"}, "seats"),
        (("--option", "end=turns"), {}, "options"),
    ]:
        code, o, e = sim(capsys, out, 5, *extra, **{"seats": FAST, **kwargs})
        assert code == 2, (extra, kwargs)
        assert e.startswith("freetrader: error:") and needle in e and len(e.strip().splitlines()) == 1
    code, o, e = sim(capsys, out, 2, seats=FAST)
    assert code == 2 and "more than" in e
    out.write_text(before.decode() + "not json\n")
    code, o, e = sim(capsys, out, 5, seats=FAST)
    assert code == 2 and "line 4" in e and "not valid JSON" in e
    with pytest.raises(ResultFileError):
        resume(out, "contraband-v1", FAST.split(","), 1, {}, 5)


def test_simulate_without_out_and_with_option(capsys):
    code = main(["simulate", "contraband", "-n", "4", "--seats", FAST, "--workers", "1", "-o", "end=turns",
                 "-o", "turn_limit=3"])
    out = capsys.readouterr().out
    assert code == 0
    assert "4 games" in out


def test_simulate_turn_cap_counts_cut_games_and_names_the_cap(capsys, tmp_path):
    """A game stopped by the safety cap is cut: no winner in its line, counted apart in the summary."""
    out = tmp_path / "cut.jsonl"
    seats = "cornish-heuristic-v2,cornish-heuristic-v2"  # the old heuristic stalls: a cap of 2 Turns cuts it
    code = main(["simulate", "cornish-smuggler", "-n", "2", "--seats", seats, "--workers", "1", "--no-progress",
                 "--turn-cap", "2", "--out", str(out)])
    text = capsys.readouterr().out
    lines = [json.loads(x) for x in out.read_text().splitlines()]
    assert code == 0 and len(lines) == 2
    assert all(r["cut"] is True and r["winners"] == [] for r in lines)
    assert all(r["record"]["options"]["turn_limit"] == 2 for r in lines)
    assert "cut with no winner: 2" in " ".join(text.split()) and "safety cap of 2 turns" in " ".join(text.split())
    assert main(["simulate", "cornish-smuggler", "-n", "2", "--seats", seats, "--workers", "1", "--json",
                 "--turn-cap", "2"]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["cut"] == 2 and summary["turn_cap"] == 2
    assert all(s["wins"] == 0 for s in summary["seats"])


@pytest.mark.parametrize("argv, message", [
    (["contraband", "--seats", FAST, "--turn-cap", "5"], "Contraband has no safety cap"),
    (["cornish-smuggler", "--seats", "random,random", "--turn-cap", "0"], "whole number of turns >= 1"),
    (["cornish-smuggler", "--seats", "random,random", "--turn-cap", "5", "-o", "turn_limit=7"], "disagree"),
])
def test_simulate_turn_cap_bad_input_is_one_line(capsys, argv, message):
    assert main(["simulate", *argv, "-n", "1", "--workers", "1"]) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1


def test_games_that_end_by_their_rules_carry_no_cut_key():
    r = play_game("cornish-smuggler", ["heuristic", "heuristic"], 3)
    assert "cut" not in r and r["winners"]


# -- subprocess: progress bar and Ctrl-C -----------------------------------------------------
def test_progress_bar_on_a_terminal_like_stderr(tmp_path):
    out = tmp_path / "p.jsonl"
    env = {**os.environ, "FORCE_COLOR": "1", "COLUMNS": "120"}
    proc = subprocess.run(
        cli_argv("simulate", "contraband", "-n", "12", "--seats", FAST, "--workers", "2", "--out", str(out)),
        capture_output=True, text=True, env=env, timeout=300,
    )
    assert proc.returncode == 0, proc.stderr
    assert "games/s" in proc.stderr and "12/12" in proc.stderr
    assert "Traceback" not in proc.stderr
    assert len(out.read_text().splitlines()) == 12


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")
def test_ctrl_c_leaves_a_valid_resumable_file(tmp_path):
    out = tmp_path / "int.jsonl"
    n = 4000
    argv = cli_argv("simulate", "contraband", "-n", str(n), "--seats", FAST, "--seed", "5", "--workers", "2",
                    "--out", str(out))
    # interrupt once some games are in the file (a finished line is the readiness signal)
    code, err = signal_when_ready(argv, signal.SIGINT, lambda: out.exists() and out.read_bytes().count(b"\n") >= 2)
    assert "Traceback" not in err
    if code == 0:
        pytest.skip("the run finished before the interrupt")
    assert code == 130, err
    assert "interrupted" in err and "resume" in err
    data = out.read_bytes()
    assert data.endswith(b"\n")
    lines = data.splitlines()
    assert 0 < len(lines) < n
    for i, line in enumerate(lines):
        assert json.loads(line)["seed"] == derive_seed(5, i)
    # Resume a little further and check the seam against games played directly.
    k = len(lines)
    more = k + 3
    assert main(["simulate", "contraband", "-n", str(more), "--seats", FAST, "--seed", "5", "--workers", "1",
                 "--out", str(out), "--no-progress"]) == 0
    lines = out.read_bytes().splitlines()
    assert len(lines) == more
    for i in (0, k - 1, k, more - 1):
        assert lines[i].decode() == result_line(play_game("contraband", FAST.split(","), derive_seed(5, i)))
