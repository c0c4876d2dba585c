"""A Production turn: the action space a player moves to, and everything it sets off (RULES.md).

A turn is the ``Turn`` decision; the action taken pushes its typed ``Effect``
frames (the timepiece's advance last, so it waits for the rest): loading
adventurers onto Boats, docking the Boats they fill (and the Rogue effects of
docking), hiring Townsfolk and their abilities, sponsoring a faction, or a
merchant's own action (``merchants``). Their decisions are frames here.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from freetrader.core import Action
from freetrader.core.frames import finish, push

from . import boats, challenges, peddler, stash
from .actions import (
    BOATS,
    COMMON,
    DISCARDS,
    DOCKS,
    HIRES,
    REPLACES,
    RETURNS,
    ROBS,
    SHIELDS,
    SKIP,
    TAKES,
    Boat,
    Challenge,
    Discard,
    Do,
    Dock,
    Hire,
    Lure,
    Raid,
    Replace,
    Return,
    Rob,
    Shield,
    Take,
)
from .board import (
    SLOT_IDS,
    discard_corruption,
    draw_adventurer,
    free_slots,
    kind,
    refill_square,
    sailing_open,
    staff_ability,
    weight,
    who,
)
from .components import ADV_NAMES, COLOURS, GREY, good
from .components import COMPONENTS as C
from .flow import Choice, Decision, Effect, settle
from .merchants import draw_corruption, gain, merchant_of, pay, produce
from .phases import Phase

if TYPE_CHECKING:
    from .state import CoveState as S

_DO = {a: Do(a) for a in (*COMMON, *(x for m in C.merchants.values() for x in m.actions))}


def advance_timepiece(s: S, p: int, hours: int) -> None:
    """Advance by the action's hour cost, onto the top of any stack; Mice passed make the player load."""
    old = s.time[p]
    new = min(old + hours, C.market)
    s.time[p] = new
    s.tick += 1
    s.stack[p] = s.tick
    for i in range(len(s.mice)):
        while old < s.mice[i] <= new and s.mice[i] < C.market:
            s._event(f"{who(s, p)} passes a Mouse at hour {s.mice[i]} and loads {C.mouse_load} adventurer(s)")
            for _ in range(C.mouse_load):
                push(s, LOAD)
            s.mice[i] += C.mouse_step
            challenges.mouse_moved(s, s.mice[i])  # whoever's timepiece moved it, the Peddler's too
    if p == 0:
        challenges.timepiece_moved(s)
    if new >= C.market:
        s._event(f"{who(s, p)} reaches the Market token")


@dataclass(frozen=True, slots=True)
class AdvanceTimepiece(Effect):
    """The hours of an action (or a Warlocks' Hour), once the work it set off is done."""

    hours: int

    def run(self, s: S) -> None:
        advance_timepiece(s, s.actor, self.hours)


def legal_main(s: S, p: int) -> list[Action]:
    """Move to an action space of your shop board; never the same one twice in a row (SPK)."""
    m = merchant_of(s, p)
    out: list[Action] = [_DO[a] for a in COMMON if a != s.last[p] and _common_ok(s, p, a)]
    out += [_DO[a] for a in m.actions() if a != s.last[p] and m.available(s, p, a)]
    return out


def _common_ok(s: S, p: int, a: str) -> bool:
    if a == "sponsor":
        return any(x < C.shield_max for x in s.shields[p])
    return True


def take_action(s: S, a: str) -> None:
    p = s.actor
    s.last[p] = a
    m = merchant_of(s, p)
    hours = C.common[a] if a in COMMON else m.hours(a)
    s._event(f"Seat {p} takes {a} ({hours} h)")
    push(s, AdvanceTimepiece(hours))
    if a == "load":
        for _ in range(C.load_count):
            push(s, LOAD)
    elif a == "recruit":
        push(s, RECRUIT_FRAME)
    elif a == "sponsor":
        push(s, SPONSOR_FRAME)
    else:
        step = m.begin(s, p, a)
        if step is not None:  # the merchant's own small decisions (``merchants``' Step frames)
            push(s, step)


# == boats: loading and docking ======================================================
@dataclass(frozen=True, slots=True)
class LoadAdventurer(Effect):
    """Draw an adventurer and place it in a boat (DTN); a Rogue as the Rogue card says (DOJ)."""

    def run(self, s: S) -> None:
        if not sailing_open(s):
            return
        if s.options["festival"] and s.island and s.actor < s.seats:
            push(s, FESTIVAL_FRAME)
            return
        draw_to_place(s)


def draw_to_place(s: S) -> None:
    """Round Setup ('may not be placed on Boats') governs Arrival; in Production a drawn Rogue is placed
    unless a 'when drawn' Rogue effect (Kraken, Doppelgangers, Assassins) takes it instead."""
    c = draw_adventurer(s)
    if c < 0:
        s._event("The adventurer bag is empty")
        return
    if kind(c) == GREY and stash.rogue_drawn(s, c):
        return
    s.drawn = c
    s._event(f"{who(s, s.actor)} draws a {ADV_NAMES[c]} adventurer")
    push(s, PLACE_ANY)


@dataclass(frozen=True, slots=True)
class Festival(Decision):
    """Dragon Island Festival: instead of drawing, lure a guest for its cost or 1 Corruption card."""

    phase = Phase.FESTIVAL

    def legal(self, s: S) -> list[Action]:
        return stash.festival_options(s, s.actor)

    def prompt(self, s: S) -> str:
        return "Dragon Island Festival: draw from the bag, or lure a guest from Dragon Island"

    def apply(self, s: S, action: Action) -> None:
        frames = s.frames
        if isinstance(action, Lure):
            stash.festival_lure(s, action.adventurer, action.corruption)
            push(s, PLACE_ANY)
        else:
            draw_to_place(s)
        settle(s, self, frames)


@dataclass(frozen=True, slots=True)
class Place(Decision):
    """The drawn adventurer (``s.drawn``) goes on a sailing Boat; one taken off a Boat, on another."""

    exclude: int = -1  # the Boat it was taken off (Sailors' move), or -1
    phase = Phase.PLACE

    def legal(self, s: S) -> list[Action]:
        return [BOATS[b] for b in stash.place_targets(s, sailing_open(s, self.exclude))]

    def prompt(self, s: S) -> str:
        return f"place the drawn {ADV_NAMES[s.drawn]} adventurer on a sailing boat"

    def apply(self, s: S, action: Action) -> None:
        assert isinstance(action, Boat)
        frames = s.frames
        place_on_boat(s, action.boat)
        settle(s, self, frames)

    def peddler(self, s: S) -> None:
        boat = peddler.place_choice(s, self.exclude)
        frames = s.frames
        place_on_boat(s, boat)
        settle(s, self, frames)


def place_on_boat(s: S, b: int) -> None:
    s.boats[b].append(s.drawn)
    s._event(f"{who(s, s.actor)} places it on boat {b + 1}")
    rogue = kind(s.drawn) == GREY
    s.drawn = -1
    if len(s.boats[b]) >= boats.capacity(b):
        push(s, DockBoat(b))
    if rogue:
        stash.mind_controllers(s, b)


@dataclass(frozen=True, slots=True)
class DockBoat(Effect):
    """A full boat docks at a free pier chosen by the active player (DTN, BSB); only four can (VDJ)."""

    boat: int

    def run(self, s: S) -> None:
        b = self.boat
        if s.docked[b] >= 0 or len(s.boats[b]) < boats.capacity(b):
            return
        slots = free_slots(s, b)
        if not slots:
            s._event(f"Boat {b + 1} is full but no pier on its side is free: it waits at sea")
        elif len(slots) == 1:
            dock(s, b, slots[0])
        else:
            push(s, DockAt(b))


@dataclass(frozen=True, slots=True)
class DockAt(Decision):
    boat: int
    phase = Phase.DOCK

    def legal(self, s: S) -> list[Action]:
        return [DOCKS[k] for k in free_slots(s, self.boat)]

    def prompt(self, s: S) -> str:
        return f"dock the full boat {self.boat + 1} at a free pier"

    def apply(self, s: S, action: Action) -> None:
        assert isinstance(action, Dock)
        frames = s.frames
        dock(s, self.boat, action.slot)
        settle(s, self, frames)

    def peddler(self, s: S) -> None:
        slot = free_slots(s, self.boat)[0]
        frames = s.frames
        dock(s, self.boat, slot)
        settle(s, self, frames)


def dock(s: S, b: int, k: int) -> None:
    s.docked[b] = k
    if boats.side(b) >= 0:  # the 2-seater fills no Pier space
        s.slot_boat[k] = b
    rogues = sum(weight(c) for c in s.boats[b] if kind(c) == GREY)  # a Rogue Leader counts twice (Pirates)
    s._event(f"{who(s, s.actor)} docks boat {b + 1} at {SLOT_IDS[k]}: " + "+".join(ADV_NAMES[c] for c in s.boats[b]))
    s.slot_adv[k] = s.slot_adv[k] + s.boats[b]  # the 2-seater's Adventurers join those at the Pier
    s.boats[b] = []
    if rogues:
        rogue_on_dock(s, rogues)


def rogue_on_dock(s: S, rogues: int) -> None:
    """Rogue card effects when a boat with Rogues docks (designed effects of Criminals and Robbers)."""
    for r in s.rogues:
        eff = C.rogues[r].effect
        if eff == "dock-corruption":
            draw_corruption(s, s.actor, 1)
        elif eff == "rob" and s.np > 1:
            push(s, Robbers(rogues))
    hours = stash.rogue_docked(s, rogues)
    if hours is not None:
        push(s, AdvanceTimepiece(hours))
    if stash.active(s, "raiders") and s.actor < s.seats and s.square:
        push(s, RAID_FRAME)


@dataclass(frozen=True, slots=True)
class Robbers(Effect):
    """Robbers: the docking player sets them on a rival, who draws 1 Corruption a Rogue."""

    rogues: int

    def run(self, s: S) -> None:
        rivals = [q for q in range(s.np) if q != s.actor]
        if len(rivals) == 1:
            rob(s, rivals[0], self.rogues)
        else:
            push(s, RobChoice(seat=s.actor, options=tuple(ROBS[q] for q in rivals), rogues=self.rogues))


@dataclass(frozen=True, slots=True)
class RobChoice(Choice):
    rogues: int
    phase = Phase.ROB

    def prompt(self, s: S) -> str:
        return "Robbers: choose the rival who draws the Corruption"

    def chosen(self, s: S, action: Action) -> None:
        assert isinstance(action, Rob)
        rob(s, action.seat, self.rogues)

    def peddler(self, s: S) -> None:  # the Peddler sets them on the player
        rob(s, 0, self.rogues)
        finish(s, self)


def rob(s: S, q: int, n: int) -> None:
    s._event(f"Robbers: {who(s, s.actor)} sets them on {who(s, q)}")
    draw_corruption(s, q, n)


@dataclass(frozen=True, slots=True)
class RaidOffer(Decision):
    """8 Raiders: for 1 Corruption, the ability of a Town Square card (which then goes under the deck)."""

    phase = Phase.RAID

    def legal(self, s: S) -> list[Action]:
        return stash.raid_options(s)

    def prompt(self, s: S) -> str:
        return "Raiders: draw 1 Corruption to use a Town Square Townsfolk's ability, or skip"

    def apply(self, s: S, action: Action) -> None:
        frames = s.frames
        if isinstance(action, Raid):
            stash.raid(s, action.townsfolk)
            push(s, UseAbility(action.townsfolk))
        settle(s, self, frames)


# == Townsfolk and Staff =============================================================
@dataclass(frozen=True, slots=True)
class Recruit(Decision):
    phase = Phase.RECRUIT

    def legal(self, s: S) -> list[Action]:
        return legal_recruit(s, s.actor)

    def prompt(self, s: S) -> str:
        return "hire a Townsfolk, replace one in the Town Square, or skip"

    def apply(self, s: S, action: Action) -> None:
        frames = s.frames
        if isinstance(action, Hire):
            hire(s, action.townsfolk)
        elif isinstance(action, Replace):
            replace_townsfolk(s, action.townsfolk)
        else:  # declined: a Square left short by an Underworld hire refills now, as after a hire or a replace
            refill_square(s)
        settle(s, self, frames)


def legal_recruit(s: S, p: int) -> list[Action]:
    out: list[Action] = [HIRES[t] for t in s.square if C.townsfolk[t].cost <= s.gold[p]]
    out += [REPLACES[t] for t in s.square]
    out.append(SKIP)
    return out


def hire(s: S, t: int) -> None:
    """Recruit a Townsfolk: pay its cost, use its ability, and put it on the next Staff space (RAND)."""
    p = s.actor
    card = C.townsfolk[t]
    pay(s, p, card.cost)
    s.square.remove(t)
    if card.ability != "recruit":  # Underworld: recruit again before refilling the Town Square
        refill_square(s)
    s.staff[p].append(t)
    s._event(f"Seat {p} hires {card.name} ({card.set}) for {card.cost} gold")
    if len(s.staff[p]) <= C.staff_spaces:
        push(s, StaffAbility(len(s.staff[p]) - 1))
    push(s, UseAbility(t))


def replace_townsfolk(s: S, t: int) -> None:
    """Replace: a Town Square card goes under the deck and the square is refilled."""
    s.square.remove(t)
    s.tf_bottom.append(t)
    refill_square(s)
    s._event(f"Seat {s.actor} replaces {C.townsfolk[t].name} in the Town Square")


@dataclass(frozen=True, slots=True)
class UseAbility(Effect):
    townsfolk: int

    def run(self, s: S) -> None:
        townsfolk_ability(s, self.townsfolk)


@dataclass(frozen=True, slots=True)
class StaffAbility(Effect):
    space: int

    def run(self, s: S) -> None:
        staff_ability(s, s.actor, self.space)


def townsfolk_ability(s: S, t: int) -> None:
    """A hired (or raided) Townsfolk's ability; the Secret Stash sets' abilities are the printed ones."""
    card = C.townsfolk[t]
    p = s.actor
    k, n = card.ability, card.amount
    if k == "staff-one":  # Officials
        push(s, stash.Officials(1))
    elif k == "staff-all":
        push(s, stash.Officials(C.staff_spaces))
    elif k in ("good-large-discard", "good-small-discard"):  # Artisans
        produce(s, p, good(card.colour, k.startswith("good-large")), 1)
        for _ in range(n):
            push(s, DISCARD_TASK)
    elif k == "grey-good":  # Underworld
        stash.gain_grey_good(s, p, n)
    elif k == "recruit":
        push(s, RECRUIT_FRAME)
    elif k == "corruption":  # Legends
        draw_corruption(s, p, n)
    elif k == "gold":
        gain(s, p, n)
        s._event(f"{card.name}: Seat {p} gains {n} gold")
    elif k == "discard":
        for _ in range(n):
            push(s, DISCARD_TASK)
    elif k in ("good-small", "good-large"):
        produce(s, p, card.colour * 2 + (k == "good-large"), n)
    elif k == "load":
        for _ in range(n):
            push(s, LOAD)
    elif k == "return":
        for _ in range(n):
            push(s, RETURN_FRAME)
    elif k == "move":
        for _ in range(n):
            push(s, TAKE_FRAME)


@dataclass(frozen=True, slots=True)
class DiscardCorruption(Effect):
    """Discard a Corruption card, if you hold one when it comes to it."""

    def run(self, s: S) -> None:
        if s.corr[s.actor]:
            push(s, DISCARD_FRAME)


@dataclass(frozen=True, slots=True)
class DiscardChoice(Decision):
    phase = Phase.DISCARD

    def legal(self, s: S) -> list[Action]:
        return legal_discard(s, s.actor)

    def prompt(self, s: S) -> str:
        return "choose a Corruption card to discard"

    def apply(self, s: S, action: Action) -> None:
        if isinstance(action, Discard):
            discard_corruption(s, s.actor, action.card)
        finish(s, self)


def legal_discard(s: S, p: int) -> list[Action]:
    return [DISCARDS[c] for c in sorted(set(s.corr[p]))] or [SKIP]


def legal_return(s: S, table: tuple[tuple[Action, ...], ...]) -> list[Action]:
    out = []
    for b in range(len(s.boats)):
        if s.docked[b] < 0:
            for c in sorted(set(s.boats[b])):
                out.append(table[b][c])
    return out or [SKIP]


@dataclass(frozen=True, slots=True)
class ReturnChoice(Decision):
    """Sailors: an adventurer on a sailing Boat back to the bag."""

    phase = Phase.RETURN

    def legal(self, s: S) -> list[Action]:
        return legal_return(s, RETURNS)

    def prompt(self, s: S) -> str:
        return "send an adventurer on a sailing boat back to the bag"

    def apply(self, s: S, action: Action) -> None:
        if isinstance(action, Return):
            b, c = action.boat, action.adventurer
            s.boats[b].remove(c)
            s.bag[c] += 1
            s._event(f"Seat {s.actor} sends a {ADV_NAMES[c]} adventurer from boat {b + 1} back to the bag")
        finish(s, self)


@dataclass(frozen=True, slots=True)
class TakeChoice(Decision):
    """Sailors: an adventurer taken off a sailing Boat, to be placed on another."""

    phase = Phase.TAKE

    def legal(self, s: S) -> list[Action]:
        return legal_return(s, TAKES)

    def prompt(self, s: S) -> str:
        return "take an adventurer off a sailing boat to move it"

    def apply(self, s: S, action: Action) -> None:
        frames = s.frames
        if isinstance(action, Take):
            b, c = action.boat, action.adventurer
            s.boats[b].remove(c)
            s._event(f"Seat {s.actor} takes a {ADV_NAMES[c]} adventurer off boat {b + 1}")
            push(s, PutAdventurer(c, b))
        settle(s, self, frames)


@dataclass(frozen=True, slots=True)
class PutAdventurer(Effect):
    """The adventurer taken off a Boat, in the player's hand until placed on another (or back, if none)."""

    adventurer: int
    boat: int

    def run(self, s: S) -> None:
        if sailing_open(s, self.boat):
            s.drawn = self.adventurer
            push(s, Place(self.boat))
        else:
            s.boats[self.boat].append(self.adventurer)


@dataclass(frozen=True, slots=True)
class Sponsor(Decision):
    phase = Phase.SPONSOR

    def legal(self, s: S) -> list[Action]:
        return [SHIELDS[c] for c in range(4) if s.shields[s.actor][c] < C.shield_max]

    def prompt(self, s: S) -> str:
        return "choose the faction to sponsor"

    def apply(self, s: S, action: Action) -> None:
        assert isinstance(action, Shield)
        sponsor(s, action.colour)
        finish(s, self)


def sponsor(s: S, c: int) -> None:
    """Gain sponsorship with a faction: one shield of its colour on your shop board (MRBG, UFG)."""
    s.shields[s.actor][c] += 1
    s._event(f"Seat {s.actor} sponsors the {COLOURS[c]} faction ({s.shields[s.actor][c]} shields)")


@dataclass(frozen=True, slots=True)
class Turn(Decision):
    """A Production turn: complete a Challenge, or move to an action space (paying off a Corruption card is
    offered at every decision: ``stash.pay_at_any_decision``)."""

    phase = Phase.MAIN

    def legal(self, s: S) -> tuple[Action, ...]:
        p = s.actor
        return (*challenges.options(s, p), *legal_main(s, p))

    def prompt(self, s: S) -> str:
        return f"day {s.day}, hour {s.time[s.actor]}: choose an action space on your shop board"

    def apply(self, s: S, action: Action) -> None:
        if isinstance(action, Do):
            frames = s.frames
            take_action(s, action.space)
            settle(s, self, frames)
        elif isinstance(action, Challenge):
            challenges.complete(s)

# One shared instance of each frame without fields.
TURN, LOAD, FESTIVAL_FRAME, PLACE_ANY = Turn(), LoadAdventurer(), Festival(), Place()
RECRUIT_FRAME, SPONSOR_FRAME, RAID_FRAME = Recruit(), Sponsor(), RaidOffer()
DISCARD_TASK, DISCARD_FRAME, RETURN_FRAME, TAKE_FRAME = DiscardCorruption(), DiscardChoice(), ReturnChoice(), TakeChoice()
