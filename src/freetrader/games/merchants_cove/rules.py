"""Merchants Cove rules, one function per rule (DESIGN.md); RULES.md maps each to its source.

Flow: set-up (merchant choice), then three days of Arrival, Production,
Market and Clean-Up, then final scoring. Production is the Clock: the
timepiece furthest behind acts (top of a stack first). Work that an action
sets off (place drawn adventurers, dock full boats, Townsfolk abilities, Rogue
effects, Mice) is a queue of small tasks in ``s.tasks``; a task that needs a
choice sets ``s.phase`` to a decision and waits. In solo play the Peddler
(``peddler.py``) is one more timepiece whose decisions are made at once.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from freetrader.core import Action, BadOption, BadRecord

from . import boats, challenges, peddler, stash
from .actions import Act, act
from .components import ADV_NAMES, COLOURS, GOOD_IDS, GREY, N_GOODS, SIZES
from .components import COMPONENTS as C
from .merchants import MERCHANTS, draw_corruption, gain, load_all, merchant_of, pay

if TYPE_CHECKING:
    from .state import CoveState as S

load_all()

PHASES = ("merchant", "action", "place", "dock", "recruit", "sponsor", "discard", "return", "take", "rob",
          "merchant-step", "sell", "over", "run",
          # Secret Stash decisions
          "kraken", "hall", "assassin", "mind", "raid", "staff", "pay-good", "festival")
(SETUP, MAIN, PLACE, DOCK, RECRUIT, SPONSOR, DISCARD, RETURN, TAKE, ROB, MERCH, SELL, OVER, RUN,
 KRAKEN, HALL, ASSASSIN, MIND, RAID, STAFF, PAYGOOD, FESTIVAL) = range(len(PHASES))
STAGES = ("setup", "production", "market", "over")
ST_SETUP, ST_PROD, ST_MARKET, ST_OVER = range(4)
COMMON = ("load", "recruit", "sponsor")
SLOT_IDS = tuple(
    C.piers[p].id if len(C.piers[p].sides) == 1 else f"{C.piers[p].id}-{('left', 'right')[sd]}" for p, sd in C.slots
)
PIER_IDS = tuple(p.id for p in C.piers)
TF_BY_ID = {t.id: t.index for t in C.townsfolk}
CORR_BY_ID = {c.id: c.index for c in C.corruption}
ROGUE_BY_ID = {r.id: r.index for r in C.rogues}
TF_PAIRS = {"locals+mercenaries": ("locals", "mercenaries"), "locals+sailors": ("locals", "sailors"),
            "mercenaries+sailors": ("mercenaries", "sailors"), "all": ("locals", "mercenaries", "sailors")}


def kind(c: int) -> int:
    """The colour of an adventurer (a Faction Leader is its colour's)."""
    return c % 5


def weight(c: int) -> int:
    """Faction Leaders count as two of their colour for buying, Sponsorship and Final Scoring."""
    return 2 if c >= 5 else 1


def has_rogue(xs: list[int]) -> bool:
    return any(c % 5 == GREY for c in xs)


def who(s: S, p: int) -> str:
    return "The Peddler" if p >= s.seats else f"Seat {p}"


# == set-up (Setup) ==================================================================
def setup(s: S) -> None:
    o = s.options
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
    s.mb = [[] for _ in range(s.seats)]
    s.tasks = []
    s.drawn = -1
    s.sub = s.sub2 = -1
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
    s.picked = 0
    s.pending = -1
    s.resume = MAIN
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
        s.stage, s.phase, s.actor = ST_SETUP, SETUP, 0
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


def take_merchant(s: S, p: int, mid: str) -> None:
    s.merchant[p] = mid
    s.mb[p] = MERCHANTS[mid].setup(s, p)
    s._event(f"Seat {p} plays {MERCHANTS[mid].name}")


def start_game(s: S) -> None:
    """Stack the timepieces on the Clock's "1" (H9K) in a random order, then the first Arrival."""
    order = list(range(s.np))
    s.rng.shuffle(order)
    for p in order:
        s.tick += 1
        s.stack[p] = s.tick
    arrival(s)


# == Arrival ==========================================================================
def draw_adventurer(s: S) -> int:
    """One adventurer drawn at random from the bag (hidden until drawn); -1 if the bag is empty."""
    total = sum(s.bag)
    if total == 0:
        return -1
    r = s.rng.below(total)
    for c in range(len(s.bag)):
        if r < s.bag[c]:
            s.bag[c] -= 1
            return c
        r -= s.bag[c]
    raise AssertionError("bag draw out of range")


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
    s.stage = ST_PROD
    for p in range(s.seats):
        for space in range(min(len(s.staff[p]), C.staff_spaces)):
            if s.day > 1:
                staff_ability(s, p, space)
    s.phase = RUN
    run(s)


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
            s.tasks[0:0] = [("place",)] * C.mouse_load
            s.mice[i] += C.mouse_step
            if p == 0:
                challenges.mouse_moved(s, s.mice[i])
    if p == 0:
        challenges.timepiece_moved(s)
    if new >= C.market:
        s._event(f"{who(s, p)} reaches the Market token")


def legal_main(s: S, p: int) -> list[Act]:
    """Move to an action space of your shop board; never the same one twice in a row (SPK)."""
    m = merchant_of(s, p)
    out = [act("do", a) for a in COMMON if a != s.last[p] and _common_ok(s, p, a)]
    out += [act("do", a) for a in m.actions() if a != s.last[p] and m.available(s, p, a)]
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
    s.tasks.append(("advance", hours))
    if a == "load":
        s.tasks[0:0] = [("place",)] * C.load_count
        s.phase = RUN
    elif a == "recruit":
        s.phase = RECRUIT
    elif a == "sponsor":
        s.phase = SPONSOR
    else:
        s.phase = MERCH if m.begin(s, p, a) else RUN


# == boats: loading and docking ======================================================
def sailing_open(s: S, exclude: int = -1) -> list[int]:
    return [b for b in range(len(s.boats))
            if s.afloat[b] and s.docked[b] < 0 and len(s.boats[b]) < boats.capacity(b) and b != exclude]


def task_place(s: S) -> None:
    """Draw an adventurer and place it in a boat (DTN); a Rogue as the Rogue card says (DOJ)."""
    if not sailing_open(s):
        return
    if s.options["festival"] and s.island and s.actor < s.seats:
        s.phase = FESTIVAL
        return
    draw_to_place(s)


def draw_to_place(s: S) -> None:
    """Round Setup ('may not be placed on Boats') governs Arrival; in Production a drawn Rogue is placed
    unless a 'when drawn' Rogue effect (Kraken, Doppelgangers, Assassins) takes it instead."""
    s.phase = RUN
    c = draw_adventurer(s)
    if c < 0:
        s._event("The adventurer bag is empty")
        return
    if kind(c) == GREY and stash.rogue_drawn(s, c):
        return
    s.drawn = c
    s.sub = -1
    s._event(f"{who(s, s.actor)} draws a {ADV_NAMES[c]} adventurer")
    s.phase = PLACE


def place_on_boat(s: S, b: int) -> None:
    s.boats[b].append(s.drawn)
    s._event(f"{who(s, s.actor)} places it on boat {b + 1}")
    rogue = kind(s.drawn) == GREY
    s.drawn = -1
    s.sub = -1
    s.phase = RUN
    if len(s.boats[b]) >= boats.capacity(b):
        s.tasks.insert(0, ("dock", b))
    if rogue:
        stash.mind_controllers(s, b)


def free_slots(s: S, b: int) -> list[int]:
    side = boats.side(b)
    if side < 0:  # the 2-seater: any Pier, whether or not a Boat is Docked there
        return [C.slots.index(next(sl for sl in C.slots if sl[0] == pi)) for pi in range(len(C.piers))]
    return [k for k, (_, sd) in enumerate(C.slots) if sd == side and s.slot_boat[k] < 0]


def task_dock(s: S, b: int) -> None:
    """A full boat docks at a free pier chosen by the active player (DTN, BSB); only four can (VDJ)."""
    if s.docked[b] >= 0 or len(s.boats[b]) < boats.capacity(b):
        return
    slots = free_slots(s, b)
    if not slots:
        s._event(f"Boat {b + 1} is full but no pier on its side is free: it waits at sea")
        return
    if len(slots) == 1:
        dock(s, b, slots[0])
        return
    s.sub = b
    s.phase = DOCK


def dock(s: S, b: int, k: int) -> None:
    s.docked[b] = k
    if boats.side(b) >= 0:  # the 2-seater fills no Pier space
        s.slot_boat[k] = b
    rogues = sum(weight(c) for c in s.boats[b] if kind(c) == GREY)  # a Rogue Leader counts twice (Pirates)
    s._event(f"{who(s, s.actor)} docks boat {b + 1} at {SLOT_IDS[k]}: " + "+".join(ADV_NAMES[c] for c in s.boats[b]))
    s.slot_adv[k] = s.slot_adv[k] + s.boats[b]  # the 2-seater's Adventurers join those at the Pier
    s.boats[b] = []
    s.sub = -1
    s.phase = RUN
    if rogues:
        rogue_on_dock(s, rogues)


def rogue_on_dock(s: S, rogues: int) -> None:
    """Rogue card effects when a boat with Rogues docks (designed effects of Criminals and Robbers)."""
    for r in s.rogues:
        eff = C.rogues[r].effect
        if eff == "dock-corruption":
            draw_corruption(s, s.actor, 1)
        elif eff == "rob" and s.np > 1:
            s.tasks.insert(0, ("rob", rogues))
    stash.rogue_docked(s, rogues)


def task_rob(s: S, n: int) -> None:
    rivals = [q for q in range(s.np) if q != s.actor]
    if len(rivals) == 1:
        rob(s, rivals[0], n)
        return
    s.sub = n
    s.phase = ROB


def rob(s: S, q: int, n: int) -> None:
    s._event(f"Robbers: {who(s, s.actor)} sets them on {who(s, q)}")
    draw_corruption(s, q, n)
    s.sub = -1
    s.phase = RUN


# == Townsfolk and Staff =============================================================
def refill_square(s: S) -> None:
    while len(s.square) < C.square:
        if s.tf_deck:
            s.square.append(s.tf_deck.pop())
        elif s.tf_bottom:
            s.square.append(s.tf_bottom.pop(0))
        else:
            break


def legal_recruit(s: S, p: int) -> list[Act]:
    out = [act("hire", C.townsfolk[t].id) for t in s.square if C.townsfolk[t].cost <= s.gold[p]]
    out += [act("replace", C.townsfolk[t].id) for t in s.square]
    out.append(act("skip"))
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
    s.phase = RUN
    s.tasks.insert(0, ("ability", t))
    if len(s.staff[p]) <= C.staff_spaces:
        s.tasks.insert(1, ("staff", len(s.staff[p]) - 1))


def replace(s: S, t: int) -> None:
    """Replace: a Town Square card goes under the deck and the square is refilled."""
    s.square.remove(t)
    s.tf_bottom.append(t)
    refill_square(s)
    s._event(f"Seat {s.actor} replaces {C.townsfolk[t].name} in the Town Square")
    s.phase = RUN


def townsfolk_ability(s: S, t: int) -> None:
    card = C.townsfolk[t]
    p = s.actor
    k, n = card.ability, card.amount
    if stash.ability(s, t):
        return
    if k == "gold":
        gain(s, p, n)
        s._event(f"{card.name}: Seat {p} gains {n} gold")
    elif k == "discard":
        s.tasks[0:0] = [("discard",)] * n
    elif k in ("good-small", "good-large"):
        from .merchants import produce

        produce(s, p, card.colour * 2 + (k == "good-large"), n)
    elif k == "load":
        s.tasks[0:0] = [("place",)] * n
    elif k == "return":
        s.tasks[0:0] = [("return",)] * n
    elif k == "move":
        s.tasks[0:0] = [("take",)] * n


def staff_ability(s: S, p: int, space: int) -> None:
    """A Staff space with a Townsfolk assigned: its ability (on hiring, and at each later day's start)."""
    kind, n = C.merchants[s.merchant[p]].staff[space]
    if kind == "gold":
        gain(s, p, n)
        s._event(f"Staff: Seat {p} gains {n} gold")
    elif kind == "discard":
        for _ in range(n):
            if s.corr[p]:
                worst = max(s.corr[p], key=lambda c: (C.corruption[c].icons, -C.corruption[c].faction))
                discard_corruption(s, p, worst)
    else:
        merchant_of(s, p).staff(s, p, n)


def discard_corruption(s: S, p: int, c: int) -> None:
    s.corr[p].remove(c)
    s.cdiscard.append(c)
    s._event(f"{who(s, p)} discards a Corruption card ({C.corruption[c].icons} icon)")


def legal_discard(s: S, p: int) -> list[Act]:
    return [act("discard", C.corruption[c].id) for c in sorted(set(s.corr[p]))] or [act("skip")]


def legal_return(s: S, p: int, verb: str) -> list[Act]:
    out = []
    for b in range(len(s.boats)):
        if s.docked[b] < 0:
            for c in sorted(set(s.boats[b])):
                out.append(act(verb, b + 1, ADV_NAMES[c]))
    return out or [act("skip")]


def sponsor(s: S, c: int) -> None:
    """Gain sponsorship with a faction: one shield of its colour on your shop board (MRBG, UFG)."""
    s.shields[s.actor][c] += 1
    s._event(f"Seat {s.actor} sponsors the {COLOURS[c]} faction ({s.shields[s.actor][c]} shields)")
    s.phase = RUN


# == the task runner ===================================================================
def run(s: S) -> None:
    """Do queued work until a seat must decide or the game ends."""
    while True:
        if s.phase != RUN:
            if s.actor >= s.seats and s.phase != OVER:
                peddler.decide(s)
                continue
            return
        if s.tasks:
            task = s.tasks.pop(0)
            kind = task[0]
            if kind == "place":
                task_place(s)
            elif kind == "dock":
                task_dock(s, task[1])
            elif kind == "rob":
                task_rob(s, task[1])
            elif kind == "ability":
                townsfolk_ability(s, task[1])
            elif kind == "staff":
                staff_ability(s, s.actor, task[1])
            elif kind == "discard":
                if s.corr[s.actor]:
                    s.phase = DISCARD
            elif kind == "return":
                s.phase = RETURN
            elif kind == "take":
                s.phase = TAKE
            elif kind == "put":
                if sailing_open(s, task[2]):
                    s.drawn, s.sub = task[1], task[2]
                    s.phase = PLACE
                else:
                    s.boats[task[2]].append(task[1])
            elif kind == "advance":
                advance_timepiece(s, s.actor, task[1])
            elif kind == "pgoods":
                peddler.gain_goods(s)
            elif kind == "mind":
                if len(s.boats[task[1]]) and s.docked[task[1]] < 0:
                    s.sub, s.phase = task[1], MIND
            elif kind == "raid":
                s.phase = RAID
            elif kind == "recruit":
                s.phase = RECRUIT
            elif kind == "refill":
                refill_square(s)
            continue
        if s.stage == ST_PROD:
            p = next_on_clock(s)
            if p < 0:
                start_market(s)
                continue
            s.actor = p
            if p >= s.seats:
                peddler.take_turn(s)
                continue
            s.phase = MAIN
            return
        if s.stage == ST_MARKET:
            if not s.order:
                end_market(s)
                continue
            s.actor = s.order[0]
            if s.actor >= s.seats:
                peddler.sell_all(s)
                s.order.pop(0)
                continue
            if not legal_sales(s, s.actor):
                s.order.pop(0)
                continue
            s.phase = SELL
            return
        return


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
    s.stage = ST_MARKET
    s.bought = [0] * (len(C.piers) * 5)
    s.order = sorted(range(s.np), key=lambda p: s.stack[p])


def customers(s: S, pier: int, colour: int) -> int:
    return stash.charlatans(s, pier, colour, customers_raw(s, pier, colour))


def customers_raw(s: S, pier: int, colour: int) -> int:
    n = 0
    for k, (pi, _) in enumerate(C.slots):
        if pi == pier:
            n += sum(weight(c) for c in s.slot_adv[k] if kind(c) == colour)
    return n


def sale_options(s: S, p: int) -> list[tuple[int, int, int, bool]]:
    """(good, pier, price, to_rogues) for every sale open to ``p``: a good to matching customers on a
    pier that takes its size, price = value x matching customers (MRBG, RAND); each group of customers
    buys one good from each merchant (designed). Cultists: Rogues buy any colour (RAND, MARTA)."""
    out = []
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


def legal_sales(s: S, p: int) -> list[Act]:
    return [act("sell", GOOD_IDS[g], ("rogues-" if rog else "") + PIER_IDS[pi]) for g, pi, _, rog in sale_options(s, p)]


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
        final_scoring(s)
        return
    clean_up(s)


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
    # the player with least gold starts on top of the stack (designed)
    for p in sorted(range(s.np), key=lambda q: (-s.gold[q], q)):
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


def hall_count(s: S, c: int) -> int:
    """Adventurers in a Faction Hall, a Doppelganger among them."""
    return s.halls[c] + s.hall_rogues[c] + s.hall_leaders[c] + s.hall_rogue_leaders[c]


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
    s.stage = ST_OVER
    s.phase = OVER


# == legal actions and apply =================================================================
def legal(s: S) -> tuple[Action, ...]:
    p, ph = s.actor, s.phase
    if ph == SETUP:
        taken = set(s.merchant)
        return tuple(act("merchant", m) for m in sorted(MERCHANTS) if m not in taken)
    if ph == MAIN:
        return tuple(challenges.options(s, p)) + tuple(legal_main(s, p)) + tuple(stash.pay_options(s, p))
    if ph == PLACE:
        return tuple(act("boat", b + 1) for b in stash.place_targets(s, sailing_open(s, s.sub)))
    if ph == DOCK:
        return tuple(act("dock", SLOT_IDS[k]) for k in free_slots(s, s.sub))
    if ph == RECRUIT:
        return tuple(legal_recruit(s, p))
    if ph == SPONSOR:
        return tuple(act("shield", COLOURS[c]) for c in range(4) if s.shields[p][c] < C.shield_max)
    if ph == DISCARD:
        return tuple(legal_discard(s, p))
    if ph == RETURN:
        return tuple(legal_return(s, p, "return"))
    if ph == TAKE:
        return tuple(legal_return(s, p, "take"))
    if ph == ROB:
        return tuple(act("rob", q) for q in range(s.np) if q != p)
    if ph == MERCH:
        return tuple(merchant_of(s, p).legal(s, p))
    if ph == SELL:
        return tuple(legal_sales(s, p)) + (act("done"),) + tuple(stash.pay_options(s, p))
    return legal_stash(s, p, ph)


def legal_stash(s: S, p: int, ph: int) -> tuple[Action, ...]:
    if ph == KRAKEN:
        return tuple(stash.kraken_targets(s))
    if ph == HALL:
        return tuple(act("hall", COLOURS[c]) for c in range(4))
    if ph == ASSASSIN:
        return tuple(act("kill", C.townsfolk[t].id) for t in s.square)
    if ph == MIND:
        return tuple(stash.mind_options(s))
    if ph == RAID:
        return tuple(stash.raid_options(s))
    if ph == STAFF:
        return tuple(stash.staff_options(s))
    if ph == PAYGOOD:
        return tuple(stash.pay_good_options(s, p))
    if ph == FESTIVAL:
        return tuple(stash.festival_options(s, p))
    return ()


def apply(s: S, a: Action) -> None:
    assert isinstance(a, Act)
    p, ph, v = s.actor, s.phase, a.verb
    if ph == SETUP:
        take_merchant(s, p, a.a)
        if p + 1 < s.seats:
            s.actor = p + 1
        else:
            start_game(s)
        return
    if v == "challenge":
        challenges.complete(s)
    elif v == "pay":
        s.resume = ph
        stash.pay_cost(s, p, CORR_BY_ID[a.a])
    elif ph == MAIN:
        take_action(s, a.a)
    elif ph == PLACE:
        place_on_boat(s, int(a.a) - 1)
    elif ph == DOCK:
        dock(s, s.sub, SLOT_IDS.index(a.a))
    elif ph == RECRUIT:
        s.phase = RUN
        if v == "hire":
            hire(s, TF_BY_ID[a.a])
        elif v == "replace":
            replace(s, TF_BY_ID[a.a])
    elif ph == SPONSOR:
        sponsor(s, COLOURS.index(a.a))
    elif ph == DISCARD:
        s.phase = RUN
        if v == "discard":
            c = CORR_BY_ID[a.a]
            discard_corruption(s, p, c)
    elif ph in (RETURN, TAKE):
        s.phase = RUN
        if v != "skip":
            b, c = int(a.a) - 1, ADV_NAMES.index(a.b)
            s.boats[b].remove(c)
            if v == "return":
                s.bag[c] += 1
                s._event(f"Seat {p} sends a {a.b} adventurer from boat {a.a} back to the bag")
            else:
                s._event(f"Seat {p} takes a {a.b} adventurer off boat {a.a}")
                s.tasks.insert(0, ("put", c, b))
    elif ph == ROB:
        rob(s, int(a.a), s.sub)
    elif ph == MERCH:
        if not merchant_of(s, p).step(s, p, a):
            s.phase = RUN
    elif ph >= KRAKEN:
        apply_stash(s, p, ph, a)
    elif ph == SELL:
        if v == "done":
            s.order.pop(0)
            s.phase = RUN
        else:
            g = GOOD_IDS.index(a.a)
            rog = a.b.startswith("rogues-")
            sell(s, p, g, PIER_IDS.index(a.b.removeprefix("rogues-")), rog)
            if not legal_sales(s, p):
                s.order.pop(0)
                s.phase = RUN
    run(s)


def apply_stash(s: S, p: int, ph: int, a: Act) -> None:
    v = a.verb
    if ph == KRAKEN:
        stash.kraken_take(s, int(a.a) - 1, ADV_NAMES.index(a.b))
    elif ph == HALL:
        stash.doppelganger_hall(s, COLOURS.index(a.a))
    elif ph == ASSASSIN:
        stash.assassinate(s, TF_BY_ID[a.a])
    elif ph in (MIND, RAID):
        s.phase = RUN
        if v == "mind":
            stash.mind_return(s, ADV_NAMES.index(a.a))
        elif v == "raid":
            stash.raid(s, TF_BY_ID[a.a])
        s.sub = -1
    elif ph == STAFF:
        if v == "skip":
            s.phase = RUN
        else:
            stash.staff_pick(s, int(a.a) - 1)
    elif ph == PAYGOOD:
        stash.pay_good(s, p, GOOD_IDS.index(a.a))
    elif ph == FESTIVAL:
        if v == "draw":
            draw_to_place(s)
        else:
            stash.festival_lure(s, ADV_NAMES.index(a.a), a.b)


def prompt(s: S) -> str:
    ph = s.phase
    if ph == SETUP:
        return "choose your merchant"
    if ph == MAIN:
        return f"day {s.day}, hour {s.time[s.actor]}: choose an action space on your shop board"
    if ph == PLACE:
        return f"place the drawn {ADV_NAMES[s.drawn]} adventurer on a sailing boat"
    if ph == DOCK:
        return f"dock the full boat {s.sub + 1} at a free pier"
    if ph == RECRUIT:
        return "hire a Townsfolk, replace one in the Town Square, or skip"
    if ph == SPONSOR:
        return "choose the faction to sponsor"
    if ph == DISCARD:
        return "choose a Corruption card to discard"
    if ph == RETURN:
        return "send an adventurer on a sailing boat back to the bag"
    if ph == TAKE:
        return "take an adventurer off a sailing boat to move it"
    if ph == ROB:
        return "Robbers: choose the rival who draws the Corruption"
    if ph == MERCH:
        return merchant_of(s, s.actor).prompt(s, s.actor)
    if ph == SELL:
        return "sell a good at a pier, or done"
    return STASH_PROMPTS.get(ph, "")


STASH_PROMPTS = {
    KRAKEN: "Kraken: choose a Customer on a Sailing Boat to drag into the bay",
    HALL: "Doppelgangers: choose the Faction Hall the Rogue joins",
    ASSASSIN: "Assassins: choose the Townsfolk to discard from the Town Square",
    MIND: "Mind Controllers: draw 1 Corruption to send a Customer from that Boat to the bag, or skip",
    RAID: "Raiders: draw 1 Corruption to use a Town Square Townsfolk's ability, or skip",
    STAFF: "Officials: choose a Staff Ability to activate",
    PAYGOOD: "choose a Good from your Sale Shelf to pay the Corruption card's cost",
    FESTIVAL: "Dragon Island Festival: draw from the bag, or lure a guest from Dragon Island",
}


def check_consistent(s: S) -> None:
    """A loaded state must keep every adventurer and every card somewhere."""
    total = sum(s.bag) + sum(len(b) for b in s.boats) + sum(len(x) for x in s.slot_adv) + sum(s.halls) + s.lair
    total += sum(s.bay) + sum(s.hall_rogues) + len(s.island)
    total += (s.drawn >= 0) + sum(1 for task in s.tasks if task[0] == "put")
    rc = C.rogues[s.rogue]
    expect = sum(C.adventurers) - (C.adventurers[GREY] - rc.bag - rc.lair)
    if total != expect:
        raise BadRecord(f"saved state holds {total} adventurers, expected {expect}")
    cards = len(s.cdeck) + len(s.cdiscard) + sum(len(x) for x in s.corr)
    expect = len(stash.corruption_deck(s))
    if cards != expect:
        raise BadRecord(f"saved state holds {cards} Corruption cards, expected {expect}")


__all__ = ["PHASES", "STAGES", "setup", "legal", "apply", "prompt", "SIZES"]
