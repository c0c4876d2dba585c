"""One command language: GAME or --game, --seats, --json and --data mean the same in every command."""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess

import pytest

from freetrader.cli import build_parser, main

SEATS3 = "heuristic,random,random"


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def _subparsers() -> dict[str, argparse.ArgumentParser]:
    parser = build_parser()
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return dict(sub.choices)


def test_every_command_takes_data_and_every_game_command_takes_game_both_ways() -> None:
    for name, sp in _subparsers().items():
        flags = {s for a in sp._actions for s in a.option_strings}
        assert "--data" in flags, name
        if name in ("rules", "play", "simulate", "state", "tournament"):
            assert "--game" in flags, name
            assert any(a.dest == "game" and not a.option_strings for a in sp._actions), name
        if name in ("games", "rules", "simulate", "report", "tournament", "state", "replay"):
            assert "--json" in flags, name


def test_game_as_argument_or_flag_is_the_same(capsys) -> None:
    a = run(capsys, "rules", "contraband", "--json")
    b = run(capsys, "rules", "--game", "contraband", "--json")
    assert a[0] == b[0] == 0 and a[1] == b[1]
    code, _, err = run(capsys, "rules", "contraband", "--game", "precious-cargo")
    assert code == 2 and "two games given ('contraband' and --game 'precious-cargo')" in err
    code, _, err = run(capsys, "simulate", "--seats", SEATS3)
    assert code == 2 and "simulate needs a game: 'freetrader simulate GAME' or --game GAME" in err


def test_seats_is_a_count_or_a_spec_per_seat_where_only_the_number_matters(capsys) -> None:
    by_count = run(capsys, "state", "contraband", "--seats", "3", "--json")
    by_specs = run(capsys, "state", "--game", "contraband", "--seats", SEATS3, "--json")
    assert by_count[0] == by_specs[0] == 0 and by_count[1] == by_specs[1]
    assert json.loads(by_count[1])["seats"] == 3


def test_json_on_games_rules_simulate_tournament_and_report(capsys, tmp_path) -> None:
    code, out, _ = run(capsys, "games", "--json")
    games = json.loads(out)
    assert code == 0 and {g["slug"] for g in games} >= {"contraband-v1", "cornish-smuggler-v1"}
    assert all({"min_seats", "max_seats", "bots", "options"} <= set(g) for g in games)

    code, out, _ = run(capsys, "rules", "contraband", "--json", "-o", "end=turns", "--full")
    rules = json.loads(out)
    assert rules["chosen"] == {"end": "turns"} and "Contraband" in rules["rules"]

    results = tmp_path / "r.jsonl"
    code, out, _ = run(capsys, "simulate", "contraband", "-n", "6", "--seats", SEATS3, "--workers", "1",
                       "--no-progress", "--out", str(results), "--json")
    sim = json.loads(out)  # stdout is the JSON alone
    assert code == 0 and sim["games"] == 6 and [s["spec"] for s in sim["seats"]] == SEATS3.split(",")
    assert sum(s["wins"] for s in sim["seats"]) == pytest.approx(6)
    assert sim["data"].startswith("sha256:")

    code, out, _ = run(capsys, "report", str(results), "--json", "--no-html")
    report = json.loads(out)
    assert code == 0 and report["games"] == 6 and len(report["tables"]["seats"]["rows"]) == 3

    code, out, _ = run(capsys, "tournament", "contraband", "--bots", "random,heuristic", "-n", "6", "--seats", "3",
                       "--workers", "1", "--no-progress", "--json")
    t = json.loads(out)
    assert code == 0 and t["games"] == 6 and {r["bot"] for r in t["ratings"]} == {"random", "heuristic"}
    assert t["head_to_head"]["heuristic"]["random"]["games"] > 0


@pytest.mark.parametrize("shell", ["bash", "zsh", "tcsh"])
def test_completion_scripts_name_every_command(capsys, shell) -> None:
    pytest.importorskip("shtab")
    code, out, _ = run(capsys, "completion", shell)
    assert code == 0
    for name in _subparsers():
        assert name in out, name
    if shell != "tcsh":  # shtab's tcsh script completes command names only
        assert "--data" in out
    if shell == "bash" and shutil.which("bash"):
        check = subprocess.run(["bash", "-n"], input=out, text=True, capture_output=True, timeout=30)
        assert check.returncode == 0, check.stderr
