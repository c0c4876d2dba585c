"""``freetrader simulate`` as a long run: one writer per file, signals, truncated games, strict JSON, bot styles."""

from __future__ import annotations

import json
import signal
import sys

import pytest
from cli_process import cli_argv, signal_when_ready

import freetrader
from freetrader.bots import make_bot
from freetrader.cli import main
from freetrader.core import derive_seed
from freetrader.sim import lock_out, play_game, result_line, resume

FAST = "random,random,random"


def test_a_second_writer_of_the_same_out_file_gets_one_line_and_exit_2(tmp_path, capsys):
    out = tmp_path / "busy.jsonl"
    assert main(["simulate", "contraband", "-n", "3", "--seats", FAST, "--out", str(out), "--no-progress"]) == 0
    before = out.read_bytes()
    capsys.readouterr()
    holder = lock_out(out)  # another run writing it (flock: a second open file conflicts, even in one process)
    try:
        code = main(["simulate", "contraband", "-n", "6", "--seats", FAST, "--out", str(out), "--no-progress"])
        _, err = capsys.readouterr()
    finally:
        holder.close()
    assert code == 2
    assert err.count("\n") == 1 and "is being written by another run" in err and "another --out" in err
    assert out.read_bytes() == before  # nothing written, nothing cut
    # once the other run has finished, the file resumes as usual
    assert main(["simulate", "contraband", "-n", "6", "--seats", FAST, "--out", str(out), "--no-progress"]) == 0
    assert len(out.read_bytes().splitlines()) == 6


def test_a_tournament_on_an_out_file_being_written_gets_one_line_and_exit_2(tmp_path, capsys):
    out = tmp_path / "busy.jsonl"
    holder = lock_out(out)  # a simulate or tournament run writing it
    try:
        code = main(["tournament", "--game", "contraband", "--bots", "random,heuristic", "-n", "2", "--workers", "1",
                     "--out", str(out), "--no-progress"])
        _, err = capsys.readouterr()
    finally:
        holder.close()
    assert code == 2
    assert err.count("\n") == 1 and "is being written by another run" in err
    assert out.read_bytes() == b""
    assert main(["tournament", "--game", "contraband", "--bots", "random,heuristic", "-n", "2", "--workers", "1",
                 "--out", str(out), "--no-progress"]) == 0
    assert len(out.read_bytes().splitlines()) == 2


@pytest.mark.parametrize(("sig", "code"), [(signal.SIGINT, 130), (signal.SIGTERM, 143)])
def test_sigint_and_sigterm_stop_a_two_worker_run_and_leave_a_resumable_file(tmp_path, sig, code):
    """Started as a shell starts a background job (SIGINT ignored), the run still stops at the signal.

    Readiness is the first line in the file; the bounds are generous and only guard against a hang.
    """
    out = tmp_path / "sig.jsonl"
    n = 20_000  # far more than can be played between the first line and the signal; bounded if orphaned
    argv = cli_argv("simulate", "contraband", "-n", str(n), "--seats", FAST, "--seed", "5", "--workers", "2",
                    "--out", str(out), "--no-progress")
    got, err = signal_when_ready(argv, sig, lambda: out.exists() and b"\n" in out.read_bytes(), background=True)
    assert got == code, err
    assert "Traceback" not in err and "interrupted after" in err and "resume" in err
    assert out.read_bytes().endswith(b"\n")  # whole lines only
    options = freetrader.game("contraband").new_state(3, 0).options
    k = len(resume(out, "contraband-v1", FAST.split(","), 5, options, n))  # each line is game i of this run
    assert 0 < k < n
    assert main(["simulate", "contraband", "-n", str(k + 1), "--seats", FAST, "--seed", "5", "--workers", "1",
                 "--out", str(out), "--no-progress"]) == 0
    assert out.read_bytes().splitlines()[k].decode() == result_line(
        play_game("contraband", FAST.split(","), derive_seed(5, k)))


def test_truncated_games_are_recorded_and_counted_and_the_run_goes_on(tmp_path, capsys):
    out = tmp_path / "t.jsonl"
    assert main(["simulate", "contraband", "-n", "12", "--seats", FAST, "--seed", "2", "--out", str(out),
                 "--workers", "2", "--no-progress", "--max-actions", "210"]) == 0
    text = " ".join(capsys.readouterr().out.split())
    lines = [json.loads(x) for x in out.read_text().splitlines()]
    assert len(lines) == 12
    short = [r for r in lines if r.get("truncated")]
    assert len(short) == 7  # these seeded random games last 179..252 actions: 7 pass 210
    assert all(r["actions"] == 210 and r["winners"] == [] and r["end"] == "truncated" for r in short)
    assert "Truncated: 7 of 12 games did not end within the action bound" in text
    assert "truncated" not in {r["end"] for r in lines if not r.get("truncated")}


def test_simulate_json_is_strict_json_without_statsmodels(monkeypatch, capsys):
    monkeypatch.setitem(sys.modules, "statsmodels.stats.proportion", None)  # a base install: no statsmodels
    assert main(["simulate", "contraband", "-n", "3", "--seats", FAST, "--json", "--no-progress"]) == 0
    out = capsys.readouterr().out
    assert "NaN" not in out
    summary = json.loads(out, parse_constant=lambda c: pytest.fail(f"{c} in the JSON"))
    # the Wilson interval is the project's own (sim/stats.py), so a base install has it too
    assert all(0.0 <= seat["low"] <= seat["high"] <= 1.0 for seat in summary["seats"])
    assert summary["truncated"] == 0 and summary["unit"] == "rounds" and sum(summary["ends"].values()) == 3


def test_the_summary_tells_the_end_triggers_and_the_length_in_the_games_units(capsys):
    assert main(["simulate", "precious-cargo", "-n", "4", "--seats", "heuristic,heuristic", "--no-progress",
                 "--workers", "1"]) == 0
    text = " ".join(capsys.readouterr().out.split())
    assert "Ended by: target reached 4 (100.0%)" in text
    assert "rounds, median" in text and "Truncated" not in text


# -- bot styles ------------------------------------------------------------------------------------
@pytest.mark.parametrize(("game", "seats"), [("cornish-smuggler", 3), ("contraband", 3), ("precious-cargo", 2),
                                             ("merchants-cove", 3)])
def test_heuristic_noise_is_seeded_and_noise_zero_is_the_heuristic(game, seats):
    plain = play_game(game, ["heuristic"] * seats, 5)
    assert play_game(game, ["heuristic:noise=0"] * seats, 5)["record"] == plain["record"]
    noisy = play_game(game, ["heuristic:noise=0.2"] * seats, 5)
    assert play_game(game, ["heuristic:noise=0.2"] * seats, 5)["record"] == noisy["record"]  # same seed, same game
    assert noisy["record"]["actions"] != plain["record"]["actions"]


def test_noise_departs_at_about_its_rate_to_moves_no_worse_than_near():
    g = freetrader.game("contraband")
    bot = make_bot("heuristic:noise=0.5;near=0", g, 3)
    inner = make_bot("heuristic", g, 3)
    state = g.new_state(3, 3)
    rng = __import__("random").Random(1)
    asked = 0
    while not state.is_over and asked < 400:
        seat = state.to_act
        assert seat is not None
        world = state.determinize(seat, rng)
        if len(world.legal_actions()) > 1:
            asked += 1
            pick = bot.choose(world, seat)
            assert pick in world.legal_actions()
        state.apply(inner.choose(state.determinize(seat, rng), seat))
    assert asked > 30
    # near=0 only allows moves the evaluation rates at least as high as the heuristic's own, so the
    # departures are fewer than the coin flips; but some happen
    assert 0 < bot.departures < asked  # type: ignore[attr-defined]


def test_a_noisy_bot_is_handed_a_sampled_world_even_around_a_bot_that_reads_none():
    g = freetrader.game("contraband")
    assert not make_bot("random", g).reads_state  # random reads legal actions only: it gets the true state
    assert make_bot("random:noise=0.5", g).reads_state  # its departures look ahead: a determinized world


@pytest.mark.parametrize("spec", ["heuristic:noise=2", "heuristic:near=0.2", "heuristic:noise=x"])
def test_bad_noise_is_one_line(spec, capsys):
    assert main(["simulate", "contraband", "-n", "1", "--seats", f"{spec},random,random", "--no-progress"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and ("noise" in err or "near" in err)


def test_ismcts_at_a_fixed_iteration_budget_is_deterministic():
    seats = ["ismcts:iters=8;depth=4", "heuristic:noise=0.1", "random"]
    a = play_game("contraband", seats, 7)
    assert play_game("contraband", seats, 7)["record"] == a["record"]
    assert a["seats"] == seats  # the line says which bots made it
