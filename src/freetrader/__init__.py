"""Freetrader: rules engine, bots and game table for smuggling and sea-trade games.

>>> import freetrader
>>> "contraband" in freetrader.games()
True
"""

# The subpackage ``freetrader.games`` must be imported before the function
# ``games`` is bound below: importing a subpackage the first time sets the
# parent's attribute of the same name, which would hide the function.
from . import games as _games_package  # noqa: F401
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
