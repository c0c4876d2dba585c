"""High Card state: its fields, declared once; the decisions are frames in ``rules.py``."""

from __future__ import annotations

from types import ModuleType
from typing import ClassVar

from freetrader.core.fields import Hidden, PerSeat
from freetrader.core.frames import FrameState

from . import rules, view

__all__ = ["HighCardState"]


class HighCardState(FrameState):
    """Each annotation is a field: core derives the slots, ``clone()``, JSON and the checks on load.

    ``frames`` (from ``FrameState``) is the stack of pending decisions; the
    game is over when it is empty. Set-up, views and the checks on load are
    the ``rules`` and ``view`` modules' (``ModuleHooks``).
    """

    rules: ClassVar[ModuleType] = rules
    views: ClassVar[ModuleType] = view

    deck: Hidden[list[int]]  # card values; the top card is the last
    hands: Hidden[PerSeat[list[int]]]  # the value of each seat's one card
    chips: PerSeat[list[int]]  # chips not in the pot
    staked: PerSeat[list[bool]]  # in the showdown: staked and, after a raise, called it
    decision: PerSeat[list[str]]  # "" (not yet), "stake", "raise", "fold", or "out" (did not call a raise)
    pot_winners: list[int]  # seats sharing the pot, filled at the showdown
    pot: int

    def _scores(self) -> list[float]:
        return rules.scores(self)
