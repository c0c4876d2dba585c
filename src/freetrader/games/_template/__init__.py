"""High Card: the template game, a minimal complete game to copy when starting a new one.

Rules and the steps for starting a new game: ``RULES.md`` beside this file.
"""

from __future__ import annotations

from typing import Any

from freetrader.core import Game, GameSpec, Option

from .actions import parse
from .components import MAX_SEATS
from .state import HighCardState

__all__ = ["GAME", "SPEC", "HighCardState", "ENDS", "ending"]

SPEC = GameSpec(
    name="high-card",
    version=1,
    title="High Card",
    min_seats=2,
    max_seats=MAX_SEATS,
    hidden_information=True,
    chance=True,
    summary=(
        "Each seat is dealt one hidden card from a deck of 1..6 twice, then in seat order stakes or folds. "
        "The highest card among the stakers wins the pot; a tie splits it."
    ),
    options=(Option("stake", 1, "chips each staker puts into the pot", minimum=1, maximum=3),),
    # What can end a game (``ending``'s ``end``), so that a simulation table shows a 0% row for one that never came.
    ends=("showdown",),
    # The longest finished game per seat count, from ``python benchmarks/game_lengths.py --games high-card``
    # (2026-12-03: 200 random, 30 heuristic, 10 first- and last-legal games each): the RL adapters stop an
    # episode at three times it. A game whose rules offer a turn cap that no rulebook has (a simulation's
    # guard) names that option in ``safety_cap``; one that random play cannot end sets ``random_play_ends=False``.
    longest_games=((2, 5), (3, 8), (4, 11)),
)

#: What can end a game (``SPEC.ends``).
ENDS = SPEC.ends


def ending(state: HighCardState) -> dict[str, Any]:
    """What ended the game and its length in the game's own unit, for ``simulate`` (``freetrader.sim.endings``).

    High Card is one hand, ended by its showdown; a longer game counts its Turns or rounds here and
    names the seat that played first (``first``), from which turn positions are counted.
    """
    return {"end": "showdown" if state.is_over else None, "length": 1, "unit": "hands", "first": 0}


class _HighCard(Game):
    state_class = HighCardState


# A real game registers itself here: ``GAME = register(_MyGame(SPEC, parse))``.
# The template stays unregistered (discovery also skips folders starting with "_"),
# so it never shows up in ``freetrader.games()``, the CLI or simulations.
GAME = _HighCard(SPEC, parse)
