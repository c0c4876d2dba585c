"""The Chronomancer (Wiz Grey and Humpty McHalf): two workers on a sliding board of time tiles.

Public: two worker figures, a sliding-tile board like *Labyrinth*, time manipulation
and temporal anomalies, artefacts from time travel; the hardest base merchant (RAND,
BSN, SPT, AWNT, BGB). The board is designed; tiles are laid out at random (the
state's RNG) in public.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from freetrader.core import Action
from freetrader.core.frames import finish, replace

from ..actions import Push, Worker
from ..components import COLOURS
from ..components import COMPONENTS as C
from . import Board, Merchant, Step, produce, register

if TYPE_CHECKING:
    from ..state import CoveState
    from ..state import CoveState as S

N = 3
ANOMALY = 4
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


class ChronomancerBoard(Board):
    grid: list[int]  # the tiles of the grid, row by row: colour 0-3 or ANOMALY
    spare: int  # the spare tile
    workers: list[int]  # the cell each worker stands on
    shards: list[int]  # shards per colour


class Chronomancer(Merchant[ChronomancerBoard]):
    id = "chronomancer"
    board_class = ChronomancerBoard

    def setup(self, s: S, seat: int) -> ChronomancerBoard:
        tiles = [TILES.index(t) for t in self.data.lists["tiles"]]
        s.rng.shuffle(tiles)
        return ChronomancerBoard(grid=tiles[:9], spare=tiles[9], workers=[0, N * N - 1], shards=[0] * 4)

    def available(self, s: S, seat: int, action: str) -> bool:
        if action == "craft":
            return any(self.board(s, seat).shards[c] >= self.p["small"] for c in range(4))
        return True

    def begin(self, s: S, seat: int, action: str) -> Step | None:
        if action == "shift":
            return SHIFT
        if action == "travel":
            return Travel(worker=0, rewound=False)
        self.craft(s, seat, self.board(s, seat))
        return None

    def push(self, s: S, b: ChronomancerBoard, edge: Push) -> None:
        """Slide the spare tile in at an edge; the tile pushed out is the new spare, and a worker on it
        rides round onto the tile just slid in (Labyrinth-style)."""
        k = edge.line
        cells = [i * N + k for i in range(N)] if edge.column else [k * N + i for i in range(N)]
        if edge.far:
            cells.reverse()
        tiles = [b.grid[x] for x in cells]
        out = tiles[-1]
        new = [b.spare] + tiles[:-1]
        for x, t in zip(cells, new, strict=True):
            b.grid[x] = t
        b.spare = out
        for w in range(2):
            if b.workers[w] in cells:
                i = cells.index(b.workers[w])
                b.workers[w] = cells[(i + 1) % N]
        s._event(f"The Chronomancer slides a {TILES[new[0]]} tile in at {edge.edge}; {TILES[out]} comes out")

    def travel(self, s: S, seat: int, b: ChronomancerBoard, w: int, cell: int, rewound: bool) -> bool:
        """A worker steps (or stays) and gathers a shard of its tile; an Anomaly turns the timepiece back,
        once a journey. Whether the journey has turned it back now."""
        b.workers[w] = cell
        t = b.grid[cell]
        if t == ANOMALY:
            if not rewound:
                s.time[seat] = max(C.clock_start, s.time[seat] - self.p["rewind"])
                s._event(f"Temporal anomaly: the Chronomancer's timepiece goes back to hour {s.time[seat]}")
                return True
            s._event("The second anomaly in one journey does nothing")
        else:
            b.shards[t] += 1
            s._event(f"Chronomancer worker {w + 1} gathers a {TILES[t]} shard")
        return rewound

    def craft(self, s: S, seat: int, b: ChronomancerBoard) -> None:
        """Shards become artefacts: large from ``large`` of a colour, then small from ``small``."""
        for c in range(4):
            n = b.shards[c]
            large, n = divmod(n, self.p["large"])
            small, n = divmod(n, self.p["small"])
            if large:
                produce(s, seat, c * 2 + 1, large)
            if small:
                produce(s, seat, c * 2, small)
            b.shards[c] = n

    def staff(self, s: S, seat: int, amount: int) -> None:
        b = self.board(s, seat)
        t = b.grid[b.workers[0]]
        if t != ANOMALY:
            b.shards[t] += amount
            s._event(f"Staff: the Chronomancer gains {amount} {TILES[t]} shard(s)")

    def view(self, s: S, seat: int) -> dict[str, Any]:
        b = self.board(s, seat)
        return {
            "grid": [[TILES[b.grid[r * N + c]] for c in range(N)] for r in range(N)],
            "spare": TILES[b.spare],
            "workers": [b.workers[0] + 1, b.workers[1] + 1],
            "shards": {COLOURS[c]: b.shards[c] for c in range(4)},
        }

    def potential(self, s: S, seat: int) -> float:
        return sum(self.board(s, seat).shards) * 2.0


CHRONOMANCER = Chronomancer()


@dataclass(frozen=True, slots=True)
class Shift(Step):
    """Shift: the edge the spare time tile slides in at."""

    def legal(self, s: CoveState) -> list[Action]:
        return list(PUSHES)

    def prompt(self, s: CoveState) -> str:
        return "choose where to slide in the spare time tile"

    def apply(self, s: CoveState, action: Action) -> None:
        assert isinstance(action, Push)
        CHRONOMANCER.push(s, CHRONOMANCER.board(s, s.actor), action)
        finish(s, self)


@dataclass(frozen=True, slots=True)
class Travel(Step):
    """Travel: worker 1, then worker 2, each one step (or stay); ``rewound`` once an Anomaly turned time back."""

    worker: int
    rewound: bool

    def legal(self, s: CoveState) -> list[Action]:
        cell = CHRONOMANCER.board(s, s.actor).workers[self.worker]
        return [_WORKERS[self.worker][c] for c in neighbours(cell)]

    def prompt(self, s: CoveState) -> str:
        return f"move worker {self.worker + 1} one step (or stay) and gather"

    def apply(self, s: CoveState, action: Action) -> None:
        assert isinstance(action, Worker)
        rewound = CHRONOMANCER.travel(s, s.actor, CHRONOMANCER.board(s, s.actor), action.worker, action.cell,
                                      self.rewound)
        if self.worker == 0:
            replace(s, Travel(worker=1, rewound=rewound))
        else:
            finish(s, self)


SHIFT = Shift()
register(CHRONOMANCER)
