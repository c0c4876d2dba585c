"""``freetrader review``: a table and a JSON file, the same for the same --iters, one line for a mistake."""

from __future__ import annotations

import json
import signal
import time

import pytest
from cli_process import cli_argv, signal_when_ready

from freetrader.cli import main
from freetrader.sim import play_game

SHORT = {"end": "turns", "turn_limit": 6}


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def _record(tmp_path, name: str = "game.json", actions: int | None = None):
    rec = play_game("contraband", ["heuristic", "random", "random"], 3, SHORT)["record"]
    if actions is not None:
        rec = dict(rec, actions=rec["actions"][:actions])
    path = tmp_path / name
    path.write_text(json.dumps(rec))
    return path, rec


def test_review_prints_a_table_and_writes_json_deterministically(tmp_path, capsys):
    path, rec = _record(tmp_path)
    outs = []
    for i, workers in enumerate(("1", "2")):
        out_file = tmp_path / f"review{i}.json"
        code, out, err = run(capsys, "review", str(path), "--iters", "6", "--workers", workers, "--no-progress",
                             "--all", "--out", str(out_file))
        assert code == 0, err
        assert "Decisions" in out and "Per seat" in out and f"Wrote {out_file}" in out.replace("\n", "")
        outs.append(json.loads(out_file.read_text()))
    assert outs[0] == outs[1]
    review = outs[0]
    assert review["budget"] == "iters=6" and review["actions"] == len(rec["actions"])
    assert review["decisions"] and all(0 <= d["index"] < len(rec["actions"]) for d in review["decisions"])
    assert all(rec["actions"][d["index"]] == d["played"] for d in review["decisions"])
    # the default output file sits beside the record; --seat keeps one seat's decisions
    code, _, err = run(capsys, "review", str(path), "--iters", "4", "--workers", "1", "--no-progress", "--seat", "1")
    assert code == 0, err
    beside = json.loads((tmp_path / "game.review.json").read_text())
    assert beside["reviewed_seats"] == [1] and {d["seat"] for d in beside["decisions"]} <= {1}


def _one_line_error(code: int, err: str, needle: str) -> None:
    assert code == 2 and "Traceback" not in err
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("freetrader: error: ") and needle in lines[0], err


def test_review_refuses_bad_input_in_one_line(tmp_path, capsys):
    unfinished, _ = _record(tmp_path, "half.json", actions=10)
    code, _, err = run(capsys, "review", str(unfinished), "--iters", "3", "--no-progress", "--out", "-")
    _one_line_error(code, err, "not over")
    code, _, err = run(capsys, "review", str(tmp_path / "missing.json"), "--no-progress")
    _one_line_error(code, err, "missing.json")
    bad = tmp_path / "bad.json"
    bad.write_text("[1, 2]")
    code, _, err = run(capsys, "review", str(bad), "--no-progress")
    _one_line_error(code, err, "not one game's record")
    path, _ = _record(tmp_path)
    code, _, err = run(capsys, "review", str(path), "--iters", "0", "--no-progress", "--out", "-")
    _one_line_error(code, err, "at least 1 iteration")
    code, _, err = run(capsys, "review", str(path), "--iters", "3", "--seat", "9", "--no-progress", "--out", "-")
    _one_line_error(code, err, "seat 9")
    code, _, err = run(capsys, "review", str(path), "--iters", "3", "--workers", "0", "--no-progress", "--out", "-")
    _one_line_error(code, err, "--workers")
    assert not (tmp_path / "half.review.json").exists()


def test_review_json_prints_the_review_and_only_it(tmp_path, capsys):
    path, rec = _record(tmp_path)
    out_file = tmp_path / "r.json"
    code, out, err = run(capsys, "review", str(path), "--iters", "4", "--workers", "1", "--no-progress",
                         "--json", "--out", str(out_file))
    assert code == 0, err
    printed = json.loads(out)  # stdout is the JSON alone: no table, no "Wrote" line
    assert printed == json.loads(out_file.read_text()) and printed["actions"] == len(rec["actions"])
    assert f"Wrote {out_file}" in err.replace("\n", "")


@pytest.mark.parametrize(("sig", "code"), [(signal.SIGINT, 130), (signal.SIGTERM, 143)])
def test_a_review_started_in_the_background_stops_at_the_signal_and_writes_nothing(tmp_path, sig, code):
    """Started as a shell starts a background job (SIGINT ignored), ``kill -INT`` still stops a review on two
    workers, as Ctrl-C does: one line, 128 + the signal, no file, and the decisions not begun are dropped,
    not judged first (before, the review ignored SIGINT and ran to its end)."""
    rec = play_game("cornish-smuggler", ["heuristic"] * 3, 4)["record"]  # a long game: hundreds of decisions
    path = tmp_path / "long.json"
    path.write_text(json.dumps(rec))
    begun = time.monotonic() + 3  # judging begun; the whole review takes far longer
    code_got, err = signal_when_ready(cli_argv("review", str(path), "--workers", "2", "--iters", "64"), sig,
                                      lambda: time.monotonic() > begun, background=True, bound=120)
    assert code_got == code, err
    assert err.strip().splitlines()[-1] == "freetrader: review interrupted; nothing was written"
    assert "Traceback" not in err
    assert not path.with_suffix(".review.json").exists()
