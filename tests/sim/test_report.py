"""``freetrader report``: statistics, the HTML page and its PNG plots, the terminal tables."""

from __future__ import annotations

import pytest

from freetrader.cli import main
from freetrader.sim import result_line, simulate
from freetrader.sim.analysis import analyze, load_results, register_components, two_sided_p
from freetrader.sim.report import PLOTS

SEATS = ["heuristic", "random", "random"]


@pytest.fixture(scope="module")
def results() -> list[dict]:
    return list(simulate("contraband", SEATS, 30, seed=3, workers=1))


def test_analysis_numbers(results):
    a = analyze(results)
    assert a.game == "contraband-v1" and a.seats == 3 and a.games == 30
    assert sum(r.wins for r in a.seat_rows) == pytest.approx(30)
    top = a.seat_rows[0]
    assert top.bots == "heuristic" and top.rate > 0.6 and top.low < top.rate <= top.high and top.p < 0.01
    assert 0 <= a.first_player.rate <= 1 and a.first_player.games == 30
    assert len(a.scores) == 3 and len(a.lengths) == 30
    names = {row.component for row in a.lift}
    assert "bot heuristic" in names and "first Customs Officer" in names
    assert [row.lift for row in a.lift] == sorted((row.lift for row in a.lift), reverse=True)
    best = next(row for row in a.lift if row.component == "bot heuristic")
    assert best.lift > 0.5 and best.significant and best.lift_low > 0
    assert two_sided_p(1.959963984540054) == pytest.approx(0.05)


def test_component_hook(monkeypatch, results):
    from freetrader.sim import analysis

    monkeypatch.setitem(analysis._COMPONENTS, "contraband", lambda r: {0: ["golden ticket"]})
    a = analyze(results)
    assert {row.component for row in a.lift} == {"golden ticket", "bot heuristic", "bot random"}
    register_components("contraband", analysis._COMPONENTS["contraband"])  # registering is just that


def test_report_command_writes_html_and_plots(tmp_path, capsys, results):
    path = tmp_path / "games.jsonl"
    path.write_text("".join(result_line(r) + "\n" for r in results) + '{"cut', encoding="utf-8")
    assert len(load_results(path)) == 30  # a cut-off last line is ignored
    assert main(["report", str(path), "--out", str(tmp_path / "rep")]) == 0
    out = capsys.readouterr().out
    for needle in ("Seats", "First-player advantage", "Component lift", "heuristic", "95% CI", "Game length"):
        assert needle in out
    page = (tmp_path / "rep" / "index.html").read_text(encoding="utf-8")
    for png in PLOTS:
        data = (tmp_path / "rep" / png).read_bytes()
        assert data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) > 2000
        assert f"src='{png}'" in page
    assert "<table>" in page and "first to act" in page


def test_report_errors(tmp_path, capsys):
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"a": 1}\n', encoding="utf-8")
    assert main(["report", str(bad)]) == 2
    assert "not a simulate result" in capsys.readouterr().err
    assert main(["report", str(tmp_path / "missing.jsonl")]) == 2
