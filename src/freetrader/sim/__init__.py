"""Running many bot-only games: reproducible, parallel, resumable.

>>> from freetrader.sim import play_game
>>> r = play_game("contraband", ["random", "random", "random"], seed=1)
>>> sorted(r)
['actions', 'game', 'record', 'scores', 'seats', 'seed', 'winners']
"""

from .results import ResultFileError, result_line, resume
from .runner import (
    HUMAN,
    MAX_ACTIONS,
    GameTooLong,
    SimulationError,
    bot_move,
    check_run,
    game_seed,
    play_game,
    seat_players,
    simulate,
)
from .stats import SeatSummary, Summary, Tally, summarize, wilson_interval

__all__ = [
    "HUMAN",
    "MAX_ACTIONS",
    "GameTooLong",
    "ResultFileError",
    "SeatSummary",
    "SimulationError",
    "Summary",
    "Tally",
    "bot_move",
    "check_run",
    "game_seed",
    "play_game",
    "result_line",
    "resume",
    "seat_players",
    "simulate",
    "summarize",
    "wilson_interval",
]
