"""The Chronomancer (Wiz Grey and Humpty McHalf): two workers on a sliding board of time tiles.

Public: two worker figures, a sliding-tile board like *Labyrinth*, time manipulation
and temporal anomalies, artefacts from time travel; the hardest base merchant (RAND,
BSN, SPT, AWNT, BGB). The board is designed; tiles are laid out at random (the
state's RNG) in public.

Board (``s.mb[seat]``): the tiles of the grid (row by row) and the spare (colour
0-3 or ANOMALY), both workers' cells, shards per colour, the step of a multi-step
action, and whether this action has already turned back time.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from freetrader.core import Action

from ..actions import Push, Worker
from ..components import COLOURS
from ..components import COMPONENTS as C
from . import Merchant, produce, register

if TYPE_CHECKING:
    from ..state import CoveState as S

N = 3
ANOMALY = 4
GRID, SPARE, WORKER, SHARDS, STEP, REWOUND = 0, 9, 10, 12, 16, 17
SIZE = 18
PUSHING, MOVE1, MOVE2 = 1, 2, 3
TILES = COLOURS[:4] + ("anomaly",)
#: the 12 edges the spare tile slides in at: rows from the left or right, then columns from the top or bottom
PUSHES = tuple(Push(column, line, far) for column in (False, True) for line in range(N) for far in (False, True))
_WORKERS = tuple(tuple(Worker(w, cell) for cell in range(N * N)) for w in range(2))


def neighbours(cell: int) -> list[int]:
    r, c = divmod(cell, N)
    out = [cell]
    for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1)):
        if 0 <= r + dr < N and 0 <= c + dc < N:
            out.append((r + dr) * N + c + dc)
    return sorted(out)


class Chronomancer(Merchant):
    id = "chronomancer"

    def setup(self, s: S, seat: int) -> list[int]:
        tiles = [TILES.index(t) for t in self.data.lists["tiles"]]
        s.rng.shuffle(tiles)
        b = [0] * SIZE
        b[GRID:GRID + 9] = tiles[:9]
        b[SPARE] = tiles[9]
        b[WORKER], b[WORKER + 1] = 0, N * N - 1
        return b

    def available(self, s: S, seat: int, action: str) -> bool:
        if action == "craft":
            return any(s.mb[seat][SHARDS + c] >= self.p["small"] for c in range(4))
        return True

    def begin(self, s: S, seat: int, action: str) -> bool:
        b = s.mb[seat]
        if action == "shift":
            b[STEP] = PUSHING
            return True
        if action == "travel":
            b[STEP], b[REWOUND] = MOVE1, 0
            return True
        self.craft(s, seat, b)
        return False

    def legal(self, s: S, seat: int) -> list[Action]:
        b = s.mb[seat]
        if b[STEP] == PUSHING:
            return list(PUSHES)
        w = 0 if b[STEP] == MOVE1 else 1
        return [_WORKERS[w][cell] for cell in neighbours(b[WORKER + w])]

    def step(self, s: S, seat: int, a: Action) -> bool:
        b = s.mb[seat]
        if isinstance(a, Push):
            self.push(s, b, a)
            b[STEP] = 0
            return False
        assert isinstance(a, Worker)
        w = a.worker
        self.travel(s, seat, b, w, a.cell)
        if w == 0:
            b[STEP] = MOVE2
            return True
        b[STEP] = 0
        return False

    def push(self, s: S, b: list[int], edge: Push) -> None:
        """Slide the spare tile in at an edge; the tile pushed out is the new spare, and a worker on it
        rides round onto the tile just slid in (Labyrinth-style)."""
        k = edge.line
        cells = [i * N + k for i in range(N)] if edge.column else [k * N + i for i in range(N)]
        if edge.far:
            cells.reverse()
        tiles = [b[GRID + x] for x in cells]
        out = tiles[-1]
        new = [b[SPARE]] + tiles[:-1]
        for x, t in zip(cells, new, strict=True):
            b[GRID + x] = t
        b[SPARE] = out
        for w in range(2):
            if b[WORKER + w] in cells:
                i = cells.index(b[WORKER + w])
                b[WORKER + w] = cells[(i + 1) % N]
        s._event(f"The Chronomancer slides a {TILES[new[0]]} tile in at {edge.edge}; {TILES[out]} comes out")

    def travel(self, s: S, seat: int, b: list[int], w: int, cell: int) -> None:
        """A worker steps (or stays) and gathers a shard of its tile; an Anomaly turns the timepiece back."""
        b[WORKER + w] = cell
        t = b[GRID + cell]
        if t == ANOMALY:
            if not b[REWOUND]:
                b[REWOUND] = 1
                s.time[seat] = max(C.clock_start, s.time[seat] - self.p["rewind"])
                s._event(f"Temporal anomaly: the Chronomancer's timepiece goes back to hour {s.time[seat]}")
            else:
                s._event("The second anomaly in one journey does nothing")
        else:
            b[SHARDS + t] += 1
            s._event(f"Chronomancer worker {w + 1} gathers a {TILES[t]} shard")

    def craft(self, s: S, seat: int, b: list[int]) -> None:
        """Shards become artefacts: large from ``large`` of a colour, then small from ``small``."""
        for c in range(4):
            n = b[SHARDS + c]
            large, n = divmod(n, self.p["large"])
            small, n = divmod(n, self.p["small"])
            if large:
                produce(s, seat, c * 2 + 1, large)
            if small:
                produce(s, seat, c * 2, small)
            b[SHARDS + c] = n

    def staff(self, s: S, seat: int, amount: int) -> None:
        b = s.mb[seat]
        t = b[GRID + b[WORKER]]
        if t != ANOMALY:
            b[SHARDS + t] += amount
            s._event(f"Staff: the Chronomancer gains {amount} {TILES[t]} shard(s)")

    def view(self, s: S, seat: int) -> dict[str, Any]:
        b = s.mb[seat]
        return {
            "grid": [[TILES[b[GRID + r * N + c]] for c in range(N)] for r in range(N)],
            "spare": TILES[b[SPARE]],
            "workers": [b[WORKER] + 1, b[WORKER + 1] + 1],
            "shards": {COLOURS[c]: b[SHARDS + c] for c in range(4)},
        }

    def potential(self, s: S, seat: int) -> float:
        b = s.mb[seat]
        return sum(b[SHARDS + c] for c in range(4)) * 2.0

    def prompt(self, s: S, seat: int) -> str:
        step = s.mb[seat][STEP]
        if step == PUSHING:
            return "choose where to slide in the spare time tile"
        return f"move worker {1 if step == MOVE1 else 2} one step (or stay) and gather"


register(Chronomancer())
