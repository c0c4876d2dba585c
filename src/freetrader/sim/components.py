"""Per-game component functions for the balance report (see ``analysis.register_components``).

A function maps one result line to ``{seat: [component, ...]}``: what that seat
had or chose in the game. ``played_actions`` is a generic helper a game may
use: every kind of action a seat ever took ("claim crown-jewels", "inform").
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import freetrader

from .analysis import register_components

__all__ = ["played_actions", "start_state"]


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


def _contraband(result: Mapping[str, Any]) -> dict[int, list[str]]:
    comps = played_actions(result)
    officer = start_state(result).view(None).get("officer")
    if isinstance(officer, int) and officer in comps:
        comps[officer].append("first Customs Officer")
    return comps


register_components("contraband", _contraband)


def _final_state(result: Mapping[str, Any]) -> Any:
    return freetrader.replay(result["record"])


def _cornish_smuggler(result: Mapping[str, Any]) -> dict[int, list[str]]:
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


def _precious_cargo(result: Mapping[str, Any]) -> dict[int, list[str]]:
    comps = played_actions(result)
    view = _final_state(result).view(None)
    for seat, player in enumerate(view.get("players") or []):
        if isinstance(player, Mapping) and player.get("country"):
            comps.setdefault(seat, []).append(f"country {player['country']}")
    return comps


def _merchants_cove(result: Mapping[str, Any]) -> dict[int, list[str]]:
    view = _final_state(result).view(None)
    comps: dict[int, list[str]] = {seat: [] for seat in range(result["record"]["seats"])}
    for seat, player in enumerate(view.get("players") or []):
        if seat in comps and isinstance(player, Mapping) and player.get("merchant"):
            comps[seat].append(f"merchant {player['merchant']}")
    return comps


register_components("cornish-smuggler", _cornish_smuggler)
register_components("precious-cargo", _precious_cargo)
register_components("merchants-cove", _merchants_cove)
