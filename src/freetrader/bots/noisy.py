"""Seeded variation for any bot: ``heuristic:noise=0.1`` sometimes plays another near-best move.

A balance finding that rests on one deterministic bot may rest on its habits
(always the same opening, the same row of a price list). ``noise`` makes a bot
depart from its own choice at a rate, to moves that look about as good:

- at each decision, with probability ``noise`` (drawn from the bot's own seed, so a
  game is the same for the same seed), the bot looks one move ahead at every legal
  action, in the determinized world it was handed (nothing hidden);
- it values each move by the game's evaluator (the estimate IS-MCTS cuts its
  rollouts with; else the scores), as the seat's lead over the mean of the others;
- it plays, drawn uniformly, one of the *other* moves whose value is within ``near``
  (a share of the spread between the best and worst move, default 0.25) below its
  own choice's; if there is none, its own choice.

``noise=0`` is the bot itself, move for move.
"""

from __future__ import annotations

from typing import Any

from freetrader.core import Action, BadOption, Game, State, derive_seed

from .base import Bot

__all__ = ["NoisyBot", "NOISE_PARAMS"]

#: The parameters this wrapper takes off a bot spec before the bot sees the rest.
NOISE_PARAMS = ("noise", "near")
#: The stream of the bot's seed its departures are drawn from (the bot's own rng is left alone).
NOISE_STREAM = 5003


def _share(params: dict[str, Any], key: str, default: float) -> float:
    value = params.get(key, default)
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 <= value <= 1:
        raise BadOption(f"bot parameter {key} must be a number from 0 to 1 (e.g. {key}={default}), got {value!r}")
    return float(value)


class NoisyBot(Bot):
    """``inner`` with seeded departures to near-best moves (see the module docstring)."""

    def __init__(self, inner: Bot, game: Game, seed: int, noise: Any, near: Any = 0.25) -> None:
        super().__init__(game, derive_seed(seed, NOISE_STREAM))
        self.inner = inner
        self.name = inner.name
        # it reads the state (one move ahead) even around a bot that does not: always a sampled world
        self.reads_state = True
        params = {"noise": noise, "near": near}
        self.noise = _share(params, "noise", 0.1)
        self.near = _share(params, "near", 0.25)
        from .ismcts import evaluator_for  # ismcts imports base; here only when a noisy bot is made

        self._evaluate = evaluator_for(game)
        self.departures = 0  # how many moves were not the inner bot's (tests and benchmarks read it)

    def __repr__(self) -> str:
        return f"<{self.name} bot, noise={self.noise:g}, near={self.near:g}>"

    def _value(self, state: State, seat: int, action: Action) -> float:
        world = state.clone()
        world.apply(action)
        v = self._evaluate(world) if self._evaluate is not None and not world.is_over else world.scores()
        others = [x for p, x in enumerate(v) if p != seat]
        return float(v[seat]) - (sum(others) / len(others) if others else 0.0)

    def choose(self, state: State, seat: int) -> Action:
        own = self.inner.choose(state, seat)
        if self.rng.random() >= self.noise:
            return own
        legal = state.legal_actions()
        if len(legal) < 2:
            return own
        values = {a: self._value(state, seat, a) for a in legal}
        floor = values[own] - self.near * (max(values.values()) - min(values.values()))
        near = [a for a in legal if a != own and values[a] >= floor]
        if not near:
            return own
        self.departures += 1
        return self.rng.choice(near)
