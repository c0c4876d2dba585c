"""The board and the purse: what the rules read and the small changes they make, no decisions.

Everything here is a query or a primitive change (pay, gain, seize at once, lose
a Character); nothing pushes a frame. The decisions are in ``frames.py`` and
``rules.py``, card handlers in ``abilities.py``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .components import COMPONENTS as C
from .components import INF
from .packing import fits, hold_of_store
from .phases import LAND, STORE, WAREHOUSE

if TYPE_CHECKING:
    from .state import CornishState as S

__all__ = [
    "GOODS_IDS", "GOODS_BY_ID", "LOC_IDS", "N_OFFICERS", "ROW_NAMES", "SECRET", "abandoned", "bribe_cost",
    "buy_price", "can_land", "can_land_at", "chooser", "crowded_out", "empty_land", "goods_at", "honest_work_gain", "hire_price",
    "legal_placements", "lose_character", "nearest_officers", "passive", "seizable", "seize", "seize_now",
    "store_fits", "town_size", "unbribed_officer_at",
]

N_OFFICERS = len(C.start_officers) + len(C.new_officer)
N_GOODS = len(C.goods)
GOODS_IDS = tuple(f"g{i:02d}" for i in range(len(C.goods)))
GOODS_BY_ID = {g: i for i, g in enumerate(GOODS_IDS)}
LOC_IDS = tuple(loc.id for loc in C.locations)
ROW_NAMES = ("top", "middle", "bottom")
DECK_NAMES = ("religious", "trade", "unskilled", "official")
#: A card in play is a Character index, or ``SECRET`` + a Secrets index.
SECRET = 1000

_PASSIVE_OF: list[dict[str, int]] = [dict() for _ in C.characters]
for _c in C.characters:
    if _c.event == "passive":
        _PASSIVE_OF[_c.index][_c.effect] = _c.amount


# == Gold, Influence, Reputation =====================================================
def pay_ways(s: S, p: int, influence: int, gold: int) -> tuple[str, ...]:
    """The ways seat ``p`` can pay an action costing ``influence`` or ``gold``."""
    out = []
    if s.infl[p] >= influence:
        out.append("influence")
    if s.gold[p] >= gold:
        out.append("gold")
    return tuple(out)


def spend(s: S, p: int, pay: str, influence: int, gold: int, reputation: int = 0) -> None:
    if pay == "influence":
        s.infl[p] -= influence
    elif pay == "gold":
        s.gold[p] -= gold
        s.bank += gold
    elif pay == "reputation":
        s.rep[p] -= reputation


def gain_gold(s: S, p: int, amount: int) -> int:
    amount = min(amount, s.bank)
    s.bank -= amount
    s.gold[p] += amount
    return amount


def pay_gold(s: S, p: int, amount: int) -> None:
    s.gold[p] -= amount
    s.bank += amount


def pay_options(s: S, p: int, cost: tuple[tuple[str, int], ...]) -> tuple[str, ...]:
    """How seat ``p`` can pay a card: ("",) when free or single-priced and affordable, else the affordable resources."""
    if not cost:
        return ("",)
    ok = tuple(r for r, n in cost if _has(s, p, r, n))
    if len(cost) == 1:
        return ("",) if ok else ()
    return ok


def _has(s: S, p: int, resource: str, n: int) -> bool:
    if resource == "gold":
        return s.gold[p] >= n
    if resource == "influence":
        return s.infl[p] >= n
    return s.rep[p] >= n


def pay_card(s: S, p: int, cost: tuple[tuple[str, int], ...], how: str) -> None:
    for r, n in cost:
        if how in ("", r):
            if r == "gold":
                pay_gold(s, p, n)
            elif r == "influence":
                s.infl[p] -= n
            else:
                s.rep[p] -= n
            return


# == passives (read where their rule applies) ===========================================
def passive(s: S, p: int, effect: str) -> int:
    """The sum of this passive effect over seat ``p``'s Characters."""
    total = 0
    for c in s.chars[p]:
        amount = _PASSIVE_OF[c].get(effect)
        if amount is not None:
            total += amount
    return total


def has_passive(s: S, p: int, effect: str) -> bool:
    return any(effect in _PASSIVE_OF[c] for c in s.chars[p])


def start_of_turn_income(s: S, p: int) -> None:
    """Start of Each Turn: "Some Character Cards give players extra Influence at this point" (and Gold)."""
    s.infl[p] += passive(s, p, "influence-per-turn")
    gold = passive(s, p, "gold-per-turn")
    if gold:
        gain_gold(s, p, gold)


def mob_count(s: S, p: int) -> int:
    return sum(C.characters[c].mob for c in s.chars[p]) + sum(
        a - 1 for c in s.chars[p] for e, a in _PASSIVE_OF[c].items() if e == "mob-count")


def raid_mobs_needed(s: S, p: int) -> int:
    return min([2] + [_PASSIVE_OF[c]["raid-mobs"] for c in s.chars[p] if "raid-mobs" in _PASSIVE_OF[c]])


def seizure_influence(s: S, count: int) -> None:
    """Francis Oprey: Influence for each Goods Shape seized by Customs."""
    for p in range(s.seats):
        gain = passive(s, p, "influence-per-seizure") * count
        if gain:
            s.infl[p] += gain
            s._event(f"Seat {p} gains {gain} Influence (Francis Oprey)")


# == cards ================================================================================
def card_of(card: int) -> Any:
    return C.secrets[card - SECRET] if card >= SECRET else C.characters[card]


def card_name(card: int) -> str:
    return C.secrets[card - SECRET].name if card >= SECRET else C.characters[card].name


def char_ready(s: S, q: int, c: int) -> bool:
    """Face up (not Motivated this turn) and affordable."""
    return c not in s.motivated[q] and bool(pay_options(s, q, C.characters[c].cost))


def could_discount(s: S, p: int, effect: str) -> int:
    """The best one-off discount a usable card of p's (face-up Character or Secret in hand) could give."""
    best = max([C.characters[c].amount for c in s.chars[p]
                if C.characters[c].effect == effect and C.characters[c].event != "passive" and char_ready(s, p, c)],
               default=0)
    for k in s.secrets[p]:
        if C.secrets[k].effect == effect:
            best = max(best, C.secrets[k].amount)
    return best


# == ties (Ties) ================================================================
def chooser(s: S) -> int:
    """Ties: lowest Gold, then lowest Reputation, then fewest Characters; "if there is still a tie, the First
    Player chooses", whether or not the First Player is among the tied players."""
    rank = [(s.gold[p], s.rep[p], len(s.chars[p])) for p in range(s.seats)]
    best = min(rank)
    return rank.index(best) if rank.count(best) == 1 else s.first


# == goods, seizure and storehouses ======================================================
def goods_at(s: S, loc: int) -> list[int]:
    return [g for g in range(N_GOODS) if s.g_where[g] == LAND and s.g_at[g] == loc]


def abandoned(s: S, g: int) -> bool:
    """Goods left without their owner's Network Counter (Abandoned Goods)."""
    return s.g_at[g] not in s.counters[s.g_owner[g]]


def seizable(s: S, loc: int) -> list[int]:
    """Seizing Goods: an officer not bribed by the owner seizes every Goods Shape sharing its space.

    Ruling: abandoned goods are seized by any officer (nobody is attending them).
    """
    officers = [o for o in range(N_OFFICERS) if s.off_at[o] == loc]
    if not officers:
        return []
    return [g for g in goods_at(s, loc)
            if abandoned(s, g) or any(s.off_bribe[o] != s.g_owner[g] for o in officers)]


def seize(s: S, goods: list[int], loc: int) -> int:
    """Into the Customs Warehouse; Francis Oprey's owners gain Influence. Returns the (first) owner, -1 if none."""
    if not goods:
        return -1
    owner = s.g_owner[goods[0]]
    for g in goods:
        s.g_where[g] = WAREHOUSE
        s.g_at[g] = C.penzance
        s.g_owner[g] = -1
        s._event(f"Customs seize {goods_name(g)} in {C.locations[loc].name}")
    seizure_influence(s, len(goods))
    return owner


def seize_now(s: S, loc: int) -> None:
    """A seizure no card may answer (ruling 17): goods turned out, abandoned, or seized inside a window."""
    goods = seizable(s, loc)
    if goods:
        seize(s, goods, loc)


def _inside(s: S, store: int) -> list[int]:
    """The shapes of the goods in storehouse ``store``."""
    return [C.goods[g] for g in range(N_GOODS) if s.g_where[g] == STORE and s.g_at[g] == store]


def store_fits(s: S, store: int, extra: int) -> bool:
    return fits(hold_of_store(store), _inside(s, store) + [C.goods[extra]], s.options["flip_goods"])


def crowded_out(s: S, store: int, goods: int, others: list[int]) -> list[int]:
    """Storehouse Locations ("Goods Shapes must be able to fit"): which of ``others``, each fitting in ``store``
    now, would no longer fit once ``goods`` is in it (no packing of them all exists). So a choice can say why
    storing one landed piece takes another's place; the packing search is cached per set of shapes."""
    inside = _inside(s, store) + [C.goods[goods]]
    hold, flips = hold_of_store(store), s.options["flip_goods"]
    return [g for g in others if g != goods and not fits(hold, inside + [C.goods[g]], flips)]


def unbribed_officer_at(s: S, p: int, loc: int) -> bool:
    return any(s.off_at[o] == loc and s.off_bribe[o] != p for o in range(N_OFFICERS))


def lose_character(s: S, p: int, card: int) -> None:
    """Lost Characters: the card's Reputation and its storehouses go with it."""
    s.chars[p].remove(card)
    if card in s.motivated[p]:
        s.motivated[p].remove(card)
    s.char_discard.append(card)
    s.rep[p] = max(0, s.rep[p] - C.characters[card].reputation)
    st = C.characters[card].storehouse
    if st >= 0 and st in s.stores[p] and not any(C.characters[c].storehouse == st for c in s.chars[p]):
        s.stores[p].remove(st)
        loc = C.storehouses[st].location
        for g in range(N_GOODS):
            if s.g_where[g] == STORE and s.g_at[g] == st:
                s.g_where[g] = LAND
                s.g_at[g] = loc
        seize_now(s, loc)


def grant_storehouse(s: S, p: int, card: int) -> None:
    st = C.characters[card].storehouse
    if st >= 0 and st not in s.stores[p]:
        s.stores[p].append(st)


# == landing, customs, placing ====================================================================
def can_land_at(s: S, p: int, loc: int) -> bool:
    """Goods land only at a Port or Cove holding your Network Counter; a Secret Cove needs a card."""
    if loc < 0 or not C.locations[loc].landing or loc not in s.counters[p]:
        return False
    if C.locations[loc].kind == "cove":
        return s.lantern[p] == loc or any(loc in C.characters[c].coves for c in s.chars[p])
    return True


def can_land(s: S, p: int) -> bool:
    return bool(s.hold[p]) and s.infl[p] >= 1 and can_land_at(s, p, C.sea_location[s.ship_at[p]])


def nearest_officers(s: S, target: int) -> list[int]:
    dist = C.dist
    cands = [(dist[s.off_at[o]][target], o) for o in range(N_OFFICERS) if s.off_at[o] >= 0 and s.off_at[o] != target]
    cands = [c for c in cands if c[0] < INF]
    if not cands:
        return []
    best = min(d for d, _ in cands)
    return [o for d, o in cands if d == best]


def empty_land(s: S) -> list[int]:
    """Where a new officer may go: no Customs Officer and no Network Counter (never the Isles of Scilly)."""
    taken = {loc for loc in s.off_at if loc >= 0}
    for cs in s.counters:
        taken.update(cs)
    return [loc for loc in range(len(C.locations)) if loc not in taken and loc != C.scilly]


def legal_placements(s: S, p: int) -> list[int]:
    """Placing Network Counters: next to your network, or on the Isles of Scilly; free if you have none but Scilly.

    A Character's "If you have no Network Counter in X, you must place this Network Counter in X" comes first.
    """
    must = C.characters[s.chars[p][-1]].must_place if s.chars[p] else -1
    if must >= 0 and must not in s.counters[p]:
        return [must]
    mainland = [loc for loc in s.counters[p] if loc != C.scilly]
    if not mainland or s.place_free:
        return list(range(len(C.locations)))
    spots = {C.scilly}
    for loc in mainland:
        spots.update(C.locations[loc].land)
    return sorted(spots)


# == prices ============================================================================================
def town_size(s: S, loc: int) -> int:
    return s.sale_size or C.locations[loc].size


def honest_work_gain(s: S, p: int) -> int:
    """Honest Work: only with no Goods; 11 minus Reputation minus Gold."""
    if p in s.g_owner:  # owners are cleared when goods are seized or sold
        return 0
    return 11 - s.rep[p] - s.gold[p] + (passive(s, p, "honest-work-bonus") if s.chars[p] else 0)


def hire_price(s: S, p: int, card: int) -> int:
    """The card's Gold, less a passive discount (the Reverend Walter Pascoe)."""
    return max(0, C.characters[card].gold - passive(s, p, "hire-discount"))


def bribe_cost(s: S, p: int, o: int) -> int:
    """The Bribe Cost on the Customs Track, +1 Gold if another player has bribed this officer."""
    full = C.bribe[s.track] + (1 if s.off_bribe[o] not in (-1, p) else 0)
    return max(0, full - passive(s, p, "bribe-discount") - s.bribe_disc)


def buy_price(s: S, g: int) -> int:
    size = C.shapes[C.goods[g]].size
    return max(1, size - s.buy_disc) if s.buy_disc else size


# == the tracks =============================================================================================
def advance_gold_wheel(s: S, gold: int) -> int:
    """One space per Gold earned; each time START is reached or passed, the track moves one space."""
    total = s.wheel + gold
    s.wheel = total % C.wheel
    return total // C.wheel


def advance_customs_track(s: S, spaces: int) -> int:
    """Move the Customs Counter; returns how many new officers the spaces passed bring."""
    old = s.track
    last = len(C.discovery) - 1
    s.track = min(last, old + spaces)
    new = sum(1 for step in C.new_officer if old < step <= s.track)
    s._event(f"The Customs Track moves to space {s.track}: Discovery Level {C.discovery[s.track]}, "
             f"Bribe Cost {C.bribe[s.track]}")
    if s.track == last:
        trigger_end(s, "the Customs Counter reached the end of the Customs Track")
    return new


def trigger_end(s: S, why: str) -> None:
    if not s.ending:
        s.ending = True
        s._event(f"The end of the game is triggered ({why}); this turn is the last")


def reveal_character(s: S, deck: int) -> None:
    if s.stacks[deck]:
        s.faceup[deck] = s.stacks[deck].pop()


# == names ===================================================================================================
def deck_name(d: int) -> str:
    return DECK_NAMES[d]


def node_name(node: int) -> str:
    loc = C.sea_location[node]
    if loc >= 0:
        return C.locations[loc].name
    if node in C.merchant_nodes:
        return C.merchant_names[C.merchant_nodes.index(node)]
    return C.sea_ids[node]


def goods_name(g: int) -> str:
    return f"{GOODS_IDS[g]} (size {C.shapes[C.goods[g]].size} {C.shapes[C.goods[g]].id})"
