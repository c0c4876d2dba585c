"""Every tutorial and the README run as written: each command of their ``sh`` blocks, in order, from an empty folder.

Each document's commands run in one fresh folder (a later command reads what an earlier one wrote), as
``python -m freetrader`` (the same command). Only ``-n`` is made small (6 games) where a block plays
thousands. A human seat gets ``quit`` on its input; ``serve`` is started, must answer, and is stopped.
Lines that are not ``freetrader`` commands are each in ``NOT_RUN`` with the reason, so a new kind of
line fails here until it is run or explained.
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

import freetrader

ROOT = Path(__file__).resolve().parents[1]
DOCS = [*sorted((ROOT / "docs" / "tutorials").glob("*.md")), ROOT / "README.md"]
SMALL_N = 6
#: line prefix -> why it is not run here
NOT_RUN = {
    "./dev ": "the development entry point: it runs this suite, lint and the benchmarks",
    "pip install": "the suite runs in an environment where the package is installed",
    "python benchmarks/": "benchmarks print timing tables for minutes; they are not tests",
    "benchmarks/": "benchmarks print timing tables for minutes; they are not tests",
    "cp -r src/freetrader/games/_template": "tests/games/test_new_game_folder.py follows the add-game steps",
}

pytestmark = pytest.mark.e2e


def _commands(doc: Path) -> list[str]:
    out = []
    for lang, block in re.findall(r"```(\w*)\n(.*?)```", doc.read_text(encoding="utf-8"), flags=re.S):
        if lang not in ("sh", "bash", "shell"):
            continue
        # a line ending in a backslash goes on in the next, as the shell reads it
        for line in re.sub(r"\\\n\s*", " ", block).splitlines():
            line = re.sub(r"\s+#.*$", "", line).strip()  # a comment after the command
            if line and not line.startswith("#"):
                out.append(line)
    return out


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _setup(doc: Path, where: Path) -> None:
    """What a document's text has the reader make before its commands."""
    if doc.name == "data-pack.md":  # the repository's example, and my-pack as the shipped files copied
        (where / "examples").symlink_to(ROOT / "examples")
        package = Path(freetrader.__file__).parent / "games"
        for game, file in (("cornish-smuggler", "characters.toml"), ("contraband", "cards.toml")):
            (where / "my-pack" / game).mkdir(parents=True)
            shutil.copy(package / game.replace("-", "_") / "data" / file, where / "my-pack" / game / file)


def _serve(argv: list[str], env: dict[str, str], where: Path) -> None:
    port = _free_port()
    env = {**env, "FREETRADER_PORT": str(port)}
    proc = subprocess.Popen(argv, cwd=where, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    try:
        end = time.monotonic() + 300  # a bound for a server that never starts, not a timing
        while True:
            assert proc.poll() is None, f"{argv} exited {proc.returncode}: {proc.stderr.read() if proc.stderr else ''}"
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/games", timeout=30) as r:
                    if r.status == 200:
                        return
            except OSError:
                pass
            assert time.monotonic() < end, f"{argv} did not answer within 300 s"
            time.sleep(0.2)
    finally:
        proc.terminate()
        proc.wait(timeout=120)


def _run(line: str, where: Path) -> None:
    words = shlex.split(line)
    env = dict(os.environ, COLUMNS="120", PYTHONUNBUFFERED="1")
    while words and re.fullmatch(r"[A-Z_]+=.*", words[0]):  # VAR=value freetrader ...
        key, _, value = words.pop(0).partition("=")
        env[key] = value
    assert words[0] == "freetrader", line
    args = words[1:]
    for i, word in enumerate(args[:-1]):
        if word == "-n" and int(args[i + 1]) > SMALL_N:
            args[i + 1] = str(SMALL_N)
    argv = [sys.executable, "-m", "freetrader", *args]
    if args[0] == "serve":
        _serve(argv, env, where)
        return
    human = any(a.startswith("--seats") for a in args) and "human" in line
    proc = subprocess.run(argv, cwd=where, env=env, input="quit\n" if human else "", capture_output=True,
                          text=True, timeout=900)
    assert proc.returncode == 0, f"{line!r} exited {proc.returncode}:\n{proc.stdout[-2000:]}\n{proc.stderr[-2000:]}"
    assert "Traceback" not in proc.stderr, proc.stderr


def test_every_line_of_the_documents_is_run_or_explained() -> None:
    for doc in DOCS:
        for line in _commands(doc):
            runs = re.match(r"^([A-Z_]+=\S+ )*freetrader ", line)
            assert runs or any(line.startswith(p) for p in NOT_RUN), f"{doc.name}: {line!r} is neither run nor explained"


@pytest.mark.parametrize("doc", [d for d in DOCS if any(ln.startswith(("freetrader", "FREETRADER_")) for ln in _commands(d))],
                         ids=lambda d: d.name)
def test_the_document_runs_as_written(doc: Path, tmp_path: Path) -> None:
    _setup(doc, tmp_path)
    ran = 0
    for line in _commands(doc):
        if any(line.startswith(p) for p in NOT_RUN):
            continue
        _run(line, tmp_path)
        ran += 1
    assert ran > 0
