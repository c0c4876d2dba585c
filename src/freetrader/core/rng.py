"""Seeded randomness owned by each state.

Two generators with the same draws (``below``, ``shuffle``, ...):

- ``Rng``, SplitMix64: its whole state is one integer, so cloning a game state
  copies it for free and JSON keeps it exactly, and its output does not depend
  on the Python version (``random.Random`` makes no such promise). It is fast
  and fine for simulation, search and tests, but its outputs give its state
  away: whoever sees a few draws can find a small seed by brute force.
- ``KeyedRng``: BLAKE2b keyed with a secret of 128 bits or more, in counter
  mode (draw ``k`` is a word of the keyed hash of ``k // 8``). Without the key
  its outputs are unpredictable, so a game hosted for people who must not know
  its future (the table server) uses it. Its state is the draw counter.

A game's *seed* names its generator: an ``int`` is a SplitMix64 seed, a text
``"blake2b:<hex key>"`` a keyed generator (``new_key_seed()`` makes one from
the operating system's randomness). Records store the seed as it is, so old
records with integer seeds replay exactly as before.
"""

from __future__ import annotations

import hashlib
import random
import secrets
import struct
from collections.abc import Iterable, MutableSequence, Sequence
from typing import Any, TypeVar

__all__ = ["KEYED", "KeyedRng", "Rng", "Seed", "check_seed", "derive_seed", "make_rng", "new_key_seed",
           "seed_from", "seed_number"]

#: A game's seed: an int (SplitMix64) or ``"blake2b:<hex key>"`` (``KeyedRng``).
Seed = int | str
#: The prefix of a keyed seed.
KEYED = "blake2b"
#: The fewest key bits a keyed seed may carry.
MIN_KEY_BITS = 128
_KEY_BYTES = 32  # what new_key_seed draws: 256 bits, half of BLAKE2b's largest key
_WORDS = struct.Struct("<8Q")

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
    """Deterministic generator (SplitMix64) with the few draws games need."""

    __slots__ = ("state",)

    def __init__(self, seed: int = 0) -> None:
        self.state = seed & _MASK

    def copy(self) -> Rng:
        """An equal generator that draws on independently (``State.clone``)."""
        return Rng(self.state)

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


class KeyedRng(Rng):
    """BLAKE2b keyed with a secret, in counter mode; ``state`` counts the draws.

    One hash gives 64 bytes, i.e. eight draws; the last block is kept so that
    most draws cost an unpack-free tuple lookup. The cache depends only on the
    key and the block number, so it never changes what is drawn.
    """

    __slots__ = ("key", "_block", "_words")

    def __init__(self, key: bytes, counter: int = 0) -> None:
        if len(key) * 8 < MIN_KEY_BITS or len(key) > 64:
            raise ValueError(f"a KeyedRng key must be 16 to 64 bytes, got {len(key)}")
        self.key = key
        self.state = counter
        self._block = -1
        self._words: tuple[int, ...] = ()

    def copy(self) -> KeyedRng:
        other = KeyedRng.__new__(KeyedRng)
        other.key, other.state, other._block, other._words = self.key, self.state, self._block, self._words
        return other

    def next64(self) -> int:
        k = self.state
        self.state = k + 1
        block = k >> 3
        if block != self._block:
            digest = hashlib.blake2b(block.to_bytes(8, "little"), key=self.key, digest_size=64).digest()
            self._words = _WORDS.unpack(digest)
            self._block = block
        return self._words[k & 7]

    def fork(self) -> KeyedRng:
        # A fork keyed by a hash of this key and a fresh draw: as unpredictable as its parent.
        sub = hashlib.blake2b(self.next64().to_bytes(8, "little"), key=self.key, digest_size=_KEY_BYTES, person=b"fork")
        return KeyedRng(sub.digest())


def new_key_seed() -> str:
    """A keyed seed with a fresh 256-bit key from the operating system (``secrets``)."""
    return f"{KEYED}:{secrets.token_hex(_KEY_BYTES)}"


def _key_of(seed: str) -> bytes:
    kind, sep, hexkey = seed.partition(":")
    if kind != KEYED or not sep:
        raise ValueError(f"a text seed must be '{KEYED}:<hex key>', got {seed[:40]!r}")
    try:
        key = bytes.fromhex(hexkey)
    except ValueError:
        raise ValueError(f"the key of a '{KEYED}:' seed must be hexadecimal digits") from None
    if not MIN_KEY_BITS <= len(key) * 8 <= 512 or len(hexkey) != 2 * len(key):
        raise ValueError(f"the key of a '{KEYED}:' seed must be 32 to 128 hex digits "
                         f"({MIN_KEY_BITS} to 512 bits), got {len(hexkey)}")
    return key


def check_seed(seed: Any) -> Seed:
    """``seed`` if it names a generator (a whole number, or ``'blake2b:<hex key>'``); ``ValueError`` if not."""
    if isinstance(seed, bool) or not isinstance(seed, (int, str)):
        raise ValueError(f"seed must be a whole number or '{KEYED}:<hex key>', got {seed!r}")
    if isinstance(seed, str):
        _key_of(seed)
    return seed


def make_rng(seed: Seed) -> Rng:
    """The generator a seed names, before its first draw."""
    if isinstance(seed, str):
        return KeyedRng(_key_of(seed))
    return Rng(seed)


def seed_number(seed: Seed, *parts: int) -> int:
    """A 63-bit seed derived from a game's seed and integers (say, for a bot at the table).

    A keyed seed is hashed with its key, so the number says nothing of the key.
    """
    if isinstance(seed, str):
        h = hashlib.blake2b(b",".join(str(p).encode() for p in parts), key=_key_of(seed), digest_size=8,
                            person=b"seed_number")
        return int.from_bytes(h.digest(), "little") >> 1
    return derive_seed(seed, *parts)
