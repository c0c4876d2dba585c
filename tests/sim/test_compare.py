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


def _files(tmp_path, short_long) -> list[str]:
    """The two runs as result files, short then long."""
    paths = []
    for name, results in zip(("short", "long"), short_long, strict=True):
        p = tmp_path / f"{name}.jsonl"
        p.write_text("".join(result_line(r) + "\n" for r in results), encoding="utf-8")
        paths.append(str(p))
    return paths


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
    paths = _files(tmp_path, short_long)
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


# -- paired what-ifs ---------------------------------------------------------------------------
def test_runs_from_the_same_seeds_are_paired_and_a_known_change_shows_with_few_games():
    a, b = _run(10, seed=7)[:12], _run(11, seed=7)[:12]  # one more turn: a small, real change
    c = compare(a, b)
    assert c.paired and c.pairing.startswith("paired: 12 games")
    length = _row(c, "game length (actions)")
    assert length[9] == "paired t, 12 seeds" and length[4] > 0 and length[8]
    assert _row(c, "median game length (actions)")[9].startswith("paired bootstrap")
    u = compare(a, b, paired=False)
    ulen = _row(u, "game length (actions)")
    assert not u.paired and ulen[9].startswith("Welch") and u.pairing.startswith("unpaired, as asked")
    # the deal's luck cancels: the paired interval is much narrower than the independent one
    assert (length[5] - length[4]) < 0.5 * (ulen[5] - ulen[4])


def test_an_a_a_pair_shows_no_difference():
    a, b = _run(10, seed=7)[:12], _run(10, seed=7)[:12]
    c = compare(a, b)
    assert c.paired
    for r in c.table.rows:
        if r[9].startswith("paired"):
            assert r[3] == 0 and r[6] == 1.0 and not r[8], r
    assert not any(r[8] for r in c.table.rows)


def test_runs_from_different_seeds_are_not_paired_and_say_so():
    c = compare(_run(10, seed=1)[:10], _run(10, seed=2)[:10])
    assert not c.paired and c.pairing.startswith("unpaired: only 0 of the shorter run's 10 games")
    assert all(r[9].startswith(("Welch", "bootstrap")) for r in c.table.rows)
    with pytest.raises(Exception, match="cannot be paired"):
        compare(_run(10, seed=1)[:10], _run(10, seed=2)[:10], paired=True)


def test_compare_json_prints_json(tmp_path, capsys, short_long):
    paths = _files(tmp_path, short_long)
    assert main(["compare", *paths, "--json", "--no-html"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["paired"] is True and doc["pairing"].startswith("paired: 30 games")
    rows = {r["metric"]: r for r in doc["table"]["rows"]}
    assert rows["game length (actions)"]["significant"] is True
    assert rows["game length (actions)"]["test"] == "paired t, 30 seeds"
    assert main(["compare", *paths, "--json", "--no-html", "--unpaired"]) == 0
    assert json.loads(capsys.readouterr().out)["paired"] is False


@pytest.mark.parametrize("command", ["report", "compare"])
def test_without_the_analysis_extra_one_line_not_a_traceback(tmp_path, capsys, monkeypatch, short_long, command):
    import sys

    p = tmp_path / "a.jsonl"
    p.write_text("".join(result_line(r) + "\n" for r in short_long[0]), encoding="utf-8")
    monkeypatch.setitem(sys.modules, "statsmodels", None)  # as if not installed
    args = [command, str(p)] + ([str(p)] if command == "compare" else []) + ["--no-html"]
    assert main(args) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "needs statsmodels: pip install 'freetrader[analysis]'" in err
    assert "Traceback" not in err


def test_wilson_interval_needs_no_extra(monkeypatch):
    import sys

    from statsmodels.stats.proportion import proportion_confint

    from freetrader.sim.stats import wilson_interval

    expected = proportion_confint(37.5, 120, method="wilson")
    monkeypatch.setitem(sys.modules, "statsmodels", None)
    monkeypatch.setitem(sys.modules, "statsmodels.stats.proportion", None)
    low, high = wilson_interval(37.5, 120)
    assert low == pytest.approx(expected[0], abs=1e-12) and high == pytest.approx(expected[1], abs=1e-12)
