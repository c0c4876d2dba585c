"""The game protocol shared by every Freetrader game (standard library only)."""

from .errors import (
    BadOption,
    BadRecord,
    DataError,
    FreetraderError,
    IllegalAction,
    InvalidNotation,
    UnknownGame,
)
from .record import replay
from .registry import game, games, register
from .rng import Rng, derive_seed, seed_from
from .spec import GameSpec, Option
from .state import Action, Game, RulesState, State

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
    "Rng",
    "RulesState",
    "State",
    "UnknownGame",
    "derive_seed",
    "game",
    "games",
    "register",
    "replay",
    "seed_from",
]
