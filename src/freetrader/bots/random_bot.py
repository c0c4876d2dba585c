"""Uniformly random legal actions: the floor every other bot must beat."""

from __future__ import annotations

from freetrader.core import Action, State

from .base import Bot, register_bot


class RandomBot(Bot):
    name = "random"
    reads_state = False  # it reads legal_actions() only, which a seat may always see

    def choose(self, state: State, seat: int) -> Action:
        return self.rng.choice(state.legal_actions())


register_bot("random", RandomBot)
