"""High Card state: plain data; the rules live in ``rules.py``, views in ``view.py``."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from freetrader.core import RulesState

from . import rules, view

__all__ = ["HighCardState"]

_LISTS = ("deck", "hands", "chips", "staked", "pot_winners")
_SCALARS = ("pot", "turn")

class HighCardState(RulesState):
    """The hooks (set-up, legal actions, apply, prompt, view, determinize) come from
    ``rules`` and ``view`` through ``RulesState``; this class holds the data."""

    rules = rules
    views = view
    __slots__ = _LISTS + _SCALARS

    deck: list[int]  # card values; the top card is the last
    hands: list[int]  # per seat, the value of its one card
    chips: list[int]  # per seat, chips not in the pot
    staked: list[bool]  # per seat; a seat before ``turn`` that did not stake folded
    pot_winners: list[int]  # seats sharing the pot, filled at the showdown
    pot: int
    turn: int  # the seat to decide; ``seats`` once the game is over

    # -- protocol hooks ------------------------------------------------------
    @property
    def to_act(self) -> int | None:  # no phase/actor here: one decision per seat in turn
        return None if self.turn == self.seats else self.turn

    def _scores(self) -> list[float]:
        return rules.scores(self)

    # Lists are copied, not shared: a clone must never change its original.
    def _copy_into(self, other: Any) -> None:
        other.deck = self.deck[:]
        other.hands = self.hands[:]
        other.chips = self.chips[:]
        other.staked = self.staked[:]
        other.pot_winners = self.pot_winners[:]
        other.pot = self.pot
        other.turn = self.turn

    def _game_json(self) -> dict[str, Any]:
        d: dict[str, Any] = {name: getattr(self, name)[:] for name in _LISTS}
        d.update({name: getattr(self, name) for name in _SCALARS})
        return d

    def _load_game_json(self, data: Mapping[str, Any]) -> None:
        for name in _LISTS:
            setattr(self, name, list(data[name]))
        for name in _SCALARS:
            setattr(self, name, int(data[name]))
        rules.check_consistent(self)
