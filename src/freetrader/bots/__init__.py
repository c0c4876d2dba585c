"""Bots: ``random``, IS-MCTS and each game's heuristic, all built by name through ``make_bot``.

A game's heuristic lives in its folder (``games/<game>/bot.py``) and is imported
through the game registry the first time a bot of that game is asked for.
"""

from . import ismcts as _ismcts  # noqa: F401  (registers the ismcts bot)
from . import random_bot as _random_bot  # noqa: F401
from .base import Bot, bot_names, decide, load_game_bots, make_bot, parse_seats, register_bot, register_heuristic

__all__ = [
    "Bot", "bot_names", "decide", "load_game_bots", "make_bot", "parse_seats", "register_bot", "register_heuristic",
]
