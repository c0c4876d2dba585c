"""The DESIGNED.md balance tables: merchants read from records, wins shared on ties, one row per merchant."""

from __future__ import annotations

import json

from freetrader.games.merchants_cove import balance
from freetrader.sim.runner import simulate


def test_tally_counts_every_seat_game_once_and_shares_each_game_win():
    runs = list(simulate("merchants-cove", ["random", "random"], 4, seed=3, workers=1, options={"merchants": "random"}))
    b = balance.tally(runs)
    assert b.games == 4 and b.seats == 2
    assert sum(b.played.values()) == 8 and abs(sum(b.wins.values()) - 4) < 1e-9
    assert all(len(v) == 8 for v in b.metrics.values()) and "gold from sales" in b.metrics
    text = balance.tables(b)
    assert text.startswith("4 games, 2 seats, fair share 50.0%")
    assert sum(line.startswith("| ") and "pts |" in line for line in text.splitlines()) == len(b.played)


def test_merchants_of_a_drafted_game_are_the_draft_picks():
    (run,) = simulate("merchants-cove", ["random", "random"], 1, seed=4, workers=1)
    picks = [a.removeprefix("merchant ") for a in run["record"]["actions"][:2]]
    assert balance.merchants_of(run["record"]) == picks


def test_main_prints_one_section_a_file(tmp_path, capsys):
    path = tmp_path / "run.jsonl"
    runs = simulate("merchants-cove", ["random", "random"], 2, seed=5, workers=1, options={"merchants": "random"})
    path.write_text("".join(json.dumps(r) + "\n" for r in runs))
    assert balance.main([str(path)]) == 0
    assert capsys.readouterr().out.startswith(f"## {path}: 2 games, 2 seats")
    assert balance.main([]) == 2
