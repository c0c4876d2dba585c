"""Bounded episodes: every adapter ends a game that runs too long, with a reward that does not pay for stalling.

A rulebook game can go on without end where a turn lets a player undo what it
just did (in Cornish Smuggler, Honest Work and moving a Network Counter back
and forth within one turn); a learner soon finds that a truncated episode,
worth 0, beats a loss. So every adapter bounds an episode by the number of
actions taken in the game (all seats' decisions: ``State.action_count``, the
length OpenSpiel counts) and, at the bound, hands every seat the reward of its
standing at that moment.

The default bound of a game and seat count is ``default_max_actions``: three
times the longest game measured at the game's default options with random and
heuristic players in every seat, rounded up to a hundred
(``benchmarks/game_lengths.py`` prints the measurements beside these bounds;
the table below quotes them). A game or seat count not measured gets
``FALLBACK_MAX_ACTIONS``. Options that lengthen a game (a higher turn limit)
need a bound passed explicitly (``max_actions=`` to PettingZoo and Gymnasium,
``max_game_length`` to OpenSpiel).

The truncation reward (``truncation_reward=``):

- ``"rank"`` (the default): the reward the seat would get if the game ended
  now with its current scores (``State.scores()``): with ``rewards="win"``, the
  leaders share the win and the others lose as at the end; with
  ``rewards="score"``, the current scores. A seat that stalls while behind
  gets a loss, as it would for playing on and losing, so stalling never pays
  more than playing;
- a number: that reward for every seat (``0.0`` is the old, exploitable
  behaviour).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from freetrader.core import BadOption, State
from freetrader.core import game as find_game
from freetrader.core import games as registered_games

__all__ = ["FALLBACK_MAX_ACTIONS", "default_max_actions", "check_max_actions", "check_truncation_reward",
           "standing_rewards", "truncation_rewards", "MEASURED_MAX_ACTIONS"]

#: The bound for a game or seat count not in the table below.
FALLBACK_MAX_ACTIONS = 100_000

#: Per game, per seat count: the longest finished game measured (default options).
#: Filled from ``python benchmarks/game_lengths.py`` on 2026-12-01 (200 random, 30 heuristic and 10
#: first- and last-legal-action games per row, the longest of those that finished).
#: Not every policy finishes every game (``python benchmarks/episode_ends.py``, 2026-12-03, the
#: README's episode-length table): uniform-random, first-legal and last-legal play never finished
#: Cornish Smuggler at any seat count (its figures are the heuristic bot's: 1,771 at 3 seats, median
#: 385), and neither fixed policy ever finishes Precious Cargo (RULES.md ruling 14); those games are
#: truncated at the bound. Random play finished every Contraband, Merchants Cove and Precious Cargo
#: game measured, well within the bound (``tests/adapters/test_limits.py`` checks a few in CI).
MEASURED_MAX_ACTIONS: dict[str, dict[int, int]] = {
    "contraband": {3: 404, 4: 544, 5: 664, 6: 794, 7: 949, 8: 1077},
    "cornish-smuggler": {2: 1432, 3: 1771, 4: 1637, 5: 1704},
    "merchants-cove": {1: 81, 2: 156, 3: 226, 4: 270},
    "precious-cargo": {2: 3014},
}


def default_max_actions(game: Any, seats: int, options: Mapping[str, Any] | None = None) -> int:
    """The default bound, in actions of all seats, for ``game`` (a name, slug or Game) with ``seats`` seats.

    With ``options``, a game whose rules bound its length by them (``rules.action_bound``: Contraband
    ending after ``turn_limit`` declarations) gets that bound where it is smaller.
    """
    name = game if isinstance(game, str) else game.spec.name
    name = name.rsplit("-v", 1)[0] if name.rsplit("-v", 1)[-1].isdigit() else name
    longest = MEASURED_MAX_ACTIONS.get(name, {}).get(seats)
    bound = FALLBACK_MAX_ACTIONS if longest is None else -(-3 * longest // 100) * 100
    if options is not None and (not isinstance(game, str) or name in registered_games()):
        rules = getattr(find_game(name).state_class, "rules", None)
        by_options = getattr(rules, "action_bound", None)
        if by_options is not None:
            found = by_options(seats, options)
            if found is not None:
                bound = min(bound, found)
    return bound


def check_max_actions(value: Any, game: Any, seats: int, options: Mapping[str, Any] | None = None) -> int:
    if value is None:
        return default_max_actions(game, seats, options)
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise BadOption(f"max_actions must be a whole number of actions of at least 1 (or None for the default), "
                        f"got {value!r}")
    return value


def check_truncation_reward(value: Any) -> str | float:
    if value == "rank":
        return "rank"
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return float(value)
    raise BadOption(f"truncation_reward must be 'rank' or a number, got {value!r}")


def standing_rewards(state: State, scheme: str) -> list[float]:
    """Each seat's reward if the game ended now with its current scores (``scheme`` as in ``final_rewards``)."""
    scores = [float(x) for x in state.scores()]
    if scheme == "score":
        return scores
    n = state.seats
    best = max(scores)
    won = [i for i, v in enumerate(scores) if v == best]
    if n == 1:
        return [0.0]  # a solo game is won by finishing it, not by stopping
    lose = -1.0 / (n - 1)
    win = (n / len(won) - 1.0) / (n - 1)
    return [win if seat in won else lose for seat in range(n)]


def truncation_rewards(state: State, scheme: str, truncation_reward: str | float) -> list[float]:
    """The rewards handed out when ``state`` is cut off at its bound."""
    if truncation_reward == "rank":
        return standing_rewards(state, scheme)
    return [float(truncation_reward)] * state.seats
