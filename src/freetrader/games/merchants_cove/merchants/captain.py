"""The Captain (Ylva Greentail): a fleet, a push-your-luck compass spinner, fish, shells and treasure.

Public: ships sail out, a compass spinner (wheel of fortune) decides the catch, take
the extra spin, treasures renew at the end of each round, recall only when recalling
3+, small red and green goods come easily (RAND, BSN, AWNT, LUDOVOX). The board is
designed. The spinner uses the state's RNG, in public.

Board (``s.mb[seat]``): per ship at sea or not and its hold (4 colours + treasure);
treasures left this round; the step of a multi-step action, its ship, spins left,
and treasures waiting for a colour.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from freetrader.core import Action

from ..actions import AGAIN, STOP, Ship, Treasure
from ..actions import TREASURES as _TREASURE_COLOURS
from ..components import COLOURS
from . import Merchant, gain, produce, register

if TYPE_CHECKING:
    from ..state import CoveState as S

SHIPS = 3
AT_SEA, HOLD, TREAS, STEP, SHIP, SPINS, WAIT = 0, 3, 18, 19, 20, 21, 22
SIZE = 23
TREASURE = 4
CHOOSE, PUSH, TREASURES = 1, 2, 3
ITEMS = COLOURS[:4] + ("treasure",)
_SHIPS = tuple(Ship(i) for i in range(SHIPS))


class Captain(Merchant):
    id = "captain"

    def setup(self, s: S, seat: int) -> list[int]:
        b = [0] * SIZE
        b[TREAS] = self.p["treasures"]
        return b

    def at_sea(self, b: list[int]) -> list[int]:
        return [i for i in range(min(self.p["ships"], SHIPS)) if b[AT_SEA + i]]

    def available(self, s: S, seat: int, action: str) -> bool:
        b = s.mb[seat]
        if action == "sail":
            return len(self.at_sea(b)) < min(self.p["ships"], SHIPS)
        if action == "spin":
            return bool(self.at_sea(b))
        return any(sum(b[HOLD + i * 5: HOLD + i * 5 + 5]) for i in self.at_sea(b))

    def begin(self, s: S, seat: int, action: str) -> bool:
        b = s.mb[seat]
        if action == "sail":
            i = next(k for k in range(SHIPS) if not b[AT_SEA + k])
            b[AT_SEA + i] = 1
            s._event(f"The Captain's ship {i + 1} sets sail")
            self.spin(s, b, i)
            return False
        if action == "spin":
            b[SPINS] = self.p["spins"]
            ships = self.at_sea(b)
            if len(ships) > 1:
                b[STEP] = CHOOSE
                return True
            return self.spin_and_ask(s, b, ships[0])
        return self.recall(s, seat, b)

    def spin(self, s: S, b: list[int], i: int) -> None:
        """Spin the compass for ship ``i``: a catch, a treasure while the round's last, or a storm."""
        compass = self.data.lists["compass"]
        sector = compass[s.rng.below(len(compass))]
        if sector == "storm":
            lost = sum(b[HOLD + i * 5: HOLD + i * 5 + 5])
            for k in range(5):
                b[HOLD + i * 5 + k] = 0
            b[AT_SEA + i] = 0
            s._event(f"Compass: storm! ship {i + 1} loses its {lost} catches and limps home")
        elif sector == "treasure":
            if b[TREAS] > 0:
                b[TREAS] -= 1
                b[HOLD + i * 5 + TREASURE] += 1
                s._event(f"Compass: treasure for ship {i + 1}")
            else:
                s._event(f"Compass: treasure, but none is left this round (ship {i + 1})")
        else:
            b[HOLD + i * 5 + COLOURS.index(sector)] += 1
            s._event(f"Compass: {sector} catch for ship {i + 1}")

    def spin_and_ask(self, s: S, b: list[int], i: int) -> bool:
        b[SHIP] = i
        self.spin(s, b, i)
        b[SPINS] -= 1
        if b[SPINS] > 0 and b[AT_SEA + i]:
            b[STEP] = PUSH
            return True
        b[STEP] = 0
        return False

    def recall(self, s: S, seat: int, b: list[int]) -> bool:
        """All ships come home; per colour large goods from each ``large`` catches, then small from ``small``."""
        ships = self.at_sea(b)
        total = [0] * 5
        for i in ships:
            for k in range(5):
                total[k] += b[HOLD + i * 5 + k]
                b[HOLD + i * 5 + k] = 0
            b[AT_SEA + i] = 0
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
        b[WAIT] = total[TREASURE]
        if b[WAIT]:
            b[STEP] = TREASURES
            return True
        return False

    def legal(self, s: S, seat: int) -> list[Action]:
        b = s.mb[seat]
        if b[STEP] == CHOOSE:
            return [_SHIPS[i] for i in self.at_sea(b)]
        if b[STEP] == PUSH:
            return [AGAIN, STOP]
        return list(_TREASURE_COLOURS)

    def step(self, s: S, seat: int, a: Action) -> bool:
        b = s.mb[seat]
        if isinstance(a, Ship):
            return self.spin_and_ask(s, b, a.ship)
        if a == AGAIN:
            return self.spin_and_ask(s, b, b[SHIP])
        if not isinstance(a, Treasure):  # stop
            b[STEP] = 0
            return False
        produce(s, seat, a.colour * 2 + 1)
        b[WAIT] -= 1
        if b[WAIT]:
            return True
        b[STEP] = 0
        return False

    def clean_up(self, s: S, seat: int) -> None:
        s.mb[seat][TREAS] = self.p["treasures"]  # treasures renew at the end of each round (RAND)

    def staff(self, s: S, seat: int, amount: int) -> None:
        b = s.mb[seat]
        ships = self.at_sea(b)
        if ships:
            b[HOLD + ships[0] * 5 + TREASURE] += amount
            s._event(f"Staff: the Captain's ship {ships[0] + 1} takes on {amount} treasure")

    def view(self, s: S, seat: int) -> dict[str, Any]:
        b = s.mb[seat]
        ships = [{"at_sea": bool(b[AT_SEA + i]), "hold": {ITEMS[k]: b[HOLD + i * 5 + k] for k in range(5)}}
                 for i in range(SHIPS)]
        return {"ships": ships, "treasures_left": b[TREAS], "spins_left": b[SPINS], "treasures_to_place": b[WAIT]}

    def potential(self, s: S, seat: int) -> float:
        b = s.mb[seat]
        return sum(b[HOLD + i * 5 + k] * (1.5 if k < 4 else 4.0) for i in self.at_sea(b) for k in range(5))

    def prompt(self, s: S, seat: int) -> str:
        step = s.mb[seat][STEP]
        if step == CHOOSE:
            return "choose the ship to spin for"
        if step == PUSH:
            return "spin the compass again, or stop"
        return "choose the colour of the large good the treasure makes"


register(Captain())
