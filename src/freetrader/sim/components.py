"""Helpers for the per-game component functions of the balance report.

A game's function (``games/<game>/analysis.py``, registered with
``analysis.register_components``) maps one result line to
``{seat: [component, ...]}``: what that seat had or chose in the game.
``played_actions`` is a generic helper a game may use: every kind of action a
seat ever took ("claim crown-jewels", "inform"); ``start_state`` and
``final_state`` rebuild the game's first and last positions.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import freetrader

__all__ = ["played_actions", "start_state", "final_state"]


def start_state(result: Mapping[str, Any]) -> Any:
    rec = result["record"]
    return freetrader.game(rec["game"]).new_state(rec["seats"], rec["seed"], rec.get("options"))


def played_actions(result: Mapping[str, Any], prefix: str = "played ") -> dict[int, list[str]]:
    """Each seat's kinds of action over the game (notation without seat numbers), by replaying it."""
    state = start_state(result)
    kinds: dict[int, set[str]] = {seat: set() for seat in range(state.seats)}
    for text in result["record"]["actions"]:
        seat = state.to_act
        kinds[seat].add(prefix + " ".join(w for w in text.split() if not w.isdigit()))
        state.apply(text)
    return {seat: sorted(names) for seat, names in kinds.items()}


def final_state(result: Mapping[str, Any]) -> Any:
    """The game's last position, by replaying its record."""
    return freetrader.replay(result["record"])
