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
heuristic players in every seat, rounded up to a hundred. Each game states
those measurements on its own spec (``GameSpec.longest_games``;
``benchmarks/game_lengths.py`` prints them beside these bounds). A game or
seat count not measured gets ``FALLBACK_MAX_ACTIONS``. Options that lengthen
a game (a higher turn limit) need a bound passed explicitly (``max_actions=``
to PettingZoo and Gymnasium, ``max_game_length`` to OpenSpiel).

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

from freetrader.core import BadOption, FreetraderError, State
from freetrader.core import game as find_game
from freetrader.core.registry import SpecFacts

__all__ = ["FALLBACK_MAX_ACTIONS", "default_max_actions", "check_max_actions", "check_truncation_reward",
           "standing_rewards", "truncation_rewards", "MEASURED_MAX_ACTIONS"]

#: The bound for a game or seat count whose spec states no measured length.
FALLBACK_MAX_ACTIONS = 100_000

#: Per game name, ``{seats: longest}``: each registered game's ``GameSpec.longest_games`` (read from the
#: registry; kept for callers that index it by name).
MEASURED_MAX_ACTIONS: Mapping[str, dict[int, int]] = SpecFacts(lambda spec: dict(spec.longest_games) or None)


def default_max_actions(game: Any, seats: int, options: Mapping[str, Any] | None = None) -> int:
    """The default bound, in actions of all seats, for ``game`` (a name, slug or Game) with ``seats`` seats.

    With ``options``, a game whose rules bound its length by them (``rules.action_bound``: Contraband
    ending after ``turn_limit`` declarations) gets that bound where it is smaller.
    """
    try:
        g = find_game(game) if isinstance(game, str) else game
    except FreetraderError:  # a name no game has: nothing measured
        return FALLBACK_MAX_ACTIONS
    longest = g.spec.longest_game(seats)
    bound = FALLBACK_MAX_ACTIONS if longest is None else -(-3 * longest // 100) * 100
    if options is not None:
        rules = getattr(g.state_class, "rules", None)
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
