"""Merchants Cove: The Secret Stash modules, one function per printed rule.

Each module is an option (``__init__.SPEC``); ``rules.py`` calls in here at the
points the rulebook names (drawing a Rogue, docking, the Market, final
scoring). Rogue effects are keyed by the card's ``effect`` id, numbers live in
``data/*.toml``. Printed text: ``shared/rulebooks/merchants-cove-secret-stash.txt``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from . import rules as R
from .actions import Act, act
from .boats import capacity
from .components import ADV_NAMES, COLOURS, GREY, good
from .components import COMPONENTS as C
from .merchants import draw_corruption, gain, pay

if TYPE_CHECKING:
    from .state import CoveState as S

SETS = tuple(C.tf_sets)
ROGUE_BY_ID = {r.id: r.index for r in C.rogues}
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
            s._event(f"{R.who(s, s.actor)} draws a Rogue: {C.rogues[r].name}")
            {"kraken": kraken, "doppelgangers": doppelgangers, "assassins": assassins}[eff](s, c)
            return True
    return False


def kraken(s: S, rogue: int) -> None:
    """5 Kraken: the Rogue back to the bag, then one Customer from a Sailing Boat into the bay."""
    s.bag[rogue] += 1
    if kraken_targets(s):
        s.phase = R.KRAKEN


def kraken_targets(s: S) -> list[Act]:
    return [act("kraken", b + 1, ADV_NAMES[c]) for b in range(len(s.boats)) if s.docked[b] < 0
            for c in sorted(set(s.boats[b])) if c % 5 != GREY]


def kraken_take(s: S, b: int, c: int) -> None:
    s.boats[b].remove(c)
    s.bay[c] += 1
    s._event(f"The Kraken takes a {ADV_NAMES[c]} Customer from boat {b + 1} into the bay")
    s.phase = R.RUN


def doppelgangers(s: S, rogue: int) -> None:
    """10 Doppelgangers: into a Faction Hall of choice, then 1 Adventurer of that Hall back to the bag."""
    s.drawn = rogue
    s.phase = R.HALL


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
    s.phase = R.RUN


def assassins(s: S, rogue: int) -> None:
    """11 Assassins: the Rogue back to the bag; discard 1 Townsfolk from the Town Square, then refill."""
    s.bag[rogue] += 1
    if s.square:
        s.phase = R.ASSASSIN


def assassinate(s: S, t: int) -> None:
    s.square.remove(t)
    s.tf_bottom.append(t)
    R.refill_square(s)
    s._event(f"Assassins: {C.townsfolk[t].name} is discarded from the Town Square")
    s.phase = R.RUN


def place_targets(s: S, boats: list[int]) -> list[int]:
    """Grey Walkers and Backers restrict where a drawn Rogue goes, 'if able'."""
    if s.drawn % 5 != GREY:
        return boats
    if active(s, "walkers"):
        with_rogue = [b for b in boats if R.has_rogue(s.boats[b])]
        boats = with_rogue or boats
    if active(s, "backers"):
        docking = [b for b in boats if len(s.boats[b]) == capacity(b) - 1 and R.free_slots(s, b)]
        boats = docking or boats
    return boats


def peddler_boats(s: S, boats: list[int]) -> list[int]:
    """Ghost Sailors' Peddler rule: a drawn Rogue considers only Boats with Rogues, if any."""
    if s.drawn % 5 == GREY and active(s, "ghost"):
        return [b for b in boats if R.has_rogue(s.boats[b])] or boats
    return boats


def mind_controllers(s: S, b: int) -> None:
    """13 Mind Controllers: a Rogue placed on a Boat; you may draw 1 Corruption to return a Customer."""
    if active(s, "mind") and s.actor < s.seats and any(c % 5 != GREY for c in s.boats[b]):
        s.tasks.insert(0, ("mind", b))


def mind_options(s: S) -> list[Act]:
    b = s.sub
    return [act("mind", ADV_NAMES[c]) for c in sorted(set(s.boats[b])) if c % 5 != GREY] + [act("skip")]


def mind_return(s: S, c: int) -> None:
    b = s.sub
    draw_corruption(s, s.actor, amount(s, "mind"))
    s.boats[b].remove(c)
    s.bag[c] += 1
    s._event(f"Mind Controllers: a {ADV_NAMES[c]} Customer leaves boat {b + 1} for the bag")


# == docking a Boat with Rogues ===================================================================
def rogue_docked(s: S, rogues: int) -> None:
    """Pirates: 3 Gold a Rogue; Warlocks: the Timepiece 1 Hour on; Raiders: a Town Square ability."""
    p = s.actor
    if active(s, "pirates"):
        gold = amount(s, "pirates") * rogues
        gain(s, p, gold)
        s._event(f"Pirates: {R.who(s, p)} gains {gold} Gold for {rogues} Rogue(s)")
    if active(s, "warlocks"):
        s.tasks.insert(0, ("advance", amount(s, "warlocks")))
        s._event(f"Warlocks: {R.who(s, p)} advances 1 Hour")
    if active(s, "raiders") and p < s.seats and s.square:
        s.tasks.insert(0, ("raid",))


def raid_options(s: S) -> list[Act]:
    return [act("raid", C.townsfolk[t].id) for t in s.square] + [act("skip")]


def raid(s: S, t: int) -> None:
    """8 Raiders: draw 1 Corruption, use the Town Square card's ability, discard it under the deck."""
    draw_corruption(s, s.actor, amount(s, "raiders"))
    s.square.remove(t)
    s.tf_bottom.append(t)
    R.refill_square(s)
    s._event(f"Raiders: Seat {s.actor} uses {C.townsfolk[t].name}'s ability")
    s.tasks.insert(0, ("ability", t))


# == Market ====================================================================================
def charlatans(s: S, pier: int, colour: int, n: int) -> int:
    """9 Charlatans: Rogues count as one of each colour Customer not otherwise present at the Pier."""
    if n or colour == GREY or not active(s, "charlatans"):
        return n
    return R.customers_raw(s, pier, GREY)


def ghost_sailors(s: S, b: int) -> bool:
    """6 Ghost Sailors: Customers left on an undocked Boat with Rogues go to the Lair."""
    return active(s, "ghost") and R.has_rogue(s.boats[b])


# == Townsfolk sets ===========================================================================
def ability(s: S, t: int) -> bool:
    """The Secret Stash Townsfolk abilities; False if the card's ability is a base one."""
    card = C.townsfolk[t]
    p, k, n = s.actor, card.ability, card.amount
    if k == "staff-one":
        s.picked, s.sub2 = 0, 1
        s.phase = R.STAFF
    elif k == "staff-all":
        s.picked, s.sub2 = 0, C.staff_spaces
        s.phase = R.STAFF
    elif k in ("good-large-discard", "good-small-discard"):
        from .merchants import produce

        produce(s, p, good(card.colour, k.startswith("good-large")), 1)
        s.tasks[0:0] = [("discard",)] * n
    elif k == "grey-good":
        gain_grey_good(s, p, n)
    elif k == "recruit":
        s.tasks.insert(0, ("recruit",))
    elif k == "corruption":
        draw_corruption(s, p, n)
    else:
        return False
    return True


def staff_options(s: S) -> list[Act]:
    """Officials: any Staff Ability, assigned Townsfolk or not; 'any or all' may stop."""
    out = [act("staff", k + 1) for k in range(C.staff_spaces) if not s.picked >> k & 1]
    if s.sub2 > 1:
        out.append(act("skip"))
    return out


def staff_pick(s: S, k: int) -> None:
    s.picked |= 1 << k
    s.sub2 -= 1
    s.phase = R.STAFF if s.sub2 > 0 and s.picked != (1 << C.staff_spaces) - 1 else R.RUN
    R.staff_ability(s, s.actor, k)


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
        plain = C.corruption[R.CORR_BY_ID["c1"]].index
        for _ in range(len(new)):
            deck.remove(plain)
    return deck + new


def pay_options(s: S, p: int) -> list[Act]:
    """Discard a new Corruption card at any time by paying its own cost."""
    out = []
    for c in sorted(set(s.corr[p])):
        kind, n = C.corruption[c].cost
        if kind == "gold" and s.gold[p] >= n:
            out.append(act("pay", C.corruption[c].id))
        elif kind == "goods" and sum(s.shelf[p]) >= n:
            out.append(act("pay", C.corruption[c].id))
    return out


def pay_cost(s: S, p: int, c: int) -> None:
    kind, n = C.corruption[c].cost
    if kind == "gold":
        pay(s, p, n)
        s._event(f"Seat {p} pays {n} Gold")
    else:
        s.sub2, s.pending = n, c
        s.phase = R.PAYGOOD
        return
    R.discard_corruption(s, p, c)


def pay_good_options(s: S, p: int) -> list[Act]:
    return [act("give", R.GOOD_IDS[g]) for g in range(len(R.GOOD_IDS)) if s.shelf[p][g] > 0]


def pay_good(s: S, p: int, g: int) -> None:
    """A Good from the Sale Shelf pays the cost: it goes back to your supply (Grey ones to the board's)."""
    s.shelf[p][g] -= 1
    if g == GREY_GOOD:
        s.grey += 1
    else:
        s.supply[p][g] += 1
    s.sub2 -= 1
    if s.sub2 <= 0:
        R.discard_corruption(s, p, s.pending)
        s.pending = -1
        s.phase = s.resume
    s._event(f"Seat {p} returns {R.GOOD_IDS[g]} to pay for a Corruption card")


# == Dragon Island Festival =======================================================================
def festival_fill(s: S) -> None:
    """Arrival: Customers onto Dragon Island until eight; Rogues drawn go back to the bag."""
    tries = 0
    while len(s.island) < C.stash["festival"]["island"] and tries < 40:
        c = R.draw_adventurer(s)
        if c < 0:
            return
        if c % 5 == GREY:
            s.bag[c] += 1
            tries += 1
            continue
        s.island.append(c)


def festival_options(s: S, p: int) -> list[Act]:
    out = [act("draw")]
    cost = C.stash["festival_cost"]["gold"]
    for c in sorted(set(s.island)):
        if s.gold[p] >= cost[c % 5]:
            out.append(act("lure", ADV_NAMES[c], "gold"))
        out.append(act("lure", ADV_NAMES[c], "corruption"))
    return out


def festival_lure(s: S, c: int, how: str) -> None:
    p = s.actor
    if how == "gold":
        pay(s, p, C.stash["festival_cost"]["gold"][c % 5])
    else:
        draw_corruption(s, p, C.stash["festival"]["corruption"])
    s.island.remove(c)
    s.drawn, s.sub = c, -1
    s._event(f"Seat {p} lures a {ADV_NAMES[c]} guest from Dragon Island ({how})")
    s.phase = R.PLACE


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
        s._event(f"Halls of Plenty ({COLOURS[c]}): " + ", ".join(R.who(s, p) for p in leaders))


def lair_of_villainy(s: S, corruption: list[int]) -> None:
    """Most Corruption icons: +5; tied: +2 each."""
    most, tied = C.stash["lair_of_villainy"]["most"], C.stash["lair_of_villainy"]["tied"]
    top = max(corruption)
    if top <= 0:
        return
    leaders = [p for p in range(s.np) if corruption[p] == top]
    for p in leaders:
        corruption[p] += most if len(leaders) == 1 else tied
    s._event("Lair of Villainy: " + ", ".join(R.who(s, p) for p in leaders))
