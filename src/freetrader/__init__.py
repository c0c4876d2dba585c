"""Freetrader: rules engine, bots and game table for smuggling and sea-trade games.

>>> import freetrader
>>> "contraband" in freetrader.games()
True
"""

from .core import (
    Action,
    BadOption,
    BadRecord,
    DataError,
    FreetraderError,
    Game,
    GameSpec,
    IllegalAction,
    InvalidNotation,
    Option,
    State,
    UnknownGame,
    game,
    games,
    replay,
)

__version__ = "0.1.0"

__all__ = [
    "Action",
    "BadOption",
    "BadRecord",
    "DataError",
    "FreetraderError",
    "Game",
    "GameSpec",
    "IllegalAction",
    "InvalidNotation",
    "Option",
    "State",
    "UnknownGame",
    "__version__",
    "game",
    "games",
    "replay",
]
