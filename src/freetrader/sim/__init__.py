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
    GamePlan,
    GameTooLong,
    SimulationError,
    bot_move,
    check_run,
    first_player_option,
    game_seed,
    plan,
    play_game,
    seat_players,
    simulate,
)
from .stats import SeatSummary, Summary, Tally, median, summarize, wilson_interval

__all__ = [
    "HUMAN",
    "MAX_ACTIONS",
    "GamePlan",
    "GameTooLong",
    "ResultFileError",
    "SeatSummary",
    "SimulationError",
    "Summary",
    "Tally",
    "bot_move",
    "check_run",
    "first_player_option",
    "game_seed",
    "plan",
    "play_game",
    "result_line",
    "resume",
    "seat_players",
    "simulate",
    "median",
    "summarize",
    "wilson_interval",
]
