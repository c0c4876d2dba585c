"""High Card's phases: the name each decision shows in the view (``view["phase"]``).

Every game has this leaf module (it imports nothing of the game): the players'
rules page (``rules.html``) marks the section that governs each phase with
``id="phase-<phase>"``, so the table links a prompt, and names the rule that
refuses a move, from the phase the seat's view shows.
"""

from __future__ import annotations

__all__ = ["BETTING", "OVER", "PHASES"]

BETTING = "betting"  # every decision of the hand: stake, fold, raise, call
OVER = "over"
#: Phase names as views spell them, in order.
PHASES = (BETTING, OVER)
