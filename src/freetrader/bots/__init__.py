"""Bots: ``random``, a heuristic per game, all built by name through ``make_bot``."""

from . import contraband as _contraband  # noqa: F401  (registers the Contraband heuristic)
from . import cornish_smuggler as _cornish_smuggler  # noqa: F401
from . import ismcts as _ismcts  # noqa: F401  (registers the ismcts bot)
from . import merchants_cove as _merchants_cove  # noqa: F401
from . import precious_cargo as _precious_cargo  # noqa: F401
from . import random_bot as _random_bot  # noqa: F401
from .base import Bot, bot_names, decide, make_bot, parse_seats, register_bot, register_heuristic

__all__ = ["Bot", "bot_names", "decide", "make_bot", "parse_seats", "register_bot", "register_heuristic"]
