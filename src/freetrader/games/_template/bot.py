"""High Card's heuristic bot: stake with a high card, fold a low one.

A game's ``bot.py`` is imported through the registry the first time a bot of
that game is asked for (``make_bot("heuristic", game)``); it registers the
game's heuristic, and may register an ISMCTS evaluator, sampler or depth
(``freetrader.bots.ismcts.register_*``) and bots only this game offers
(``register_bot(name, factory, game=...)``). It reads the state through the
protocol only: it is handed a determinized state, never the true one.
"""

from __future__ import annotations

from typing import Any

from freetrader.bots.base import Bot, register_heuristic
from freetrader.core import Action, BadOption, Game, State

__all__ = ["HighCardBot"]


class HighCardBot(Bot):
    """Stakes when its own card is at least ``at`` (default 4), else folds."""

    name = "heuristic"

    def __init__(self, game: Game, seed: int = 0, **params: Any) -> None:
        at = params.pop("at", 4)
        super().__init__(game, seed, **params)
        if not isinstance(at, int) or not 1 <= at <= 7:
            raise BadOption(f"heuristic parameter at={at!r} must be a card value from 1 to 7 (7: always fold)")
        self.at = at

    def choose(self, state: State, seat: int) -> Action:
        legal = state.legal_actions()
        card = state.view(seat)["cards"][seat]
        want = "stake" if isinstance(card, int) and card >= self.at else "fold"
        return next((a for a in legal if str(a) == want), legal[0])


register_heuristic("high-card", HighCardBot)
