"""Merchants Cove: The Secret Stash modules, one function per printed rule.

Each module is an option (``__init__.SPEC``); ``rules.py`` calls in here at the
points the rulebook names (drawing a Rogue, docking, the Market, final
scoring). Rogue effects are keyed by the card's ``effect`` id, numbers live in
``data/*.toml``. The decisions a Stash card asks for are frames here; whatever
they set off beyond them (a Raid's Townsfolk ability, a lured guest's placing)
is ``rules.py``'s. Printed text: ``shared/rulebooks/merchants-cove-secret-stash.txt``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from freetrader.core import Action
from freetrader.core.frames import finish, push, replace

from . import board as B
from .actions import (
    DRAW,
    GIVES,
    HALLS,
    KILLS,
    KRAKENS,
    LURES,
    MINDS,
    PAYS,
    RAIDS,
    SKIP,
    STAFFS,
    Give,
    Hall,
    Kill,
    Kraken,
    Mind,
    Pay,
    Staff,
)
from .boats import capacity
from .components import ADV_NAMES, COLOURS, GOOD_IDS, GREY, good
from .components import COMPONENTS as C
from .flow import Choice, Decision, Effect
from .merchants import draw_corruption, gain, pay
from .phases import Phase

if TYPE_CHECKING:
    from .state import CoveState as S

SETS = tuple(C.tf_sets)
ROGUE_BY_ID = B.ROGUE_BY_ID
BASE_ROGUES = tuple(r.index for r in C.rogues if r.box == "base")
GREY_GOOD = good(GREY, 0)
DRAWN_EFFECTS = ("kraken", "doppelgangers", "assassins")  # the Rogue is not placed: the effect replaces it


# == which Rogue cards are active ============================================================
def active(s: S, effect: str) -> bool:
    return any(C.rogues[r].effect == effect for r in s.rogues)


def amount(s: S, effect: str) -> int:
    return sum(C.rogues[r].amount for r in s.rogues if C.rogues[r].effect == effect)


def choose_rogues(s: S) -> list[int]:
    """The Rogue card (option ``rogue``), or with Multiple Rogues three cards, the top one first."""
    rg = s.options["rogue"]
    n = C.stash["multiple_rogues"]["cards"] if s.options["multiple_rogues"] else 1
    pool = list(BASE_ROGUES) if rg == "random" else list(range(len(C.rogues))) if rg == "random-all" else []
    if rg in ROGUE_BY_ID:
        first = ROGUE_BY_ID[rg]
        pool = [first] + [r for r in range(len(C.rogues)) if r != first and C.rogues[r].effect != "kraken"]
        rest = pool[1:]
        s.rng.shuffle(rest)
        return [first] + rest[: n - 1]
    s.rng.shuffle(pool)
    return pool[:n]


def rogues_on_boats(s: S) -> bool:
    """Round Setup: a drawn Rogue may be placed on Boats at Arrival only if every active card allows it."""
    return all(C.rogues[r].on_boats for r in s.rogues)


def multiple_rogues_clean_up(s: S) -> None:
    """Multiple Rogues (RAND): the top card of the Rogue area is removed at each Clean-Up."""
    if len(s.rogues) > 1:
        gone = s.rogues.pop(0)
        s._event(f"Multiple Rogues: {C.rogues[gone].name} is removed; {C.rogues[s.rogues[0]].name} is on top")


# == a drawn Rogue ===========================================================================
def rogue_drawn(s: S, c: int) -> bool:
    """'When drawn' effects that replace placing the Rogue ``c``; True if one happened."""
    for r in s.rogues:
        eff = C.rogues[r].effect
        if eff in DRAWN_EFFECTS:
            s._event(f"{B.who(s, s.actor)} draws a Rogue: {C.rogues[r].name}")
            {"kraken": kraken, "doppelgangers": doppelgangers, "assassins": assassins}[eff](s, c)
            return True
    return False


def kraken(s: S, rogue: int) -> None:
    """5 Kraken: the Rogue back to the bag, then one Customer from a Sailing Boat into the bay."""
    s.bag[rogue] += 1
    targets = kraken_targets(s)
    if targets:
        push(s, KrakenChoice(seat=s.actor, options=tuple(targets)))


def kraken_targets(s: S) -> list[Action]:
    return [KRAKENS[b][c] for b in range(len(s.boats)) if s.docked[b] < 0
            for c in sorted(set(s.boats[b])) if c % 5 != GREY]


def kraken_take(s: S, b: int, c: int) -> None:
    s.boats[b].remove(c)
    s.bay[c] += 1
    s._event(f"The Kraken takes a {ADV_NAMES[c]} Customer from boat {b + 1} into the bay")


@dataclass(frozen=True, slots=True)
class KrakenChoice(Choice):
    """The drawing player chooses the Customer (ruling 2); the Peddler counts Boats on from its Location icon."""

    phase = Phase.KRAKEN

    def prompt(self, s: S) -> str:
        return "Kraken: choose a Customer on a Sailing Boat to drag into the bay"

    def chosen(self, s: S, action: Action) -> None:
        assert isinstance(action, Kraken)
        kraken_take(s, action.boat, action.adventurer)

    def peddler(self, s: S) -> None:
        start = B.location_icon(s)
        targets = [a for a in kraken_targets(s) if isinstance(a, Kraken)]
        a = min(targets, key=lambda x: (x.boat - start) % len(s.boats))
        kraken_take(s, a.boat, a.adventurer)
        finish(s, self)


def doppelgangers(s: S, rogue: int) -> None:
    """10 Doppelgangers: into a Faction Hall of choice, then 1 Adventurer of that Hall back to the bag."""
    s.drawn = rogue
    push(s, HallChoice(seat=s.actor, options=HALLS))


def doppelganger_hall(s: S, c: int) -> None:
    s.hall_rogues[c] += 1
    s.hall_rogue_leaders[c] += s.drawn >= 5  # the Rogue Leader counts as two
    s.drawn = -1
    if s.halls[c] > s.hall_leaders[c]:
        s.halls[c] -= 1
        s.bag[c] += 1
    elif s.hall_leaders[c]:
        s.halls[c] -= 1
        s.hall_leaders[c] -= 1
        s.bag[c + 5] += 1
    s._event(f"A Doppelganger joins the {COLOURS[c]} Faction Hall; one of its Adventurers returns to the bag")


@dataclass(frozen=True, slots=True)
class HallChoice(Choice):
    """The Faction Hall a Doppelganger joins; the Peddler's Location icon picks it."""

    phase = Phase.HALL

    def prompt(self, s: S) -> str:
        return "Doppelgangers: choose the Faction Hall the Rogue joins"

    def chosen(self, s: S, action: Action) -> None:
        assert isinstance(action, Hall)
        doppelganger_hall(s, action.colour)

    def peddler(self, s: S) -> None:
        doppelganger_hall(s, B.location_icon(s) % 4)
        finish(s, self)


def assassins(s: S, rogue: int) -> None:
    """11 Assassins: the Rogue back to the bag; discard 1 Townsfolk from the Town Square, then refill."""
    s.bag[rogue] += 1
    if s.square:
        push(s, AssassinChoice(seat=s.actor, options=tuple(KILLS[t] for t in s.square)))


def assassinate(s: S, t: int) -> None:
    s.square.remove(t)
    s.tf_bottom.append(t)
    B.refill_square(s)
    s._event(f"Assassins: {C.townsfolk[t].name} is discarded from the Town Square")


@dataclass(frozen=True, slots=True)
class AssassinChoice(Choice):
    """The Town Square card the Assassins discard; the Peddler's Location icon picks it."""

    phase = Phase.ASSASSIN

    def prompt(self, s: S) -> str:
        return "Assassins: choose the Townsfolk to discard from the Town Square"

    def chosen(self, s: S, action: Action) -> None:
        assert isinstance(action, Kill)
        assassinate(s, action.townsfolk)

    def peddler(self, s: S) -> None:
        assassinate(s, s.square[B.location_icon(s) % len(s.square)])
        finish(s, self)


def place_targets(s: S, boats: list[int]) -> list[int]:
    """Grey Walkers and Backers restrict where a drawn Rogue goes, 'if able'."""
    if s.drawn % 5 != GREY:
        return boats
    if active(s, "walkers"):
        with_rogue = [b for b in boats if B.has_rogue(s.boats[b])]
        boats = with_rogue or boats
    if active(s, "backers"):
        docking = [b for b in boats if len(s.boats[b]) == capacity(b) - 1 and B.free_slots(s, b)]
        boats = docking or boats
    return boats


def peddler_boats(s: S, boats: list[int]) -> list[int]:
    """Ghost Sailors' Peddler rule: a drawn Rogue considers only Boats with Rogues, if any."""
    if s.drawn % 5 == GREY and active(s, "ghost"):
        return [b for b in boats if B.has_rogue(s.boats[b])] or boats
    return boats


def mind_controllers(s: S, b: int) -> None:
    """13 Mind Controllers: a Rogue placed on a Boat; you may draw 1 Corruption to return a Customer."""
    if active(s, "mind") and s.actor < s.seats and any(c % 5 != GREY for c in s.boats[b]):
        push(s, MindControllers(b))


@dataclass(frozen=True, slots=True)
class MindControllers(Effect):
    """The offer waits for the work above it (the Boat may have docked or emptied meanwhile)."""

    boat: int

    def run(self, s: S) -> None:
        if len(s.boats[self.boat]) and s.docked[self.boat] < 0:
            push(s, MindOffer(self.boat))


@dataclass(frozen=True, slots=True)
class MindOffer(Decision):
    boat: int
    phase = Phase.MIND

    def legal(self, s: S) -> list[Action]:
        return [MINDS[c] for c in sorted(set(s.boats[self.boat])) if c % 5 != GREY] + [SKIP]

    def prompt(self, s: S) -> str:
        return "Mind Controllers: draw 1 Corruption to send a Customer from that Boat to the bag, or skip"

    def apply(self, s: S, action: Action) -> None:
        if isinstance(action, Mind):
            mind_return(s, self.boat, action.adventurer)
        finish(s, self)


def mind_return(s: S, b: int, c: int) -> None:
    draw_corruption(s, s.actor, amount(s, "mind"))
    s.boats[b].remove(c)
    s.bag[c] += 1
    s._event(f"Mind Controllers: a {ADV_NAMES[c]} Customer leaves boat {b + 1} for the bag")


# == docking a Boat with Rogues ===================================================================
def rogue_docked(s: S, rogues: int) -> int | None:
    """Pirates: 3 Gold a Rogue; Warlocks: the Timepiece 1 Hour on (the Hours returned, for the rules to
    advance once the work before them is done). Raiders' offer is the rules' (it uses a Townsfolk ability)."""
    p = s.actor
    if active(s, "pirates"):
        gold = amount(s, "pirates") * rogues
        gain(s, p, gold)
        s._event(f"Pirates: {B.who(s, p)} gains {gold} Gold for {rogues} Rogue(s)")
    if active(s, "warlocks"):
        s._event(f"Warlocks: {B.who(s, p)} advances 1 Hour")
        return amount(s, "warlocks")
    return None


def raid_options(s: S) -> list[Action]:
    return [RAIDS[t] for t in s.square] + [SKIP]


def raid(s: S, t: int) -> None:
    """8 Raiders: draw 1 Corruption, use the Town Square card's ability, discard it under the deck."""
    draw_corruption(s, s.actor, amount(s, "raiders"))
    s.square.remove(t)
    s.tf_bottom.append(t)
    B.refill_square(s)
    s._event(f"Raiders: Seat {s.actor} uses {C.townsfolk[t].name}'s ability")


# == Market ====================================================================================
def charlatans(s: S, pier: int, colour: int, n: int) -> int:
    """9 Charlatans: Rogues count as one of each colour Customer not otherwise present at the Pier."""
    if n or colour == GREY or not active(s, "charlatans"):
        return n
    return B.customers_raw(s, pier, GREY)


def ghost_sailors(s: S, b: int) -> bool:
    """6 Ghost Sailors: Customers left on an undocked Boat with Rogues go to the Lair."""
    return active(s, "ghost") and B.has_rogue(s.boats[b])


# == Townsfolk sets ===========================================================================
@dataclass(frozen=True, slots=True)
class Officials(Decision):
    """Officials: Staff Abilities one at a time, each at most once, assigned Townsfolk or not (ruling 8).

    "Activate any 1 Staff Ability" starts with ``left`` 1: one must be chosen. "In any order, activate any
    or all Staff Abilities" starts with every space: the player may stop before any of them."""

    left: int  # how many more may be activated
    picked: int = 0  # bits: the Staff spaces activated already
    phase = Phase.STAFF

    def legal(self, s: S) -> list[Action]:
        out: list[Action] = [STAFFS[k] for k in range(C.staff_spaces) if not self.picked >> k & 1]
        if self.any_or_all():
            out.append(SKIP)
        return out

    def any_or_all(self) -> bool:
        """The card was "any or all" (more than one to activate when it was hired), not "any 1"."""
        return self.left + bin(self.picked).count("1") > 1

    def prompt(self, s: S) -> str:
        return "Officials: choose a Staff Ability to activate"

    def apply(self, s: S, action: Action) -> None:
        if not isinstance(action, Staff):
            finish(s, self)
            return
        k = action.space
        picked, left = self.picked | 1 << k, self.left - 1
        more = left > 0 and picked != (1 << C.staff_spaces) - 1
        if more:
            replace(s, Officials(left, picked))
        B.staff_ability(s, s.actor, k)  # pushes nothing: done before the frame below goes on
        if not more:
            finish(s, self)


def gain_grey_good(s: S, p: int, n: int = 1) -> None:
    """Underworld: a Grey Rogue Good from the supply near the board straight onto the Sale Shelf."""
    for _ in range(n):
        if s.grey <= 0 or sum(s.shelf[p]) >= C.shelf:
            return
        s.grey -= 1
        s.shelf[p][GREY_GOOD] += 1
        s._event(f"Seat {p} puts a Grey Rogue Good on the Sale Shelf")


# == new Corruption cards =======================================================================
def corruption_deck(s: S) -> list[int]:
    """New Corruption cards mixed in, or replacing 12 cards with exactly one Corruption icon."""
    deck = list(C.corruption_deck)
    mode = s.options["corruption"]
    new = [c.index for c in C.corruption if c.box != "base" for _ in range(c.count)]
    if mode == "base":
        return deck
    if mode == "replace":
        plain = C.corruption[B.CORR_BY_ID["c1"]].index
        for _ in range(len(new)):
            deck.remove(plain)
    return deck + new


def pay_at_any_decision(s: S, p: int) -> list[Action]:
    """New Corruption cards "can be discarded at any time by paying the cost shown on them": offered at
    every decision of the holder (``CoveState._anytime``), but not while a cost is being paid in Goods."""
    if s.options["corruption"] == "base" or p >= s.seats or not s.frames or isinstance(s.frames[-1], PayWithGoods):
        return []
    return pay_options(s, p)


def pay_by_action(s: S, action: Action) -> None:
    assert isinstance(action, Pay)
    pay_cost(s, s.actor, action.card)


def pay_options(s: S, p: int) -> list[Action]:
    """Discard a new Corruption card at any time by paying its own cost."""
    out: list[Action] = []
    for c in sorted(set(s.corr[p])):
        what, n = C.corruption[c].cost
        if what == "gold" and s.gold[p] >= n:
            out.append(PAYS[c])
        elif what == "goods" and sum(s.shelf[p]) >= n:
            out.append(PAYS[c])
    return out


def pay_cost(s: S, p: int, c: int) -> None:
    what, n = C.corruption[c].cost
    if what == "gold":
        pay(s, p, n)
        s._event(f"Seat {p} pays {n} Gold")
        B.discard_corruption(s, p, c)
    else:
        push(s, PayWithGoods(c, n))


@dataclass(frozen=True, slots=True)
class PayWithGoods(Decision):
    """Goods from the Sale Shelf, one at a time, pay a Corruption card's cost; then the decision it
    interrupted (the frame below) is asked again."""

    card: int
    left: int
    phase = Phase.PAYGOOD
    interrupts = True

    def legal(self, s: S) -> list[Action]:
        shelf = s.shelf[s.actor]
        return [GIVES[g] for g in range(len(GOOD_IDS)) if shelf[g] > 0]

    def prompt(self, s: S) -> str:
        return "choose a Good from your Sale Shelf to pay the Corruption card's cost"

    def apply(self, s: S, action: Action) -> None:
        assert isinstance(action, Give)
        p, g = s.actor, action.good
        s.shelf[p][g] -= 1
        if g == GREY_GOOD:  # a Good paid goes back to your supply (Grey ones to the board's)
            s.grey += 1
        else:
            s.supply[p][g] += 1
        if self.left <= 1:
            B.discard_corruption(s, p, self.card)
        else:
            replace(s, PayWithGoods(self.card, self.left - 1))
        s._event(f"Seat {p} returns {GOOD_IDS[g]} to pay for a Corruption card")
        if self.left <= 1:
            finish(s, self)  # the decision it interrupted is asked again


# == Dragon Island Festival =======================================================================
def festival_fill(s: S) -> None:
    """Arrival: Customers onto Dragon Island until eight; Rogues drawn go back to the bag."""
    tries = 0
    while len(s.island) < C.stash["festival"]["island"] and tries < 40:
        c = B.draw_adventurer(s)
        if c < 0:
            return
        if c % 5 == GREY:
            s.bag[c] += 1
            tries += 1
            continue
        s.island.append(c)


def festival_options(s: S, p: int) -> list[Action]:
    out: list[Action] = [DRAW]
    cost = C.stash["festival_cost"]["gold"]
    for c in sorted(set(s.island)):
        if s.gold[p] >= cost[c % 5]:
            out.append(LURES[c][0])
        out.append(LURES[c][1])
    return out


def festival_lure(s: S, c: int, corruption: bool) -> None:
    """A guest lured off Dragon Island for its cost or 1 Corruption card; it is then placed as a drawn one."""
    p = s.actor
    if corruption:
        draw_corruption(s, p, C.stash["festival"]["corruption"])
    else:
        pay(s, p, C.stash["festival_cost"]["gold"][c % 5])
    s.island.remove(c)
    s.drawn = c
    s._event(f"Seat {p} lures a {ADV_NAMES[c]} guest from Dragon Island ({'corruption' if corruption else 'gold'})")


# == final scoring tiles ========================================================================
def halls_of_plenty(s: S, icons: list[list[int]]) -> None:
    """Most Faction icons of a Hall: +2 of them; tied: +1 each (icons from Townsfolk and Corruption cards)."""
    most, tied = C.stash["halls_of_plenty"]["most"], C.stash["halls_of_plenty"]["tied"]
    for c in range(4):
        top = max(icons[p][c] for p in range(s.np))
        if top <= 0:
            continue
        leaders = [p for p in range(s.np) if icons[p][c] == top]
        for p in leaders:
            icons[p][c] += most if len(leaders) == 1 else tied
        s._event(f"Halls of Plenty ({COLOURS[c]}): " + ", ".join(B.who(s, p) for p in leaders))


def lair_of_villainy(s: S, corruption: list[int]) -> None:
    """Most Corruption icons: +5; tied: +2 each."""
    most, tied = C.stash["lair_of_villainy"]["most"], C.stash["lair_of_villainy"]["tied"]
    top = max(corruption)
    if top <= 0:
        return
    leaders = [p for p in range(s.np) if corruption[p] == top]
    for p in leaders:
        corruption[p] += most if len(leaders) == 1 else tied
    s._event("Lair of Villainy: " + ", ".join(B.who(s, p) for p in leaders))
