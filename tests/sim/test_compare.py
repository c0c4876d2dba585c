"""``freetrader compare``: two runs that differ by a known option, metric by metric."""

from __future__ import annotations

import csv
import json

import pytest

from freetrader.cli import main
from freetrader.sim import result_line, simulate
from freetrader.sim.compare import compare

SEATS = ["heuristic", "random", "random"]


def _run(turns: int, seed: int = 1) -> list[dict]:
    return list(simulate("contraband", SEATS, 30, seed=seed, workers=1,
                         options={"end": "turns", "turn_limit": turns}))


@pytest.fixture(scope="module")
def short_long() -> tuple[list[dict], list[dict]]:
    return _run(10), _run(40)


def _row(c, name):
    return next(r for r in c.table.rows if r[0] == name)


def test_a_known_option_shows_as_a_significant_difference(short_long):
    short, long = short_long
    c = compare(short, long)
    length = _row(c, "game length (actions)")
    assert length[3] > 50 and length[4] > 0 and length[8]  # B - A, its low end above zero, significant
    med = _row(c, "median game length (actions)")
    assert med[4] <= med[3] <= med[5] and med[8]
    assert {"win rate: seat 0", "mean score: seat 1", "win rate: bot heuristic"} <= {r[0] for r in c.table.rows}


def test_a_run_against_another_seed_of_itself_shows_no_length_difference():
    a, b = _run(10, seed=1), _run(10, seed=2)
    c = compare(a, b)
    length = _row(c, "game length (actions)")
    assert length[4] <= 0 <= length[5] and not length[8]
    assert not any(r[8] for r in c.table.rows if r[0].startswith("win rate"))


def test_compare_command_table_html_csv_json(tmp_path, capsys, short_long):
    paths = []
    for name, results in zip(("short", "long"), short_long, strict=True):
        p = tmp_path / f"{name}.jsonl"
        p.write_text("".join(result_line(r) + "\n" for r in results), encoding="utf-8")
        paths.append(str(p))
    assert main(["compare", *paths, "--out", str(tmp_path / "cmp")]) == 0
    out = capsys.readouterr().out
    assert "B - A" in out and "game length (actions)" in out
    page = (tmp_path / "cmp" / "index.html").read_text(encoding="utf-8")
    assert "side by side" in page and "src='A/seats.png'" in page and "src='B/seats.png'" in page
    assert (tmp_path / "cmp" / "A" / "seats.png").is_file() and (tmp_path / "cmp" / "B" / "index.html").is_file()
    rows = list(csv.DictReader(open(tmp_path / "cmp" / "compare.csv", encoding="utf-8")))
    doc = json.loads((tmp_path / "cmp" / "tables.json").read_text(encoding="utf-8"))
    assert len(rows) == len(doc["tables"]["compare"]["rows"]) > 5


def test_compare_refuses_different_games(tmp_path, capsys, short_long):
    a = tmp_path / "a.jsonl"
    a.write_text("".join(result_line(r) + "\n" for r in short_long[0]), encoding="utf-8")
    b = tmp_path / "b.jsonl"
    other = list(simulate("precious-cargo", ["random", "random"], 2, seed=1, workers=1))
    b.write_text("".join(result_line(r) + "\n" for r in other), encoding="utf-8")
    assert main(["compare", str(a), str(b), "--no-html"]) == 2
    err = capsys.readouterr().err
    assert "different games or seat counts" in err and "Traceback" not in err
