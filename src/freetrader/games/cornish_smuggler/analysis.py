"""Cornish Smuggler components for the balance report: the ship, START storehouse and Characters each seat chose, and the first player."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from freetrader.sim.analysis import register_components
from freetrader.sim.components import start_state

__all__ = ["components"]


def components(result: Mapping[str, Any]) -> dict[int, list[str]]:
    """The ship card chosen, the START storehouse drafted, every Character hired, and seat order."""
    state = start_state(result)
    comps: dict[int, list[str]] = {seat: [] for seat in range(state.seats)}
    for text in result["record"]["actions"]:
        seat = state.to_act
        verb, _, item = text.partition(" ")
        if verb in ("ship", "storehouse", "keep") or (verb == "hire" and seat is not None):
            comps[seat].append(f"{verb} {item.split(' with ')[0]}")
        state.apply(text)
    comps[state.options.get("first_player", 0) % state.seats].append("first player")
    return comps


register_components("cornish-smuggler", components)
