"""The game metric every game gets in the balance report: which end came, and the game's length.

A game adds its own metrics (income by source, ...) from its ``analysis`` part with
``analysis.register_metrics``; ``with_ending`` puts this one beside them. Metrics read only
the public log and final scores.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import freetrader

from .endings import TRUNCATED, ending_of, ends_of

__all__ = ["MetricFn", "end_and_length", "with_ending"]

#: ``fn(result) -> {seat: {metric: value}}``; seat ``-1`` holds game-level metrics.
MetricFn = Callable[[Mapping[str, Any]], dict[int, dict[str, float]]]


def end_and_length(result: Mapping[str, Any]) -> dict[int, dict[str, float]]:
    """Which end came (100 or 0 per game: the mean is a percentage) and the length in the game's own unit.

    Read from the line (``end``, ``length``, ``unit``: ``endings``); a line written before those keys
    existed is replayed and the game asked. Empty for a game that does not tell its end.
    """
    told: Mapping[str, Any] | None = result if "end" in result else None
    if told is None:
        state = freetrader.replay(result["record"])
        told = ending_of(state)
        if told is not None and not state.is_over:
            told = {**told, "end": TRUNCATED}
    if told is None:
        return {}
    d = {f"% ended by: {e}": 0.0 for e in ends_of(freetrader.game(result["game"]))}
    d[f"% ended by: {told['end']}"] = 100.0
    d[f"length ({told['unit']})"] = float(told["length"])
    return {-1: d}


def with_ending(fn: MetricFn | None) -> MetricFn:
    """A game's own metric function (or none) with ``end_and_length`` added to its game-level numbers."""
    if fn is None:
        return end_and_length

    def both(result: Mapping[str, Any]) -> dict[int, dict[str, float]]:
        out = fn(result)
        out.setdefault(-1, {}).update(end_and_length(result).get(-1, {}))
        return out
    return both
