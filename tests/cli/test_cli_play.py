"""``freetrader play`` driven through piped stdin (in-process and as a real subprocess)."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import freetrader
from freetrader.cli import main

#: Numbers typed over and over: a seat's numbers stay put between its own decisions (a claimed item's
#: number is not reused), so "1" is not always shown; cycling through 1-12 always meets a number shown.
ANY_NUMBER = "".join(f"{k}\n" for k in range(1, 13))


def play(monkeypatch, capsys, stdin: str, *argv: str) -> tuple[int, str, str]:
    monkeypatch.setattr("sys.stdin", io.StringIO(stdin))
    code = main(["play", "contraband", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_bad_entries_reprompt_then_quit_saves(monkeypatch, capsys, tmp_path):
    save = tmp_path / "game.json"
    code, out, err = play(
        monkeypatch, capsys, "smuggle rum\n99\n\nhelp\n1\nquit\n",
        "--seats", "human,random,random", "--seed", "3", "--save", str(save),
    )
    assert code == 0, err
    assert "Traceback" not in out + err
    assert "Seed 3" in out
    assert "Not a legal action" in out and "smuggle rum" in out  # bad notation: re-prompted
    assert "No action 99" in out  # number out of range: re-prompted
    assert out.count("Your move") >= 6
    assert "Game stopped" in out and str(save) in out
    record = json.loads(save.read_text())
    assert record["seed"] == 3 and record["seats"] == 3
    assert len(record["actions"]) >= 1
    freetrader.replay(record)  # the saved record replays


def test_eof_ends_cleanly(monkeypatch, capsys):
    code, out, err = play(monkeypatch, capsys, "", "--seats", "human,random,random", "--seed", "3")
    assert code == 0 and err == ""
    assert "Game stopped" in out


def test_notation_text_is_accepted(monkeypatch, capsys):
    state = freetrader.game("contraband").new_state(3, 4)
    # Seed 4: find which seat acts first and put the human there.
    human = state.to_act
    seats = ["random"] * 3
    seats[human] = "human"
    code, out, _ = play(monkeypatch, capsys, "declare\nquit\n", "--seats", ",".join(seats), "--seed", "4")
    assert code == 0
    assert "You: declare" in out


def test_human_plays_to_the_end(monkeypatch, capsys, tmp_path):
    save = tmp_path / "full.json"
    code, out, err = play(
        monkeypatch, capsys, ANY_NUMBER * 800, "--seats", "human,random,random", "--seed", "3", "--save", str(save)
    )
    assert code == 0, err
    assert "Final scores" in out
    assert "Winner" in out or "Tie between" in out
    record = json.loads(save.read_text())
    state = freetrader.replay(record)
    assert state.is_over


def test_bot_only_table(monkeypatch, capsys):
    code, out, _ = play(monkeypatch, capsys, "", "--seats", "heuristic,random,random", "--seed", "1")
    assert code == 0
    assert "Final scores" in out
    assert "Your move" not in out


def test_human_sees_own_luggage_only(monkeypatch, capsys):
    code, out, _ = play(monkeypatch, capsys, "1\n" * 40 + "quit\n", "--seats", "human,random,random", "--seed", "3")
    assert code == 0
    assert "Your luggage" in out
    # Boards are drawn only at the human's turns, from its own view: the bots' hands never show.
    assert out.count("Your luggage") <= out.count("Your move")


def test_hot_seat_hand_off_via_subprocess(tmp_path):
    # Real process, real pipe: hand-off screens between two humans, then quit.
    script = "import sys; from freetrader.cli import main; sys.exit(main(sys.argv[1:]))"
    proc = subprocess.run(
        [sys.executable, "-c", script, "play", "contraband", "--seats", "human,human,random", "--seed", "5"],
        input="\n1\n\n1\n\nquit\n", capture_output=True, text=True, timeout=300,
    )
    assert proc.returncode == 0, proc.stderr
    assert "Traceback" not in proc.stderr
    assert proc.stdout.count("Pass to seat") >= 2
    assert "Game stopped" in proc.stdout


def test_piped_game_through_the_console_script(tmp_path):
    exe = Path(sys.executable).with_name("freetrader")
    script = "import sys; from freetrader.cli import main; sys.exit(main(sys.argv[1:]))"
    cmd = [str(exe)] if exe.exists() else [sys.executable, "-c", script]
    proc = subprocess.run(
        [*cmd, "play", "contraband", "--seats", "human,random,random", "--seed", "3"],
        input="nonsense\n" + ANY_NUMBER * 800, capture_output=True, text=True, timeout=300,
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr == ""
    assert "Not a legal action" in proc.stdout
    assert "Final scores" in proc.stdout
