"""Cornish Smuggler components for the balance report.

Set-up: the ship card chosen, the START storehouse drafted and the Characters kept and
hired. In play: every Secrets card a seat came to hold (discovered, given or taken) and
every one it played; these land in the report's in-play table (associations, not causes:
a seat that discovers more Secrets is a seat whose game went a certain way). The First
Player marker moves every Turn, so turn position is read from where it started (the
report's default: seat order from the first player), not from a component.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from freetrader.sim.analysis import register_components
from freetrader.sim.components import start_state

from .components import COMPONENTS as C

__all__ = ["components"]


def components(result: Mapping[str, Any]) -> dict[int, list[str]]:
    """The ship card, START storehouse and Characters of each seat; the Secrets it held and played."""
    state = start_state(result)
    seats = state.seats
    comps: dict[int, list[str]] = {seat: [] for seat in range(seats)}
    held: list[list[int]] = [list(state.secrets[p]) for p in range(seats)]
    for text in result["record"]["actions"]:
        seat = state.to_act
        verb, _, item = text.partition(" ")
        if seat is not None and verb in ("ship", "storehouse", "keep", "hire"):
            comps[seat].append(f"{verb} {item.split(' with ')[0]}")
        elif seat is not None and verb == "play":
            comps[seat].append(f"played secret {item.split(' ')[0]}")
        state.apply(text)
        for p in range(seats):
            now = list(state.secrets[p])
            for card in now:
                if now.count(card) > held[p].count(card):
                    comps[p].append(f"held secret {C.secrets[card].id}")
            held[p] = now
    comps[state.options.get("first_player", 0) % seats].append("first player")
    return {p: sorted(set(v), key=v.index) for p, v in comps.items()}


register_components("cornish-smuggler", components)
