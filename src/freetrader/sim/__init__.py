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
    SAFETY_CAPS,
    GamePlan,
    GameTooLong,
    SimulationError,
    bot_move,
    cap_option,
    check_run,
    first_player_option,
    game_seed,
    is_cut,
    plan,
    play_game,
    seat_players,
    simulate,
)
from .stats import SeatSummary, Summary, Tally, median, summarize, wilson_interval

__all__ = [
    "HUMAN",
    "MAX_ACTIONS",
    "SAFETY_CAPS",
    "GamePlan",
    "GameTooLong",
    "ResultFileError",
    "SeatSummary",
    "SimulationError",
    "Summary",
    "Tally",
    "bot_move",
    "cap_option",
    "check_run",
    "first_player_option",
    "game_seed",
    "is_cut",
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
