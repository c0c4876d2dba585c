"""``freetrader play``: claim menus keep their numbers, ``--resume`` goes on with a saved game, and the board
is drawn again only when it changed."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console

import freetrader
from freetrader.cli import main
from freetrader.cli.play import Menu, _board_key, _human_turn, load_save
from freetrader.core import FreetraderError

SEED = 1  # Contraband, three seats: seat 0 declares first


def run(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], stdin: str, *argv: str
        ) -> tuple[int, str, str]:
    monkeypatch.setattr("sys.stdin", io.StringIO(stdin))
    code = main(["play", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def menus(out: str) -> list[dict[int, str]]:
    """Every action menu printed, as number -> action."""
    found: list[dict[int, str]] = []
    current: dict[int, str] | None = None
    for line in out.splitlines():
        m = re.match(r"^\s+(\d+)\. (.+)$", line)
        if m:
            if current is None:
                current = {}
                found.append(current)
            current[int(m.group(1))] = m.group(2).strip()
        else:
            current = None
    return found


def test_claim_menu_numbers_stay_put_between_claims(monkeypatch: pytest.MonkeyPatch,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    state = freetrader.game("contraband").new_state(3, SEED)
    assert state.to_act == 0 and str(state.legal_actions()[-2]) == "claim crown-jewels"
    code, out, err = run(monkeypatch, capsys, "2\n9\nquit\n", "contraband", "--seats", "human,random,random",
                         "--seed", str(SEED))
    assert code == 0, err
    first, second, third = menus(out)[:3]
    assert first[2] == "claim brandy" and first[9] == "claim crown-jewels" and first[1] == "claim diplomatic-bag"
    # after the brandy claim the Diplomatic Bag is gone, and every other action keeps its number
    assert 1 not in second and second[2] == "claim brandy" and second[9] == "claim crown-jewels"
    assert {n: a for n, a in first.items() if n != 1} == second
    assert "You: claim crown-jewels" in out  # 9 is still the Crown Jewels, as it was shown first
    assert third == {10: "declare"}  # only the declaration is left, still under its number
    assert "No action" not in out


def test_a_number_not_shown_is_refused_with_the_numbers_shown(monkeypatch: pytest.MonkeyPatch,
                                                              capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(monkeypatch, capsys, "2\n1\nquit\n", "contraband", "--seats", "human,random,random",
                       "--seed", str(SEED))
    assert code == 0
    assert "No action 1: choose one of the numbers shown (2-10)." in out


def test_resume_goes_on_with_a_saved_game(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
                                          tmp_path: Path) -> None:
    save = tmp_path / "game.json"
    code, out, err = run(monkeypatch, capsys, "2\n3\nquit\n", "contraband", "--seats", "human,heuristic,random",
                         "--seed", str(SEED), "--save", str(save))
    assert code == 0, err and f"play --resume {save}" in out
    saved = json.loads(save.read_text())
    assert saved["players"] == ["human", "heuristic", "random"] and saved["actions"] == ["claim brandy",
                                                                                          "claim whisky"]
    code, out, err = run(monkeypatch, capsys, "10\nquit\n", "--resume", str(save))
    assert code == 0, err
    flat = " ".join(out.split())
    assert "Resumed after 2 actions" in flat and "Traceback" not in out + err
    assert "seat 1 (heuristic)" in flat  # the saved seats sit again
    # the resumed game goes on where it stopped, with the numbers shown before the save: 10 declares
    assert menus(out)[0][10] == "declare" and menus(out)[0][3] == "claim whisky" and 1 not in menus(out)[0]
    resumed = json.loads(save.read_text())
    assert resumed["actions"][:3] == ["claim brandy", "claim whisky", "declare"]
    assert len(resumed["actions"]) > 3 and resumed["players"] == saved["players"]
    assert freetrader.replay(resumed).action_count == len(resumed["actions"])


def test_resume_refuses_a_save_it_cannot_go_on_with(monkeypatch: pytest.MonkeyPatch,
                                                    capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    bare = tmp_path / "bare.json"
    bare.write_text(json.dumps(freetrader.game("contraband").new_state(3, SEED).record()))
    with pytest.raises(FreetraderError, match="does not say who sits where"):
        load_save(bare)
    state, players = load_save(bare, ["human", "random", "random"])
    assert players == ["human", "random", "random"] and state.action_count == 0
    with pytest.raises(FreetraderError, match="3 seats, but 2 seat specs"):
        load_save(bare, ["human", "random"])
    broken = tmp_path / "broken.json"
    broken.write_text("{not json")
    with pytest.raises(FreetraderError, match="not a saved game"):
        load_save(broken)
    code, out, err = run(monkeypatch, capsys, "", "--resume", str(tmp_path / "missing.json"))
    assert code != 0 and "cannot read" in out + err and "Traceback" not in out + err


def _turn(state: Any, boards: dict[int, str], stdin: str) -> str:
    out = io.StringIO()
    console = Console(file=out, width=100, force_terminal=False)
    lines = iter(stdin.splitlines())
    _human_turn(console, state, 0, ["human", "random", "random"], {0: 0}, lambda _p: next(lines), Menu(), boards)
    return out.getvalue()


def test_the_board_is_drawn_again_only_when_it_changed() -> None:
    state = freetrader.game("contraband").new_state(3, SEED)
    boards: dict[int, str] = {0: _board_key(state.view(0))}
    shown = _turn(state.clone(), boards, "claim brandy")
    assert "the board has not changed" in shown and "Declaration" not in shown
    boards = {}
    drawn = _turn(state.clone(), boards, "claim brandy")
    assert "the board has not changed" not in drawn and "Declaration" in drawn
    assert boards[0] == _board_key(state.view(0))
    after = state.clone()
    after.apply("claim brandy")
    assert _board_key(after.view(0)) != boards[0]  # a claim changes the declaration shown: drawn again
