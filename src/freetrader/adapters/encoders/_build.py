"""Small helpers for building feature lists (shared by the per-game encoders)."""

from __future__ import annotations

import importlib
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

__all__ = ["one_hot", "multi_hot", "rel", "index_of", "compiled"]


def one_hot(out: list[float], i: int | None, n: int) -> None:
    """Append ``n`` slots with a 1 at ``i`` (none when ``i`` is None or out of range)."""
    start = len(out)
    out.extend([0.0] * n)
    if i is not None and 0 <= i < n:
        out[start + i] = 1.0


def multi_hot(out: list[float], items: Iterable[Any], index: Mapping[Any, int], n: int, weight: float = 1.0) -> None:
    """Append ``n`` slots, adding ``weight`` at ``index[item]`` for each item (so repeats count)."""
    start = len(out)
    out.extend([0.0] * n)
    for item in items:
        i = index.get(item)
        if i is not None:
            out[start + i] += weight


def rel(seat: int | None, me: int, seats: int) -> int | None:
    """A seat counted from the observer: 0 is the observer, 1 the next seat, ...; None stays None."""
    if seat is None or seat < 0:
        return None
    return (seat - me) % seats


def index_of(ids: Sequence[str]) -> dict[str, int]:
    return {x: i for i, x in enumerate(ids)}


def compiled(name: str) -> Any | None:
    """This package's compiled module ``name``, or None where the install built none (no C compiler).

    An encoder with a compiled twin keeps its Python path as the reference and
    the fallback; tests compare the two bit for bit.
    """
    try:
        return importlib.import_module(f"{__package__}.{name}")
    except ImportError:
        return None
