"""The Ray backend gives the local backend's results, byte for byte; errors are clear."""

from __future__ import annotations

import pytest

from freetrader.cli import main
from freetrader.sim import SimulationError, simulate
from freetrader.sim.backends import run_tasks

SEATS = "heuristic,random,random,heuristic"


def test_ray_and_local_write_identical_files(capsys, tmp_path):
    pytest.importorskip("ray", reason="the analysis extra (ray) is not installed")  # CI installs it
    outs = {}
    for backend in ("local", "ray"):
        out = tmp_path / f"{backend}.jsonl"
        argv = ["simulate", "contraband", "-n", "8", "--seats", SEATS, "--seed", "5", "--out", str(out),
                "--workers", "2", "--backend", backend, "--no-progress"]
        assert main(argv) == 0, capsys.readouterr().err
        outs[backend] = out.read_bytes()
    assert outs["ray"] == outs["local"]
    assert len(outs["ray"].splitlines()) == 8
    # Resuming a run on the other backend continues it exactly.
    part = tmp_path / "part.jsonl"
    part.write_bytes(b"".join(outs["local"].splitlines(keepends=True)[:5]))
    assert main(["simulate", "contraband", "-n", "8", "--seats", SEATS, "--seed", "5", "--out", str(part),
                 "--backend", "ray", "--no-progress"]) == 0
    assert part.read_bytes() == outs["local"]


def test_backend_errors():
    with pytest.raises(SimulationError, match="unknown backend"):
        list(simulate("contraband", ["random"] * 3, 2, backend="spark"))
    with pytest.raises(SimulationError, match="for --backend ray"):
        list(run_tasks(iter([]), 1, backend="local", address="10.0.0.1:6379"))
