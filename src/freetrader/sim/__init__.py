"""Running many bot-only games: reproducible, parallel, resumable.

>>> from freetrader.sim import play_game
>>> r = play_game("contraband", ["random", "random", "random"], seed=1)
>>> sorted(r)
['actions', 'end', 'first', 'game', 'length', 'record', 'scores', 'seats', 'seed', 'unit', 'winners']
>>> r['end'], r['unit']
('every player officer', 'rounds')
"""

from .endings import TRUNCATED, EndTally, ending_of, ends_of, position
from .results import ResultFileError, lock_out, result_line, resume
from .runner import (
    HUMAN,
    MAX_ACTIONS,
    SAFETY_CAPS,
    GamePlan,
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
    "TRUNCATED",
    "EndTally",
    "ending_of",
    "ends_of",
    "lock_out",
    "position",
    "MAX_ACTIONS",
    "SAFETY_CAPS",
    "GamePlan",
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
