"""Data packs: found by the game's name, warned about when misnamed, hashed into records, never mixed.

A pack is chosen before any game loads its components, so the commands run in
a fresh process here (``python -m freetrader``); the folder rules are also
tested in-process on ``core.data`` directly.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from freetrader.core import data
from freetrader.core.data import DataPackWarning, check_pack_root, content_hash, pack_folder

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "data-pack"
SHIPPED = ROOT / "src" / "freetrader" / "games"


def ft(*argv: str, env: dict[str, str] | None = None, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    base = {k: v for k, v in os.environ.items() if k != data.ENV}
    return subprocess.run([sys.executable, "-m", "freetrader", *argv], capture_output=True, text=True, timeout=300,
                          env={**base, **(env or {})}, cwd=cwd)


def one_error(proc: subprocess.CompletedProcess[str]) -> str:
    assert proc.returncode == 2, proc.stderr
    errors = [line for line in proc.stderr.splitlines() if not line.startswith("freetrader: warning: ")]
    assert len(errors) == 1 and errors[0].startswith("freetrader: error: "), proc.stderr
    assert "Traceback" not in proc.stderr
    return errors[0]


# -- folders (in-process) ---------------------------------------------------------------
def test_the_folder_is_named_by_the_game_and_the_package_name_still_works_with_a_warning(tmp_path, monkeypatch):
    monkeypatch.setattr(data, "_warned", set())
    monkeypatch.setenv(data.ENV, str(tmp_path))
    (tmp_path / "cornish_smuggler").mkdir()
    with pytest.warns(DataPackWarning, match=r"cornish_smuggler/ is named after the Python package; rename it "
                                             r"to cornish-smuggler/"):
        assert pack_folder("freetrader.games.cornish_smuggler") == tmp_path / "cornish_smuggler"
    (tmp_path / "cornish-smuggler").mkdir()
    with pytest.warns(DataPackWarning, match="both cornish-smuggler/ and cornish_smuggler/ exist"):
        assert pack_folder("freetrader.games.cornish_smuggler") == tmp_path / "cornish-smuggler"
    assert pack_folder("freetrader.games.contraband") is None  # no folder: the shipped components


def test_folders_and_files_of_no_game_are_warned_about(tmp_path, monkeypatch):
    monkeypatch.setattr(data, "_warned", set())
    (tmp_path / "cornish-smugler").mkdir()
    (tmp_path / "notes.txt").write_text("x")
    with pytest.warns(DataPackWarning) as seen:
        check_pack_root(tmp_path)
    text = "\n".join(str(w.message) for w in seen)
    assert "folder cornish-smugler/ is not a game's name (contraband, cornish-smuggler" in text
    assert "notes.txt is a file; a pack holds one folder per game" in text


def test_the_content_hash_covers_every_data_file_read_or_not(tmp_path, monkeypatch):
    shipped = content_hash("freetrader.games.contraband")
    assert shipped is not None and shipped.startswith("sha256:") and len(shipped) == 7 + 16
    monkeypatch.setattr(data, "_READ", {})  # a process that has read nothing yet gives the same hash
    assert content_hash("freetrader.games.contraband") == shipped
    monkeypatch.setenv(data.ENV, str(EXAMPLE))  # a pack that replaces cards.toml gives another
    assert content_hash("freetrader.games.contraband") not in (None, shipped)
    assert content_hash("freetrader.games.contraband.rules") == content_hash("freetrader.games.contraband")
    assert content_hash("freetrader.core") is None  # no data folder


def test_data_on_a_file_is_one_line(capsys):
    from freetrader.cli import main

    assert main(["games", "--data", str(EXAMPLE / "contraband" / "cards.toml")]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "is not a folder; --data (or $FREETRADER_DATA) names a folder" in err[0]


# -- commands with a pack (fresh processes) ---------------------------------------------
def test_a_broken_pack_is_one_line_exit_2_and_breaks_only_its_game(tmp_path):
    (tmp_path / "cornish-smuggler").mkdir()
    (tmp_path / "cornish-smuggler" / "ships.toml").write_text("[[ship]]\nid = \n")
    line = one_error(ft("rules", "cornish-smuggler", "--data", str(tmp_path)))
    assert "cornish-smuggler cannot load its components" in line and "ships.toml: not valid TOML" in line
    games = ft("games", "--json", env={data.ENV: str(tmp_path)})
    assert games.returncode == 0, games.stderr
    slugs = {g["slug"] for g in json.loads(games.stdout)}
    assert {"contraband-v1", "precious-cargo-v1", "merchants-cove-v1"} <= slugs and "cornish-smuggler-v1" not in slugs
    assert "freetrader: warning: left out: cornish-smuggler cannot load its components" in games.stderr
    sim = ft("simulate", "contraband", "-n", "2", "--seats", "random,random,random", "--workers", "1",
             "--no-progress", "--data", str(tmp_path))
    assert sim.returncode == 0, sim.stderr


def test_a_pack_that_breaks_a_game_in_an_unforeseen_way_is_still_one_line(tmp_path):
    (tmp_path / "contraband").mkdir()
    (tmp_path / "contraband" / "cards.toml").write_text("money = 3\n")  # valid TOML, wrong shape
    line = one_error(ft("rules", "contraband", "--data", str(tmp_path)))
    assert "contraband" in line and str(tmp_path) in line


def test_records_and_simulate_lines_carry_the_hash_and_resuming_across_packs_is_refused(tmp_path):
    out = tmp_path / "sim.jsonl"
    args = ["simulate", "contraband", "-n", "2", "--seats", "random,random,random", "--workers", "1", "--no-progress",
            "--out", str(out)]
    made = ft(*args, "--data", str(EXAMPLE))
    assert made.returncode == 0, made.stderr
    lines = [json.loads(x) for x in out.read_text().splitlines()]
    hashes = {line["record"]["data"] for line in lines}
    assert len(hashes) == 1
    example_hash = hashes.pop()
    rules = ft("rules", "contraband", "--json")  # shipped components: another hash
    assert rules.returncode == 0
    shipped = ft("simulate", "contraband", "-n", "1", "--seats", "random,random,random", "--workers", "1",
                 "--no-progress", "--out", str(tmp_path / "shipped.jsonl"))
    shipped_hash = json.loads((tmp_path / "shipped.jsonl").read_text())["record"]["data"]
    assert shipped.returncode == 0 and shipped_hash != example_hash
    assert json.loads(rules.stdout)["data"] == shipped_hash  # rules --json shows the hash records carry
    with_pack = ft("rules", "contraband", "--json", "--data", str(EXAMPLE))
    assert with_pack.returncode == 0 and json.loads(with_pack.stdout)["data"] == example_hash

    refused = ft(*[a if a != "2" else "4" for a in args])  # resume the pack's file without the pack
    line = one_error(refused)
    assert "played with other components" in line and example_hash in line and shipped_hash in line
    assert len(out.read_text().splitlines()) == 2  # nothing was written

    resumed = ft(*[a if a != "2" else "4" for a in args], env={data.ENV: str(EXAMPLE)})
    assert resumed.returncode == 0, resumed.stderr
    assert len(out.read_text().splitlines()) == 4

    replayed = ft("replay", str(out), "--verify")  # without the pack: named, whether or not it replays
    assert example_hash in replayed.stderr and "pass the record's pack with --data" in replayed.stderr
    same = ft("replay", str(out), "--verify", "--data", str(EXAMPLE))
    assert same.returncode == 0 and "4 records replay" in same.stdout and "warning" not in same.stderr


def test_the_old_package_named_folder_loads_the_same_components(tmp_path):
    shutil.copytree(EXAMPLE / "contraband", tmp_path / "old" / "contraband")  # contraband: both names agree
    pack = tmp_path / "old-cornish"
    (pack / "cornish_smuggler").mkdir(parents=True)
    shutil.copy(SHIPPED / "cornish_smuggler" / "data" / "ships.toml", pack / "cornish_smuggler" / "ships.toml")
    proc = ft("rules", "cornish-smuggler", "--json", "--data", str(pack))
    assert proc.returncode == 0, proc.stderr
    assert "cornish_smuggler/ is named after the Python package; rename it to cornish-smuggler/" in proc.stderr


def test_simulate_stops_at_a_game_played_with_other_components(capsys, tmp_path, monkeypatch):
    # what a Ray worker on a node that lacks the pack would send back
    import freetrader.sim
    from freetrader.cli import main
    from freetrader.sim import play_game

    def elsewhere(slug, specs, n, seed, options, **kw):
        result = play_game(slug, specs, 1, options)
        result["record"]["data"] = "sha256:0000000000000000"
        yield result

    monkeypatch.setattr(freetrader.sim, "simulate", elsewhere)
    out = tmp_path / "o.jsonl"
    code = main(["simulate", "contraband", "-n", "1", "--seats", "random,random,random", "--no-progress",
                 "--out", str(out)])
    err = capsys.readouterr().err
    assert code == 2 and "played with other components (data sha256:0000000000000000)" in err
    assert not out.exists() or out.read_text() == ""
