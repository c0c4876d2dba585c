"""Do these Goods Shapes fit in this hold? (Goods: "Placing Goods on Ships").

Pieces may be repositioned and rotated at any time, so a set of pieces is
legal in a hold when *some* packing exists: a small exact search over
placements as bitmasks, memoised per (hold, pieces, flips allowed).
"""

from __future__ import annotations

from functools import cache, lru_cache

from .components import COMPONENTS as C
from .components import Hold

__all__ = ["fits", "packing", "hold_of_ship", "hold_of_store"]

Cells = frozenset[tuple[int, int]]


def _normal(cells: Cells) -> Cells:
    r0 = min(r for r, _ in cells)
    c0 = min(c for _, c in cells)
    return frozenset((r - r0, c - c0) for r, c in cells)


def _orientations(cells: Cells, flips: bool) -> list[Cells]:
    out: list[Cells] = []
    shapes = [cells]
    if flips:
        shapes.append(frozenset((r, -c) for r, c in cells))
    for s in shapes:
        cur = s
        for _ in range(4):
            n = _normal(cur)
            if n not in out:
                out.append(n)
            cur = frozenset((c, -r) for r, c in cur)
    return out


# Holds are numbered: ships 0..9, then storehouses.
def hold_of_ship(ship: int) -> int:
    return ship


def hold_of_store(store: int) -> int:
    return len(C.ships) + store


def _hold(h: int) -> Hold:
    return C.ships[h].hold if h < len(C.ships) else C.storehouses[h - len(C.ships)].hold


@cache
def _cell_bits(h: int) -> dict[tuple[int, int], int]:
    return {cell: 1 << i for i, cell in enumerate(sorted(_hold(h).cells))}


@cache
def _placements(h: int, shape: int, flips: bool) -> tuple[tuple[int, frozenset[tuple[int, int]]], ...]:
    bits = _cell_bits(h)
    out = []
    seen = set()
    for o in _orientations(C.shapes[shape].cells, flips):
        for (r0, c0) in bits:
            # anchor the orientation's first cell on each hold cell
            ar, ac = min(o)
            placed = frozenset((r - ar + r0, c - ac + c0) for r, c in o)
            if all(p in bits for p in placed):
                mask = 0
                for p in placed:
                    mask |= bits[p]
                if mask not in seen:
                    seen.add(mask)
                    out.append((mask, placed))
    return tuple(out)


@lru_cache(maxsize=200_000)
def _search(h: int, pieces: tuple[int, ...], flips: bool) -> tuple[frozenset[tuple[int, int]], ...] | None:
    """A packing of ``pieces`` (shape indices, largest first) in hold ``h``, or None."""
    total = sum(C.shapes[p].size for p in pieces)
    if total > len(_hold(h).cells):
        return None
    result: list[frozenset[tuple[int, int]]] = []

    def go(i: int, used: int, last: int) -> bool:
        if i == len(pieces):
            return True
        same = i > 0 and pieces[i] == pieces[i - 1]
        for k, (mask, cells) in enumerate(_placements(h, pieces[i], flips)):
            if same and k <= last:  # identical pieces in increasing placement order: no repeats
                continue
            if mask & used == 0:
                result.append(cells)
                if go(i + 1, used | mask, k):
                    return True
                result.pop()
        return False

    return tuple(result) if go(0, 0, -1) else None


def _key(shapes: list[int] | tuple[int, ...]) -> tuple[int, ...]:
    return tuple(sorted(shapes, key=lambda s: (-C.shapes[s].size, s)))


def fits(h: int, shapes: list[int] | tuple[int, ...], flips: bool = False) -> bool:
    """Whether Goods Shapes of these shape indices can all be placed in hold ``h`` at once."""
    return _search(h, _key(shapes), flips) is not None


def packing(h: int, shapes: list[int], flips: bool = False) -> list[tuple[int, frozenset[tuple[int, int]]]] | None:
    """One packing, as (shape, cells) pairs, for drawing the hold; None if none exists."""
    key = _key(shapes)
    found = _search(h, key, flips)
    if found is None:
        return None
    return list(zip(key, found, strict=True))
