"""Merchants Cove rules, one function per rule (DESIGN.md); RULES.md maps each to its source.

Flow: set-up (merchant choice), then three days of Arrival, Production,
Market and Clean-Up, then final scoring. Production is the Clock: the
timepiece furthest behind acts (top of a stack first). The pending decision is
the top frame of ``s.frames`` (``flow.py``); the work an action sets off
(place drawn adventurers, dock full boats, Townsfolk abilities, Rogue effects,
the Mice, the timepiece's advance) waits below the decisions it leads to as
typed ``Effect`` frames, done as the frames above them finish (``flow.py``).
In solo play the Peddler (``peddler.py``) is one more timepiece whose decisions
are made at once, each by its frame's Peddler rule.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from freetrader.core import Action, BadOption, BadRecord
from freetrader.core.frames import AskSeats, Frame, finish, push

from . import boats, challenges, peddler, stash
from .actions import (
    BOATS,
    COMMON,
    DISCARDS,
    DOCKS,
    DONE,
    HIRES,
    REPLACES,
    RETURNS,
    ROBS,
    SELLS,
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
    Merchant,
    Raid,
    Replace,
    Return,
    Rob,
    Sell,
    Shield,
    Take,
)
from .board import (
    CORR_BY_ID,
    PIER_IDS,
    ROGUE_BY_ID,
    SLOT_IDS,
    TF_BY_ID,
    customers_raw,
    discard_corruption,
    draw_adventurer,
    free_slots,
    hall_count,
    has_rogue,
    kind,
    refill_square,
    sailing_open,
    staff_ability,
    weight,
    who,
)
from .components import ADV_NAMES, COLOURS, GOOD_IDS, GREY, N_GOODS, SIZES, good
from .components import COMPONENTS as C
from .flow import Choice, Decision, Effect, answer, go_on
from .merchants import MERCHANTS, draw_corruption, gain, load_all, merchant_of, pay, produce
from .phases import PHASES, STAGES, Phase, Stage

if TYPE_CHECKING:
    from .state import CoveState
    from .state import CoveState as S

__all__ = [
    "PHASES", "STAGES", "COMMON", "SIZES", "SLOT_IDS", "PIER_IDS", "TF_BY_ID", "CORR_BY_ID", "ROGUE_BY_ID",
    "setup", "check_consistent", "next_on_clock", "advance_timepiece", "legal_main", "take_action",
    "sailing_open", "free_slots", "place_on_boat", "dock", "rob", "hire", "sponsor", "townsfolk_ability",
    "start_market", "customers", "sale_options", "legal_sales", "sell", "end_market", "clean_up",
    "final_scoring", "corruption_icons", "faction_icons", "hall_count", "townsfolk_sets", "who", "kind", "weight",
    "has_rogue", "draw_adventurer", "refill_square", "discard_corruption", "staff_ability", "customers_raw",
]

load_all()

# The phases and stages by the names the rules have always used for them.
(SETUP, MAIN, PLACE, DOCK, RECRUIT, SPONSOR, DISCARD, RETURN, TAKE, ROB, MERCH, SELL, OVER, RUN,
 KRAKEN, HALL, ASSASSIN, MIND, RAID, STAFF, PAYGOOD, FESTIVAL) = tuple(Phase)
ST_SETUP, ST_PROD, ST_MARKET, ST_OVER = tuple(Stage)
TF_PAIRS = {"locals+mercenaries": ("locals", "mercenaries"), "locals+sailors": ("locals", "sailors"),
            "mercenaries+sailors": ("mercenaries", "sailors"), "all": ("locals", "mercenaries", "sailors")}
_PICKS = {m: Merchant(m) for m in C.merchants}
_DO = {a: Do(a) for a in (*COMMON, *(x for m in C.merchants.values() for x in m.actions))}


# == set-up (Setup) ==================================================================
def setup(s: S) -> None:
    o = s.options
    if o["first_player"] != "random" and int(o["first_player"].removeprefix("seat")) >= s.seats:
        raise BadOption(f"option first_player={o['first_player']!r}: this game has {s.seats} seat(s); choose random "
                        f"or seat0..seat{s.seats - 1}")
    solo = s.seats == 1 and o["peddler"]
    n = s.np = s.seats + (1 if solo else 0)
    s.day = 1
    s.bank = C.bank
    s.gold = [0] * n
    for p in range(n):
        gain(s, p, C.start_gold)
    s.time = [C.clock_start] * n
    s.stack = [0] * n
    s.tick = 0
    s.last = [""] * n
    s.merchant = [""] * s.seats
    s.shelf = [[0] * N_GOODS for _ in range(n)]
    s.supply = [list(C.supply) for _ in range(s.seats)] + ([list(C.peddler_supply)] if solo else [])
    s.shields = [[0] * 4 for _ in range(s.seats)]
    s.staff = [[] for _ in range(s.seats)]
    s.corr = [[] for _ in range(n)]
    s.mb = [None] * s.seats
    s.mb_own = (1 << s.seats) - 1
    s.drawn = -1
    s.actor = 0
    s.bought = [0] * (len(C.piers) * 5)
    s.order = []
    # the Rogue card: revealed at random (SPK, BSN, DOJ), or chosen by option
    rg = o["rogue"]
    if rg not in ROGUE_BY_ID and rg not in ("random", "random-all"):
        raise BadOption(f"option rogue={rg!r}: choose random, random-all or one of {', '.join(ROGUE_BY_ID)}")
    if rg == "random" and not o["multiple_rogues"]:
        s.rogues = [s.rng.below(len(stash.BASE_ROGUES))]
    else:
        s.rogues = stash.choose_rogues(s)
    s.rogue = s.rogues[0]
    rc = C.rogues[s.rogue]
    s.bay = [0] * len(ADV_NAMES)
    s.hall_rogues = [0] * 4
    s.island = []
    s.bag = list(C.adventurers)
    s.bag[GREY] = rc.bag
    s.lair = rc.lair
    s.halls = [0] * 4
    for c in range(4):  # Faction Halls seeded with guild members of each colour (SPK)
        s.halls[c] = C.hall_seed
        s.bag[c] -= C.hall_seed
    s.hall_leaders = [0] * 4  # Faction Leaders in their Hall (counted in ``halls`` too)
    s.hall_rogue_leaders = [0] * 4  # the Rogue Leader as a Doppelganger (counted in ``hall_rogues`` too)
    s.lair_leaders = 0
    if o["faction_leaders"]:  # replace one Adventurer of each colour in the bag with its Faction Leader
        s.bag += [0] * 5
        for c in range(5):
            if s.bag[c] > 0:
                s.bag[c] -= 1
                s.bag[c + 5] = 1
    boats.setup(s)
    s.slot_boat = [-1] * len(C.slots)
    s.slot_adv = [[] for _ in C.slots]
    s.mice = list(C.mice)
    # Townsfolk: two sets by default, Locals + Mercenaries (RAND)
    sets = o["townsfolk"]
    if sets == "random":
        pairs = sorted(k for k in TF_PAIRS if k != "all")
        sets = pairs[s.rng.below(len(pairs))]
    chosen = townsfolk_sets(sets)
    s.tf_sets = sets
    s.tf_deck = [t.index for t in C.townsfolk if t.set in chosen]
    s.grey = C.stash["grey_goods"]["count"] if "underworld" in chosen else 0
    s.rng.shuffle(s.tf_deck)
    s.tf_bottom = []
    s.square = []
    refill_square(s)
    if o["corruption"] not in ("base", "mixed", "replace"):
        raise BadOption(f"option corruption={o['corruption']!r}: choose base, mixed or replace")
    s.cdeck = stash.corruption_deck(s)
    s.rng.shuffle(s.cdeck)
    s.cdiscard = []
    # Peddler deck (solo)
    s.pdeck = [c.index for c in C.peddler_cards] if solo else []
    s.rng.shuffle(s.pdeck)
    s.pdiscard = []
    s.pcard = -1
    challenges.setup(s)
    s._event(f"Rogue card: {rc.number} {rc.name} ({rc.bag} Rogues in the bag, {rc.lair} in the Lair); "
             f"Townsfolk: {sets}")
    choose_merchants(s)


def townsfolk_sets(sets: str) -> tuple[str, ...]:
    """A named pair, 'all' (the three base sets), or any sets joined by '+' (e.g. 'locals+underworld')."""
    if sets in TF_PAIRS:
        return TF_PAIRS[sets]
    chosen = tuple(x for x in sets.split("+") if x)
    if not chosen or len(set(chosen)) != len(chosen) or any(x not in C.tf_sets for x in chosen):
        raise BadOption(f"option townsfolk={sets!r}: choose random, one of {', '.join(TF_PAIRS)}, or sets joined "
                        f"by '+' from {', '.join(C.tf_sets)}")
    return chosen


def choose_merchants(s: S) -> None:
    """Each player takes a merchant (SPK): a set-up decision, or by option at random or as listed."""
    mode = s.options["merchants"]
    ids = sorted(MERCHANTS)
    if s.seats > len(ids):
        raise BadOption(f"{s.seats} seats need {s.seats} merchants; only {len(ids)} are installed")
    if mode == "draft":
        s.stage, s.actor = Stage.SETUP, 0
        push(s, Draft(order=tuple(range(s.seats))))
        return
    if mode == "random":
        s.rng.shuffle(ids)
        picks = ids[: s.seats]
    else:
        picks = [x.strip() for x in str(mode).split(",")]
        if len(picks) != s.seats or len(set(picks)) != len(picks) or any(x not in MERCHANTS for x in picks):
            raise BadOption(f"option merchants={mode!r}: give draft, random, or {s.seats} different merchants "
                            f"separated by commas from {', '.join(ids)}")
    for p, m in enumerate(picks):
        take_merchant(s, p, m)
    start_game(s)


@dataclass(frozen=True, slots=True)
class Draft(AskSeats["CoveState"]):
    """The merchant draft: each seat in turn takes one of the merchants left."""

    phase = Phase.SETUP

    def ask_legal(self, s: S, seat: int) -> tuple[Action, ...]:
        taken = set(s.merchant)
        return tuple(_PICKS[m] for m in sorted(MERCHANTS) if m not in taken)

    def prompt(self, s: S) -> str:
        return "choose your merchant"

    def answer(self, s: S, seat: int, action: Action) -> None:
        assert isinstance(action, Merchant)
        take_merchant(s, seat, action.merchant)
        if len(self.order) > 1:
            s.actor = self.order[1]

    def close(self, s: S) -> None:
        start_game(s)


def take_merchant(s: S, p: int, mid: str) -> None:
    s.merchant[p] = mid
    s.mb[p] = MERCHANTS[mid].setup(s, p)
    s.mb_own |= 1 << p
    s._event(f"Seat {p} plays {MERCHANTS[mid].name}")


def start_game(s: S) -> None:
    """Stack the timepieces on the Clock's "1" (H9K), then the first Arrival.

    The round-1 order is not public (research: UNKNOWN), so it is an option: a random stack, or a chosen seat
    on top with the others below it in seat order after it. The top of the stack acts first.
    """
    order = list(range(s.np))
    first = s.options["first_player"]
    if first == "random":
        s.rng.shuffle(order)
    else:
        k = int(first.removeprefix("seat"))
        order = [(k + i) % s.np for i in range(s.np)][::-1]  # stacked last is on top
    for p in order:
        s.tick += 1
        s.stack[p] = s.tick
    arrival(s)


# == Arrival ==========================================================================
def arrival(s: S) -> None:
    """Arrival: draw adventurers at random and put 2 into each of the 6 boats (WTM, BSB, SPK, VDJ)."""
    on_boats = stash.rogues_on_boats(s)
    boats.reveal(s)
    for b in range(len(s.boats)):
        for _ in range(boats.arrival_count(s, b)):
            c = draw_adventurer(s)
            while c >= 0 and kind(c) == GREY and not on_boats:  # Round Setup: the Rogue returns to the bag
                s.bag[c] += 1
                c = draw_adventurer(s) if any(n for x, n in enumerate(s.bag) if kind(x) != GREY) else -1
            if c >= 0:
                s.boats[b].append(c)
    if s.options["festival"]:
        stash.festival_fill(s)
    s._event(f"Day {s.day}: Arrival: " + "; ".join(
        f"boat {b + 1} {'+'.join(ADV_NAMES[c] for c in s.boats[b]) or 'empty'}" for b in range(len(s.boats)) if s.afloat[b]))
    s.stage = Stage.PRODUCTION
    for p in range(s.seats):
        for space in range(min(len(s.staff[p]), C.staff_spaces)):
            if s.day > 1:
                staff_ability(s, p, space)
    push(s, CLOCK)
    CLOCK.next_turn(s)


# == Production: the Clock ==========================================================
def next_on_clock(s: S) -> int:
    """The timepiece furthest behind acts next; on a shared space the one on top (DTN, SPK, MRBG)."""
    best, key = -1, None
    for p in range(s.np):
        if s.time[p] >= C.market:
            continue
        k = (s.time[p], -s.stack[p])
        if key is None or k < key:
            best, key = p, k
    return best


@dataclass(frozen=True, slots=True)
class Clock(Effect):
    """Production: the timepiece furthest behind acts, turn after turn; when every one is at the Market
    token, the Clock is done and the Market begins."""

    def next_turn(self, s: S) -> None:
        p = next_on_clock(s)
        if p < 0:
            finish(s, self)
            return
        s.actor = p
        if p >= s.seats:
            peddler_turn(s)
            go_on(s)
        else:
            push(s, TURN)

    def child_done(self, s: S, done: Frame[CoveState]) -> None:
        self.next_turn(s)

    def run(self, s: S) -> None:
        start_market(s)


def peddler_turn(s: S) -> None:
    """The Peddler reveals a card: it loads that many adventurers, gains the goods, advances the hours."""
    card = peddler.reveal(s)
    push(s, AdvanceTimepiece(card.hours))
    push(s, PEDDLER_GOODS)
    for _ in range(card.load):
        push(s, LOAD)


@dataclass(frozen=True, slots=True)
class PeddlerGoods(Effect):
    def run(self, s: S) -> None:
        peddler.gain_goods(s)


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
            answer(s)
            take_action(s, action.space)
            go_on(s)
        elif isinstance(action, Challenge):
            challenges.complete(s)


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
        answer(s)
        if isinstance(action, Lure):
            stash.festival_lure(s, action.adventurer, action.corruption)
            push(s, PLACE_ANY)
        else:
            draw_to_place(s)
        go_on(s)


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
        answer(s)
        place_on_boat(s, action.boat)
        go_on(s)

    def peddler(self, s: S) -> None:
        boat = peddler.place_choice(s, self.exclude)
        answer(s)
        place_on_boat(s, boat)
        go_on(s)


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
        answer(s)
        dock(s, self.boat, action.slot)
        go_on(s)

    def peddler(self, s: S) -> None:
        slot = free_slots(s, self.boat)[0]
        answer(s)
        dock(s, self.boat, slot)
        go_on(s)


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
        answer(s)
        if isinstance(action, Raid):
            stash.raid(s, action.townsfolk)
            push(s, UseAbility(action.townsfolk))
        go_on(s)


# == Townsfolk and Staff =============================================================
@dataclass(frozen=True, slots=True)
class Recruit(Decision):
    phase = Phase.RECRUIT

    def legal(self, s: S) -> list[Action]:
        return legal_recruit(s, s.actor)

    def prompt(self, s: S) -> str:
        return "hire a Townsfolk, replace one in the Town Square, or skip"

    def apply(self, s: S, action: Action) -> None:
        answer(s)
        if isinstance(action, Hire):
            hire(s, action.townsfolk)
        elif isinstance(action, Replace):
            replace_townsfolk(s, action.townsfolk)
        else:  # declined: a Square left short by an Underworld hire refills now, as after a hire or a replace
            refill_square(s)
        go_on(s)


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
        answer(s)
        if isinstance(action, Take):
            b, c = action.boat, action.adventurer
            s.boats[b].remove(c)
            s._event(f"Seat {s.actor} takes a {ADV_NAMES[c]} adventurer off boat {b + 1}")
            push(s, PutAdventurer(c, b))
        go_on(s)


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
class MarketTurn(Effect):
    """The Market: each merchant sells in turn, first to reach the Market token first; when every one has,
    the Market is done: sponsorship, then Clean-Up or final scoring."""

    def next_seller(self, s: S) -> None:
        while s.order:
            p = s.actor = s.order[0]
            if p >= s.seats:
                peddler_sells(s)
            elif legal_sales(s, p):
                push(s, SELLING)
                return
            s.order.pop(0)
        finish(s, self)

    def child_done(self, s: S, done: Frame[CoveState]) -> None:
        self.next_seller(s)

    def run(self, s: S) -> None:
        end_market(s)


@dataclass(frozen=True, slots=True)
class Selling(Decision):
    phase = Phase.SELL

    def legal(self, s: S) -> tuple[Action, ...]:
        return (*legal_sales(s, s.actor), DONE)

    def prompt(self, s: S) -> str:
        return "sell a good at a pier, or done"

    def apply(self, s: S, action: Action) -> None:
        p = s.actor
        if isinstance(action, Sell):
            sell(s, p, action.good, action.pier, action.rogues)
            if legal_sales(s, p):
                return
        s.order.pop(0)
        finish(s, self)


def peddler_sells(s: S) -> None:
    p = s.seats
    while True:
        opts = sale_options(s, p)
        if not opts:
            return
        g, pi, _, rog = peddler.best_sale(opts)
        sell(s, p, g, pi, rog)


# == Market ==============================================================================
def start_market(s: S) -> None:
    """Market: boats that did not dock sort their adventurers into the Faction Halls (BSB, MRBG),
    Rogues into the Lair; then each merchant sells, first to reach the Market token first."""
    for b in range(len(s.boats)):
        ghosts = stash.ghost_sailors(s, b)
        for c in s.boats[b]:
            if kind(c) == GREY or ghosts:
                s.lair += 1
                s.lair_leaders += c >= 5
            else:
                s.halls[kind(c)] += 1
                s.hall_leaders[kind(c)] += c >= 5
        s.boats[b] = []
    s._event(f"Day {s.day}: Market. Halls " + ", ".join(f"{COLOURS[c]} {s.halls[c]}" for c in range(4))
             + f"; Lair {s.lair}")
    s.stage = Stage.MARKET
    s.bought = [0] * (len(C.piers) * 5)
    s.order = sorted(range(s.np), key=lambda p: s.stack[p])
    push(s, MARKET)
    MARKET.next_seller(s)


def customers(s: S, pier: int, colour: int) -> int:
    return stash.charlatans(s, pier, colour, customers_raw(s, pier, colour))


def sale_options(s: S, p: int) -> list[tuple[int, int, int, bool]]:
    """(good, pier, price, to_rogues) for every sale open to ``p``: a good to matching customers on a
    pier that takes its size, price = value x matching customers (MRBG, RAND); each group of customers
    buys one good from each merchant (designed). Cultists: Rogues buy any colour (RAND, MARTA)."""
    out: list[tuple[int, int, int, bool]] = []
    cultists = stash.active(s, "buy-anything")
    bit = 1 << p
    for g in range(N_GOODS):
        if s.shelf[p][g] <= 0:
            continue
        colour, size = divmod(g, 2)
        for pi, pier in enumerate(C.piers):
            if size not in pier.sizes and colour != GREY:
                continue
            n = customers(s, pi, colour)
            if n and not s.bought[pi * 5 + colour] & bit:
                out.append((g, pi, C.values[g] * n, False))
            if cultists and colour != GREY:
                r = customers(s, pi, GREY)
                if r and not s.bought[pi * 5 + GREY] & bit:
                    out.append((g, pi, C.values[g] * r, True))
    return out


def legal_sales(s: S, p: int) -> list[Action]:
    return [SELLS[g][pi][rog] for g, pi, _, rog in sale_options(s, p)]


def sell(s: S, p: int, g: int, pi: int, rogues: bool) -> None:
    colour = GREY if rogues else g // 2
    n = customers(s, pi, colour)
    price = C.values[g] * n
    s.shelf[p][g] -= 1
    if g == stash.GREY_GOOD:  # Grey Rogue Goods return to the supply near the main board
        s.grey += 1
    else:
        s.supply[p][g] += 1  # sold goods return to the merchant's supply
    s.bought[pi * 5 + colour] |= 1 << p
    gain(s, p, price)
    s._event(f"{who(s, p)} sells {GOOD_IDS[g]} to {n} {COLOURS[colour]} at {PIER_IDS[pi]} for {price} gold")
    corrupt = C.piers[pi].corruption + (1 if rogues else 0)
    if corrupt:
        draw_corruption(s, p, corrupt)


def end_market(s: S) -> None:
    """After sales: sponsorship shields pay by the adventurers in their Faction Hall (MRBG)."""
    for p in range(s.seats):
        pay_out = sum(s.shields[p][c] * hall_count(s, c) * C.sponsor_rate for c in range(4))
        if pay_out:
            gain(s, p, pay_out)
            s._event(f"Sponsorship: Seat {p} gains {pay_out} gold")
    if s.day >= C.days:
        push(s, FINAL_SCORING)
        for p in reversed(range(s.seats)):
            push(s, OfferFinalPay(p))
        return
    clean_up(s)


@dataclass(frozen=True, slots=True)
class OfferFinalPay(Effect):
    """New Corruption cards can be paid off "at any time": a seat holding one it can pay for has a last
    decision before final scoring (after the Market's sponsorship), in seat order."""

    seat: int

    def run(self, s: S) -> None:
        if stash.pay_options(s, self.seat):
            s.actor = self.seat
            push(s, FINAL_PAY)


@dataclass(frozen=True, slots=True)
class FinalPay(Decision):
    """Pay off Corruption cards (the ``pay`` actions offered at every decision), or done: final scoring."""

    phase = Phase.DISCARD  # a Corruption card discarded by its cost; the phase list is fixed (the encoders')

    def legal(self, s: S) -> list[Action]:
        return [DONE]

    def prompt(self, s: S) -> str:
        return "before final scoring: pay off a Corruption card by the cost shown on it, or done"

    def apply(self, s: S, action: Action) -> None:
        finish(s, self)


@dataclass(frozen=True, slots=True)
class FinalScoring(Effect):
    def run(self, s: S) -> None:
        final_scoring(s)


# == Clean-Up ===========================================================================
def clean_up(s: S) -> None:
    """Boats go back out to sea, the Town Square is refreshed, the next day is prepared (MRBG)."""
    for k in range(len(C.slots)):
        for c in s.slot_adv[k]:
            s.bag[c] += 1
        s.slot_adv[k] = []
        s.slot_boat[k] = -1
    s.docked = [-1] * len(s.boats)
    stash.multiple_rogues_clean_up(s)
    s.tf_bottom.extend(s.square)
    s.square = []
    refill_square(s)
    for p in range(s.seats):
        merchant_of(s, p).clean_up(s, p)
        if not C.carry_over:
            for g in range(N_GOODS):
                s.supply[p][g] += s.shelf[p][g]
                s.shelf[p][g] = 0
    # the player with least gold starts on top of the stack (designed); players level on gold keep the
    # order of the day's stack: by seat number, seat 0 was below every equal rival, day after day
    tie = s.stack if s.options["stack_ties"] == "stack" else list(range(s.np))
    for p in sorted(range(s.np), key=lambda q: (-s.gold[q], tie[q])):
        s.tick += 1
        s.stack[p] = s.tick
    s.time = [C.clock_start] * s.np
    s.mice = list(C.mice)
    s.day += 1
    s._event(f"Clean-Up: day {s.day} begins")
    arrival(s)


# == final scoring =========================================================================
def corruption_icons(s: S, p: int) -> int:
    icons = sum(C.corruption[c].icons for c in s.corr[p])
    if p < s.seats:
        rogue_icons = sum(C.townsfolk[t].icons.count(GREY) for t in s.staff[p])
        icons -= rogue_icons * C.rogue_icon_cancels
    return max(0, icons)


def faction_icons(s: S, p: int) -> list[int]:
    out = [0] * 4
    if p < s.seats:
        for t in s.staff[p]:
            for c in C.townsfolk[t].icons:
                if c != GREY:
                    out[c] += 1
    for c in s.corr[p]:
        f = C.corruption[c].faction
        if 0 <= f < 4:
            out[f] += 1
    return out


def final_scoring(s: S) -> None:
    """After the 3rd Market: gold for non-Rogue faction icons (TOTB, MRBG); Corruption costs gold,
    more with more Rogues in the Lair (designed); most gold wins."""
    rate = C.corruption_base + (s.lair + s.lair_leaders) // C.corruption_per_lair
    icons = [faction_icons(s, p) for p in range(s.np)]
    corrupt = [corruption_icons(s, p) for p in range(s.np)]
    corrupt[0] += challenges.corruption_icons(s)
    if s.options["halls_of_plenty"]:
        stash.halls_of_plenty(s, icons)
    if s.options["lair_of_villainy"]:
        stash.lair_of_villainy(s, corrupt)
    for p in range(s.np):
        g = sum(icons[p][c] * min(hall_count(s, c), C.icon_cap) * C.icon_rate for c in range(4))
        gain(s, p, g)
        lost = pay(s, p, corrupt[p] * rate)
        s._event(f"Final scoring: {who(s, p)} +{g} for faction icons, -{lost} for Corruption")
    s.stage = Stage.OVER


# One shared instance of each frame without fields.
CLOCK, MARKET, TURN, LOAD, PEDDLER_GOODS = Clock(), MarketTurn(), Turn(), LoadAdventurer(), PeddlerGoods()
SELLING, FESTIVAL_FRAME, PLACE_ANY = Selling(), Festival(), Place()
FINAL_PAY, FINAL_SCORING = FinalPay(), FinalScoring()
RECRUIT_FRAME, SPONSOR_FRAME, RAID_FRAME = Recruit(), Sponsor(), RaidOffer()
DISCARD_TASK, DISCARD_FRAME, RETURN_FRAME, TAKE_FRAME = DiscardCorruption(), DiscardChoice(), ReturnChoice(), TakeChoice()


def check_consistent(s: S) -> None:
    """A loaded state must keep every adventurer and every card somewhere."""
    total = sum(s.bag) + sum(len(b) for b in s.boats) + sum(len(x) for x in s.slot_adv) + sum(s.halls) + s.lair
    total += sum(s.bay) + sum(s.hall_rogues) + len(s.island)
    total += (s.drawn >= 0) + sum(1 for f in s.frames if isinstance(f, PutAdventurer))
    rc = C.rogues[s.rogue]
    expect = sum(C.adventurers) - (C.adventurers[GREY] - rc.bag - rc.lair)
    if total != expect:
        raise BadRecord(f"saved state holds {total} adventurers, expected {expect}")
    cards = len(s.cdeck) + len(s.cdiscard) + sum(len(x) for x in s.corr)
    expect = len(stash.corruption_deck(s))
    if cards != expect:
        raise BadRecord(f"saved state holds {cards} Corruption cards, expected {expect}")
