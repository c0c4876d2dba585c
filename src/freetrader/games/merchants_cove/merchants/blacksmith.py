"""The Blacksmith (Olaf Thundercrack): alloy dice and coal heat furnaces; weapons and armour.

Public: dice placement like *Marco Polo*; furnaces brought to temperature with
alloy dice and coal; craft with 3+ furnaces; unlock new dice; take Corruption to
keep die colours (RAND, FOX, BSN, BGUK). The board below is designed.

Board (``s.mb[seat]``): dice unlocked; per die its pips, colour (-1 unrolled) and
place (-1 in hand, 0-3 a furnace); furnace heat per colour; coal; the step of a
multi-step action; dice placed in this Heat action.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from freetrader.core import Action

from ..actions import COALS, DONE, KEEPS, Coal, Die, Keep
from ..components import COLOURS
from . import Merchant, draw_corruption, pay, produce, register

if TYPE_CHECKING:
    from ..state import CoveState as S

MAXD = 5
UNLOCKED, PIPS, COL, PLACE, HEAT, COAL, STEP, PLACED = 0, 1, 6, 11, 16, 20, 21, 22
SIZE = 23
KEEP, HEATING = 1, 2
_DICE = tuple(Die(i) for i in range(MAXD))


class Blacksmith(Merchant):
    id = "blacksmith"

    def setup(self, s: S, seat: int) -> list[int]:
        b = [0] * SIZE
        b[UNLOCKED] = self.p["dice"]
        for i in range(MAXD):
            b[COL + i] = -1
            b[PLACE + i] = -1
        return b

    def hand(self, b: list[int]) -> list[int]:
        return [i for i in range(b[UNLOCKED]) if b[PLACE + i] < 0]

    def ready(self, b: list[int]) -> list[int]:
        return [i for i in self.hand(b) if b[COL + i] >= 0]

    def forgeable(self, b: list[int]) -> list[int]:
        return [c for c in range(4) if b[HEAT + c] >= self.p["small"]]

    def available(self, s: S, seat: int, action: str) -> bool:
        b = s.mb[seat]
        if action == "smelt":
            return bool(self.hand(b))
        if action == "heat":
            return bool(self.ready(b)) or b[COAL] > 0
        if action == "forge":
            return bool(self.forgeable(b))
        return b[UNLOCKED] < min(self.p["max_dice"], MAXD) and s.gold[seat] >= self.p["unlock_cost"]

    def begin(self, s: S, seat: int, action: str) -> bool:
        b = s.mb[seat]
        if action == "smelt":
            b[COAL] += self.p["coal"]
            if any(b[COL + i] >= 0 for i in self.hand(b)):
                b[STEP] = KEEP
                return True
            self.roll(s, b, keep=False)
            return False
        if action == "heat":
            b[STEP], b[PLACED] = HEATING, 0
            return True
        if action == "forge":
            self.forge(s, seat, b)
            return False
        pay(s, seat, self.p["unlock_cost"])
        b[UNLOCKED] += 1
        s._event(f"The Blacksmith unlocks alloy die {b[UNLOCKED]}")
        return False

    def roll(self, s: S, b: list[int], keep: bool) -> None:
        """Roll the alloy dice in hand: pips 1-6 and a colour, unless the colours are kept."""
        out = []
        for i in self.hand(b):
            b[PIPS + i] = 1 + s.rng.below(6)
            if not keep or b[COL + i] < 0:
                b[COL + i] = s.rng.below(4)
            out.append(f"{b[PIPS + i]} {COLOURS[b[COL + i]]}")
        s._event("The Blacksmith rolls " + ", ".join(out))

    def legal(self, s: S, seat: int) -> list[Action]:
        b = s.mb[seat]
        if b[STEP] == KEEP:
            return [KEEPS[True], KEEPS[False]]
        out: list[Action] = []
        if b[PLACED] < self.p["place"]:
            out += [_DICE[i] for i in self.ready(b)]
        if b[COAL] > 0:
            out += COALS
        out.append(DONE)
        return out

    def step(self, s: S, seat: int, a: Action) -> bool:
        b = s.mb[seat]
        if isinstance(a, Keep):
            if a.colours:
                draw_corruption(s, seat, 1)
            self.roll(s, b, a.colours)
            b[STEP] = 0
            return False
        if isinstance(a, Die):
            i = a.die
            c = b[COL + i]
            b[PLACE + i] = c
            b[HEAT + c] += b[PIPS + i]
            b[PLACED] += 1
            s._event(f"The Blacksmith heats the {COLOURS[c]} furnace with a {b[PIPS + i]} (heat {b[HEAT + c]})")
        elif isinstance(a, Coal):
            c = a.colour
            b[COAL] -= 1
            b[HEAT + c] += self.p["coal_heat"]
            s._event(f"The Blacksmith burns coal in the {COLOURS[c]} furnace (heat {b[HEAT + c]})")
        else:  # done
            b[STEP] = 0
            return False
        more = (b[PLACED] < self.p["place"] and self.ready(b)) or b[COAL] > 0
        if not more:
            b[STEP] = 0
        return bool(more)

    def forge(self, s: S, seat: int, b: list[int]) -> None:
        """Each furnace hot enough makes a good: small at ``small``, large at ``large``; its dice come back."""
        hot = self.forgeable(b)
        for c in hot:
            produce(s, seat, c * 2 + (1 if b[HEAT + c] >= self.p["large"] else 0))
            b[HEAT + c] = 0
            for i in range(MAXD):
                if b[PLACE + i] == c:
                    b[PLACE + i], b[COL + i], b[PIPS + i] = -1, -1, 0
        if len(hot) >= self.p["bonus_at"]:
            b[COAL] += self.p["bonus_coal"]
            s._event(f"The Blacksmith forges {len(hot)} furnaces at once and gains {self.p['bonus_coal']} coal")

    def staff(self, s: S, seat: int, amount: int) -> None:
        s.mb[seat][COAL] += amount

    def view(self, s: S, seat: int) -> dict[str, Any]:
        b = s.mb[seat]
        dice = []
        for i in range(b[UNLOCKED]):
            dice.append({"pips": b[PIPS + i], "colour": COLOURS[b[COL + i]] if b[COL + i] >= 0 else None,
                         "furnace": COLOURS[b[PLACE + i]] if b[PLACE + i] >= 0 else None})
        return {"dice": dice, "furnaces": {COLOURS[c]: b[HEAT + c] for c in range(4)}, "coal": b[COAL],
                "placed_this_action": b[PLACED]}

    def potential(self, s: S, seat: int) -> float:
        b = s.mb[seat]
        heat = sum(min(b[HEAT + c], self.p["large"]) for c in range(4))
        return heat * 0.5 + b[COAL] * 0.8 + len(self.ready(b)) * 1.2 + b[UNLOCKED] * 1.0

    def prompt(self, s: S, seat: int) -> str:
        if s.mb[seat][STEP] == KEEP:
            return "keep the dice colours for 1 Corruption card, or roll them anew"
        return "heat a furnace with a die or coal (or done)"


register(Blacksmith())
