"""Brute force over SplitMix64 seeds: which seeds deal the Customs Officer cards a public log shows?

This is the spectator's attack from issue 16, vectorised with numpy: the
first ``seats`` draws of ``Rng(seed)`` decide the cards dealt for the first
Customs Officer (``pack.pop()`` after a Fisher-Yates shuffle takes the last
positions, which the first draws fix), and the deal is printed in the log.
Seeds that pass are then replayed with the engine, with the game's actions,
and the whole public log compared.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

import numpy as np

import freetrader
from freetrader.games.contraband.components import COMPONENTS as C

_M1, _M2, _GOLDEN = np.uint64(0xBF58476D1CE4E5B9), np.uint64(0x94D049BB133111EB), np.uint64(0x9E3779B97F4A7C15)
_LO = np.uint64(0xFFFFFFFF)
_S30, _S27, _S31, _S32 = np.uint64(30), np.uint64(27), np.uint64(31), np.uint64(32)

PACK = np.array(C.pack, dtype=np.int64)
KIND_OF_NAME = {C.name(k): k for k in set(C.pack)}


def deal_kinds(first_event: str, seats: int) -> list[int]:
    """The article kinds the log's first line deals to seats 0, 1, ..."""
    prefix = "Dealing for Customs Officer: "
    assert first_event.startswith(prefix), first_event
    parts = first_event[len(prefix):].split("; ")
    assert len(parts) == seats, parts
    return [KIND_OF_NAME[p.split(" ", 2)[2]] for p in parts]


def expected_survivors(kinds: Sequence[int], space: int) -> float:
    n, left, out = len(PACK), [int((PACK == k).sum()) for k in range(int(PACK.max()) + 1)], float(space)
    for t, k in enumerate(kinds):
        out *= left[k] / (n - t)
        left[k] -= 1
    return out


def _mix(z: np.ndarray) -> np.ndarray:
    z = (z ^ (z >> _S30)) * _M1
    z = (z ^ (z >> _S27)) * _M2
    return z ^ (z >> _S31)  # type: ignore[no-any-return]


def _below(x: np.ndarray, n: int) -> np.ndarray:
    """``(x * n) >> 64`` exactly, for n < 2**32, from 32-bit halves."""
    nn = np.uint64(n)
    return ((x >> _S32) * nn + (((x & _LO) * nn) >> _S32)) >> _S32  # type: ignore[no-any-return]


def _first_draw_range(kind: int) -> tuple[int, int] | None:
    """The outputs x with ``PACK[below(x, len(PACK))] == kind``, as one range, if the kind's cards are adjacent."""
    where = np.flatnonzero(PACK == kind)
    lo, hi = int(where[0]), int(where[-1]) + 1
    if hi - lo != len(where):
        return None
    n = len(PACK)
    return -(-(lo << 64) // n), -(-(hi << 64) // n)  # below(x, n) >= j  <=>  x * n >= j * 2**64


def _stage_one(seeds: np.ndarray, kind: int) -> np.ndarray:
    """The seeds whose first draw deals seat 0 a card of ``kind`` (in place, few temporaries)."""
    z = seeds + _GOLDEN
    t = z >> _S30
    np.bitwise_xor(z, t, out=z)
    np.multiply(z, _M1, out=z)
    np.right_shift(z, _S27, out=t)
    np.bitwise_xor(z, t, out=z)
    np.multiply(z, _M2, out=z)
    np.right_shift(z, _S31, out=t)
    np.bitwise_xor(z, t, out=z)
    rng = _first_draw_range(kind)
    if rng is None:
        keep = PACK[_below(z, len(PACK)).astype(np.int64)] == kind
    else:
        keep = z >= np.uint64(rng[0])
        if rng[1] < 1 << 64:
            keep &= z < np.uint64(rng[1])
    return seeds[keep]  # type: ignore[no-any-return]


def _at(p: np.ndarray, js: list[np.ndarray], ws: list[np.ndarray]) -> np.ndarray:
    """The card at positions ``p`` after the swaps so far (swap u put ``ws[u]`` at ``js[u]``)."""
    v = PACK[p]
    for ju, wu in zip(js, ws, strict=True):  # later swaps overwrite earlier ones
        v = np.where(ju == p, wu, v)
    return v  # type: ignore[no-any-return]


def candidates(kinds: Sequence[int], start: int, stop: int, chunk: int = 1 << 22) -> Iterator[int]:
    """Every seed in ``[start, stop)`` whose first deal gives seat t a card of kind ``kinds[t]``."""
    n = len(PACK)
    with np.errstate(over="ignore"):
        for lo in range(start, stop, chunk):
            seeds = _stage_one(np.arange(lo, min(stop, lo + chunk), dtype=np.uint64), kinds[0])
            js: list[np.ndarray] = []
            ws: list[np.ndarray] = []
            for t, kind in enumerate(kinds):
                j = _below(_mix(seeds + _GOLDEN * np.uint64(t + 1)), n - t).astype(np.int64)
                dealt = _at(j, js, ws)
                keep = dealt == kind
                w = _at(np.full(len(seeds), n - 1 - t), js, ws)  # what sat at position n-1-t moves to j
                seeds, j, w = seeds[keep], j[keep], w[keep]
                js[:] = [a[keep] for a in js]
                ws[:] = [a[keep] for a in ws]
                js.append(j)
                ws.append(w)
                if not len(seeds):
                    break
            yield from (int(s) for s in seeds)


def replays_to(record: dict[str, object], events: Sequence[str], seed: int) -> bool:
    """Whether the record's actions, replayed under SplitMix64 ``seed``, print exactly ``events``."""
    try:
        state = freetrader.replay({**record, "seed": seed})
    except freetrader.BadRecord:  # an action the other deal does not allow: not this seed
        return False
    return state.events == list(events)
