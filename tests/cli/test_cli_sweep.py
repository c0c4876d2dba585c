"""``freetrader sweep``: one run per value on the same seeds, response curves as tables, plots and a page."""

from __future__ import annotations

import json
import tomllib

import pytest

import freetrader
from freetrader.cli import main
from freetrader.core import BadOption, derive_seed
from freetrader.sim.sweep import _set_value, parse_vary

pytest.importorskip("matplotlib")

PC = ["sweep", "precious-cargo", "--seats", "heuristic,heuristic", "--seed", "3", "--workers", "1"]


def _lines(path):
    return [json.loads(x) for x in path.read_text().splitlines()]


def test_an_option_sweep_shows_the_change_on_the_same_seeds(tmp_path, capsys):
    out = tmp_path / "sw"
    assert main([*PC, "--vary", "target=10,30", "-n", "6", "--out", str(out)]) == 0
    text = " ".join(capsys.readouterr().out.split())
    low, high = _lines(out / "points" / "target=10.jsonl"), _lines(out / "points" / "target=30.jsonl")
    assert [r["seed"] for r in low] == [r["seed"] for r in high] == [derive_seed(3, i) for i in range(6)]
    assert {r["record"]["options"]["target"] for r in low} == {10} and {r["record"]["options"]["target"] for r in high} == {30}
    # the known change: a race to 30 coins lasts longer than one to 10, game for game on the same deal
    assert all(h["length"] > lo["length"] and h["actions"] > lo["actions"] for lo, h in zip(low, high, strict=True))
    tables = json.loads((out / "tables.json").read_text())["tables"]
    rows = tables["sweep"]["rows"]
    assert [r["target"] for r in rows] == ["10", "30"]
    assert rows[0]["median rounds"] < rows[1]["median rounds"]
    assert rows[0]["ended by target reached"] == rows[1]["ended by target reached"] == 1.0
    assert {r["seat"] for r in tables["seats"]["rows"]} == {0, 1} and len(tables["positions"]["rows"]) == 4
    wins0 = sum(1 for r in low if r["winners"] == [0]) / 6
    assert tables["seats"]["rows"][0]["win rate"] == pytest.approx(wins0)
    for name in ("index.html", "seats.png", "positions.png", "ends.png", "length.png", "sweep.csv", "ends.csv"):
        assert (out / name).stat().st_size > 0, name
    page = (out / "index.html").read_text()
    assert "heuristic" in page and "same seed" in page  # which bots the curves rest on
    assert "target over 10, 30" in text and "reached" in text and "100%" in text and "Wrote" in text
    # run again: every point is resumed from its file, nothing replayed, the same tables
    before = (out / "tables.json").read_text()
    assert main([*PC, "--vary", "target=10,30", "-n", "6", "--out", str(out), "--json"]) == 0
    assert (out / "tables.json").read_text() == before
    o, e = capsys.readouterr()
    assert "Resuming" in e
    printed = json.loads(o)  # --json: the same tables on stdout, and nothing else
    assert printed["tables"]["sweep"]["rows"] == rows and printed["meta"]["seats"] == ["heuristic", "heuristic"]


def test_a_data_value_sweep_plays_the_same_games_as_the_option_it_feeds(tmp_path):
    """Precious Cargo's ``target`` option defaults to cargo.toml's pieces.target: varying either is one change."""
    by_option, by_data = tmp_path / "o", tmp_path / "d"
    assert main([*PC, "--vary", "target=10,15", "-n", "3", "--out", str(by_option), "--no-html"]) == 0
    assert main([*PC, "--vary", "cargo.pieces.target=10,15", "-n", "3", "--out", str(by_data), "--no-html"]) == 0
    for o, d in (("target=10", "cargo.pieces.target=10"), ("target=15", "cargo.pieces.target=15")):
        a, b = _lines(by_option / "points" / f"{o}.jsonl"), _lines(by_data / "points" / f"{d}.jsonl")
        assert [r["record"]["actions"] for r in a] == [r["record"]["actions"] for r in b]
        assert {r["record"]["data"] for r in b} != {r["record"]["data"] for r in a}  # another pack, named by hash
    pack = tomllib.loads((by_data / "packs" / "1-15" / "precious-cargo" / "cargo.toml").read_text())
    assert pack["pieces"]["target"] == 15


def test_set_value_changes_one_value_and_keeps_the_comments():
    text = "a = 1\n[x]\nsize = 8  # why 8\nother = 8\n[y]\nsize = 3\n"
    assert _set_value(text, ["x", "size"], 12) == "a = 1\n[x]\nsize = 12  # why 8\nother = 8\n[y]\nsize = 3\n"
    assert _set_value(text, ["a"], 2).startswith("a = 2\n")
    with pytest.raises(BadOption):
        _set_value(text, ["x", "missing"], 1)


@pytest.mark.parametrize(("vary", "words"), [
    ("target=10", "at least two values"),
    ("nosuch=1,2", "has no option 'nosuch'"),
    ("target=10,x", "whole number"),
    ("cargo.pieces.nosuch=1,2", "no pieces.nosuch"),
    ("cargo.pieces.target=1,x", "is not a int"),
    ("nofile.a.b=1,2", "no data file nofile.toml"),
    ("cargo.pieces=1,2", "is a table"),
])
def test_a_bad_vary_is_one_line_and_writes_nothing(tmp_path, capsys, vary, words):
    out = tmp_path / "never"
    assert main([*PC, "--vary", vary, "-n", "2", "--out", str(out)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and words in err, err
    assert not out.exists()


def test_parse_vary_knows_every_option_of_every_game():
    for slug in freetrader.games():
        g = freetrader.game(slug)
        for o in g.spec.options:
            if isinstance(o.default, bool):
                texts = "true,false"
            elif o.choices:
                texts = ",".join(str(c) for c in o.choices[:2])
            elif isinstance(o.default, int):
                lo = o.minimum if o.minimum is not None else 0
                texts = f"{lo},{lo + 1}"
            else:
                continue  # free text (a merchant list): no generic second value
            if o.choices and len(o.choices) < 2:
                continue
            v = parse_vary(g, f"{o.name}={texts}")
            assert v.kind == "option" and len(v.values) == 2


def test_sigterm_stops_a_sweep_as_ctrl_c_does(tmp_path):
    """Readiness: the first point's first line; the bounds only guard against a hang."""
    import signal
    import subprocess
    import sys
    import time

    out = tmp_path / "sw"
    argv = [sys.executable, "-c", "import sys; from freetrader.cli import main; sys.exit(main(sys.argv[1:]))",
            "sweep", "contraband", "--vary", "end=all-officers,reshuffles", "--seats", "random,random,random",
            "-n", "20000", "--workers", "2", "--out", str(out)]  # bounded, should the test be killed
    proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    first = out / "points" / "end=all-officers.jsonl"
    try:
        deadline = time.monotonic() + 300
        while time.monotonic() < deadline and proc.poll() is None and (not first.exists() or b"\n" not in first.read_bytes()):
            time.sleep(0.05)
        assert proc.poll() is None, proc.communicate()
        proc.send_signal(signal.SIGTERM)
        _, err = proc.communicate(timeout=300)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode == 143, err
    assert "Traceback" not in err and "sweep interrupted at end=all-officers" in err and "resume" in err
    assert first.read_bytes().endswith(b"\n") and not (out / "index.html").exists()


def test_a_sweep_of_words_plots_them_in_order_even_an_option_called_end(tmp_path):
    out = tmp_path / "words"
    assert main(["sweep", "contraband", "--vary", "end=all-officers,turns", "-n", "4", "--seats", "random,random,random",
                 "--workers", "1", "--out", str(out)]) == 0
    tables = json.loads((out / "tables.json").read_text())["tables"]
    ends = {(r["end (swept)"], r["end"]): r["games"] for r in tables["ends"]["rows"]}
    assert ends[("turns", "declarations")] == 4 and ends[("all-officers", "declarations")] == 0
    assert (out / "ends.png").stat().st_size > 0
