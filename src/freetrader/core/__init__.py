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
from .rng import KeyedRng, Rng, Seed, derive_seed, make_rng, new_key_seed, seed_from, seed_number
from .spec import GameSpec, Option
from .state import Action, Game, State

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
    "KeyedRng",
    "Option",
    "Rng",
    "Seed",
    "State",
    "UnknownGame",
    "derive_seed",
    "game",
    "games",
    "make_rng",
    "new_key_seed",
    "register",
    "replay",
    "seed_from",
    "seed_number",
]
