"""The generic encoder: works for any game, with no per-game code.

Version 1.

Observation (``size`` floats, 1024 by default): a signed hashed bag of
features of the view. The view is walked as JSON; ``events``, ``legal``,
``prompt`` and ``game`` are skipped (the action mask carries ``legal``). Each
leaf becomes one feature key:

- a number or bool at path ``p``: key ``p``, value ``sign(v) * log1p(|v|)``;
- a string or ``None`` at path ``p``: key ``p=<text>``, value 1;
- a list of strings (a hand of cards): one ``p=<text>`` key per item, so
  repeated cards add up (order is ignored);
- other lists: positions are part of the path (``cash[2]``).

Key ``k`` adds ``±value`` to slot ``crc32(k) % size``, the sign taken from a
second bit of the hash so that collisions tend to cancel rather than pile up.
Seats are not rotated: position ``i`` of a per-seat list is seat ``i``, and
the observing seat is the feature ``seat``.

Actions: ``HashedActions`` (4096 slots by default); see ``encoders.base``
for the collision rule and its trade-off.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from freetrader.core import Game

from .base import Encoder, HashedActions, crc

__all__ = ["GenericEncoder"]

_SKIP = frozenset(("events", "legal", "prompt", "game"))
_CACHE_LIMIT = 200_000


class GenericEncoder(Encoder):
    name = "generic"
    version = 1

    def __init__(self, game: Game, seats: int, options: Mapping[str, Any],
                 size: int = 1024, action_slots: int = 4096) -> None:
        super().__init__(game, seats, options)
        self.observation_size = size
        self.actions = HashedActions(action_slots)
        self._slots: dict[str, tuple[int, float]] = {}

    def _slot(self, key: str) -> tuple[int, float]:
        got = self._slots.get(key)
        if got is None:
            if len(self._slots) > _CACHE_LIMIT:
                self._slots.clear()
            h = crc(key)
            got = self._slots[key] = (h % self.observation_size, -1.0 if (h >> 31) & 1 else 1.0)
        return got

    def features(self, view: Mapping[str, Any]) -> list[float]:
        out = [0.0] * self.observation_size
        slot = self._slot

        def add(key: str, value: float) -> None:
            i, sign = slot(key)
            out[i] += sign * value

        def walk(path: str, x: Any) -> None:
            if isinstance(x, bool):
                add(path, 1.0 if x else 0.0)
            elif isinstance(x, (int, float)):
                add(path, math.copysign(math.log1p(abs(x)), x))
            elif isinstance(x, str) or x is None:
                add(f"{path}={x}", 1.0)
            elif isinstance(x, Mapping):
                for k, v in x.items():
                    if k not in _SKIP or path:
                        walk(f"{path}.{k}" if path else str(k), v)
            elif isinstance(x, (list, tuple)):
                if x and all(isinstance(v, str) for v in x):
                    for v in x:
                        add(f"{path}={v}", 1.0)
                else:
                    for i, v in enumerate(x):
                        walk(f"{path}[{i}]", v)
            else:
                add(f"{path}={x}", 1.0)

        walk("", view)
        return out
