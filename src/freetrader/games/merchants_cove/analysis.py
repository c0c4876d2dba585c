"""Merchants Cove components for the balance report: the Merchant each seat played."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from freetrader.sim.analysis import register_components
from freetrader.sim.components import final_state

__all__ = ["components"]


def components(result: Mapping[str, Any]) -> dict[int, list[str]]:
    view = final_state(result).view(None)
    comps: dict[int, list[str]] = {seat: [] for seat in range(result["record"]["seats"])}
    for seat, player in enumerate(view.get("players") or []):
        if seat in comps and isinstance(player, Mapping) and player.get("merchant"):
            comps[seat].append(f"merchant {player['merchant']}")
    return comps


register_components("merchants-cove", components)
