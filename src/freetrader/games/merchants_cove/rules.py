"""Merchants Cove rules, one function per rule (DESIGN.md); RULES.md maps each to its source.

Flow: set-up (merchant choice), then three days of Arrival, Production,
Market and Clean-Up, then final scoring. This module holds the set-up and the
day; a Production turn and what it sets off are ``turn.py``'s, the Market's
sales and final scoring ``market.py``'s. Production is the Clock: the
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
from .actions import COMMON, Merchant
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
from .components import ADV_NAMES, COLOURS, GOOD_IDS, GREY, N_GOODS, SIZES, RogueCard
from .components import COMPONENTS as C
from .flow import Effect, go_on
from .market import (
    FINAL_PAY,
    SELLING,
    corruption_icons,
    customers,
    faction_icons,
    final_scoring,
    legal_sales,
    peddler_sells,
    sale_options,
    sell,
)
from .merchants import MERCHANTS, gain, load_all, merchant_of
from .phases import PHASES, STAGES, Phase, Stage
from .turn import (
    LOAD,
    PLACE_ANY,
    RAID_FRAME,
    RECRUIT_FRAME,
    TURN,
    AdvanceTimepiece,
    DockBoat,
    PutAdventurer,
    advance_timepiece,
    dock,
    hire,
    legal_main,
    place_on_boat,
    rob,
    sponsor,
    take_action,
    townsfolk_ability,
)

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
    # the frames scenario tests build stacks from
    "CLOCK", "TURN", "LOAD", "PLACE_ANY", "RAID_FRAME", "RECRUIT_FRAME", "AdvanceTimepiece", "DockBoat", "GOOD_IDS",
]

load_all()

# The phases and stages by the names the rules have always used for them.
(SETUP, MAIN, PLACE, DOCK, RECRUIT, SPONSOR, DISCARD, RETURN, TAKE, ROB, MERCH, SELL, OVER, RUN,
 KRAKEN, HALL, ASSASSIN, MIND, RAID, STAFF, PAYGOOD, FESTIVAL) = tuple(Phase)
ST_SETUP, ST_PROD, ST_MARKET, ST_OVER = tuple(Stage)
TF_PAIRS = {"locals+mercenaries": ("locals", "mercenaries"), "locals+sailors": ("locals", "sailors"),
            "mercenaries+sailors": ("mercenaries", "sailors"), "all": ("locals", "mercenaries", "sailors")}
_PICKS = {m: Merchant(m) for m in C.merchants}


# == set-up (Setup) ==================================================================
def setup(s: S) -> None:
    """The merchants' piles, the Rogue card and the bag, the Boats, the Townsfolk and the decks, in that order
    (each draws from the state's RNG), then the merchants."""
    o = s.options
    if o["first_player"] != "random" and int(o["first_player"].removeprefix("seat")) >= s.seats:
        raise BadOption(f"option first_player={o['first_player']!r}: this game has {s.seats} seat(s); choose random "
                        f"or seat0..seat{s.seats - 1}")
    solo = s.seats == 1 and o["peddler"]
    setup_merchants_piles(s, solo)
    rc = setup_rogues_and_bag(s)
    boats.setup(s)
    s.slot_boat = [-1] * len(C.slots)
    s.slot_adv = [[] for _ in C.slots]
    s.mice = list(C.mice)
    sets = setup_townsfolk(s)
    setup_decks(s, solo)
    challenges.setup(s)
    s._event(f"Rogue card: {rc.number} {rc.name} ({rc.bag} Rogues in the bag, {rc.lair} in the Lair); "
             f"Townsfolk: {sets}")
    choose_merchants(s)


def setup_merchants_piles(s: S, solo: bool) -> None:
    """Gold, timepieces, goods and the rest of each merchant's (the Peddler's too, in solo play)."""
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


def setup_rogues_and_bag(s: S) -> RogueCard:
    """The Rogue card: revealed at random (SPK, BSN, DOJ), or chosen by option; it sets the Rogues in the bag
    and in the Lair. The bag, the Faction Halls seeded from it, the Faction Leaders."""
    o = s.options
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
    return rc


def setup_townsfolk(s: S) -> str:
    """Townsfolk: two sets by default, Locals + Mercenaries (RAND), shuffled; the Town Square dealt. The sets' name."""
    sets = s.options["townsfolk"]
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
    return str(sets)


def setup_decks(s: S, solo: bool) -> None:
    """The Corruption deck and, in solo play, the Peddler's deck, shuffled."""
    if s.options["corruption"] not in ("base", "mixed", "replace"):
        raise BadOption(f"option corruption={s.options['corruption']!r}: choose base, mixed or replace")
    s.cdeck = stash.corruption_deck(s)
    s.rng.shuffle(s.cdeck)
    s.cdiscard = []
    # Peddler deck (solo)
    s.pdeck = [c.index for c in C.peddler_cards] if solo else []
    s.rng.shuffle(s.pdeck)
    s.pdiscard = []
    s.pcard = -1


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


# One shared instance of each frame without fields.
CLOCK, MARKET, PEDDLER_GOODS, FINAL_SCORING = Clock(), MarketTurn(), PeddlerGoods(), FinalScoring()


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
