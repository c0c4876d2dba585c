"""How a game ended and how long it lasted in its own units: asked of the game, never tabled here.

A game's package may define ``ending(state) -> dict`` (found through the registry's
``game_package``, as ``web.py`` answers ``components``), with

- ``end``: what ended the game, a short label of its rulebook (``"Customs Track"``,
  ``"target reached"``), ``"safety cap"`` for a game a cap cut, ``None`` while it goes on;
- ``length``: how long it has lasted, a whole number of ``unit``;
- ``unit``: the game's own measure (``"Turns"``, ``"rounds"``, ``"days"``);
- ``first`` (optional): the seat that played first, from which turn positions are
  counted (``None`` where the game does not say).

and its spec's ``ends`` (``GameSpec.ends``), every ``end`` it can tell, so that a
table shows a 0% row for an end that never came.

``play_game`` writes them on every result line (``end``, ``length``, ``unit``,
``first``); a game with no ``ending`` gets none of these keys.
"""

from __future__ import annotations

import importlib
import statistics
from collections.abc import Mapping
from typing import Any

from freetrader.core import Game, State
from freetrader.core.registry import game_package

__all__ = ["TRUNCATED", "EndTally", "ending_of", "ends_of", "position"]

#: The ``end`` of a game the simulator stopped at its action bound (no rule of the game ended it).
TRUNCATED = "truncated"


def _package(game: Game) -> Any:
    return importlib.import_module(game_package(game))


def ends_of(game: Game) -> tuple[str, ...]:
    """Every end ``game`` can tell (its spec's ``ends``), then ``TRUNCATED``; empty if it tells none."""
    ends = game.spec.ends
    return (*ends, TRUNCATED) if ends else ()


def ending_of(state: State) -> dict[str, Any] | None:
    """The game's own account of ``state``'s end and length (see the module docstring), or ``None``."""
    fn = getattr(_package(state.game), "ending", None)
    if fn is None:
        return None
    told = fn(state)
    out = {"end": told.get("end"), "length": int(told["length"]), "unit": str(told["unit"])}
    if told.get("first") is not None:
        out["first"] = int(told["first"])
    return out


def position(result: Mapping[str, Any], seat: int) -> int | None:
    """``seat``'s place in the turn order of a result line: 0 for the first to play; ``None`` if unknown."""
    first = result.get("first")
    if first is None:
        return None
    return (seat - int(first)) % len(result["seats"])


class EndTally:
    """The ``end``, ``length`` and ``truncated`` keys of many result lines, for a run's summary."""

    def __init__(self) -> None:
        self.games = 0
        self.truncated = 0
        self.ends: dict[str, int] = {}
        self.lengths: list[int] = []
        self.unit: str | None = None

    def add(self, result: Mapping[str, Any]) -> None:
        self.games += 1
        self.truncated += bool(result.get("truncated"))
        if "end" in result:
            label = str(result["end"])
            self.ends[label] = self.ends.get(label, 0) + 1
            self.lengths.append(int(result["length"]))
            self.unit = str(result["unit"])

    def summary(self) -> dict[str, Any]:
        """``ends`` (label: games, most first), ``unit``, ``mean_units``/``median_units`` (None without any), ``truncated``."""
        ends = dict(sorted(self.ends.items(), key=lambda kv: (-kv[1], kv[0])))
        mean = statistics.fmean(self.lengths) if self.lengths else None
        med = float(statistics.median(self.lengths)) if self.lengths else None
        return {"ends": ends, "unit": self.unit, "mean_units": mean, "median_units": med, "truncated": self.truncated}
