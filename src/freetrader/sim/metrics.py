"""Per-game metrics for the balance report (see ``analysis.register_metrics``).

Each function reads one result (replaying its record where the public log has
what it needs) and returns ``{seat: {metric: value}}``, seat ``-1`` for
game-level numbers. They read only the public log and final scores.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Any

import freetrader

from .analysis import register_metrics
from .endings import TRUNCATED, ending_of, ends_of

__all__ = ["merchants_cove_income", "end_and_length"]

_SALE = re.compile(r"^Seat (\d+) sells .* for (\d+) gold$")
_SPONSOR = re.compile(r"^Sponsorship: Seat (\d+) gains (\d+) gold$")
_FINAL = re.compile(r"^Final scoring: Seat (\d+) \+(\d+) for faction icons, -(\d+) for Corruption$")
#: The common Clock actions ("do sponsor"); every other "do X" is the merchant's own production.
_COMMON = ("sponsor", "recruit", "load")


def merchants_cove_income(result: Mapping[str, Any]) -> dict[int, dict[str, float]]:
    """Gold by source for each seat, and each seat's share of Sponsor among its main-board actions."""
    state: Any = freetrader.game(result["record"]["game"]).new_state(
        result["record"]["seats"], result["record"]["seed"], result["record"].get("options"))
    start = list(state.gold)
    seats = state.seats
    kinds: dict[int, dict[str, int]] = {p: {} for p in range(seats)}
    for text in result["record"]["actions"]:
        p = state.to_act
        verb, _, what = text.partition(" ")
        if p is not None and p < seats and verb == "do":
            kind = what if what in _COMMON else "production"
            kinds[p][kind] = kinds[p].get(kind, 0) + 1
        state.apply(text)
    out: dict[int, dict[str, float]] = {
        p: {"gold from sales": 0.0, "gold from sponsorship": 0.0, "gold from faction icons": 0.0,
            "gold lost to corruption": 0.0} for p in range(seats)}
    for e in state.events:
        if m := _SALE.match(e):
            out[int(m[1])]["gold from sales"] += int(m[2])
        elif m := _SPONSOR.match(e):
            out[int(m[1])]["gold from sponsorship"] += int(m[2])
        elif m := _FINAL.match(e):
            out[int(m[1])]["gold from faction icons"] += int(m[2])
            out[int(m[1])]["gold lost to corruption"] += int(m[3])
    for p in range(seats):
        d = out[p]
        final = float(state.gold[p])
        d["gold, other (net of spending)"] = (final - start[p] - d["gold from sales"] - d["gold from sponsorship"]
                                              - d["gold from faction icons"] + d["gold lost to corruption"])
        total = sum(kinds[p].values())
        for kind in (*_COMMON, "production"):
            d[f"% of Clock actions: {kind}"] = 100.0 * kinds[p].get(kind, 0) / total if total else 0.0
    return out


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


def _with_ending(fn: Callable[[Mapping[str, Any]], dict[int, dict[str, float]]]) -> Any:
    def both(result: Mapping[str, Any]) -> dict[int, dict[str, float]]:
        out = fn(result)
        out.setdefault(-1, {}).update(end_and_length(result).get(-1, {}))
        return out
    return both


def _register() -> None:
    """Every registered game gets the end and length metric; Merchants Cove its income by source too."""
    own = {"merchants-cove": merchants_cove_income}
    for slug in freetrader.games(all_versions=True):
        name = freetrader.game(slug).spec.name
        register_metrics(name, _with_ending(own[name]) if name in own else end_and_length)


_register()
