"""The Blacksmith (Olaf Thundercrack): alloy dice and coal heat furnaces; weapons and armour.

Public: dice placement like *Marco Polo*; furnaces brought to temperature with
alloy dice and coal; craft with 3+ furnaces; unlock new dice; take Corruption to
keep die colours (RAND, FOX, BSN, BGUK). The board below is designed.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from freetrader.core import Action
from freetrader.core.frames import finish

from ..actions import COALS, DONE, KEEPS, Coal, Die, Keep
from ..components import COLOURS
from . import Board, Merchant, Step, draw_corruption, pay, produce, register

if TYPE_CHECKING:
    from ..state import CoveState
    from ..state import CoveState as S

MAXD = 5
_DICE = tuple(Die(i) for i in range(MAXD))


class BlacksmithBoard(Board):
    unlocked: int  # alloy dice unlocked
    pips: list[int]  # per die: its pips (0 unrolled)
    colour: list[int]  # per die: its colour, -1 unrolled
    furnace: list[int]  # per die: the furnace it heats, -1 in hand
    heat: list[int]  # per furnace (colour): its heat
    coal: int
    placed: int  # dice placed in the last Heat action


class Blacksmith(Merchant[BlacksmithBoard]):
    id = "blacksmith"
    board_class = BlacksmithBoard

    def setup(self, s: S, seat: int) -> BlacksmithBoard:
        return BlacksmithBoard(unlocked=self.p["dice"], pips=[0] * MAXD, colour=[-1] * MAXD, furnace=[-1] * MAXD,
                               heat=[0] * 4, coal=0, placed=0)

    def hand(self, b: BlacksmithBoard) -> list[int]:
        return [i for i in range(b.unlocked) if b.furnace[i] < 0]

    def ready(self, b: BlacksmithBoard) -> list[int]:
        return [i for i in self.hand(b) if b.colour[i] >= 0]

    def forgeable(self, b: BlacksmithBoard) -> list[int]:
        return [c for c in range(4) if b.heat[c] >= self.p["small"]]

    def available(self, s: S, seat: int, action: str) -> bool:
        b = self.board(s, seat)
        if action == "smelt":
            return bool(self.hand(b))
        if action == "heat":
            return bool(self.ready(b)) or b.coal > 0
        if action == "forge":
            return bool(self.forgeable(b))
        return b.unlocked < min(self.p["max_dice"], MAXD) and s.gold[seat] >= self.p["unlock_cost"]

    def begin(self, s: S, seat: int, action: str) -> Step | None:
        b = self.board(s, seat)
        if action == "smelt":
            b.coal += self.p["coal"]
            if any(b.colour[i] >= 0 for i in self.hand(b)):
                return KEEP_COLOURS
            self.roll(s, b, keep=False)
            return None
        if action == "heat":
            b.placed = 0
            return HEATING
        if action == "forge":
            self.forge(s, seat, b)
            return None
        pay(s, seat, self.p["unlock_cost"])
        b.unlocked += 1
        s._event(f"The Blacksmith unlocks alloy die {b.unlocked}")
        return None

    def roll(self, s: S, b: BlacksmithBoard, keep: bool) -> None:
        """Roll the alloy dice in hand: pips 1-6 and a colour, unless the colours are kept."""
        out = []
        for i in self.hand(b):
            b.pips[i] = 1 + s.rng.below(6)
            if not keep or b.colour[i] < 0:
                b.colour[i] = s.rng.below(4)
            out.append(f"{b.pips[i]} {COLOURS[b.colour[i]]}")
        s._event("The Blacksmith rolls " + ", ".join(out))

    def forge(self, s: S, seat: int, b: BlacksmithBoard) -> None:
        """Each furnace hot enough makes a good: small at ``small``, large at ``large``; its dice come back."""
        hot = self.forgeable(b)
        for c in hot:
            produce(s, seat, c * 2 + (1 if b.heat[c] >= self.p["large"] else 0))
            b.heat[c] = 0
            for i in range(MAXD):
                if b.furnace[i] == c:
                    b.furnace[i], b.colour[i], b.pips[i] = -1, -1, 0
        if len(hot) >= self.p["bonus_at"]:
            b.coal += self.p["bonus_coal"]
            s._event(f"The Blacksmith forges {len(hot)} furnaces at once and gains {self.p['bonus_coal']} coal")

    def staff(self, s: S, seat: int, amount: int) -> None:
        self.board(s, seat).coal += amount

    def view(self, s: S, seat: int) -> dict[str, Any]:
        b = self.board(s, seat)
        dice = []
        for i in range(b.unlocked):
            dice.append({"pips": b.pips[i], "colour": COLOURS[b.colour[i]] if b.colour[i] >= 0 else None,
                         "furnace": COLOURS[b.furnace[i]] if b.furnace[i] >= 0 else None})
        return {"dice": dice, "furnaces": {COLOURS[c]: b.heat[c] for c in range(4)}, "coal": b.coal,
                "placed_this_action": b.placed}

    def potential(self, s: S, seat: int) -> float:
        b = self.board(s, seat)
        heat = sum(min(b.heat[c], self.p["large"]) for c in range(4))
        return heat * 0.5 + b.coal * 0.8 + len(self.ready(b)) * 1.2 + b.unlocked * 1.0


BLACKSMITH = Blacksmith()


@dataclass(frozen=True, slots=True)
class KeepColours(Step):
    """Smelt with coloured dice in hand: keep their colours for 1 Corruption card, or roll them anew."""

    def legal(self, s: CoveState) -> list[Action]:
        return [KEEPS[True], KEEPS[False]]

    def prompt(self, s: CoveState) -> str:
        return "keep the dice colours for 1 Corruption card, or roll them anew"

    def apply(self, s: CoveState, action: Action) -> None:
        assert isinstance(action, Keep)
        if action.colours:
            draw_corruption(s, s.actor, 1)
        BLACKSMITH.roll(s, BLACKSMITH.board(s, s.actor), action.colours)
        finish(s, self)


@dataclass(frozen=True, slots=True)
class Heating(Step):
    """Heat: dice (up to ``place``) and coal into furnaces, one at a time, until none is left or done."""

    def legal(self, s: CoveState) -> list[Action]:
        b = BLACKSMITH.board(s, s.actor)
        out: list[Action] = []
        if b.placed < BLACKSMITH.p["place"]:
            out += [_DICE[i] for i in BLACKSMITH.ready(b)]
        if b.coal > 0:
            out += COALS
        out.append(DONE)
        return out

    def prompt(self, s: CoveState) -> str:
        return "heat a furnace with a die or coal (or done)"

    def apply(self, s: CoveState, action: Action) -> None:
        b = BLACKSMITH.board(s, s.actor)
        if isinstance(action, Die):
            i = action.die
            c = b.colour[i]
            b.furnace[i] = c
            b.heat[c] += b.pips[i]
            b.placed += 1
            s._event(f"The Blacksmith heats the {COLOURS[c]} furnace with a {b.pips[i]} (heat {b.heat[c]})")
        elif isinstance(action, Coal):
            c = action.colour
            b.coal -= 1
            b.heat[c] += BLACKSMITH.p["coal_heat"]
            s._event(f"The Blacksmith burns coal in the {COLOURS[c]} furnace (heat {b.heat[c]})")
        else:  # done
            finish(s, self)
            return
        if not ((b.placed < BLACKSMITH.p["place"] and BLACKSMITH.ready(b)) or b.coal > 0):
            finish(s, self)


KEEP_COLOURS, HEATING = KeepColours(), Heating()
register(BLACKSMITH)
