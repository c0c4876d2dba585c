"""Do these Goods Shapes fit in this hold? (Goods: "Placing Goods on Ships").

Pieces may be repositioned and rotated at any time, so a set of pieces is
legal in a hold when *some* packing exists: a small exact search over
placements as bitmasks, memoised per (hold, pieces, flips allowed).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from functools import cache, lru_cache

from .components import COMPONENTS as C
from .components import Hold

__all__ = ["arrangements", "fits", "packing", "hold_of_ship", "hold_of_store", "warm"]

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


def _bits_of(hold: Cells) -> dict[tuple[int, int], int]:
    return {cell: 1 << i for i, cell in enumerate(sorted(hold))}


@cache
def _placements_in(hold: Cells, shape: Cells, flips: bool) -> tuple[tuple[int, Cells], ...]:
    """Every way one shape lies in the hold, as (bitmask over the hold's sorted cells, cells)."""
    bits = _bits_of(hold)
    out = []
    seen = set()
    for o in _orientations(shape, flips):
        ar, ac = min(o)
        for (r0, c0) in bits:
            # anchor the orientation's first cell on each hold cell
            placed = frozenset((r - ar + r0, c - ac + c0) for r, c in o)
            if all(p in bits for p in placed):
                mask = 0
                for p in placed:
                    mask |= bits[p]
                if mask not in seen:
                    seen.add(mask)
                    out.append((mask, placed))
    return tuple(out)


def _packings(places: list[tuple[tuple[int, Cells], ...]], same: list[bool]) -> Iterator[tuple[Cells, ...]]:
    """Each packing of the pieces whose placements are ``places`` (``same[i]``: piece i is piece i-1's shape).

    Identical pieces take placements in increasing order, so no packing is produced twice.
    """
    result: list[Cells] = []

    def go(i: int, used: int, last: int) -> Iterator[tuple[Cells, ...]]:
        if i == len(places):
            yield tuple(result)
            return
        for k, (mask, cells) in enumerate(places[i]):
            if (same[i] and k <= last) or mask & used:
                continue
            result.append(cells)
            yield from go(i + 1, used | mask, k)
            result.pop()

    yield from go(0, 0, -1)


@cache
def _placements(h: int, shape: int, flips: bool) -> tuple[tuple[int, Cells], ...]:
    return _placements_in(_hold(h).cells, C.shapes[shape].cells, flips)


def warm() -> None:
    """Every way each Goods Shape lies in each hold, computed now (about 0.1 s) rather than one at a time
    as games first ask for them (a few ms each, on the table server's event loop)."""
    for h in range(len(C.ships) + len(C.storehouses)):
        for shape in range(len(C.shapes)):
            for flips in (False, True):
                _placements(h, shape, flips)


@lru_cache(maxsize=200_000)
def _search(h: int, pieces: tuple[int, ...], flips: bool) -> tuple[Cells, ...] | None:
    """A packing of ``pieces`` (shape indices, largest first) in hold ``h``, or None."""
    total = sum(C.shapes[p].size for p in pieces)
    if total > len(_hold(h).cells):
        return None
    same = [i > 0 and pieces[i] == pieces[i - 1] for i in range(len(pieces))]
    return next(_packings([_placements(h, p, flips) for p in pieces], same), None)


def arrangements(hold: Cells, shapes: Sequence[Cells], flips: bool = False, limit: int = 4,
                 looked_at: int = 12) -> list[tuple[Cells, ...]]:
    """Up to ``limit`` different packings of ``shapes`` (in that order) in ``hold``, for the table to offer.

    The rulebook lets Goods Shapes be "repositioned at any time once on a ship", so a packing binds
    nobody: the rules ask only that one exists (``fits``). The table still draws one, and lets the
    player pick the drawing among these: the first ``looked_at`` packings found, taken evenly spread
    so the few offered differ more than in their last piece. The search fills the hold cell by cell
    (each cell is covered by a piece whose first cell it is, or left empty while room is spare), so a
    set that does not fit is given up on quickly.
    """
    cells = sorted(hold)
    if sum(len(x) for x in shapes) > len(cells):
        return []
    kinds: list[Cells] = []
    for x in shapes:
        if x not in kinds:
            kinds.append(x)
    left = [sum(1 for x in shapes if x == k) for k in kinds]
    # placements of each kind, by the index of the placement's first cell in the hold's order
    starts: list[dict[int, list[int]]] = []
    for k in kinds:
        by: dict[int, list[int]] = {}
        for mask, _ in _placements_in(hold, k, flips):
            by.setdefault((mask & -mask).bit_length() - 1, []).append(mask)
        starts.append(by)
    full = (1 << len(cells)) - 1
    found: list[list[list[int]]] = []
    chosen: list[list[int]] = [[] for _ in kinds]

    def go(done: int, spare: int) -> bool:
        if not any(left):
            found.append([m[:] for m in chosen])
            return len(found) >= looked_at
        free = ~done & full
        if not free:
            return False
        i = (free & -free).bit_length() - 1
        for k, by in enumerate(starts):
            if not left[k]:
                continue
            for mask in by.get(i, ()):
                if mask & done:
                    continue
                left[k] -= 1
                chosen[k].append(mask)
                stop = go(done | mask, spare)
                chosen[k].pop()
                left[k] += 1
                if stop:
                    return True
        return spare > 0 and go(done | (1 << i), spare - 1)

    go(0, len(cells) - sum(len(x) for x in shapes))
    if len(found) > limit:
        step = (len(found) - 1) / (limit - 1) if limit > 1 else 0
        found = [found[round(i * step)] for i in range(limit)]
    back: list[tuple[Cells, ...]] = []
    for masks in found:
        queue = [list(m) for m in masks]
        out = []
        for x in shapes:
            mask = queue[kinds.index(x)].pop(0)
            out.append(frozenset(cells[b] for b in range(len(cells)) if mask >> b & 1))
        back.append(tuple(out))
    return back


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
