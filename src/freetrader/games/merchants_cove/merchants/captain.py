"""The Captain (Ylva Greentail): a fleet, a push-your-luck compass spinner, fish, shells and treasure.

Public: ships sail out, a compass spinner (wheel of fortune) decides the catch, take
the extra spin, treasures renew at the end of each round, recall only when recalling
3+, small red and green goods come easily (RAND, BSN, AWNT, LUDOVOX). The board is
designed. The spinner uses the state's RNG, in public.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from freetrader.core import Action
from freetrader.core.frames import finish, replace

from ..actions import AGAIN, STOP, Ship, Treasure
from ..actions import TREASURES as _TREASURE_COLOURS
from ..components import COLOURS
from . import Board, Merchant, Step, gain, produce, register

if TYPE_CHECKING:
    from ..state import CoveState
    from ..state import CoveState as S

SHIPS = 3
TREASURE = 4
ITEMS = COLOURS[:4] + ("treasure",)
_SHIPS = tuple(Ship(i) for i in range(SHIPS))


class CaptainBoard(Board):
    at_sea: list[int]  # per ship: 1 at sea
    hold: list[list[int]]  # per ship: its catch per colour, then its treasures
    treasures: int  # treasures left this round
    spins: int  # spins left in the last Spin action
    waiting: int  # treasures recalled and waiting for a colour


class Captain(Merchant[CaptainBoard]):
    id = "captain"
    board_class = CaptainBoard

    def setup(self, s: S, seat: int) -> CaptainBoard:
        return CaptainBoard(at_sea=[0] * SHIPS, hold=[[0] * 5 for _ in range(SHIPS)], treasures=self.p["treasures"],
                            spins=0, waiting=0)

    def at_sea(self, b: CaptainBoard) -> list[int]:
        return [i for i in range(min(self.p["ships"], SHIPS)) if b.at_sea[i]]

    def available(self, s: S, seat: int, action: str) -> bool:
        b = self.board(s, seat)
        if action == "sail":
            return len(self.at_sea(b)) < min(self.p["ships"], SHIPS)
        if action == "spin":
            return bool(self.at_sea(b))
        return any(sum(b.hold[i]) for i in self.at_sea(b))

    def begin(self, s: S, seat: int, action: str) -> Step | None:
        b = self.board(s, seat)
        if action == "sail":
            i = next(k for k in range(SHIPS) if not b.at_sea[k])
            b.at_sea[i] = 1
            s._event(f"The Captain's ship {i + 1} sets sail")
            self.spin(s, b, i)
            return None
        if action == "spin":
            b.spins = self.p["spins"]
            ships = self.at_sea(b)
            if len(ships) > 1:
                return CHOOSE_SHIP
            return self.spin_and_ask(s, b, ships[0])
        return self.recall(s, seat, b)

    def spin(self, s: S, b: CaptainBoard, i: int) -> None:
        """Spin the compass for ship ``i``: a catch, a treasure while the round's last, or a storm."""
        compass = self.data.lists["compass"]
        sector = compass[s.rng.below(len(compass))]
        hold = b.hold[i]
        if sector == "storm":
            lost = sum(hold)
            b.hold[i] = [0] * 5
            b.at_sea[i] = 0
            s._event(f"Compass: storm! ship {i + 1} loses its {lost} catches and limps home")
        elif sector == "treasure":
            if b.treasures > 0:
                b.treasures -= 1
                hold[TREASURE] += 1
                s._event(f"Compass: treasure for ship {i + 1}")
            else:
                s._event(f"Compass: treasure, but none is left this round (ship {i + 1})")
        else:
            hold[COLOURS.index(sector)] += 1
            s._event(f"Compass: {sector} catch for ship {i + 1}")

    def spin_and_ask(self, s: S, b: CaptainBoard, i: int) -> Step | None:
        """Spin for ship ``i``; the offer to spin again, while spins are left and the ship is at sea."""
        self.spin(s, b, i)
        b.spins -= 1
        if b.spins > 0 and b.at_sea[i]:
            return SpinAgain(i)
        return None

    def recall(self, s: S, seat: int, b: CaptainBoard) -> Step | None:
        """All ships come home; per colour large goods from each ``large`` catches, then small from ``small``."""
        ships = self.at_sea(b)
        total = [0] * 5
        for i in ships:
            for k in range(5):
                total[k] += b.hold[i][k]
            b.hold[i] = [0] * 5
            b.at_sea[i] = 0
        s._event(f"The Captain recalls {len(ships)} ship(s)")
        for c in range(4):
            n = total[c]
            large, n = divmod(n, self.p["large"])
            small = n // self.p["small"]
            if large:
                produce(s, seat, c * 2 + 1, large)
            if small:
                produce(s, seat, c * 2, small)
        if len(ships) >= self.p["fleet_at"]:
            gain(s, seat, self.p["fleet_bonus"])
            s._event(f"The whole fleet comes home: the Captain gains {self.p['fleet_bonus']} gold")
        b.waiting = total[TREASURE]
        return PLACE_TREASURE if b.waiting else None

    def clean_up(self, s: S, seat: int) -> None:
        self.board(s, seat).treasures = self.p["treasures"]  # treasures renew at the end of each round (RAND)

    def staff(self, s: S, seat: int, amount: int) -> None:
        b = self.board(s, seat)
        ships = self.at_sea(b)
        if ships:
            b.hold[ships[0]][TREASURE] += amount
            s._event(f"Staff: the Captain's ship {ships[0] + 1} takes on {amount} treasure")

    def view(self, s: S, seat: int) -> dict[str, Any]:
        b = self.board(s, seat)
        ships = [{"at_sea": bool(b.at_sea[i]), "hold": {ITEMS[k]: b.hold[i][k] for k in range(5)}}
                 for i in range(SHIPS)]
        return {"ships": ships, "treasures_left": b.treasures, "spins_left": b.spins, "treasures_to_place": b.waiting}

    def potential(self, s: S, seat: int) -> float:
        b = self.board(s, seat)
        return sum(b.hold[i][k] * (1.5 if k < 4 else 4.0) for i in self.at_sea(b) for k in range(5))


CAPTAIN = Captain()


def _next_step(s: CoveState, frame: Step, then: Step | None) -> None:
    """The Captain's action goes on with ``then``, or is done."""
    if then is None:
        finish(s, frame)
    else:
        replace(s, then)


@dataclass(frozen=True, slots=True)
class ChooseShip(Step):
    """Spin with more than one ship at sea: the ship to spin for."""

    def legal(self, s: CoveState) -> list[Action]:
        return [_SHIPS[i] for i in CAPTAIN.at_sea(CAPTAIN.board(s, s.actor))]

    def prompt(self, s: CoveState) -> str:
        return "choose the ship to spin for"

    def apply(self, s: CoveState, action: Action) -> None:
        assert isinstance(action, Ship)
        _next_step(s, self, CAPTAIN.spin_and_ask(s, CAPTAIN.board(s, s.actor), action.ship))


@dataclass(frozen=True, slots=True)
class SpinAgain(Step):
    """Push your luck: spin again for ``ship``, or stop."""

    ship: int

    def legal(self, s: CoveState) -> list[Action]:
        return [AGAIN, STOP]

    def prompt(self, s: CoveState) -> str:
        return "spin the compass again, or stop"

    def apply(self, s: CoveState, action: Action) -> None:
        if action == AGAIN:
            _next_step(s, self, CAPTAIN.spin_and_ask(s, CAPTAIN.board(s, s.actor), self.ship))
        else:
            finish(s, self)


@dataclass(frozen=True, slots=True)
class PlaceTreasure(Step):
    """Each recalled treasure makes a large good of a colour the player chooses."""

    def legal(self, s: CoveState) -> list[Action]:
        return list(_TREASURE_COLOURS)

    def prompt(self, s: CoveState) -> str:
        return "choose the colour of the large good the treasure makes"

    def apply(self, s: CoveState, action: Action) -> None:
        assert isinstance(action, Treasure)
        b = CAPTAIN.board(s, s.actor)
        produce(s, s.actor, action.colour * 2 + 1)
        b.waiting -= 1
        if not b.waiting:
            finish(s, self)


CHOOSE_SHIP, PLACE_TREASURE = ChooseShip(), PlaceTreasure()
register(CAPTAIN)
