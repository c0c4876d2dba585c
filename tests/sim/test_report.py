"""``freetrader report``: statistics, the HTML page, plots, CSV/JSON, and synthetic runs with planted effects."""

from __future__ import annotations

import csv
import json
import random

import pytest

from freetrader.cli import main
from freetrader.core.registry import load_part
from freetrader.sim import result_line, simulate
from freetrader.sim.analysis import analyze, holm, load_results, register_components
from freetrader.sim.report import ENDS, PLOTS

SEATS = ["heuristic", "random", "random"]


@pytest.fixture(scope="module")
def results() -> list[dict]:
    return list(simulate("contraband", SEATS, 30, seed=3, workers=1))


def _row(table, label):
    return next(r for r in table.rows if r[0] == label)


def test_analysis_numbers(results):
    a = analyze(results)
    assert a.game == "contraband-v1" and a.seats == 3 and a.games == 30
    seats = a.tables["seats"]
    assert sum(r[3] for r in seats.rows) == pytest.approx(30)  # wins, ties split
    top = seats.rows[0]
    assert top[1] == "heuristic" and top[4] > 0.6 and top[5] < top[4] <= top[6] and top[8] < 0.01
    bots = a.tables["bots"]
    assert _row(bots, "heuristic")[1] == 30 and _row(bots, "random")[1] == 60  # seat-games
    assert len(a.scores) == 3 and len(a.lengths) == 30
    comps = {r[0] for r in a.tables["components"].rows}
    acts = {r[0] for r in a.tables["actions"].rows}
    assert not any(c.startswith("played ") for c in comps)
    # the dealt first Customs Officer is turn position, a control and a table of its own, not a component
    assert "first Customs Officer" not in comps and [r[0] for r in a.tables["positions"].rows] == ["1st", "2nd", "3rd"]
    assert acts and all(c.startswith("played ") for c in acts)
    effects = [r[4] for r in a.tables["actions"].rows]
    assert effects == sorted(effects, reverse=True)
    assert holm([0.01, 0.04, 0.5]) == pytest.approx([0.03, 0.08, 0.5])


def test_component_hook(monkeypatch, results):
    import freetrader.games.contraband.analysis  # noqa: F401 - its own hook first, so the patch below stays
    from freetrader.sim import analysis

    monkeypatch.setitem(analysis._COMPONENTS, "contraband", lambda r: {0: ["golden ticket"], 1: ["played x"]})
    a = analyze(results)
    # held by seat 0 in every game: flagged and not estimated, never reported as an effect
    row = _row(a.tables["components"], "golden ticket")
    assert row[10] == "not estimable: always seat 0, and seat is held fixed"
    assert any("golden ticket" in w and "seat" in w for w in a.warnings)
    register_components("contraband", analysis._COMPONENTS["contraband"])  # registering is just that


# -- synthetic runs with planted effects ---------------------------------------------------
def _synthetic(monkeypatch, n: int, plant, seed: int = 5) -> list[dict]:
    """``n`` contraband-shaped results whose winners and components ``plant(rng) -> (winner, comps)`` chooses."""
    from freetrader.sim import analysis

    rng = random.Random(seed)
    out = []
    for i in range(n):
        winner, comps = plant(rng)
        out.append({"game": "contraband-v1", "seed": i, "seats": ["heuristic"] * 3, "scores": [0.0, 0.0, 0.0],
                    "winners": [winner], "actions": 10 + i % 7, "planted": comps,
                    "record": {"game": "contraband-v1", "seats": 3, "seed": i, "options": {}, "actions": []}})
    # the game's own component function registers itself at its first analysis: load it now, so that the
    # planted one below stays in place (alone or first on an xdist worker, this test saw the real one)
    load_part("contraband-v1", "analysis")
    monkeypatch.setitem(analysis._COMPONENTS, "contraband", lambda r: {int(k): v for k, v in r["planted"].items()})
    return out


def _pick(rng: random.Random, weights: list[float]) -> int:
    return rng.choices(range(len(weights)), weights)[0]


def test_planted_seat_effect_is_found_and_no_component_is(monkeypatch):
    def plant(rng):
        comps = {s: [f"ship {rng.choice('abc')}"] for s in range(3)}
        return _pick(rng, [0.55, 0.225, 0.225]), comps

    a = analyze(_synthetic(monkeypatch, 900, plant))
    seats = a.tables["seats"]
    assert seats.rows[0][4] == pytest.approx(0.55, abs=0.05) and seats.rows[0][10]  # significant after Holm
    assert seats.rows[0][5] < 0.55 < seats.rows[0][6]
    assert not any(r[9] for r in a.tables["components"].rows)
    assert {r[0] for r in a.tables["components"].rows} == {"ship a", "ship b", "ship c"}
    assert not a.warnings


def test_planted_component_effect_is_found_and_no_seat_effect(monkeypatch):
    def plant(rng):
        holder = rng.randrange(3)
        comps = {s: ["ship gold" if s == holder else f"ship {rng.choice('ab')}"] for s in range(3)}
        others = [s for s in range(3) if s != holder]
        return (holder if rng.random() < 0.6 else rng.choice(others)), comps

    a = analyze(_synthetic(monkeypatch, 900, plant))
    gold = _row(a.tables["components"], "ship gold")
    assert gold[4] == pytest.approx(0.6 - 0.2, abs=0.07) and gold[9] and gold[5] > 0.25  # effect, seat held
    assert gold[2] == pytest.approx(0.6, abs=0.05)
    assert not any(r[10] for r in a.tables["seats"].rows)
    assert not any("ship gold" in w for w in a.warnings)


def test_confounded_pair_and_seat_are_flagged(monkeypatch):
    def plant(rng):
        pair_at = rng.randrange(3)
        comps = {s: [] for s in range(3)}
        comps[pair_at] += ["ship red", "ship blue"]  # always chosen together
        comps[0 if rng.random() < 0.95 else rng.choice([1, 2])].append("ship gold")  # nearly always seat 0
        for s in range(3):
            comps[s].append(f"ship {rng.choice('xy')}")
        return _pick(rng, [0.6, 0.2, 0.2]), comps

    a = analyze(_synthetic(monkeypatch, 600, plant))
    comps = a.tables["components"]
    assert "at seat 0 in 9" in _row(comps, "ship gold")[10]
    assert "held together with ship blue" in _row(comps, "ship red")[10]
    assert any("ship blue and ship red were held together" in w for w in a.warnings)
    assert any(w.startswith("ship gold: at seat 0") for w in a.warnings)
    # the pair carries no planted effect, and the seat is held: its estimate stays near zero
    assert abs(_row(comps, "ship red")[4]) < 0.1


# -- the command -----------------------------------------------------------------------------
def test_report_command_writes_html_plots_csv_and_json(tmp_path, capsys, results):
    path = tmp_path / "games.jsonl"
    path.write_text("".join(result_line(r) + "\n" for r in results) + '{"cut', encoding="utf-8")
    assert len(load_results(path)) == 30  # a cut-off last line is ignored
    assert main(["report", str(path), "--out", str(tmp_path / "rep")]) == 0
    out = capsys.readouterr().out
    for needle in ("Win rate by seat", "First player", "Set-up components", "associations", "heuristic", "low"):
        assert needle in out
    rep = tmp_path / "rep"
    page = (rep / "index.html").read_text(encoding="utf-8")
    assert "Position in turn order" in page and (rep / "positions.png").is_file()  # the dealt first Officer
    for png in PLOTS:
        data = (rep / png).read_bytes()
        assert data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) > 2000
        assert f"src='{png}'" in page
    doc = json.loads((rep / "tables.json").read_text(encoding="utf-8"))
    assert {"seats", "bots", "scores", "length", "components", "actions"} <= set(doc["tables"])
    for name, table in doc["tables"].items():
        with open(rep / f"{name}.csv", encoding="utf-8") as f:
            rows = list(csv.reader(f))
        assert rows[0] == table["columns"] and len(rows) - 1 == len(table["rows"])
    seats_csv = list(csv.DictReader(open(rep / "seats.csv", encoding="utf-8")))
    assert float(seats_csv[0]["win rate"]) == pytest.approx(doc["tables"]["seats"]["rows"][0]["win rate"])


def test_both_ends_of_a_ranking_are_plotted():
    from freetrader.sim.report import _both_ends

    rows = [[f"c{i}", 10, 0.5, 0.5, 1.0 - i / 100, 0, 0, 0.5, 0.5, False, ""] for i in range(60)]
    shown = _both_ends(rows)
    assert len(shown) == 2 * ENDS and shown[0][0] == "c0" and shown[-1][0] == "c59"


def test_one_median_in_simulate_and_report(tmp_path, capsys, results):
    from freetrader.sim import median, summarize

    path = tmp_path / "even.jsonl"
    path.write_text("".join(result_line(r) + "\n" for r in results[:4]), encoding="utf-8")
    a = analyze(load_results(path))
    lengths = sorted(r["actions"] for r in results[:4])
    assert a.tables["length"].rows[0][4] == median(lengths) == (lengths[1] + lengths[2]) / 2
    assert summarize(results[:4], SEATS).median_length == median(lengths)


def test_report_errors(tmp_path, capsys):
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"a": 1}\n', encoding="utf-8")
    assert main(["report", str(bad)]) == 2
    assert "not a simulate result" in capsys.readouterr().err
    assert main(["report", str(tmp_path / "missing.jsonl")]) == 2
