"""The Alchemist (Phoenestra Orwyn): marbles down a slide into cauldrons, Ichor and Toxic Waste.

Public: marbles roll down a dispenser like *Potion Explosion*, potions are brewed in
cauldrons, Ichor is an ingredient, Toxic Waste hurts, brew with 3+ cauldrons (RAND,
BGUK, BSN, LUDOVOX). The board below is designed (``data/merchants.toml``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from freetrader.core import Action
from freetrader.core.frames import Frame, finish, push

from ..actions import DONE, INTOS, Into, Pour
from ..components import COLOURS
from . import Board, Merchant, Step, draw_corruption, produce, register

if TYPE_CHECKING:
    from ..state import CoveState
    from ..state import CoveState as S

ICHOR = 4
NAMES = COLOURS[:4] + ("ichor",)
_POURS = tuple(Pour(i) for i in range(6))


class AlchemistBoard(Board):
    bag: list[int]  # marbles in the bag per colour, Ichor last
    slide: list[int]  # marbles on the slide, bottom first (at most ``slide``, and 6)
    cauldron: list[int]  # marbles per cauldron (colour)
    ichor: list[int]  # Ichor per cauldron
    toxic: int  # Toxic Waste
    pours: int  # pours left in this Pour action
    waiting: int  # Ichor marbles poured and waiting for a cauldron


class Alchemist(Merchant[AlchemistBoard]):
    id = "alchemist"
    board_class = AlchemistBoard

    def setup(self, s: S, seat: int) -> AlchemistBoard:
        return AlchemistBoard(bag=[self.p["marbles"]] * 4 + [self.p["ichor"]], slide=[], cauldron=[0] * 4,
                              ichor=[0] * 4, toxic=0, pours=0, waiting=0)

    def gather(self, s: S, b: AlchemistBoard, n: int) -> None:
        """Marbles drawn at random from the Alchemist's bag roll onto the slide."""
        got = []
        for _ in range(n):
            total = sum(b.bag)
            if total == 0 or len(b.slide) >= min(self.p["slide"], 6):
                break
            r = s.rng.below(total)
            for c in range(5):
                if r < b.bag[c]:
                    b.bag[c] -= 1
                    b.slide.append(c)
                    got.append(NAMES[c])
                    break
                r -= b.bag[c]
        if got:
            s._event(f"The Alchemist's marbles roll down the slide: {', '.join(got)}")

    def brewable(self, b: AlchemistBoard) -> list[int]:
        return [c for c in range(4) if b.cauldron[c] >= self.p["small"]]

    # -- hooks -------------------------------------------------------------------
    def available(self, s: S, seat: int, action: str) -> bool:
        b = self.board(s, seat)
        if action == "gather":
            return len(b.slide) < min(self.p["slide"], 6) and sum(b.bag) > 0
        if action == "pour":
            return len(b.slide) > 0
        return bool(self.brewable(b))

    def begin(self, s: S, seat: int, action: str) -> Step | None:
        b = self.board(s, seat)
        if action == "gather":
            self.gather(s, b, self.p["gather"])
            return None
        if action == "pour":
            b.pours = self.p["pours"]
            return POURING
        self.brew(s, seat, b)
        return None

    def pour(self, s: S, b: AlchemistBoard, i: int) -> None:
        """Take a marble and its same-colour neighbours off the slide; if the marbles that close the gap
        match, they follow (one chain). Colours fill their cauldron; Ichor waits for a cauldron choice."""
        sl = b.slide
        taken = self._group(sl, i)
        lo = min(taken)
        rest = [m for k, m in enumerate(sl) if k not in taken]
        if 0 < lo < len(rest) and rest[lo - 1] == rest[lo]:
            more = self._group(rest, lo)
            taken_colours = [sl[k] for k in taken] + [rest[k] for k in more]
            rest = [m for k, m in enumerate(rest) if k not in more]
        else:
            taken_colours = [sl[k] for k in taken]
        b.slide = rest
        s._event(f"The Alchemist pours {', '.join(NAMES[c] for c in taken_colours)}")
        for c in range(4):
            n = taken_colours.count(c)
            if n:
                self.fill(s, b, c, n)
        b.waiting += taken_colours.count(ICHOR)

    @staticmethod
    def _group(sl: list[int], i: int) -> set[int]:
        c = sl[i]
        lo = hi = i
        while lo > 0 and sl[lo - 1] == c:
            lo -= 1
        while hi + 1 < len(sl) and sl[hi + 1] == c:
            hi += 1
        return set(range(lo, hi + 1))

    def fill(self, s: S, b: AlchemistBoard, c: int, n: int, ichor: bool = False) -> None:
        room = self.p["cauldron"] - b.cauldron[c]
        put = min(room, n)
        b.cauldron[c] += put
        if ichor:
            b.ichor[c] += put
            b.toxic += n - put  # Ichor with nowhere to go spills into Toxic Waste
        else:
            b.bag[c] += n - put

    def brew(self, s: S, seat: int, b: AlchemistBoard) -> None:
        """Every cauldron with enough marbles brews: small potion from ``small``, large from ``large``;
        a cauldron with Ichor sheds 1 into Toxic Waste; brewing ``purge``+ at once empties Toxic Waste."""
        cauldrons = self.brewable(b)
        for c in cauldrons:
            size = 1 if b.cauldron[c] >= self.p["large"] else 0
            produce(s, seat, c * 2 + size)
            ich = b.ichor[c]
            if ich:
                b.toxic += 1
                b.bag[ICHOR] += ich - 1
            b.bag[c] += b.cauldron[c] - ich
            b.cauldron[c] = b.ichor[c] = 0
        if len(cauldrons) >= self.p["purge"] and b.toxic:
            s._event(f"The Alchemist brews {len(cauldrons)} cauldrons at once and purges the Toxic Waste")
            b.bag[ICHOR] += b.toxic
            b.toxic = 0

    def clean_up(self, s: S, seat: int) -> None:
        b = self.board(s, seat)
        excess = b.toxic - self.p["toxic_free"]
        if excess > 0:
            s._event(f"Toxic Waste: the Alchemist has {b.toxic} Ichor there")
            draw_corruption(s, seat, excess)

    def staff(self, s: S, seat: int, amount: int) -> None:
        self.gather(s, self.board(s, seat), amount)

    def view(self, s: S, seat: int) -> dict[str, Any]:
        b = self.board(s, seat)
        return {
            "bag": {NAMES[c]: b.bag[c] for c in range(5)},
            "slide": [NAMES[c] for c in b.slide],
            "cauldrons": {COLOURS[c]: {"marbles": b.cauldron[c], "ichor": b.ichor[c]} for c in range(4)},
            "toxic_waste": b.toxic,
            "pours_left": b.pours,
            "ichor_waiting": b.waiting,
        }

    def potential(self, s: S, seat: int) -> float:
        b = self.board(s, seat)
        return sum(min(b.cauldron[c], 4) * 1.6 for c in range(4)) + len(b.slide) * 0.6 - b.toxic * 1.0


ALCHEMIST = Alchemist()


@dataclass(frozen=True, slots=True)
class Pouring(Step):
    """Pour: marble groups off the slide, one at a time, until the pours run out, the slide is empty, or done."""

    def legal(self, s: CoveState) -> list[Action]:
        b = ALCHEMIST.board(s, s.actor)
        out: list[Action] = list(_POURS[: len(b.slide)])
        if b.pours < ALCHEMIST.p["pours"]:
            out.append(DONE)
        return out

    def prompt(self, s: CoveState) -> str:
        return "pour a marble group from the slide (or done)"

    def apply(self, s: CoveState, action: Action) -> None:
        b = ALCHEMIST.board(s, s.actor)
        if not isinstance(action, Pour):  # done
            b.pours = 0
            finish(s, self)
            return
        ALCHEMIST.pour(s, b, action.marble)
        b.pours -= 1
        if b.waiting:
            push(s, ICHOR_INTO)
        else:
            self.poured(s)

    def child_done(self, s: CoveState, done: Frame[CoveState]) -> None:
        if isinstance(done, IchorInto):
            self.poured(s)

    def poured(self, s: CoveState) -> None:
        b = ALCHEMIST.board(s, s.actor)
        if not (b.pours > 0 and b.slide):
            finish(s, self)


@dataclass(frozen=True, slots=True)
class IchorInto(Step):
    """The Ichor just poured goes into a cauldron of the player's choice."""

    def legal(self, s: CoveState) -> list[Action]:
        return list(INTOS)

    def prompt(self, s: CoveState) -> str:
        return "choose the cauldron for the Ichor"

    def apply(self, s: CoveState, action: Action) -> None:
        assert isinstance(action, Into)
        b = ALCHEMIST.board(s, s.actor)
        ALCHEMIST.fill(s, b, action.colour, b.waiting, ichor=True)
        b.waiting = 0
        finish(s, self)


POURING, ICHOR_INTO = Pouring(), IchorInto()
register(ALCHEMIST)
