"""Result files (JSON Lines): the canonical line format and resuming a run."""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Mapping, Sequence
from typing import IO, Any

try:
    import fcntl
except ImportError:  # not POSIX: files are not locked
    fcntl = None  # type: ignore[assignment]

import freetrader
from freetrader.core import FreetraderError

from .runner import game_seed

__all__ = ["ResultFileError", "lock_out", "result_line", "resume"]

RESULT_KEYS = ("actions", "game", "record", "scores", "seats", "seed", "winners")


class ResultFileError(FreetraderError):
    """A result file that cannot be continued: unreadable, malformed, or from another run."""


def lock_out(path: str | os.PathLike[str]) -> IO[str]:
    """Open ``path`` to append results, holding an exclusive lock on it until it is closed.

    A second run on the same file (while this one writes it) gets ``ResultFileError`` instead of
    interleaving its lines with ours. The lock is the kernel's (``flock``): it goes with the
    process, so a killed run leaves no stale lock behind.
    """
    name = os.fspath(path)
    f = open(name, "a", encoding="utf-8", newline="\n")
    if fcntl is not None:
        try:
            fcntl.flock(f.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            f.close()
            raise ResultFileError(
                f"{name} is being written by another run; wait for it to finish, or use another --out") from None
    return f


def result_line(result: Mapping[str, Any]) -> str:
    """One result as its canonical line (no newline): sorted keys, no spaces, strict JSON (no ``NaN``)."""
    return json.dumps(result, sort_keys=True, separators=(",", ":"), allow_nan=False)


def resume(
    path: str | os.PathLike[str],
    game_slug: str,
    seat_specs: Sequence[str] | Callable[[int], Sequence[str]],
    run_seed: int,
    options: Mapping[str, Any],
    n: int,
    plan_of: Callable[[int], Any] | None = None,
) -> list[dict[str, Any]]:
    """The results already in ``path`` (a missing file holds none), checked against this run.

    A trailing partial line (a write cut short) is cut off the file. Every
    complete line must be game ``i`` of this very run (game, seats, seed,
    options), else ``ResultFileError``: nothing is ever overwritten.
    ``seat_specs`` is the seats of every game, or a function giving game
    ``i``'s (a tournament's lineups change from game to game). ``plan_of(i)``,
    a ``runner.GamePlan``, overrides the seats, seed and options of game ``i``
    (rotated and random-first runs).
    """
    name = os.fspath(path)
    try:
        with open(name, "rb") as f:
            data = f.read()
    except FileNotFoundError:
        return []
    except OSError as exc:
        raise ResultFileError(f"cannot read {name}: {exc.strerror or exc}") from None
    end = data.rfind(b"\n") + 1  # bytes of complete lines
    if end < len(data):
        try:
            with open(name, "r+b") as f:
                f.truncate(end)
        except OSError as exc:
            raise ResultFileError(f"cannot cut the partial last line of {name}: {exc.strerror or exc}") from None
    specs_of = seat_specs if callable(seat_specs) else (lambda i, fixed=list(seat_specs): fixed)
    opts = dict(options)
    data_hash = freetrader.game(game_slug).data_hash
    found: list[dict[str, Any]] = []
    lines = data[:end].split(b"\n")[:-1]
    if len(lines) > n:
        raise ResultFileError(
            f"{name} already holds {len(lines)} games, more than the {n} asked for; "
            f"ask for at least {len(lines)} games or use another --out"
        )
    for i, raw in enumerate(lines):
        where = f"{name} line {i + 1}"
        try:
            obj = json.loads(raw)
        except (json.JSONDecodeError, UnicodeDecodeError) as exc:
            raise ResultFileError(f"{where} is not valid JSON ({exc}); use another --out") from None
        if not isinstance(obj, dict) or any(k not in obj for k in RESULT_KEYS):
            raise ResultFileError(f"{where} is not a simulate result (needs {', '.join(RESULT_KEYS)})")
        p = plan_of(i) if plan_of is not None else None
        expected = {"game": game_slug, "seats": list(p.seats) if p else list(specs_of(i)),
                    "seed": p.seed if p else game_seed(run_seed, i)}
        for key, want in expected.items():
            if obj[key] != want:
                raise ResultFileError(
                    f"{where} is from another run ({key} {obj[key]!r}, this run has {want!r}); "
                    "use the same game, --seats, --seed and --option, or another --out"
                )
        record = obj["record"]
        got_opts = record.get("options") if isinstance(record, dict) else None
        want_opts = p.options if p else opts
        if got_opts != want_opts:
            raise ResultFileError(
                f"{where} is from another run (options {got_opts!r}, this run has {want_opts!r}); "
                "use the same --option values, or another --out"
            )
        got_data = record.get("data") if isinstance(record, dict) else None
        if got_data != data_hash:
            raise ResultFileError(
                f"{where} was played with other components (data {got_data or 'not recorded'}, this run has "
                f"{data_hash}): results of two data packs must not be mixed; use the same --data, or another --out"
            )
        found.append(obj)
    return found
