"""Contraband for the balance report: every kind of action each seat took, and turn position.

The first Customs Officer is dealt (par. 1) and the office passes on each time the pack runs
out, so a seat's place counted from the first Officer fixes its turns as Officer and as
traveller: that is its position in turn order (1st = the first Officer), a control in the
report's models rather than a component.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from freetrader.sim.analysis import register_components, register_positions
from freetrader.sim.components import played_actions, start_state

__all__ = ["components", "positions"]


def components(result: Mapping[str, Any]) -> dict[int, list[str]]:
    return played_actions(result)


def positions(result: Mapping[str, Any]) -> list[int] | None:
    """Each seat's place counted from the first Customs Officer (0 = the Officer)."""
    officer = start_state(result).view(None).get("officer")
    seats = int(result["record"]["seats"])
    return [(s - officer) % seats for s in range(seats)] if isinstance(officer, int) else None


register_components("contraband", components)
register_positions("contraband", positions, "counted from the first Customs Officer, dealt at set-up")
