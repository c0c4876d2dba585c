"""Precious Cargo components for the balance report: every kind of action each seat took and its country."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from freetrader.sim.analysis import register_components
from freetrader.sim.components import final_state, played_actions

__all__ = ["components"]


def components(result: Mapping[str, Any]) -> dict[int, list[str]]:
    comps = played_actions(result)
    view = final_state(result).view(None)
    for seat, player in enumerate(view.get("players") or []):
        if isinstance(player, Mapping) and player.get("country"):
            comps.setdefault(seat, []).append(f"country {player['country']}")
    return comps


register_components("precious-cargo", components)
