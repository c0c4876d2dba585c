"""Merchants Cove for the balance report: the Merchant each seat played, and turn position.

On the Clock the timepiece furthest behind acts, top of a stack first, so the order moves
with every action; what a seat starts with is its place in the round-1 stack (the
``first_player`` option: random by default), which is its position in turn order here.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from freetrader.sim.analysis import register_components, register_positions
from freetrader.sim.components import final_state, start_state

__all__ = ["components", "positions"]


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


register_components("merchants-cove", components)
register_positions("merchants-cove", positions, "the place in the round-1 stack on the Clock, top first")
