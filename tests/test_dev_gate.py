"""``./dev test`` fails when pytest collects no test (a mistyped path or -k must not pass as green)."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.skipif(not (ROOT / ".venv" / "bin" / "python").exists() or not any((ROOT / ".venv").glob(".installed-*")),
                    reason="./dev has not installed its .venv here (it would install it first)")
def test_dev_test_fails_when_no_test_is_collected() -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTEST_")}
    proc = subprocess.run(["bash", str(ROOT / "dev"), "test", "tests/core", "-k", "no_test_is_named_like_this"],
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 5, proc.stdout + proc.stderr
    assert "no tests were collected" in proc.stderr
    ok = subprocess.run(["bash", str(ROOT / "dev"), "test", "tests/core", "-k", "test_", "-x", "-q"],
                        cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)
    assert ok.returncode == 0, ok.stdout[-2000:] + ok.stderr[-2000:]
