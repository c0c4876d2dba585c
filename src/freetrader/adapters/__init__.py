"""Standard AI interfaces for every registered game: PettingZoo, Gymnasium, OpenSpiel.

- ``freetrader.adapters.pettingzoo.env(game, seats=..., **options)``: AEC env;
- ``freetrader.adapters.gymnasium.FreetraderGymEnv(game, opponents=[...])``;
- ``freetrader.adapters.openspiel.load_game(game, players=..., **options)``;
- ``freetrader.adapters.encoders``: observation encoders and action indices;
- ``freetrader.adapters.limits``: every episode's bound and truncation reward.

They need the ``rl`` extra (pettingzoo, gymnasium, numpy) or, for OpenSpiel,
the ``openspiel`` extra. Importing this package imports none of them; each
submodule imports what it needs.
"""

__all__ = ["encoders", "gymnasium", "limits", "openspiel", "pettingzoo"]
