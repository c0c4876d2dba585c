"""Merchants Cove for the balance report: the Merchant each seat played, turn position, income by source.

On the Clock the timepiece furthest behind acts, top of a stack first, so the order moves
with every action; what a seat starts with is its place in the round-1 stack (the
``first_player`` option: random by default), which is its position in turn order here.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from freetrader.sim.analysis import register_components, register_metrics, register_positions
from freetrader.sim.components import final_state, start_state

__all__ = ["components", "positions", "income"]


def components(result: Mapping[str, Any]) -> dict[int, list[str]]:
    view = final_state(result).view(None)
    comps: dict[int, list[str]] = {seat: [] for seat in range(result["record"]["seats"])}
    for seat, player in enumerate(view.get("players") or []):
        if seat in comps and isinstance(player, Mapping) and player.get("merchant"):
            comps[seat].append(f"merchant {player['merchant']}")
    return comps


def positions(result: Mapping[str, Any]) -> list[int] | None:
    """Each seat's place in the round-1 stack on the Clock (0 = on top, acts first), after the draft."""
    state = start_state(result)
    seats = state.seats
    actions = iter(result["record"]["actions"])
    while not all(state.stack[p] for p in range(seats)):
        text = next(actions, None)
        if text is None:
            return None
        state.apply(text)
    on_top_first = sorted(range(seats), key=lambda p: -state.stack[p])
    return [on_top_first.index(p) for p in range(seats)]


_SALE = re.compile(r"^Seat (\d+) sells .* for (\d+) gold$")
_SPONSOR = re.compile(r"^Sponsorship: Seat (\d+) gains (\d+) gold$")
_FINAL = re.compile(r"^Final scoring: Seat (\d+) \+(\d+) for faction icons, -(\d+) for Corruption$")
#: The common Clock actions ("do sponsor"); every other "do X" is the merchant's own production.
_COMMON = ("sponsor", "recruit", "load")


def income(result: Mapping[str, Any]) -> dict[int, dict[str, float]]:
    """Gold by source for each seat, and each seat's share of Sponsor among its main-board actions."""
    state: Any = start_state(result)
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


register_components("merchants-cove", components)
register_positions("merchants-cove", positions, "the place in the round-1 stack on the Clock, top first")
register_metrics("merchants-cove", income)
