"""Cornish Smuggler rules, one function per rule; section names are the rulebook's.

Flow: set-up decisions (ship draft, storehouse draft, starting character,
first counter, ship placement), then Turns: each player in turn takes one
Action until all have passed. Multi-step actions (landing, selling, hiring,
raiding) and the choices the rulebook gives to the player with least Gold
(which officer moves, which way, where a new officer goes) are small
decisions of their own, held in the state's ``phase``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from freetrader.core import Action, BadRecord

from . import abilities as A
from .actions import act
from .components import COMPONENTS as C
from .components import INF
from .packing import fits, hold_of_ship, hold_of_store

if TYPE_CHECKING:
    from .state import CornishState as S

# -- phases and codes ----------------------------------------------------------
PHASES = (
    "setup-ship", "setup-storehouse", "setup-draw", "setup-keep", "setup-counter", "setup-launch",
    "action", "land-unload", "land-hide", "land-store", "place-counter", "sell-price",
    "customs-officer", "customs-step", "post-officer", "raid-discard", "raid-remove", "react", "effect", "protect",
    "lose-counter", "over",
)
(SETUP_SHIP, SETUP_STORE, SETUP_DRAW, SETUP_KEEP, SETUP_COUNTER, SETUP_LAUNCH, MAIN, LAND_SELECT, LAND_HIDE,
 LAND_STORE, PLACE, PRICE, CUSTOMS_OFFICER, CUSTOMS_STEP, POST, RAID_DISCARD, RAID_REMOVE, REACT, EFFECT, PROTECT,
 LOSE_COUNTER, OVER) = range(len(PHASES))
# Where a Goods Shape is.
MERCHANT, SHIP, LAND, STORE, WAREHOUSE, SOLD = range(6)
WHERE = ("merchant", "ship", "land", "storehouse", "warehouse", "sold")
# What follows a Customs movement.
AFTER_LAND, AFTER_SALE, AFTER_EFFECT = 1, 2, 3
N_OFFICERS = len(C.start_officers) + len(C.new_officer)
_N_GOODS = len(C.goods)
GOODS_IDS = tuple(f"g{i:02d}" for i in range(len(C.goods)))
GOODS_BY_ID = {g: i for i, g in enumerate(GOODS_IDS)}
LOC_IDS = tuple(loc.id for loc in C.locations)
ROW_NAMES = ("top", "middle", "bottom")


def _pays(s: S, p: int, influence: int, gold: int) -> tuple[str, ...]:
    """The ways seat ``p`` can pay an action costing ``influence`` or ``gold``."""
    out = []
    if s.infl[p] >= influence:
        out.append("influence")
    if s.gold[p] >= gold:
        out.append("gold")
    return tuple(out)


def _spend(s: S, p: int, pay: str, influence: int, gold: int, reputation: int = 0) -> None:
    if pay == "influence":
        s.infl[p] -= influence
    elif pay == "gold":
        s.gold[p] -= gold
        s.bank += gold
    elif pay == "reputation":
        s.rep[p] -= reputation


def _gain_gold(s: S, p: int, amount: int) -> int:
    amount = min(amount, s.bank)
    s.bank -= amount
    s.gold[p] += amount
    return amount


def _pay_gold(s: S, p: int, amount: int) -> None:
    s.gold[p] -= amount
    s.bank += amount


# == set-up (Setup Diagram) =========================================================
def setup(s: S) -> None:
    n = s.seats
    s.gold = [C.start_gold] * n
    s.bank = C.bank_gold - C.start_gold * n
    s.infl = [C.start_influence] * n
    s.rep = [0] * n
    s.ship_card = [-1] * n
    s.ship_at = [-1] * n
    s.hold = [[] for _ in range(n)]
    s.counters = [[] for _ in range(n)]
    s.chars = [[] for _ in range(n)]
    s.stores = [[] for _ in range(n)]
    s.secrets = [[] for _ in range(n)]
    s.passed = [False] * n
    s.g_where = [MERCHANT] * len(C.goods)
    s.g_at = list(C.goods_start)
    s.g_owner = [-1] * len(C.goods)
    s.off_at = list(C.start_officers) + [-1] * len(C.new_officer)
    s.off_bribe = [-1] * N_OFFICERS
    s.track = s.wheel = 0
    s.stacks = [[c.index for c in C.characters if c.deck == d] for d in range(4)]
    for stack in s.stacks:
        s.rng.shuffle(stack)
    s.faceup = [-1] * 4
    s.char_discard = []
    s.sdeck = list(C.secret_deck)
    s.rng.shuffle(s.sdeck)
    s.ships_left = list(range(len(C.ships)))
    s.stores_left = [st.index for st in C.storehouses if st.start]
    s.first = s.options["first_player"] % n
    s.turn = 0
    s.ending = False
    s.drawn, s.drawn_decks, s.land_sel, s.free_moved = [], [], [], []
    s.sub_goods = s.land_loc = s.excess = -1
    s.cust_target = s.cust_points = s.cust_mover = s.cust_after = -1
    s.to_post = 0
    s.motivated = [[] for _ in range(n)]
    s.sdiscard, s.win_ask, s.seize_list, s.tolls, s.resume = [], [], [], [], []
    s.becalmed = [False] * n
    s.lantern = [-1] * n
    s.eff = list(A.EMPTY_EFF)
    s.win_event = ""
    s.win_subject = s.win_loc = s.seize_loc = s.seized_owner = s.active = -1
    s.sub_goods = -1
    reset_action(s)
    s.setup_i = 0
    s.phase = SETUP_SHIP
    s.actor = s.first
    s._event(f"Seat {s.first} is the First Player and chooses a Ship card first")


def _setup_next(s: S, next_phase: int, clockwise: bool = True, start: int | None = None) -> None:
    """Advance the set-up order; move to ``next_phase`` once every seat has chosen."""
    s.setup_i += 1
    if s.setup_i < s.seats:
        s.actor = (s.actor + (1 if clockwise else -1)) % s.seats
        return
    s.setup_i = 0
    s.phase = next_phase
    s.actor = s.first if start is None else start


def choose_ship(s: S, ship: int) -> None:
    """Set-up: the First Player chooses a Ship card and passes the rest clockwise."""
    s.ship_card[s.actor] = ship
    s.ships_left.remove(ship)
    s._event(f"Seat {s.actor} takes the ship {C.ships[ship].name}")
    last = (s.first - 1) % s.seats
    _setup_next(s, SETUP_STORE, start=last)


def choose_start_storehouse(s: S, store: int) -> None:
    """Set-up: START storehouses go to the last player, passed anticlockwise; the rest are discarded."""
    s.stores[s.actor].append(store)
    s.stores_left.remove(store)
    s._event(f"Seat {s.actor} takes the storehouse {C.storehouses[store].name}")
    _setup_next(s, SETUP_DRAW, clockwise=False)
    if s.phase == SETUP_DRAW:
        s.stores_left = []


def draw_start_character(s: S, deck: int) -> None:
    """Set-up: draw two face-down Character cards, from different stacks."""
    s.drawn.append(s.stacks[deck].pop())
    s.drawn_decks.append(deck)
    s._event(f"Seat {s.actor} draws a face-down card from the {_deck_name(deck)} stack")
    if len(s.drawn) == 2:
        s.phase = SETUP_KEEP


def keep_start_character(s: S, card: int) -> None:
    """Set-up: keep one (free, its Reputation gained); the other goes under its stack."""
    other_i = 1 - s.drawn.index(card)
    s.stacks[s.drawn_decks[other_i]].insert(0, s.drawn[other_i])
    p = s.actor
    s.chars[p].append(card)
    s.rep[p] += C.characters[card].reputation
    _grant_storehouse(s, p, card)
    s._event(f"Seat {p} keeps {C.characters[card].name} ({C.characters[card].occupation}) and returns the other card")
    s.drawn, s.drawn_decks = [], []
    s.phase = SETUP_DRAW
    _setup_next(s, SETUP_COUNTER)


def place_first_counter(s: S, loc: int) -> None:
    """Set-up: each player places a Network Counter on any land space, the Isles of Scilly included."""
    s.counters[s.actor].append(loc)
    s._event(f"Seat {s.actor} places a Network Counter in {C.locations[loc].name}")
    _setup_next(s, SETUP_LAUNCH)


def launch_ship(s: S, node: int) -> None:
    """Set-up: each player places the Ship Counter on a Sea Space or a Merchant Space."""
    s.ship_at[s.actor] = node
    s._event(f"Seat {s.actor} puts to sea at {_node_name(node)}")
    _setup_next(s, MAIN)
    if s.phase == MAIN:
        start_turn(s, first_turn=True)


# == turns (Start of Each Turn, Turns) ================================================
def start_turn(s: S, first_turn: bool = False) -> None:
    """Reveal new characters, receive Influence equal to Reputation (not on the first turn)."""
    s.turn += 1
    for d in range(4):
        if s.faceup[d] >= 0:
            s.char_discard.append(s.faceup[d])
            s.faceup[d] = -1
        reveal_character(s, d)
    if not first_turn:
        for p in range(s.seats):
            s.infl[p] += s.rep[p]
            A.start_of_turn_income(s, p)
    s.motivated = [[] for _ in range(s.seats)]  # Re-Motivate All Cards
    s.becalmed = [False] * s.seats
    s.lantern = [-1] * s.seats
    s.passed = [False] * s.seats
    s.actor = s.active = s.first
    s.phase = MAIN
    s._event(f"Turn {s.turn} begins; seat {s.first} has the First Player marker")


def reveal_character(s: S, deck: int) -> None:
    if s.stacks[deck]:
        s.faceup[deck] = s.stacks[deck].pop()


def finish_action(s: S, passing: bool = False) -> None:
    """One Action done: play passes clockwise to the next player who has not passed."""
    p = s.actor
    s.free_moved = []
    s.phase = MAIN
    reset_action(s)
    if passing:
        s.passed[p] = True
    n = s.seats
    for i in range(1, n + 1):
        q = (p + i) % n
        if not s.passed[q]:
            s.actor = s.active = q
            return
    end_turn(s)


def reset_action(s: S) -> None:
    """The one-Action modifiers cards set (Landing Risk, prices, discounts, Yew boy!) end with the Action."""
    s.risk_mod = s.bribe_disc = s.buy_disc = s.sale_bonus = s.sale_size = 0
    s.no_customs = s.free_row = s.place_free = False
    s.director = s.witch_due = s.bribe_off = s.buy_g = -1
    if s.tolls:
        s.tolls = []


def end_turn(s: S) -> None:
    """All have passed: the First Player marker moves clockwise; the game may end (End of the Game)."""
    if s.ending:
        end_game(s, "the end was triggered this turn")
        return
    if s.turn >= s.options["turn_limit"]:
        end_game(s, f"the turn limit ({s.options['turn_limit']}) is reached")
        return
    s.first = (s.first + 1) % s.seats
    start_turn(s)


def end_game(s: S, why: str) -> None:
    s.phase = OVER
    s.actor = -1
    scores = [s.gold[p] + s.rep[p] for p in range(s.seats)]
    s._event(f"The game ends: {why}. Gold + Reputation: " + ", ".join(f"seat {p} {v}" for p, v in enumerate(scores)))


def trigger_end(s: S, why: str) -> None:
    if not s.ending:
        s.ending = True
        s._event(f"The end of the game is triggered ({why}); this turn is the last")


# == ties (Ties) ================================================================
def chooser(s: S) -> int:
    """Lowest Gold, then lowest Reputation, then fewest Characters, then nearest the First Player."""
    n = s.seats
    return min(range(n), key=lambda p: (s.gold[p], s.rep[p], len(s.chars[p]), (p - s.first) % n))


# == goods, seizure and storehouses ======================================================
def goods_at(s: S, loc: int) -> list[int]:
    return [g for g in range(len(C.goods)) if s.g_where[g] == LAND and s.g_at[g] == loc]


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


def check_seizure(s: S, loc: int, resume: str = "phase", window: bool = True) -> bool:
    """Goods about to be seized open a reaction window (unless one is open); True if play now waits on it.

    ``resume`` names what carries on once the window (and any John Thomas window after it) closes.
    """
    goods = seizable(s, loc)
    if not goods:
        return False
    if window and A.open_seizure(s, loc, goods, resume):
        return True
    seize(s, goods, loc)
    return window and A.open_window(s, "seized", s.seized_owner, -1, resume)


def seize(s: S, goods: list[int], loc: int) -> None:
    """Into the Customs Warehouse; Francis Oprey's owners gain Influence."""
    if not goods:
        return
    s.seized_owner = s.g_owner[goods[0]]
    for g in goods:
        s.g_where[g] = WAREHOUSE
        s.g_at[g] = C.penzance
        s.g_owner[g] = -1
        s._event(f"Customs seize {_goods_name(g)} in {C.locations[loc].name}")
    A.seizure_influence(s, len(goods))


def store_fits(s: S, store: int, extra: int) -> bool:
    inside = [C.goods[g] for g in range(len(C.goods)) if s.g_where[g] == STORE and s.g_at[g] == store]
    return fits(hold_of_store(store), inside + [C.goods[extra]], s.options["flip_goods"])


def unbribed_officer_at(s: S, p: int, loc: int) -> bool:
    return any(s.off_at[o] == loc and s.off_bribe[o] != p for o in range(N_OFFICERS))


def store_goods(s: S, g: int, store: int) -> None:
    """Storehouse Locations: moving goods in is free, at any time on your turn."""
    s.g_where[g] = STORE
    s.g_at[g] = store
    s.free_moved.append(g)
    s._event(f"Seat {s.g_owner[g]} hides {_goods_name(g)} in {C.storehouses[store].name}")


def unstore_goods(s: S, g: int) -> None:
    loc = C.storehouses[s.g_at[g]].location
    s.g_where[g] = LAND
    s.g_at[g] = loc
    s.free_moved.append(g)
    s._event(f"Seat {s.g_owner[g]} brings {_goods_name(g)} out into {C.locations[loc].name}")
    check_seizure(s, loc, "phase")


def claim_goods(s: S, g: int) -> None:
    """Abandoned Goods are fair game for any Network Counter in that location."""
    s.g_owner[g] = s.actor
    s.free_moved.append(g)
    s._event(f"Seat {s.actor} claims the abandoned {_goods_name(g)} in {C.locations[s.g_at[g]].name}")


def free_moves(s: S, p: int) -> list[Action]:
    """Free on your turn: goods into or out of your storehouses, claiming abandoned goods."""
    acts: list[Action] = []
    moved = s.free_moved
    mine = s.counters[p]
    g_where, g_owner, g_at = s.g_where, s.g_owner, s.g_at
    for g in range(_N_GOODS):
        w = g_where[g]
        if w == LAND:
            loc = g_at[g]
            if loc not in mine or g in moved:
                continue
            owner = g_owner[g]
            if owner == p:
                for st in s.stores[p]:
                    if C.storehouses[st].location == loc and store_fits(s, st, g):
                        acts.append(act("store", GOODS_IDS[g], C.storehouses[st].id))
            elif loc not in s.counters[owner]:
                acts.append(act("claim", GOODS_IDS[g]))
        elif w == STORE and g_owner[g] == p and g not in moved:
            acts.append(act("unstore", GOODS_IDS[g]))
    return acts


# == the Action/Cost table ===========================================================
# Every action a Main decision can offer, built once: legal_main only picks from these tables.
_PAY_NAMES = ("influence", "gold")
_SAIL = tuple(tuple((C.sea_ids[nb], tuple(act("sail", "", C.sea_ids[nb], py) for py in _PAY_NAMES))
                    for nb in C.sea_adj[node]) for node in range(len(C.sea_ids)))
_COUNTER = tuple(tuple(tuple(act("counter", LOC_IDS[a], LOC_IDS[b], py) for py in _PAY_NAMES)
                       for b in C.locations[a].land) for a in range(len(C.locations)))
_CARRY = tuple(tuple(tuple((b, tuple(act(verb, GOODS_IDS[g], LOC_IDS[b], py) for py in _PAY_NAMES))
                           for b in C.locations[a].land) for a in range(len(C.locations)))
               for verb in ("carry", "escort") for g in range(len(C.goods)))
_OFFICER = tuple(tuple(tuple(tuple(act("officer", str(o), LOC_IDS[b], py) for py in _PAY_NAMES)
                             for b in C.locations[a].land) for a in range(len(C.locations)))
                 for o in range(N_OFFICERS))
_PASS, _BUY_REP, _LAND, _HONEST = act("pass"), act("buy-reputation"), act("land"), act("honest-work")
_DISCOVER = (act("discover", "", "", "influence"), act("discover", "", "", "gold"))
_SELL = tuple(act("sell", x) for x in GOODS_IDS)
_BRIBE = tuple(act("bribe", str(o)) for o in range(N_OFFICERS))
_HIRE = tuple((act("hire", c.id, "", "influence"), act("hire", c.id, "", "reputation")) for c in C.characters)


def _pay_mask(s: S, p: int, influence: int, gold: int) -> tuple[int, ...]:
    """Indices into ("influence", "gold") of the ways seat ``p`` can pay."""
    if s.infl[p] >= influence:
        return (0, 1) if s.gold[p] >= gold else (0,)
    return (1,) if s.gold[p] >= gold else ()


def legal_main(s: S) -> tuple[Action, ...]:
    p = s.actor
    acts = free_moves(s, p)
    acts.append(_PASS)
    gold, infl = s.gold[p], s.infl[p]
    if s.chars[p] or s.secrets[p]:
        acts.extend(A.legal_main_cards(s, p))
    # Move Ship one sea space: 1 Influence or 3 Gold.
    for k in _pay_mask(s, p, 1, 3) if not s.becalmed[p] else ():
        acts.extend(pair[1][k] for pair in _SAIL[s.ship_at[p]])
    mine = s.counters[p]
    g_where, g_owner, g_at = s.g_where, s.g_owner, s.g_at
    my_goods = [g for g in range(_N_GOODS) if g_owner[g] == p and g_where[g] == LAND and g_at[g] in mine]
    # Move one Goods Shape along the network, or one Network Counter: 1 Influence or 2 Gold.
    pays = _pay_mask(s, p, 1, 2)
    if pays:
        for g in my_goods:
            for b, choices in _CARRY[g][g_at[g]]:
                if b in mine:
                    for k in pays:
                        acts.append(choices[k])
        for loc in sorted(set(mine)):
            for choices in _COUNTER[loc]:
                for k in pays:
                    acts.append(choices[k])
    # Move a Goods Shape and a Network Counter together: 3 Influence or 5 Gold.
    cut = A.passive(s, p, "escort-cost") if s.chars[p] else 0
    pays = _pay_mask(s, p, 3 - cut, 5 - cut)
    if pays:
        for g in my_goods:
            for _, choices in _CARRY[_N_GOODS + g][g_at[g]]:
                for k in pays:
                    acts.append(choices[k])
    # Move a Customs Officer one space: 4 Influence or 6 Gold.
    pays = _pay_mask(s, p, 4, 6)
    if pays:
        for o, loc in enumerate(s.off_at):
            if loc >= 0:
                for choices in _OFFICER[o][loc]:
                    for k in pays:
                        acts.append(choices[k])
    has_cards = bool(s.chars[p] or s.secrets[p])
    if gold >= 4 or (has_cards and gold >= 4 - A.could_discount(s, p, "buy-reputation-discount")):
        acts.append(_BUY_REP)
    if can_land(s, p):
        acts.append(_LAND)
    rep_ok = s.rep[p] >= s.options["hire_reputation"]
    cut = A.passive(s, p, "hire-discount") if s.chars[p] else 0
    for card in s.faceup:
        if card >= 0 and gold >= C.characters[card].gold - cut:
            if infl >= 1:
                acts.append(_HIRE[card][0])
            if rep_ok:
                acts.append(_HIRE[card][1])
    acts.extend(legal_buys(s, p))
    if infl >= 1:
        disc = -1
        for o, loc in enumerate(s.off_at):
            if loc >= 0 and loc in mine and disc < 0:
                disc = A.could_discount(s, p, "bribe-discount") if has_cards else 0
            if loc >= 0 and loc in mine and s.off_bribe[o] != p and gold >= bribe_cost(s, p, o) - disc:
                acts.append(_BRIBE[o])
    for g in my_goods:
        if C.locations[g_at[g]].size:
            acts.append(_SELL[g])
    if honest_work_gain(s, p) > 0:
        acts.append(_HONEST)
    if s.sdeck:
        for k in _pay_mask(s, p, 2, 2):
            acts.append(_DISCOVER[k])
    if s.chars[p] and C.penzance in mine:
        acts.extend(legal_raids(s, p))
    return tuple(acts)


def move_ship(s: S, node: int, pay: str) -> None:
    """Move Ship; a ship card (William Bodinar) may answer with an extra space."""
    p = s.actor
    _spend(s, p, pay, 1, 3)
    s._event(f"Seat {p} sails to {_node_name(node)}")
    s.ship_at[p] = node
    A.ship_entered(s, p, node)
    if not A.open_window(s, "sail", p, -1, "sail"):
        after_sail(s)


def after_sail(s: S) -> None:
    """The move is over: the Witch of St Levan may answer a ship that entered her sea space."""
    if not A.witch_window(s, "finish"):
        finish_action(s)


def move_goods(s: S, g: int, to: int, pay: str, with_counter: bool) -> None:
    """Movement over Land: goods to an adjacent Network Counter, or goods and counter together."""
    p = s.actor
    frm = s.g_at[g]
    if with_counter:
        cut = A.passive(s, p, "escort-cost")
        _spend(s, p, pay, 3 - cut, 5 - cut)
        s.counters[p].remove(frm)
        s.counters[p].append(to)
    else:
        _spend(s, p, pay, 1, 2)
    s.g_at[g] = to
    s._event(f"Seat {p} moves {_goods_name(g)} {'and a Network Counter ' if with_counter else ''}"
             f"from {C.locations[frm].name} to {C.locations[to].name}")
    check_seizure(s, frm, window=False)
    if not check_seizure(s, to, "finish"):
        finish_action(s)


def move_counter(s: S, frm: int, to: int, pay: str) -> None:
    """Network Counters can be moved out of a network; goods left behind are abandoned."""
    p = s.actor
    _spend(s, p, pay, 1, 2)
    s.counters[p].remove(frm)
    s.counters[p].append(to)
    s._event(f"Seat {p} moves a Network Counter from {C.locations[frm].name} to {C.locations[to].name}")
    if not check_seizure(s, frm, "finish"):
        finish_action(s)


def move_officer_action(s: S, o: int, to: int, pay: str) -> None:
    """Move Customs Officer one space (even if bribed): 4 Influence or 6 Gold."""
    p = s.actor
    _spend(s, p, pay, 4, 6)
    frm = s.off_at[o]
    s.off_at[o] = to
    s._event(f"Seat {p} moves Customs Officer {o} from {C.locations[frm].name} to {C.locations[to].name}")
    if not check_seizure(s, to, "finish"):
        finish_action(s)


def buy_reputation(s: S) -> None:
    """Buy Reputation: 4 Gold (Grace Trembath may answer: 2 Gold)."""
    if not A.open_window(s, "buy-reputation", s.actor, -1, "buy-rep"):
        do_buy_reputation(s)


def do_buy_reputation(s: S) -> None:
    p = s.actor
    price = 4 - s.buy_disc
    _pay_gold(s, p, price)
    s.rep[p] += 1
    s._event(f"Seat {p} buys 1 Reputation for {price} Gold")
    finish_action(s)


def honest_work_gain(s: S, p: int) -> int:
    """Honest Work: only with no Goods; 11 minus Reputation minus Gold."""
    if p in s.g_owner:  # owners are cleared when goods are seized or sold
        return 0
    return 11 - s.rep[p] - s.gold[p] + (A.passive(s, p, "honest-work-bonus") if s.chars[p] else 0)


def honest_work(s: S) -> None:
    p = s.actor
    got = _gain_gold(s, p, honest_work_gain(s, p))
    s._event(f"Seat {p} does Honest Work for {got} Gold")
    finish_action(s)


def discover_secret(s: S, pay: str) -> None:
    p = s.actor
    _spend(s, p, pay, 2, 2)
    s.secrets[p].append(s.sdeck.pop())
    s._event(f"Seat {p} discovers a Secret")
    finish_action(s)


# -- Land Goods ------------------------------------------------------------------------
def can_land_at(s: S, p: int, loc: int) -> bool:
    """Goods land only at a Port or Cove holding your Network Counter; a Secret Cove needs a card."""
    if loc < 0 or not C.locations[loc].landing or loc not in s.counters[p]:
        return False
    if C.locations[loc].kind == "cove":
        return s.lantern[p] == loc or any(loc in C.characters[c].coves for c in s.chars[p])
    return True


def can_land(s: S, p: int) -> bool:
    return bool(s.hold[p]) and s.infl[p] >= 1 and can_land_at(s, p, C.sea_location[s.ship_at[p]])


def begin_landing(s: S) -> None:
    p = s.actor
    s.infl[p] -= 1
    s.land_loc = C.sea_location[s.ship_at[p]]
    s.land_sel = []
    s.phase = LAND_SELECT


def legal_unload(s: S) -> tuple[Action, ...]:
    """Unload as many Goods Shapes as wanted, chosen in id order (a set, not a sequence)."""
    last = s.land_sel[-1] if s.land_sel else -1
    acts: list[Action] = [act("unload", GOODS_IDS[g]) for g in sorted(s.hold[s.actor]) if g > last]
    if s.land_sel:
        acts.append(act("done"))
    return tuple(acts)


def landing_excess(s: S) -> int:
    """Landing Risk (port number + squares) above the Discovery Level."""
    loc = C.locations[s.land_loc]
    squares = sum(C.shapes[C.goods[g]].size for g in s.land_sel)
    return loc.risk + squares - C.discovery[s.track]


def finish_unloading(s: S) -> None:
    p = s.actor
    excess = landing_excess(s)
    s._event(f"Seat {p} lands {', '.join(_goods_name(g) for g in s.land_sel)} at {C.locations[s.land_loc].name}: "
             f"Landing Risk {excess + C.discovery[s.track]} against Discovery Level {C.discovery[s.track]}")
    if not A.open_window(s, "land", p, s.land_loc, "land-risk"):
        landing_risk(s)


def landing_risk(s: S) -> None:
    """The Landing Risk after the cards played on the landing (Holly & Olivia, Sea Fret, Dark of the Moon...)."""
    p = s.actor
    excess = landing_excess(s) + s.risk_mod
    if s.risk_mod:
        s._event(f"The Landing Risk is now {excess + C.discovery[s.track]}")
    s.excess = max(0, excess) if s.land_loc != C.scilly and not s.no_customs else 0
    if s.excess > 0 and s.infl[p] > 0:
        s.phase = LAND_HIDE
    else:
        put_goods_ashore(s, 0)


def put_goods_ashore(s: S, hidden: int) -> None:
    """Reducing Landing Risk: each extra Influence cancels one Customs move; then the goods are ashore."""
    p = s.actor
    if hidden:
        s.infl[p] -= hidden
        s._event(f"Seat {p} spends {hidden} Influence to hide the landing")
    s.excess -= hidden
    for g in s.land_sel:
        s.hold[p].remove(g)
        s.g_where[g] = LAND
        s.g_at[g] = s.land_loc
    if not check_seizure(s, s.land_loc, "ashore"):
        ashore_tail(s)


def ashore_tail(s: S) -> None:
    if legal_store_landed(s):
        s.phase = LAND_STORE
    else:
        landing_customs(s)


def legal_store_landed(s: S) -> tuple[Action, ...]:
    """Storing Landed Goods: straight into a storehouse there, unless an unbribed officer is already there."""
    p = s.actor
    loc = s.land_loc
    if unbribed_officer_at(s, p, loc):
        return ()
    acts: list[Action] = []
    for g in s.land_sel:
        if s.g_where[g] == LAND and s.g_at[g] == loc:
            for st in s.stores[p]:
                if C.storehouses[st].location == loc and store_fits(s, st, g):
                    acts.append(act("store", GOODS_IDS[g], C.storehouses[st].id))
    return tuple(acts)


def landing_customs(s: S) -> None:
    """Customs Movement: the nearest officers move one space per point above the Discovery Level."""
    start_customs(s, s.land_loc, s.excess, AFTER_LAND)


# -- Customs movement -------------------------------------------------------------------
def start_customs(s: S, target: int, points: int, after: int) -> None:
    """Customs are about to move: Yew boy! may answer before the first step."""
    if target == C.scilly:
        points = 0  # The Isles of Scilly: Customs do not move
    s.cust_target, s.cust_points, s.cust_mover, s.cust_after = target, points, -1, after
    if points > 0 and nearest_officers(s, target) and A.open_window(s, "customs-move", s.active, target, "customs"):
        return
    run_customs(s)


def nearest_officers(s: S, target: int) -> list[int]:
    dist = C.dist
    cands = [(dist[s.off_at[o]][target], o) for o in range(N_OFFICERS) if s.off_at[o] >= 0 and s.off_at[o] != target]
    cands = [c for c in cands if c[0] < INF]
    if not cands:
        return []
    best = min(d for d, _ in cands)
    return [o for d, o in cands if d == best]


def run_customs(s: S) -> None:
    """Move officers until the points are spent; ask the player with least Gold when there is a choice."""
    while s.cust_points > 0:
        if s.cust_mover < 0:
            cands = nearest_officers(s, s.cust_target)
            if not cands:
                break
            if len(cands) > 1:
                s.phase = CUSTOMS_OFFICER
                s.actor = customs_chooser(s)
                return
            s.cust_mover = cands[0]
        steps = customs_steps(s)
        if len(steps) > 1:
            s.phase = CUSTOMS_STEP
            s.actor = customs_chooser(s)
            return
        if step_officer(s, steps[0]):
            return
    s.cust_points = 0
    after_customs(s)


def customs_chooser(s: S) -> int:
    """The player with least Gold, or whoever played Yew boy!"""
    return s.director if s.director >= 0 else chooser(s)


def customs_steps(s: S) -> tuple[int, ...]:
    """Towards the target on a shortest path; with Yew boy! anywhere the player decides (any adjacent space)."""
    at = s.off_at[s.cust_mover]
    if s.director >= 0:
        return C.locations[at].land
    return C.steps[at][s.cust_target]


def step_officer(s: S, to: int) -> bool:
    """One step; True if a seizure window now holds up the movement."""
    o = s.cust_mover
    s._event(f"Customs Officer {o} moves from {C.locations[s.off_at[o]].name} to {C.locations[to].name}")
    s.off_at[o] = to
    s.cust_points -= 1
    if to == s.cust_target:
        s.cust_mover = -1
    return check_seizure(s, to, "customs")


def choose_mover(s: S, o: int) -> None:
    s.cust_mover = o
    s._event(f"Seat {s.actor}, with least Gold, chooses Customs Officer {o} to move")
    run_customs(s)


def choose_step(s: S, to: int) -> None:
    if not step_officer(s, to):
        run_customs(s)


def after_customs(s: S) -> None:
    s.director = -1
    if s.cust_after == AFTER_EFFECT:
        s.actor = s.eff[2]
        A.effect_done(s)
        return
    owner = s.land_owner if s.cust_after == AFTER_LAND else s.seller
    s.actor = owner
    if s.cust_after == AFTER_LAND:
        finish_action(s)
    else:
        after_sale_customs(s)


# -- Hire Character -----------------------------------------------------------------------
def hire(s: S, card: int, pay: str) -> None:
    """Hire Character: 1 Influence or 2 Reputation, plus the card's Gold; gain its Reputation."""
    p = s.actor
    ch = C.characters[card]
    _spend(s, p, pay, 1, 0, s.options["hire_reputation"])
    _pay_gold(s, p, hire_price(s, p, card))
    s.rep[p] += ch.reputation
    s.chars[p].append(card)
    s.faceup[ch.deck] = -1
    reveal_character(s, ch.deck)
    _grant_storehouse(s, p, card)
    s._event(f"Seat {p} hires {ch.name}, {ch.occupation} ({hire_price(s, p, card)} Gold, +{ch.reputation} Reputation)")
    if len(s.counters[p]) < C.counters:
        s.phase = PLACE
        A.open_window(s, "place", p, -1, "phase")  # The Old Packhorse Road
    else:
        finish_action(s)


def hire_price(s: S, p: int, card: int) -> int:
    """The card's Gold, less a passive discount (the Reverend Walter Pascoe)."""
    return max(0, C.characters[card].gold - A.passive(s, p, "hire-discount"))


def _grant_storehouse(s: S, p: int, card: int) -> None:
    st = C.characters[card].storehouse
    if st >= 0 and st not in s.stores[p]:
        s.stores[p].append(st)


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


def place_counter(s: S, loc: int) -> None:
    p = s.actor
    s.counters[p].append(loc)
    s._event(f"Seat {p} places a Network Counter in {C.locations[loc].name}")
    finish_action(s)


# -- Buy Goods ----------------------------------------------------------------------------
def legal_buys(s: S, p: int) -> list[Action]:
    """Buy One Goods Shape: ship at that Merchant, 1 Influence + 1 Gold a square, and it must fit."""
    node = s.ship_at[p]
    if s.infl[p] < 1 or node not in C.merchant_nodes:
        return []
    m = C.merchant_nodes.index(node)
    held = [C.goods[g] for g in s.hold[p]]
    disc = A.could_discount(s, p, "buy-discount")
    seen: set[int] = set()
    acts: list[Action] = []
    for g in range(len(C.goods)):
        if s.g_where[g] == MERCHANT and s.g_at[g] == m:
            shape = C.goods[g]
            if shape in seen:
                continue
            seen.add(shape)
            if s.gold[p] >= max(1, C.shapes[shape].size - disc) and fits(
                    hold_of_ship(s.ship_card[p]), held + [shape], s.options["flip_goods"]):
                acts.append(act("buy", GOODS_IDS[g]))
    return acts


def buy_goods(s: S, g: int) -> None:
    """Buy One Goods Shape (Nicholas Le Page may answer: 2 Gold less)."""
    s.buy_g = g
    if not A.open_window(s, "buy", s.actor, -1, "buy"):
        do_buy(s)


def do_buy(s: S) -> None:
    p = s.actor
    g = s.buy_g
    s.infl[p] -= 1
    _pay_gold(s, p, A.buy_price(s, g))
    s.g_where[g] = SHIP
    s.g_at[g] = p
    s.g_owner[g] = p
    s.hold[p].append(g)
    s._event(f"Seat {p} buys {_goods_name(g)} for {A.buy_price(s, g)} Gold")
    if not any(w == MERCHANT for w in s.g_where):
        trigger_end(s, "the last Goods Shape was bought")
    finish_action(s)


# -- Bribe Customs ------------------------------------------------------------------------
def bribe_cost(s: S, p: int, o: int) -> int:
    """The Bribe Cost on the Customs Track, +1 Gold if another player has bribed this officer."""
    full = C.bribe[s.track] + (1 if s.off_bribe[o] not in (-1, p) else 0)
    return max(0, full - A.passive(s, p, "bribe-discount") - s.bribe_disc)


def bribe(s: S, o: int) -> None:
    """Bribe Customs (A Little Something for the Officer may answer: 3 Gold less)."""
    s.bribe_off = o
    if not A.open_window(s, "bribe", s.actor, s.off_at[o], "bribe"):
        do_bribe(s)


def do_bribe(s: S) -> None:
    p = s.actor
    o = s.bribe_off
    cost = bribe_cost(s, p, o)
    s.infl[p] -= 1
    _pay_gold(s, p, cost)
    s.off_bribe[o] = p
    s._event(f"Seat {p} bribes Customs Officer {o} in {C.locations[s.off_at[o]].name} for {cost} Gold")
    if not check_seizure(s, s.off_at[o], "finish"):
        finish_action(s)


# -- Sell Goods -----------------------------------------------------------------------------
def begin_sale(s: S, g: int) -> None:
    """Sell Goods: the seller's sale cards (Forged Cocket, Elizabeth Quick) and rivals' tolls answer first."""
    s.sub_goods = g
    s.phase = PRICE
    A.open_window(s, "sale", s.actor, s.g_at[g], "phase")


def town_size(s: S, loc: int) -> int:
    return s.sale_size or C.locations[loc].size


def legal_prices(s: S) -> tuple[Action, ...]:
    """Choose a price: top row free; middle 1, bottom 2, paid in Influence or Reputation."""
    p = s.actor
    acts: list[Action] = [act("price", "top")]
    if s.free_row:
        acts.append(act("price", "bottom"))  # Forged Cocket: the bottom row without its cost
    for row in (1, 2):
        cost = C.row_cost[row]
        if s.infl[p] >= cost:
            acts.append(act("price", ROW_NAMES[row], "", "influence"))
        if s.rep[p] >= cost:
            acts.append(act("price", ROW_NAMES[row], "", "reputation"))
    return tuple(acts)


def sell(s: S, row: int, pay: str) -> None:
    """Selling Goods, steps 1-3: price, cost, then the nearest officer moves one space."""
    p = s.actor
    g = s.sub_goods
    loc = s.g_at[g]
    town = C.locations[loc]
    size = town_size(s, loc)
    if row and pay:
        _spend(s, p, pay, C.row_cost[row], 0, C.row_cost[row])
    gold, rep = C.price(size, C.shapes[C.goods[g]].size, row)
    got = _gain_gold(s, p, gold)
    if row == 0:
        rep += A.passive(s, p, "top-price-reputation")
    s.rep[p] += rep
    s.g_where[g] = SOLD
    s.g_at[g] = loc
    s.g_owner[g] = -1
    s.seller = p
    s.sale_gold = got
    s._event(f"Seat {p} sells {_goods_name(g)} in {town.name} (size {size}, {ROW_NAMES[row]} row) "
             f"for {got} Gold and {rep} Reputation")
    if s.sale_bonus:  # Elizabeth Quick: this Gold does not move the Customs Gold Counter
        s._event(f"Seat {p} gains {_gain_gold(s, p, s.sale_bonus)} Gold more")
    start_customs(s, loc, 1, AFTER_SALE)


def after_sale_customs(s: S) -> None:
    """Selling Goods, steps 4-5: the Gold Wheel and Customs Track, new officers, Secrets for the others."""
    passes = advance_gold_wheel(s, s.sale_gold)
    if passes:
        advance_customs_track(s, passes)
    if s.to_post:
        begin_posting(s)
    else:
        finish_sale(s)


def advance_gold_wheel(s: S, gold: int) -> int:
    """One space per Gold earned; each time START is reached or passed, the track moves one space."""
    total = s.wheel + gold
    s.wheel = total % C.wheel
    return total // C.wheel


def advance_customs_track(s: S, spaces: int) -> None:
    old = s.track
    last = len(C.discovery) - 1
    s.track = min(last, old + spaces)
    s.to_post += sum(1 for step in C.new_officer if old < step <= s.track)
    s._event(f"The Customs Track moves to space {s.track}: Discovery Level {C.discovery[s.track]}, "
             f"Bribe Cost {C.bribe[s.track]}")
    if s.track == last:
        trigger_end(s, "the Customs Counter reached the end of the Customs Track")


def empty_land(s: S) -> list[int]:
    """Where a new officer may go: no Customs Officer and no Network Counter (never the Isles of Scilly)."""
    taken = {loc for loc in s.off_at if loc >= 0}
    for cs in s.counters:
        taken.update(cs)
    return [loc for loc in range(len(C.locations)) if loc not in taken and loc != C.scilly]


def begin_posting(s: S) -> None:
    if not empty_land(s) or s.to_post == 0:
        s.to_post = 0
        finish_sale(s)
        return
    s.phase = POST
    s.actor = chooser(s)


def post_officer(s: S, loc: int) -> None:
    o = s.off_at.index(-1)
    s.off_at[o] = loc
    s.to_post -= 1
    s._event(f"Seat {s.actor}, with least Gold, places new Customs Officer {o} in {C.locations[loc].name}")
    if not check_seizure(s, loc, "post"):
        post_next(s)


def post_next(s: S) -> None:
    if s.to_post and -1 in s.off_at:
        begin_posting(s)
    else:
        s.to_post = 0
        finish_sale(s)


def finish_sale(s: S) -> None:
    """Receive Secrets Cards: every other player draws one (while the deck lasts)."""
    p = s.seller
    n = s.seats
    collect_tolls(s, p)
    for i in range(1, n):
        q = (p + i) % n
        if s.sdeck:
            s.secrets[q].append(s.sdeck.pop())
    s.actor = p
    finish_action(s)


def collect_tolls(s: S, p: int) -> None:
    """Peter Curnow: after the sale the seller pays the toll (or all their Gold, if less)."""
    for i in range(0, len(s.tolls), 2):
        card, q = s.tolls[i], s.tolls[i + 1]
        due = min(s.gold[p], C.characters[card].amount)
        s.gold[p] -= due
        s.gold[q] += due
        s._event(f"Seat {p} pays seat {q} a toll of {due} Gold ({C.characters[card].name})")
    s.tolls = []


# -- Raid the Customs House --------------------------------------------------------------------
def legal_raids(s: S, p: int) -> list[Action]:
    """Two or more Mob characters, a Network Counter in Penzance, 1 Influence: one seized Goods Shape."""
    if s.infl[p] < 1 or C.penzance not in s.counters[p]:
        return []
    if A.mob_count(s, p) < A.raid_mobs_needed(s, p):
        return []
    seen: set[int] = set()
    acts: list[Action] = []
    for g in range(len(C.goods)):
        if s.g_where[g] == WAREHOUSE and C.goods[g] not in seen:
            seen.add(C.goods[g])
            acts.append(act("raid", GOODS_IDS[g]))
    return acts


def begin_raid(s: S, g: int) -> None:
    s.infl[s.actor] -= 1
    s.sub_goods = g
    s.phase = RAID_DISCARD


def raid_discard(s: S, card: int) -> None:
    p = s.actor
    lose_character(s, p, card)
    s._event(f"Seat {p} sends {C.characters[card].name} to storm the Customs House")
    s.phase = RAID_REMOVE


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
        for g in range(len(C.goods)):
            if s.g_where[g] == STORE and s.g_at[g] == st:
                s.g_where[g] = LAND
                s.g_at[g] = loc
        check_seizure(s, loc, window=False)


def raid_remove_counter(s: S, loc: int) -> None:
    p = s.actor
    s.counters[p].remove(loc)
    g = s.sub_goods
    s.g_where[g] = LAND
    s.g_at[g] = C.penzance
    s.g_owner[g] = p
    s._event(f"Seat {p} removes a Network Counter from {C.locations[loc].name} and liberates {_goods_name(g)}")
    check_seizure(s, loc, window=False)
    if not check_seizure(s, C.penzance, "finish"):
        finish_action(s)


# == dispatch =====================================================================================
def legal(s: S) -> tuple[Action, ...]:
    ph = s.phase
    p = s.actor
    if ph == MAIN:
        return legal_main(s)
    if ph == LAND_SELECT:
        return legal_unload(s)
    if ph == LAND_HIDE:
        return tuple(act("hide", str(k)) for k in range(0, min(s.infl[p], s.excess) + 1))
    if ph == LAND_STORE:
        return legal_store_landed(s) + (act("done"),)
    if ph == PRICE:
        return legal_prices(s)
    if ph == CUSTOMS_OFFICER:
        return tuple(act("move", str(o)) for o in nearest_officers(s, s.cust_target))
    if ph == CUSTOMS_STEP:
        return tuple(act("step", LOC_IDS[x]) for x in customs_steps(s))
    if ph == POST:
        return tuple(act("post", LOC_IDS[x]) for x in empty_land(s))
    if ph == PLACE:
        return tuple(act("place", LOC_IDS[x]) for x in legal_placements(s, p))
    if ph == RAID_DISCARD:
        return tuple(act("discard", C.characters[c].id) for c in s.chars[p] if C.characters[c].mob)
    if ph == RAID_REMOVE:
        return tuple(act("remove", LOC_IDS[x]) for x in sorted(set(s.counters[p])))
    if ph == REACT:
        return A.legal_react(s)
    if ph == EFFECT:
        return A.legal_effect(s)
    if ph == PROTECT:
        return A.legal_protect(s)
    if ph == LOSE_COUNTER:
        return A.legal_lose_counter(s)
    if ph == SETUP_SHIP:
        return tuple(act("ship", C.ships[x].id) for x in s.ships_left)
    if ph == SETUP_STORE:
        return tuple(act("storehouse", C.storehouses[x].id) for x in s.stores_left)
    if ph == SETUP_DRAW:
        return tuple(act("draw", _deck_name(d)) for d in range(4) if s.stacks[d] and d not in s.drawn_decks)
    if ph == SETUP_KEEP:
        return tuple(act("keep", C.characters[c].id) for c in s.drawn)
    if ph == SETUP_COUNTER:
        return tuple(act("place", x) for x in LOC_IDS)
    if ph == SETUP_LAUNCH:
        return tuple(act("launch", C.sea_ids[x]) for x in C.open_sea + C.merchant_nodes)
    return ()


_CHAR_BY_ID = {c.id: c.index for c in C.characters}
_STORE_BY_ID = {st.id: st.index for st in C.storehouses}
_SHIP_BY_ID = {sh.id: sh.index for sh in C.ships}
_DECK_BY_NAME = {"religious": 0, "trade": 1, "unskilled": 2, "official": 3}


def apply(s: S, a: Action) -> None:  # noqa: C901 - a flat dispatch on the verb
    verb, item, to, pay = a.verb, a.item, a.to, a.pay  # type: ignore[attr-defined]
    ph = s.phase
    if ph == REACT:
        A.react(s, verb, item, pay)
    elif ph == EFFECT:
        A.effect_choice(s, verb, item, to)
    elif ph == PROTECT:
        A.protect(s, verb, item)
    elif ph == LOSE_COUNTER:
        A.lose_counter(s, C.loc_by_id[item])
    elif verb in ("motivate", "play"):
        A.main_card(s, verb, item, pay)
    elif verb == "pass":
        s._event(f"Seat {s.actor} passes")
        finish_action(s, passing=True)
    elif verb == "sail":
        move_ship(s, C.sea_by_id[to], pay)
    elif verb == "carry":
        move_goods(s, GOODS_BY_ID[item], C.loc_by_id[to], pay, with_counter=False)
    elif verb == "escort":
        move_goods(s, GOODS_BY_ID[item], C.loc_by_id[to], pay, with_counter=True)
    elif verb == "counter":
        move_counter(s, C.loc_by_id[item], C.loc_by_id[to], pay)
    elif verb == "officer":
        move_officer_action(s, int(item), C.loc_by_id[to], pay)
    elif verb == "buy-reputation":
        buy_reputation(s)
    elif verb == "honest-work":
        honest_work(s)
    elif verb == "discover":
        discover_secret(s, pay)
    elif verb == "land":
        s.land_owner = s.actor
        begin_landing(s)
    elif verb == "unload":
        s.land_sel.append(GOODS_BY_ID[item])
    elif verb == "done" and ph == LAND_SELECT:
        finish_unloading(s)
    elif verb == "hide":
        put_goods_ashore(s, int(item))
    elif verb == "done" and ph == LAND_STORE:
        landing_customs(s)
    elif verb == "store":
        store_goods(s, GOODS_BY_ID[item], _STORE_BY_ID[to])
        if ph == LAND_STORE and not legal_store_landed(s):
            landing_customs(s)
    elif verb == "unstore":
        unstore_goods(s, GOODS_BY_ID[item])
    elif verb == "claim":
        claim_goods(s, GOODS_BY_ID[item])
    elif verb == "hire":
        hire(s, _CHAR_BY_ID[item], pay)
    elif verb == "place" and ph == PLACE:
        place_counter(s, C.loc_by_id[item])
    elif verb == "buy":
        buy_goods(s, GOODS_BY_ID[item])
    elif verb == "bribe":
        bribe(s, int(item))
    elif verb == "sell":
        begin_sale(s, GOODS_BY_ID[item])
    elif verb == "price":
        sell(s, ROW_NAMES.index(item), pay)
    elif verb == "move":
        choose_mover(s, int(item))
    elif verb == "step":
        choose_step(s, C.loc_by_id[item])
    elif verb == "post":
        post_officer(s, C.loc_by_id[item])
    elif verb == "raid":
        begin_raid(s, GOODS_BY_ID[item])
    elif verb == "discard":
        raid_discard(s, _CHAR_BY_ID[item])
    elif verb == "remove":
        raid_remove_counter(s, C.loc_by_id[item])
    elif verb == "ship":
        choose_ship(s, _SHIP_BY_ID[item])
    elif verb == "storehouse":
        choose_start_storehouse(s, _STORE_BY_ID[item])
    elif verb == "draw":
        draw_start_character(s, _DECK_BY_NAME[item])
    elif verb == "keep":
        keep_start_character(s, _CHAR_BY_ID[item])
    elif verb == "place":
        place_first_counter(s, C.loc_by_id[item])
    elif verb == "launch":
        launch_ship(s, C.sea_by_id[item])
    else:
        raise TypeError(f"not a Cornish Smuggler action here: {a}")


def prompt(s: S) -> str:
    ph = s.phase
    return {
        SETUP_SHIP: "choose your Ship card",
        SETUP_STORE: "choose a START storehouse",
        SETUP_DRAW: "draw a face-down Character card from a stack (two different stacks)",
        SETUP_KEEP: "keep one of the two Character cards you drew",
        SETUP_COUNTER: "place your first Network Counter on any land space",
        SETUP_LAUNCH: "place your ship on a Sea Space or a Merchant Space",
        MAIN: "take one Action (or pass)",
        LAND_SELECT: "choose the Goods Shapes to unload, then done",
        LAND_HIDE: f"spend Influence to hide the landing ({s.excess} Customs moves otherwise)",
        LAND_STORE: "store landed goods straight into your storehouse, or done",
        PLACE: "place the new Network Counter",
        PRICE: "choose the price row for the sale",
        CUSTOMS_OFFICER: "as the player with least Gold, choose which Customs Officer moves",
        CUSTOMS_STEP: "as the player with least Gold, choose where the Customs Officer steps",
        POST: "as the player with least Gold, place the new Customs Officer on an empty land space",
        RAID_DISCARD: "discard a Mob character for the raid",
        RAID_REMOVE: "remove one of your Network Counters for the raid",
        REACT: f"play a card on this event ({s.win_event}) or decline",
        EFFECT: f"choose for {A.card_name(s.eff[1])}" if s.eff[1] >= 0 else "choose",
        PROTECT: "Motivate Squire Polglase to keep your Character, or decline",
        LOSE_COUNTER: "remove one of your Network Counters (a lost Character)",
    }.get(ph, "")


# -- names ------------------------------------------------------------------------------------------
def _deck_name(d: int) -> str:
    return ("religious", "trade", "unskilled", "official")[d]


def _node_name(node: int) -> str:
    loc = C.sea_location[node]
    if loc >= 0:
        return C.locations[loc].name
    if node in C.merchant_nodes:
        return C.merchant_names[C.merchant_nodes.index(node)]
    return C.sea_ids[node]


def _goods_name(g: int) -> str:
    return f"{GOODS_IDS[g]} (size {C.shapes[C.goods[g]].size} {C.shapes[C.goods[g]].id})"


def check_consistent(s: S) -> None:
    """Refuse a loaded state whose gold or pieces do not add up."""
    if sum(s.gold) + s.bank != C.bank_gold:
        raise BadRecord("saved Cornish Smuggler state: players' Gold plus the bank does not equal the Gold supply")
    if len(s.g_where) != len(C.goods):
        raise BadRecord(f"saved Cornish Smuggler state must place all {len(C.goods)} Goods Shapes")


# What carries on when a reaction window closes (abilities.RESUMES).
def _restore(s: S) -> None:
    """The interrupted decision is asked again (its phase and seat were restored)."""


def _resume_finish(s: S) -> None:
    finish_action(s)


RESUME_FNS = {
    "phase": _restore, "finish": _resume_finish, "customs": run_customs, "post": post_next, "ashore": ashore_tail,
    "land-risk": landing_risk, "sale": _restore, "bribe": do_bribe, "buy": do_buy, "buy-rep": do_buy_reputation,
    "sail": after_sail, "effect": A.effect_continue, "effect-done": A.effect_done,
}
