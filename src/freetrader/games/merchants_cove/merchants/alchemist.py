"""The Alchemist (Phoenestra Orwyn): marbles down a slide into cauldrons, Ichor and Toxic Waste.

Public: marbles roll down a dispenser like *Potion Explosion*, potions are brewed in
cauldrons, Ichor is an ingredient, Toxic Waste hurts, brew with 3+ cauldrons (RAND,
BGUK, BSN, LUDOVOX). The board below is designed (``data/merchants.toml``).

Board (``s.mb[seat]``): marble bag counts (4 colours + Ichor), the slide (up to
``slide`` marbles, bottom first), cauldron fill and Ichor per colour, Toxic Waste,
pours left in the action, Ichor marbles waiting for a cauldron.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from freetrader.core import Action

from ..actions import DONE, INTOS, Into, Pour
from ..components import COLOURS
from . import Merchant, draw_corruption, produce, register

if TYPE_CHECKING:
    from ..state import CoveState as S

ICHOR = 4
BAG, SLIDE_N, SLIDE, CAUL, CICH, TOXIC, POURS, WAIT = 0, 5, 6, 12, 16, 20, 21, 22
SIZE = 23
NAMES = COLOURS[:4] + ("ichor",)
_POURS = tuple(Pour(i) for i in range(6))


class Alchemist(Merchant):
    id = "alchemist"

    def setup(self, s: S, seat: int) -> list[int]:
        b = [0] * SIZE
        for c in range(4):
            b[BAG + c] = self.p["marbles"]
        b[BAG + ICHOR] = self.p["ichor"]
        for i in range(6):
            b[SLIDE + i] = -1
        return b

    # -- helpers ---------------------------------------------------------------
    @staticmethod
    def slide(b: list[int]) -> list[int]:
        return b[SLIDE:SLIDE + b[SLIDE_N]]

    @staticmethod
    def set_slide(b: list[int], marbles: list[int]) -> None:
        b[SLIDE_N] = len(marbles)
        for i in range(6):
            b[SLIDE + i] = marbles[i] if i < len(marbles) else -1

    def gather(self, s: S, b: list[int], n: int) -> None:
        """Marbles drawn at random from the Alchemist's bag roll onto the slide."""
        sl = self.slide(b)
        got = []
        for _ in range(n):
            total = sum(b[BAG:BAG + 5])
            if total == 0 or len(sl) >= min(self.p["slide"], 6):
                break
            r = s.rng.below(total)
            for c in range(5):
                if r < b[BAG + c]:
                    b[BAG + c] -= 1
                    sl.append(c)
                    got.append(NAMES[c])
                    break
                r -= b[BAG + c]
        self.set_slide(b, sl)
        if got:
            s._event(f"The Alchemist's marbles roll down the slide: {', '.join(got)}")

    def brewable(self, b: list[int]) -> list[int]:
        return [c for c in range(4) if b[CAUL + c] >= self.p["small"]]

    # -- hooks -------------------------------------------------------------------
    def available(self, s: S, seat: int, action: str) -> bool:
        b = s.mb[seat]
        if action == "gather":
            return b[SLIDE_N] < min(self.p["slide"], 6) and sum(b[BAG:BAG + 5]) > 0
        if action == "pour":
            return b[SLIDE_N] > 0
        return bool(self.brewable(b))

    def begin(self, s: S, seat: int, action: str) -> bool:
        b = s.mb[seat]
        if action == "gather":
            self.gather(s, b, self.p["gather"])
            return False
        if action == "pour":
            b[POURS] = self.p["pours"]
            return True
        self.brew(s, seat, b)
        return False

    def legal(self, s: S, seat: int) -> list[Action]:
        b = s.mb[seat]
        if b[WAIT]:
            return list(INTOS)
        out: list[Action] = list(_POURS[: b[SLIDE_N]])
        if b[POURS] < self.p["pours"]:
            out.append(DONE)
        return out

    def step(self, s: S, seat: int, a: Action) -> bool:
        b = s.mb[seat]
        if isinstance(a, Into):
            self.fill(s, b, a.colour, b[WAIT], ichor=True)
            b[WAIT] = 0
        elif isinstance(a, Pour):
            self.pour(s, b, a.marble)
            b[POURS] -= 1
        else:  # done
            b[POURS] = 0
            return False
        if b[WAIT]:
            return True
        return b[POURS] > 0 and b[SLIDE_N] > 0

    def pour(self, s: S, b: list[int], i: int) -> None:
        """Take a marble and its same-colour neighbours off the slide; if the marbles that close the gap
        match, they follow (one chain). Colours fill their cauldron; Ichor waits for a cauldron choice."""
        sl = self.slide(b)
        taken = self._group(sl, i)
        lo = min(taken)
        rest = [m for k, m in enumerate(sl) if k not in taken]
        if 0 < lo < len(rest) and rest[lo - 1] == rest[lo]:
            more = self._group(rest, lo)
            taken_colours = [sl[k] for k in taken] + [rest[k] for k in more]
            rest = [m for k, m in enumerate(rest) if k not in more]
        else:
            taken_colours = [sl[k] for k in taken]
        self.set_slide(b, rest)
        s._event(f"The Alchemist pours {', '.join(NAMES[c] for c in taken_colours)}")
        for c in range(4):
            n = taken_colours.count(c)
            if n:
                self.fill(s, b, c, n)
        b[WAIT] += taken_colours.count(ICHOR)

    @staticmethod
    def _group(sl: list[int], i: int) -> set[int]:
        c = sl[i]
        lo = hi = i
        while lo > 0 and sl[lo - 1] == c:
            lo -= 1
        while hi + 1 < len(sl) and sl[hi + 1] == c:
            hi += 1
        return set(range(lo, hi + 1))

    def fill(self, s: S, b: list[int], c: int, n: int, ichor: bool = False) -> None:
        room = self.p["cauldron"] - b[CAUL + c]
        put = min(room, n)
        b[CAUL + c] += put
        if ichor:
            b[CICH + c] += put
            b[TOXIC] += n - put  # Ichor with nowhere to go spills into Toxic Waste
        else:
            b[BAG + c] += n - put

    def brew(self, s: S, seat: int, b: list[int]) -> None:
        """Every cauldron with enough marbles brews: small potion from ``small``, large from ``large``;
        a cauldron with Ichor sheds 1 into Toxic Waste; brewing ``purge``+ at once empties Toxic Waste."""
        cauldrons = self.brewable(b)
        for c in cauldrons:
            size = 1 if b[CAUL + c] >= self.p["large"] else 0
            produce(s, seat, c * 2 + size)
            ich = b[CICH + c]
            if ich:
                b[TOXIC] += 1
                b[BAG + ICHOR] += ich - 1
            b[BAG + c] += b[CAUL + c] - ich
            b[CAUL + c] = b[CICH + c] = 0
        if len(cauldrons) >= self.p["purge"] and b[TOXIC]:
            s._event(f"The Alchemist brews {len(cauldrons)} cauldrons at once and purges the Toxic Waste")
            b[BAG + ICHOR] += b[TOXIC]
            b[TOXIC] = 0

    def clean_up(self, s: S, seat: int) -> None:
        b = s.mb[seat]
        excess = b[TOXIC] - self.p["toxic_free"]
        if excess > 0:
            s._event(f"Toxic Waste: the Alchemist has {b[TOXIC]} Ichor there")
            draw_corruption(s, seat, excess)

    def staff(self, s: S, seat: int, amount: int) -> None:
        self.gather(s, s.mb[seat], amount)

    def view(self, s: S, seat: int) -> dict[str, Any]:
        b = s.mb[seat]
        return {
            "bag": {NAMES[c]: b[BAG + c] for c in range(5)},
            "slide": [NAMES[c] for c in self.slide(b)],
            "cauldrons": {COLOURS[c]: {"marbles": b[CAUL + c], "ichor": b[CICH + c]} for c in range(4)},
            "toxic_waste": b[TOXIC],
            "pours_left": b[POURS],
            "ichor_waiting": b[WAIT],
        }

    def potential(self, s: S, seat: int) -> float:
        b = s.mb[seat]
        return sum(min(b[CAUL + c], 4) * 1.6 for c in range(4)) + b[SLIDE_N] * 0.6 - b[TOXIC] * 1.0

    def prompt(self, s: S, seat: int) -> str:
        if s.mb[seat][WAIT]:
            return "choose the cauldron for the Ichor"
        return "pour a marble group from the slide (or done)"


register(Alchemist())
