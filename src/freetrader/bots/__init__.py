"""Bots: ``random``, a heuristic per game, all built by name through ``make_bot``."""

from freetrader.core.registry import import_game_module as _import_game_module

from . import ismcts as _ismcts  # noqa: F401  (registers the ismcts bot)
from . import random_bot as _random_bot  # noqa: F401
from .base import Bot, bot_names, decide, make_bot, parse_seats, register_bot, register_heuristic

# each registers its game's heuristic; one whose data pack is broken is skipped (the registry says why)
for _game in ("contraband", "cornish_smuggler", "merchants_cove", "precious_cargo"):
    _import_game_module(f"{__name__}.{_game}", _game.replace("_", "-"))

__all__ = ["Bot", "bot_names", "decide", "make_bot", "parse_seats", "register_bot", "register_heuristic"]
