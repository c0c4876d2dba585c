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


def _installed_version() -> str:
    """The installed distribution's version (pyproject.toml's, through the package metadata)."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("freetrader")
    except PackageNotFoundError:  # imported from a source tree that was never installed
        return "0+unknown"


__version__ = _installed_version()

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
