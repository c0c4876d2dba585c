"""High Card components for the balance report: whether each seat staked or folded.

A game's ``analysis.py`` is imported through the registry when a results file
of that game is analysed (``freetrader report``); it registers
``fn(result) -> {seat: [component, ...]}`` with ``register_components``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from freetrader.sim.analysis import register_components
from freetrader.sim.components import played_actions

__all__ = ["components"]


def components(result: Mapping[str, Any]) -> dict[int, list[str]]:
    """Each seat's decision ("played stake" or "played fold")."""
    return played_actions(result)


register_components("high-card", components)
