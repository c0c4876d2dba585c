"""Contraband components for the balance report: every kind of action each seat took and the first Customs Officer."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from freetrader.sim.analysis import register_components
from freetrader.sim.components import played_actions, start_state

__all__ = ["components"]


def components(result: Mapping[str, Any]) -> dict[int, list[str]]:
    comps = played_actions(result)
    officer = start_state(result).view(None).get("officer")
    if isinstance(officer, int) and officer in comps:
        comps[officer].append("first Customs Officer")
    return comps


register_components("contraband", components)
