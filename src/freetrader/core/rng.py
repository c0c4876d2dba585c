"""Seeded randomness owned by each state.

A SplitMix64 generator: its whole state is one integer, so cloning a game
state copies it for free and JSON keeps it exactly, and its output does not
depend on the Python version (``random.Random`` makes no such promise).
"""

from __future__ import annotations

import random
from collections.abc import Iterable, MutableSequence, Sequence
from typing import Any, TypeVar

__all__ = ["Rng", "derive_seed", "seed_from"]

_MASK = (1 << 64) - 1
_GOLDEN = 0x9E3779B97F4A7C15
T = TypeVar("T")


def _mix(z: int) -> int:
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
    return z ^ (z >> 31)


def derive_seed(*parts: int) -> int:
    """A 63-bit seed mixed from integers (e.g. a run seed and a game index)."""
    z = 0
    for p in parts:
        z = _mix((z + _GOLDEN + (p & _MASK)) & _MASK)
    return z >> 1


def seed_from(rng: Any) -> int:
    """A fresh seed drawn from an ``Rng`` or a ``random.Random``."""
    if isinstance(rng, Rng):
        return rng.next64() >> 1
    if isinstance(rng, random.Random):
        return rng.getrandbits(63)
    raise TypeError(f"expected freetrader.core.Rng or random.Random, got {type(rng).__name__}")


class Rng:
    """Deterministic generator with the few draws games need."""

    __slots__ = ("state",)

    def __init__(self, seed: int = 0) -> None:
        self.state = seed & _MASK

    def next64(self) -> int:
        self.state = s = (self.state + _GOLDEN) & _MASK
        return _mix(s)

    def below(self, n: int) -> int:
        """Uniform integer in ``[0, n)``; the multiply-shift bias is under n / 2**64."""
        if n <= 0:
            raise ValueError(f"below() needs a positive bound, got {n}")
        return (self.next64() * n) >> 64

    def random(self) -> float:
        return (self.next64() >> 11) * (1.0 / (1 << 53))

    def choice(self, seq: Sequence[T]) -> T:
        return seq[self.below(len(seq))]

    def weighted_index(self, weights: Sequence[float]) -> int:
        """Index ``i`` with probability ``weights[i] / sum(weights)``; zero weights are never drawn.

        One draw of ``random()``; the last positive weight takes what rounding leaves over.
        """
        r = self.random() * sum(weights)
        last = -1
        for i, w in enumerate(weights):
            if w > 0:
                if r <= w:
                    return i
                r -= w
                last = i
        if last < 0:
            raise ValueError("weighted_index() needs at least one positive weight")
        return last

    def shuffle(self, items: MutableSequence[Any]) -> None:
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]

    def redeal(self, deck: list[T], hands: list[list[T]], seats: Iterable[int]) -> list[T]:
        """Shuffle ``deck`` with the hands of ``seats`` and deal each of those hands back at its size.

        For ``determinize``: the hands a seat cannot see become any cards it
        has not seen. The hands are replaced in ``hands``; the rest is returned
        as the new deck.
        """
        dealt = list(seats)
        pool = deck[:]
        for p in dealt:
            pool += hands[p]
        self.shuffle(pool)
        for p in dealt:
            k = len(hands[p])
            hands[p] = pool[:k]
            del pool[:k]
        return pool

    def fork(self) -> Rng:
        """An independent stream, so that one consumer cannot shift another's draws."""
        return Rng(self.next64())
