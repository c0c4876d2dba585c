"""The freetrader CLI, called in-process: games, rules, state, replay and every error path."""

from __future__ import annotations

import json

import pytest

import freetrader
from freetrader.cli import main, register_renderer, render_generic, render_view
from freetrader.sim import play_game, result_line

SEATS3 = ["heuristic", "random", "random"]


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def assert_user_error(code: int, out: str, err: str, *needles: str) -> str:
    assert code == 2
    assert "Traceback" not in out + err
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith("freetrader: error: ")
    for needle in needles:
        assert needle in lines[0], lines[0]
    return lines[0]


# -- games, rules, version ------------------------------------------------------------
def test_games_lists_contraband(capsys):
    code, out, _ = run(capsys, "games")
    assert code == 0
    assert "contraband-v1" in out
    assert "Contraband" in out
    assert "3-8" in out


def test_version(capsys):
    code, out, _ = run(capsys, "--version")
    assert code == 0
    assert out.strip() == f"freetrader {freetrader.__version__}"


def test_no_command_is_one_line_error(capsys):
    assert_user_error(*run(capsys), "choose a command")


def test_rules_summary_and_options(capsys):
    code, out, _ = run(capsys, "rules", "contraband")
    assert code == 0
    spec = freetrader.game("contraband").spec
    assert spec.title in out
    assert "3 to 8" in out
    for option in spec.options:
        assert option.name in out
        assert str(option.default) in out
    assert "Customs Officer" in out  # from the summary


def test_rules_full_prints_rules_file_when_present(capsys):
    from importlib import resources

    rules = resources.files("freetrader.games.contraband") / "RULES.md"
    code, out, err = run(capsys, "rules", "contraband", "--full")
    if rules.is_file():
        assert code == 0
        assert out == rules.read_text(encoding="utf-8")
        code, out, _ = run(capsys, "rules", "contraband")
        assert "--full" in out
    else:
        assert_user_error(code, out, err, "RULES.md")


# -- state --------------------------------------------------------------------------------
def test_state_text_shows_board_and_numbered_actions(capsys):
    state = freetrader.game("contraband").new_state(4, 3)
    code, out, _ = run(capsys, "state", "contraband", "--seats", "4", "--seed", "3", "--seat", str(state.to_act))
    assert code == 0
    assert "Customs Officer" in out
    assert "$2,500" in out
    for i, action in enumerate(state.legal_actions(), 1):
        assert f"{i}. {action}" in out
    code, out, _ = run(capsys, "state", "contraband", "--seats", "4", "--seed", "3")
    assert "Your luggage" not in out and "1. " not in out  # a spectator sees no hidden cards, no legal actions


def test_state_apply_and_json(capsys):
    code, out, _ = run(
        capsys, "state", "contraband", "--seats", "4", "--seed", "3", "--apply", "claim brandy;  declare ;", "--json"
    )
    assert code == 0
    data = json.loads(out)
    expected = freetrader.game("contraband").new_state(4, 3)
    expected.apply("claim brandy")
    expected.apply("declare")
    assert data == expected.to_json()
    assert data["actions"] == ["claim brandy", "declare"]


def test_state_seat_view_shows_own_luggage(capsys):
    state = freetrader.game("contraband").new_state(4, 3)
    holder = state.view(None)["luggage"]["holder"]
    code, out, _ = run(capsys, "state", "contraband", "--seats", "4", "--seed", "3", "--seat", str(holder))
    assert code == 0
    assert "Your luggage" in out


def test_state_with_option(capsys):
    code, out, _ = run(
        capsys, "state", "contraband", "--seats", "3", "--option", "first_officer=agreement", "--json"
    )
    assert code == 0
    assert json.loads(out)["options"]["first_officer"] == "agreement"


def test_state_illegal_apply_names_the_action(capsys):
    line = assert_user_error(
        *run(capsys, "state", "contraband", "--seats", "4", "--seed", "3", "--apply", "claim brandy; search")
    )
    assert "action 2 ('search')" in line
    assert "not legal" in line


def test_state_bad_notation(capsys):
    assert_user_error(
        *run(capsys, "state", "contraband", "--seats", "4", "--apply", "smuggle rum"), "action 1 ('smuggle rum')"
    )


@pytest.mark.parametrize(
    ("argv", "needle"),
    [
        (["state", "chess", "--seats", "2"], "unknown game 'chess'"),
        (["rules", "chess"], "unknown game"),
        (["state", "contraband", "--seats", "2"], "3 to 8 seats"),
        (["state", "contraband", "--seats", "4", "--option", "nope=1"], "no option 'nope'"),
        (["state", "contraband", "--seats", "4", "--option", "reshuffles=many"], "reshuffles"),
        (["state", "contraband", "--seats", "4", "--option", "reshuffles=999"], "out of range"),
        (["state", "contraband", "--seats", "4", "--option", "end"], "key=value"),
        (["state", "contraband", "--seats", "4", "--seat", "9"], "no seat 9"),
        (["state", "contraband", "--seats", "four"], "--seats must be a number of seats (3) or one spec per seat"),
        (["simulate", "contraband", "--seats", "random,random"], "3 to 8 seats"),
        (["simulate", "contraband", "--seats", "random,human,random", "-n", "1"], "human"),
        (["simulate", "contraband", "--seats", "random,wizard,random", "-n", "1"], "unknown bot 'wizard'"),
        (["simulate", "contraband", "--seats", ",", "-n", "1"], "at least one seat"),
        (["simulate", "contraband", "--seats", "random,random,random", "--workers", "0"], "--workers"),
        (["play", "contraband", "--seats", "human,random"], "3 to 8 seats"),
        (["play", "nope", "--seats", "human,random,random"], "unknown game"),
        (["frobnicate"], "invalid choice"),
    ],
)
def test_user_errors_are_one_line(capsys, argv, needle):
    assert_user_error(*run(capsys, *argv), needle)


# -- replay ------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def results():
    return [play_game("contraband", SEATS3, seed) for seed in (11, 12, 13)]


def write_jsonl(path, items) -> None:
    path.write_text("".join(result_line(r) + "\n" for r in items), encoding="utf-8")


def test_replay_verify_results_file(capsys, tmp_path, results):
    path = tmp_path / "games.jsonl"
    write_jsonl(path, results)
    code, out, err = run(capsys, "replay", str(path), "--verify")
    assert code == 0, err
    assert "3 records replay" in out


def test_replay_verify_json_prints_json(capsys, tmp_path, results):
    path = tmp_path / "games.jsonl"
    write_jsonl(path, results)
    code, out, err = run(capsys, "replay", str(path), "--verify", "--json")
    assert code == 0, err
    assert json.loads(out) == {"records": 3, "replayed": 3, "other_data": []}


def test_replay_verify_bare_records_and_single_record(capsys, tmp_path, results):
    path = tmp_path / "records.jsonl"
    write_jsonl(path, [r["record"] for r in results])
    code, out, _ = run(capsys, "replay", str(path), "--verify")
    assert code == 0 and "3 records replay" in out
    single = tmp_path / "one.json"
    single.write_text(json.dumps(results[0]["record"], indent=2), encoding="utf-8")
    code, out, _ = run(capsys, "replay", str(single), "--verify")
    assert code == 0 and "1 record replays" in out


def test_replay_shows_final_state_and_upto(capsys, tmp_path, results):
    single = tmp_path / "one.json"
    single.write_text(json.dumps(results[0]["record"]), encoding="utf-8")
    code, out, _ = run(capsys, "replay", str(single))
    assert code == 0
    assert "Final scores" in out and "Winner" in out
    code, out, _ = run(capsys, "replay", str(single), "--upto", "2", "--json")
    assert code == 0
    assert json.loads(out)["actions"] == results[0]["record"]["actions"][:2]


def test_replay_of_many_needs_index(capsys, tmp_path, results):
    path = tmp_path / "games.jsonl"
    write_jsonl(path, results)
    assert_user_error(*run(capsys, "replay", str(path)), "--index")
    code, out, _ = run(capsys, "replay", str(path), "--index", "2", "--json")
    assert code == 0
    assert json.loads(out)["seed"] == results[1]["seed"]


def test_replay_tampered_action(capsys, tmp_path, results):
    tampered = [json.loads(result_line(r)) for r in results]
    tampered[1]["record"]["actions"][0] = "search"  # the first move is a declaration, never a search
    path = tmp_path / "games.jsonl"
    write_jsonl(path, tampered)
    line = assert_user_error(*run(capsys, "replay", str(path), "--verify"), "line 2", "action 1", "'search'")
    assert "not legal" in line


def test_replay_tampered_scores(capsys, tmp_path, results):
    tampered = [json.loads(result_line(r)) for r in results]
    tampered[2]["scores"][0] += 1
    path = tmp_path / "games.jsonl"
    write_jsonl(path, tampered)
    assert_user_error(*run(capsys, "replay", str(path), "--verify"), "line 3", "scores")


def test_replay_missing_file(capsys, tmp_path):
    assert_user_error(*run(capsys, "replay", str(tmp_path / "nope.json"), "--verify"), "nope.json")


def test_replay_malformed_json(capsys, tmp_path, results):
    bad = tmp_path / "bad.json"
    bad.write_text('{"game": "contraband", ', encoding="utf-8")
    assert_user_error(*run(capsys, "replay", str(bad), "--verify"), "not valid JSON")
    lines = tmp_path / "bad.jsonl"
    lines.write_text(result_line(results[0]) + "\n{oops\n", encoding="utf-8")
    assert_user_error(*run(capsys, "replay", str(lines), "--verify"), "line 2", "not valid JSON")


def test_replay_not_a_record(capsys, tmp_path):
    path = tmp_path / "x.json"
    path.write_text('{"hello": 1}', encoding="utf-8")
    assert_user_error(*run(capsys, "replay", str(path), "--verify"), "lacks the field")
    path.write_text("[1, 2]", encoding="utf-8")
    assert_user_error(*run(capsys, "replay", str(path), "--verify"), "JSON object")


def test_replay_binary_file(capsys, tmp_path):
    path = tmp_path / "x.bin"
    path.write_bytes(b"\xff\xfe\x00garbage")
    assert_user_error(*run(capsys, "replay", str(path)))


# -- renderers ---------------------------------------------------------------------------
def test_generic_renderer_for_unknown_games():
    from rich.console import Console

    view = {"game": "zzz-v1", "seat": None, "phase": "x", "cash": [1, 2], "board": {"a": [1, {"b": 2}]}, "events": []}
    console = Console(record=True, width=100)
    console.print(render_view(view))
    text = console.export_text()
    assert "phase" in text and "cash" in text and "1, 2" in text and "board.a[1].b" in text
    assert "events" not in text


def test_register_renderer_is_used():
    register_renderer("zzz-test", lambda view, names: "custom drawing")
    assert render_view({"game": "zzz-test-v3"}) == "custom drawing"
    assert render_generic  # the fallback stays importable


def test_rules_shows_which_options_are_on(capsys):
    from freetrader.cli import main

    assert main(["rules", "merchants-cove", "--option", "festival=true", "--option", "boats=both"]) == 0
    out = capsys.readouterr().out
    assert "festival  = true" in out and "boats  = both" in out
    assert "halls_of_plenty  default false" in out
    assert main(["rules", "merchants-cove", "--option", "festival=maybe"]) == 2


def test_rotating_identical_bots_says_each_deal_is_played_over(capsys, tmp_path):
    out_file = tmp_path / "rot.jsonl"
    code, _, err = run(capsys, "simulate", "contraband", "-n", "3", "--seats", "random,random,random", "--rotate",
                       "--workers", "1", "--out", str(out_file))
    assert code == 0
    assert "plays each deal 3 times over" in err
    records = [json.loads(line)["record"] for line in out_file.read_text().splitlines()]
    assert records[0] == records[1] == records[2]  # what the note says: one game, three times
    code, _, err = run(capsys, "simulate", "contraband", "-n", "3", "--seats", "random,heuristic,random", "--rotate",
                       "--workers", "1")
    assert code == 0 and "times over" not in err
