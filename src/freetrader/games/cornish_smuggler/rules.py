"""Cornish Smuggler rules, one function per rule; section names are the rulebook's.

Flow: set-up decisions (ship draft, storehouse draft, starting character,
first counter, ship placement), then Turns: each player in turn takes one
Action until all have passed. Each decision is a frame on the state's stack:
the set-up frames and the Turn's ``Main`` frame here, the sub-decisions of
an Action (landing, selling, Customs, windows, cards) in ``frames.py``.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from freetrader.core import Action, BadRecord
from freetrader.core.frames import Frame, finish, push, replace

from . import abilities as A
from . import frames as F
from .actions import (
    Bribe,
    Buy,
    BuyReputation,
    Carry,
    Claim,
    CounterMove,
    Discover,
    Done,
    Draw,
    Escort,
    Hire,
    HonestWork,
    Keep,
    Land,
    Launch,
    Motivate,
    OfficerAction,
    Pass,
    Place,
    Play,
    Raid,
    Sail,
    Sell,
    Ship,
    Store,
    Storehouse,
    Unstore,
    act,
)
from .board import (
    GOODS_BY_ID,
    GOODS_IDS,
    LOC_IDS,
    N_OFFICERS,
    ROW_NAMES,
    abandoned,
    advance_customs_track,
    advance_gold_wheel,
    bribe_cost,
    buy_price,
    can_land,
    can_land_at,
    chooser,
    could_discount,
    deck_name,
    empty_land,
    gain_gold,
    goods_at,
    goods_name,
    grant_storehouse,
    hire_price,
    honest_work_gain,
    legal_placements,
    lose_character,
    mob_count,
    nearest_officers,
    node_name,
    pay_gold,
    raid_mobs_needed,
    reveal_character,
    seizable,
    seize,
    seize_now,
    spend,
    start_of_turn_income,
    store_fits,
    town_size,
    trigger_end,
    unbribed_officer_at,
)
from .board import passive as _passive
from .components import COMPONENTS as C
from .frames import CornishFrame, check_seizure, start_customs
from .packing import fits, hold_of_ship, hold_of_store
from .phases import LAND, MERCHANT, OUT, PHASES, SHIP, SOLD, STORE, WAREHOUSE, WHERE, Phase

if TYPE_CHECKING:
    from .state import CornishState as S

__all__ = [
    "LAND", "MERCHANT", "OUT", "SHIP", "SOLD", "STORE", "WAREHOUSE", "Phase",
    "AfterAction", "FREE_MOVES", "FreeMoves", "GOODS_BY_ID", "GOODS_IDS", "LOC_IDS", "Main", "N_OFFICERS", "PHASES", "ROW_NAMES", "WHERE", "abandoned",
    "advance_customs_track", "advance_gold_wheel", "bribe_cost", "buy_price", "can_land", "can_land_at",
    "check_seizure", "chooser", "empty_land", "fits", "goods_at", "hire_price", "hold_of_ship", "hold_of_store",
    "first_counter_home", "free_moves", "honest_work_gain", "legal_placements", "lose_character",
    "market_closed", "merchant_prices_fitting", "may_hide_or_claim", "mob_count", "nearest_officers",
    "offer_free_moves", "raid_mobs_needed",
    "seizable", "seize", "setup",
    "start_customs", "store_fits", "town_size", "unbribed_officer_at",
]

# The kinds of decision, as the tests and encoders name them.
(SETUP_SHIP, SETUP_STORE, SETUP_DRAW, SETUP_KEEP, SETUP_COUNTER, SETUP_LAUNCH, MAIN, LAND_SELECT, LAND_HIDE,
 LAND_STORE, PLACE, PRICE, CUSTOMS_OFFICER, CUSTOMS_STEP, POST, RAID_DISCARD, RAID_REMOVE, REACT, EFFECT, PROTECT,
 LOSE_COUNTER, OVER) = tuple(Phase)
_N_GOODS = len(C.goods)
_CHAR_BY_ID = {c.id: c.index for c in C.characters}
_STORE_BY_ID = {st.id: st.index for st in C.storehouses}
_SHIP_BY_ID = {sh.id: sh.index for sh in C.ships}
_DECK_BY_NAME = {"religious": 0, "trade": 1, "unskilled": 2, "official": 3}


# == set-up (Setup Diagram) =========================================================
def setup(s: S) -> None:
    n = s.seats
    s.gold = [C.start_gold] * n
    s.bank = C.bank_gold - C.start_gold * n
    s.infl = [C.start_influence] * n
    s.ship_card = [-1] * n
    s.ship_at = [-1] * n
    # pieces of other player counts (goods.toml ``extra``) stay out of the game
    s.g_where = [MERCHANT if n in players else OUT for players in C.goods_players]
    s.g_at = [m if n in players else -1 for m, players in zip(C.goods_start, C.goods_players, strict=True)]
    s.g_owner = [-1] * len(C.goods)
    s.off_at = list(C.start_officers) + [-1] * len(C.new_officer)
    s.off_bribe = [-1] * N_OFFICERS
    s.stacks = [[c.index for c in C.characters if c.deck == d] for d in range(4)]
    for stack in s.stacks:
        s.rng.shuffle(stack)
    s.faceup = [-1] * 4
    s.sdeck = list(C.secret_deck)
    s.rng.shuffle(s.sdeck)
    s.ships_left = list(range(len(C.ships)))
    s.stores_left = [st.index for st in C.storehouses if st.start and n in st.players]
    s.track = C.track_start[n]
    s.first = s.options["first_player"] % n
    s.lantern = [-1] * n
    s.frames = (SetupShip(seat=s.first),)
    s._event(f"Seat {s.first} is the First Player and chooses a Ship card first")


@dataclasses.dataclass(frozen=True, slots=True)
class _SetupStep(CornishFrame):
    """One set-up choice; ``i`` counts the seats that have chosen at this step."""

    seat: int
    i: int = 0
    phase = Phase.SETUP_SHIP
    text = ""

    def actor(self, s: S) -> int:
        return self.seat

    def prompt(self, s: S) -> str:
        return self.text

    def advance(self, s: S, then: Callable[[int], Frame[Any]] | None, clockwise: bool = True,
                start: int | None = None) -> bool:
        """The next seat chooses; once every seat has, ``then`` (the next step) follows. True if it did."""
        if self.i + 1 < s.seats:
            replace(s, dataclasses.replace(self, seat=(self.seat + (1 if clockwise else -1)) % s.seats, i=self.i + 1))
            return False
        if then is not None:
            replace(s, then(s.first if start is None else start))
        return True


@dataclasses.dataclass(frozen=True, slots=True)
class SetupShip(_SetupStep):
    """Set-up: the First Player chooses a Ship card and passes the rest clockwise."""

    phase = Phase.SETUP_SHIP
    text = "choose your Ship card"

    def legal(self, s: S) -> Sequence[Action]:
        return tuple(act("ship", C.ships[x].id) for x in s.ships_left)

    def apply(self, s: S, action: Action) -> None:
        assert isinstance(action, Ship)
        ship = action.ship
        s.ship_card[self.seat] = ship
        s.ships_left.remove(ship)
        s._event(f"Seat {self.seat} takes the ship {C.ships[ship].name}")
        self.advance(s, lambda q: SetupStore(seat=q), start=(s.first - 1) % s.seats)


@dataclasses.dataclass(frozen=True, slots=True)
class SetupStore(_SetupStep):
    """Set-up: START storehouses go to the last player, passed anticlockwise; the rest are discarded."""

    phase = Phase.SETUP_STORE
    text = "choose a START storehouse"

    def legal(self, s: S) -> Sequence[Action]:
        return tuple(act("storehouse", C.storehouses[x].id) for x in s.stores_left)

    def apply(self, s: S, action: Action) -> None:
        assert isinstance(action, Storehouse)
        store = action.store
        s.stores[self.seat].append(store)
        s.stores_left.remove(store)
        s._event(f"Seat {self.seat} takes the storehouse {C.storehouses[store].name}")
        if self.advance(s, lambda q: SetupDraw(seat=q), clockwise=False):
            s.stores_left = []


@dataclasses.dataclass(frozen=True, slots=True)
class SetupDraw(_SetupStep):
    """Set-up: draw two face-down Character cards, from different stacks (``SETUP_KEEP`` once two are drawn)."""

    drawn: int = 0  # how many of the two are drawn

    @property
    def phase(self) -> Phase:  # type: ignore[override]
        return Phase.SETUP_KEEP if self.drawn == 2 else Phase.SETUP_DRAW

    def prompt(self, s: S) -> str:
        if self.drawn == 2:
            return "keep one of the two Character cards you drew"
        return "draw a face-down Character card from a stack (two different stacks)"

    def legal(self, s: S) -> Sequence[Action]:
        if self.drawn == 2:
            return tuple(act("keep", C.characters[c].id) for c in s.drawn)
        return tuple(act("draw", deck_name(d)) for d in range(4) if s.stacks[d] and d not in s.drawn_decks)

    def apply(self, s: S, action: Action) -> None:
        a = action
        if isinstance(a, Draw):
            deck = a.deck
            s.drawn.append(s.stacks[deck].pop())
            s.drawn_decks.append(deck)
            s._event(f"Seat {self.seat} draws a face-down card from the {deck_name(deck)} stack")
            replace(s, dataclasses.replace(self, drawn=self.drawn + 1))
            return
        # keep one (free, its Reputation gained); the other goes under its stack
        assert isinstance(a, Keep)
        card = a.card
        other_i = 1 - s.drawn.index(card)
        s.stacks[s.drawn_decks[other_i]].insert(0, s.drawn[other_i])
        p = self.seat
        s.chars[p].append(card)
        s.rep[p] += C.characters[card].reputation
        grant_storehouse(s, p, card)
        s._event(f"Seat {p} keeps {C.characters[card].name} ({C.characters[card].occupation}) "
                 "and returns the other card")
        s.drawn, s.drawn_decks = [], []
        now = dataclasses.replace(self, drawn=0)
        replace(s, now)
        now.advance(s, lambda q: SetupCounter(seat=q))


@dataclasses.dataclass(frozen=True, slots=True)
class SetupCounter(_SetupStep):
    """Set-up: each player places a Network Counter on any land space, the Isles of Scilly included."""

    phase = Phase.SETUP_COUNTER
    text = "place your first Network Counter on any land space"

    def legal(self, s: S) -> Sequence[Action]:
        home = first_counter_home(s, self.seat)
        if home >= 0:
            return (act("place", LOC_IDS[home]),)
        return tuple(act("place", x) for x in LOC_IDS)

    def prompt(self, s: S) -> str:
        home = first_counter_home(s, self.seat)
        if home >= 0:
            ch = C.characters[s.chars[self.seat][0]]
            return f"place your first Network Counter in {C.locations[home].name} ({ch.name} must be placed there)"
        return self.text

    def apply(self, s: S, action: Action) -> None:
        assert isinstance(action, Place)
        loc = action.loc
        s.counters[self.seat].append(loc)
        s._event(f"Seat {self.seat} places a Network Counter in {C.locations[loc].name}")
        self.advance(s, lambda q: SetupLaunch(seat=q))


def first_counter_home(s: S, p: int) -> int:
    """Mob cards: "If you have no Network Counter in X, you must place this Network Counter in X" binds the
    first counter too when such a card is the starting character (with none yet, the player has none in X).
    -1 when the counter may go on any land space (option ``mob_start=anywhere``: saves from before the fix)."""
    if s.options["mob_start"] != "home" or not s.chars[p]:
        return -1
    return C.characters[s.chars[p][0]].must_place


@dataclasses.dataclass(frozen=True, slots=True)
class SetupLaunch(_SetupStep):
    """Set-up: each player places the Ship Counter on a Sea Space or a Merchant Space."""

    phase = Phase.SETUP_LAUNCH
    text = "place your ship on a Sea Space or a Merchant Space"

    def legal(self, s: S) -> Sequence[Action]:
        return tuple(act("launch", C.sea_ids[x]) for x in C.open_sea + C.merchant_nodes)

    def apply(self, s: S, action: Action) -> None:
        assert isinstance(action, Launch)
        node = action.node
        s.ship_at[self.seat] = node
        s._event(f"Seat {self.seat} puts to sea at {node_name(node)}")
        if self.advance(s, None):
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
            start_of_turn_income(s, p)
    s.motivated = [[] for _ in range(s.seats)]  # Re-Motivate All Cards
    s.becalmed = [False] * s.seats
    s.lantern = [-1] * s.seats
    s.passed = [False] * s.seats
    s.frames = (Main(seat=s.first),)
    s._event(f"Turn {s.turn} begins; seat {s.first} has the First Player marker")


def finish_action(s: S, p: int, passing: bool = False) -> None:
    """One Action done: the player may still hide goods (Storehouse Locations: "at any time during a player's
    turn"); then play passes clockwise to the next player who has not passed."""
    if passing:
        s.passed[p] = True
    elif may_hide_or_claim(s, p):
        s.frames = (AfterAction(seat=p),)
        return
    next_player(s, p)


def next_player(s: S, p: int) -> None:
    """The player's turn is over: the next one clockwise who has not passed takes an Action."""
    s.free_moved = []
    n = s.seats
    for i in range(1, n + 1):
        q = (p + i) % n
        if not s.passed[q]:
            s.frames = (Main(seat=q),)
            return
    end_turn(s)


def end_turn(s: S) -> None:
    """All have passed: the First Player marker moves clockwise; the game may end (End of the Game).

    The game ends only by its two triggers; ``turn_limit`` (off, 0, by default) is a safety cap for
    simulations, and a game it stops is cut (``cut_by_cap``), with no winner.
    """
    if s.ending:
        end_game(s, "the end was triggered this turn")
        return
    cap = s.options["turn_limit"]
    if cap and s.turn >= cap:
        end_game(s, f"cut by the safety cap of {cap} Turns, before either end trigger; no winner")
        return
    closed = s.options["goods_end"] == "takeable" and market_closed(s)
    s.first = (s.first + 1) % s.seats
    start_turn(s)
    if closed:  # as the printed triggers do, it leaves the players a Turn: a Backhander in hand may yet be used
        trigger_end(s, "no player can take a Goods Shape that is left")


def cut_by_cap(s: S) -> bool:
    """Over without an end trigger: only the safety cap ends a game so (End of the Game)."""
    return not s.frames and not s.ending


def end_game(s: S, why: str) -> None:
    s.frames = ()
    scores = [s.gold[p] + s.rep[p] for p in range(s.seats)]
    s._event(f"The game ends: {why}. Gold + Reputation: " + ", ".join(f"seat {p} {v}" for p, v in enumerate(scores)))


# == the Turn's decision ===================================================================
@dataclasses.dataclass(frozen=True, slots=True)
class Main(CornishFrame):
    """Seat ``seat`` takes one Action (or passes), or a free move first.

    When the frames an Action pushed have finished, the Action is over, unless ``free`` (a free move
    is under way: the seat decides again).
    """

    seat: int
    free: bool = False
    phase = Phase.MAIN

    def actor(self, s: S) -> int:
        return self.seat

    def legal(self, s: S) -> Sequence[Action]:
        return legal_main(s, self.seat)

    def prompt(self, s: S) -> str:
        return "take one Action (or pass)"

    def apply(self, s: S, action: Action) -> None:
        a: Any = action
        kind = type(a)
        free = _FREE.get(kind)
        if free is not None or (kind is Play and A.is_free(a)):
            me = Main(seat=self.seat, free=True)
            replace(s, me)
            (free or _card_action)(s, self.seat, a)
            if s.frames[-1] is me:
                replace(s, self)
            return
        _ACTIONS[kind](s, self.seat, a)
        if s.frames and s.frames[-1] is self:
            finish_action(s, self.seat, passing=kind is Pass)

    def resumed(self, s: S, done: Frame[Any]) -> None:
        if self.free:
            replace(s, Main(seat=self.seat))
        elif isinstance(done, F.OfficerMove):
            officer_moved(s, self.seat, done)
        else:
            finish_action(s, self.seat)


# == free moves (Storehouse Locations, Abandoned Goods) ======================================================
def store_goods(s: S, g: int, store: int) -> None:
    F.store_goods(s, g, store)


def unstore_goods(s: S, g: int) -> None:
    loc = C.storehouses[s.g_at[g]].location
    s.g_where[g] = LAND
    s.g_at[g] = loc
    s.free_moved.append(g)
    s._event(f"Seat {s.g_owner[g]} brings {goods_name(g)} out into {C.locations[loc].name}")
    check_seizure(s, loc)


def claim_goods(s: S, p: int, g: int) -> None:
    """Abandoned Goods are fair game for any Network Counter in that location."""
    s.g_owner[g] = p
    s.free_moved.append(g)
    s._event(f"Seat {p} claims the abandoned {goods_name(g)} in {C.locations[s.g_at[g]].name}")


def free_moves(s: S, p: int) -> list[Action]:
    """Free at any time on your turn: goods into or out of your storehouses, claiming abandoned goods.

    Not the goods a step of the decision under way is working on (the shape being sold, the shapes being
    landed, a card's chosen shape), and not into a storehouse where an officer not bribed by you already
    stands (Storing Landed Goods: goods are hidden only before the officer arrives)."""
    acts: list[Action] = []
    moved = s.free_moved
    busy = F.busy_goods(s) if len(s.frames) > 1 else ()
    mine = s.counters[p]
    g_where, g_owner, g_at = s.g_where, s.g_owner, s.g_at
    for g in range(_N_GOODS):
        w = g_where[g]
        if w == LAND:
            loc = g_at[g]
            if loc not in mine or g in moved or g in busy:
                continue
            owner = g_owner[g]
            if owner == p:
                for st in s.stores[p]:
                    if C.storehouses[st].location == loc and store_fits(s, st, g) \
                            and not unbribed_officer_at(s, p, loc):
                        acts.append(act("store", GOODS_IDS[g], C.storehouses[st].id))
            elif loc not in s.counters[owner]:
                acts.append(act("claim", GOODS_IDS[g]))
        elif w == STORE and g_owner[g] == p and g not in moved and g not in busy:
            acts.append(act("unstore", GOODS_IDS[g]))
    return acts


def may_hide_or_claim(s: S, p: int) -> bool:
    """Whether a free move could keep or win goods (into a storehouse, or a claim): then a decision of its own
    is offered between the steps of a turn. Bringing goods out can only expose them, and it is offered at
    every Action (ruling 6)."""
    return any(type(a) is not Unstore for a in free_moves(s, p))


def free_move(s: S, p: int, a: Any) -> None:
    _FREE[type(a)](s, p, a)


@dataclasses.dataclass(frozen=True, slots=True)
class _StorehouseMoves(CornishFrame):
    """Goods into or out of a storehouse, or abandoned goods claimed, as a decision of the player's own
    (Storehouse Locations: "at any time during a player's turn"); ``done`` ends it (``_done``)."""

    seat: int
    phase = Phase.MAIN

    def actor(self, s: S) -> int:
        return self.seat

    def legal(self, s: S) -> Sequence[Action]:
        return (_DONE, *free_moves(s, self.seat))

    def apply(self, s: S, action: Action) -> None:
        if type(action) is Done:
            self._done(s)
            return
        free_move(s, self.seat, action)
        if s.frames and s.frames[-1] is self:
            self.resumed(s, self)

    def resumed(self, s: S, done: Frame[Any]) -> None:
        if not free_moves(s, self.seat):
            self._done(s)

    def _done(self, s: S) -> None:
        raise NotImplementedError(f"{type(self).__name__} must define _done()")


@dataclasses.dataclass(frozen=True, slots=True)
class AfterAction(_StorehouseMoves):
    """The Action is over but the player's turn is not: the free moves come before play passes on."""

    def prompt(self, s: S) -> str:
        return "your Action is over: move goods into or out of your storehouses (free), or done"

    def _done(self, s: S) -> None:
        next_player(s, self.seat)


@dataclasses.dataclass(frozen=True, slots=True)
class FreeMoves(_StorehouseMoves):
    """Between the steps of an Action, before the player's next choice: ``done`` goes back to the choice
    waiting below, which nothing here has decided (``aside``)."""

    aside = True

    def prompt(self, s: S) -> str:
        return "before you go on: move goods into or out of your storehouses (free), or done"

    def _done(self, s: S) -> None:
        finish(s, self)


def offer_free_moves(s: S) -> None:
    """After a step of a turn: if the active player decides next, inside their Action, and could hide or
    claim goods, that comes first as a decision of its own."""
    frames = s.frames
    if len(frames) < 2 or type(frames[0]) is not Main:
        return
    p = frames[0].seat
    top = frames[-1]
    if type(top) in (Main, AfterAction, FreeMoves) or top.actor(s) != p:
        return
    if any(type(f) is FreeMoves for f in frames):  # a free move's own consequences (a seizure) are under way
        return
    if may_hide_or_claim(s, p):
        push(s, FreeMoves(seat=p))


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
_DONE = act("done")
_DISCOVER = (act("discover", "", "", "influence"), act("discover", "", "", "gold"))
_SELL = tuple(act("sell", x) for x in GOODS_IDS)
_BRIBE = tuple(act("bribe", str(o)) for o in range(N_OFFICERS))
_HIRE = tuple((act("hire", c.id, "", "influence"), act("hire", c.id, "", "reputation")) for c in C.characters)


def _pay_mask(s: S, p: int, influence: int, gold: int) -> tuple[int, ...]:
    """Indices into ("influence", "gold") of the ways seat ``p`` can pay."""
    if s.infl[p] >= influence:
        return (0, 1) if s.gold[p] >= gold else (0,)
    return (1,) if s.gold[p] >= gold else ()


def legal_main(s: S, p: int) -> tuple[Action, ...]:
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
    cut = _passive(s, p, "escort-cost") if s.chars[p] else 0
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
    if gold >= 4 or (has_cards and gold >= 4 - could_discount(s, p, "buy-reputation-discount")):
        acts.append(_BUY_REP)
    if can_land(s, p):
        acts.append(_LAND)
    rep_ok = s.rep[p] >= s.options["hire_reputation"]
    cut = _passive(s, p, "hire-discount") if s.chars[p] else 0
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
                disc = could_discount(s, p, "bribe-discount") if has_cards else 0
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


# == the Actions ========================================================================
def move_ship(s: S, p: int, node: int, pay: str) -> None:
    """Move Ship; a ship card (William Bodinar) may answer with an extra space."""
    spend(s, p, pay, 1, 3)
    s._event(f"Seat {p} sails to {node_name(node)}")
    s.ship_at[p] = node
    F.Sailing(seat=p, witch=p if node in F.WITCH_NODES else -1).start(s, "sail")


def move_goods(s: S, p: int, g: int, to: int, pay: str, with_counter: bool) -> None:
    """Movement over Land: goods to an adjacent Network Counter, or goods and counter together."""
    frm = s.g_at[g]
    if with_counter:
        cut = _passive(s, p, "escort-cost")
        spend(s, p, pay, 3 - cut, 5 - cut)
        s.counters[p].remove(frm)
        s.counters[p].append(to)
    else:
        spend(s, p, pay, 1, 2)
    s.g_at[g] = to
    s._event(f"Seat {p} moves {goods_name(g)} {'and a Network Counter ' if with_counter else ''}"
             f"from {C.locations[frm].name} to {C.locations[to].name}")
    seize_now(s, frm)
    check_seizure(s, to)


def move_counter(s: S, p: int, frm: int, to: int, pay: str) -> None:
    """Network Counters can be moved out of a network; goods left behind are abandoned."""
    spend(s, p, pay, 1, 2)
    s.counters[p].remove(frm)
    s.counters[p].append(to)
    s._event(f"Seat {p} moves a Network Counter from {C.locations[frm].name} to {C.locations[to].name}")
    check_seizure(s, frm)


def move_officer_action(s: S, p: int, o: int, to: int, pay: str) -> None:
    """Move Customs Officer one space (even if bribed): 4 Influence or 6 Gold; Yew boy! may answer."""
    spend(s, p, pay, 4, 6)
    F.move_officer(s, o, to, C.locations[s.off_at[o]].land)


def officer_moved(s: S, p: int, done: F.OfficerMove) -> None:
    """The paid move is decided (by its player, or by Yew boy!'s): the officer moves and may seize."""
    o, to = done.officer, done.to
    frm = s.off_at[o]
    s.off_at[o] = to
    s._event(f"Seat {p} moves Customs Officer {o} from {C.locations[frm].name} to {C.locations[to].name}")
    check_seizure(s, to)
    if isinstance(s.frames[-1], Main):  # else the Action is over when the seizure window closes
        finish_action(s, p)


@dataclasses.dataclass(frozen=True, slots=True)
class BuyingReputation(F.Purchase):
    """Buy Reputation: 4 Gold (Grace Trembath may answer: 2 Gold)."""

    def carry_out(self, s: S) -> None:
        p = self.seat
        price = 4 - self.disc
        pay_gold(s, p, price)
        s.rep[p] += 1
        s._event(f"Seat {p} buys 1 Reputation for {price} Gold")


def honest_work(s: S, p: int) -> None:
    got = gain_gold(s, p, honest_work_gain(s, p))
    s._event(f"Seat {p} does Honest Work for {got} Gold")


def discover_secret(s: S, p: int, pay: str) -> None:
    spend(s, p, pay, 2, 2)
    s.secrets[p].append(s.sdeck.pop())
    s._event(f"Seat {p} discovers a Secret")


# -- Land Goods ------------------------------------------------------------------------
def begin_landing(s: S, p: int) -> None:
    s.infl[p] -= 1
    push(s, F.Landing(seat=p, loc=C.sea_location[s.ship_at[p]]))


def landing_excess(s: S) -> int:
    """Landing Risk (port number + squares) above the Discovery Level of the landing under way."""
    f = F.landing(s)
    return F.landing_excess(s, f) if f is not None else 0


# -- Hire Character -----------------------------------------------------------------------
def hire(s: S, p: int, card: int, pay: str) -> None:
    """Hire Character: 1 Influence or 2 Reputation, plus the card's Gold; gain its Reputation."""
    ch = C.characters[card]
    spend(s, p, pay, 1, 0, s.options["hire_reputation"])
    pay_gold(s, p, hire_price(s, p, card))
    s.rep[p] += ch.reputation
    s.chars[p].append(card)
    s.faceup[ch.deck] = -1
    reveal_character(s, ch.deck)
    grant_storehouse(s, p, card)
    s._event(f"Seat {p} hires {ch.name}, {ch.occupation} ({hire_price(s, p, card)} Gold, +{ch.reputation} Reputation)")
    if len(s.counters[p]) < C.counters:
        push(s, F.PlaceCounter(seat=p))
        F.open_window(s, "place", p)  # The Old Packhorse Road


# -- Buy Goods ----------------------------------------------------------------------------
def legal_buys(s: S, p: int) -> list[Action]:
    """Buy One Goods Shape: ship at that Merchant, 1 Influence + 1 Gold a square, and it must fit."""
    node = s.ship_at[p]
    if s.infl[p] < 1 or node not in C.merchant_nodes:
        return []
    m = C.merchant_nodes.index(node)
    held = [C.goods[g] for g in s.hold[p]]
    disc = could_discount(s, p, "buy-discount")
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


@dataclasses.dataclass(frozen=True, slots=True)
class Buying(F.Purchase):
    """Buy One Goods Shape ``goods`` (Nicholas Le Page may answer: 2 Gold less)."""

    goods: int = -1

    def carry_out(self, s: S) -> None:
        p, g = self.seat, self.goods
        s.infl[p] -= 1
        pay_gold(s, p, buy_price(s, g))
        s.g_where[g] = SHIP
        s.g_at[g] = p
        s.g_owner[g] = p
        s.hold[p].append(g)
        s._event(f"Seat {p} buys {goods_name(g)} for {buy_price(s, g)} Gold and 1 Influence")
        if not any(w == MERCHANT for w in s.g_where):
            trigger_end(s, "the last Goods Shape was bought")
        elif s.options["goods_end"] != "last" and not goods_left_to_buy(s):
            trigger_end(s, "the last Goods Shape any ship can hold was bought")


def goods_left_to_buy(s: S) -> bool:
    """End of the Game, ruling 31: a Goods Shape at a Merchant that fits some player's ship, its hold empty.

    Pieces no hold in play can take (an I-pentomino and only square holds) are never bought, so the
    printed trigger could never fire; with no sales left the Customs Track stops too, and the game
    would not end (found by simulation: every seat passing for good)."""
    flips = s.options["flip_goods"]
    holds = {hold_of_ship(s.ship_card[p]) for p in range(s.seats)}
    return any(s.g_where[g] == MERCHANT and any(fits(h, [C.goods[g]], flips) for h in holds)
               for g in range(len(C.goods)))


def merchant_prices_fitting(s: S, p: int) -> list[int]:
    """The prices of the pieces left at the Merchants that fit seat ``p``'s ship, its hold empty."""
    hold = hold_of_ship(s.ship_card[p])
    flips = s.options["flip_goods"]
    return [buy_price(s, g) for g in range(len(C.goods))
            if s.g_where[g] == MERCHANT and fits(hold, [C.goods[g]], flips)]


def market_closed(s: S) -> bool:
    """End of the Game, ruling 31 (takeable): at the end of a Turn, by what every player can see, nobody can
    take any Goods Shape that is left; the next Turn is then the last.

    That is: no player owns a piece (nothing left to sell, so the Customs Track stands still); no one can
    reach a seized piece in the Customs Warehouse (no player has or can still hire the Mobs for a raid,
    and no player with 3 Gold could still draw a Secrets card, a Backhander perhaps); and no player both
    has a piece at a Merchant that fits its empty hold and can pay for it, with its Gold, after Honest
    Work, or in time from a Character that pays Gold each Turn (held, or one it could hire). Only public
    facts: which Characters are left is known from those hired and discarded, but a Secrets card in a
    hand is not, so a Backhander held is left to the last Turn. The decks are never reshuffled, so
    otherwise neither printed trigger could ever fire: found by simulation, a seat whose Reputation leaves
    Honest Work worth 1 Gold facing the one piece left that fits its ship, the other ship too small for
    it and its one Mob too few for a raid, with every Character hired, passed for 1,000 Turns."""
    if any(o >= 0 for o in s.g_owner):
        return False
    hireable = [c for d in range(4) for c in (*s.stacks[d], s.faceup[d]) if c >= 0]
    purses = [s.gold[p] + max(0, honest_work_gain(s, p)) for p in range(s.seats)]
    if WAREHOUSE in s.g_where and (
            any(C.characters[c].mob for c in hireable)
            or any(mob_count(s, p) >= raid_mobs_needed(s, p) for p in range(s.seats))
            or (s.sdeck and max(purses) >= 3)):
        return False
    earners = [c for c in hireable if C.characters[c].effect == "gold-per-turn"]
    for p in range(s.seats):
        purse = purses[p]
        prices = merchant_prices_fitting(s, p)
        if prices and (min(prices) <= purse or _passive(s, p, "gold-per-turn") > 0
                       or any(hire_price(s, p, c) <= purse for c in earners)):
            return False
    return True


# -- Bribe Customs ------------------------------------------------------------------------
@dataclasses.dataclass(frozen=True, slots=True)
class Bribing(F.Purchase):
    """Bribe Customs Officer ``officer`` (A Little Something for the Officer may answer: 3 Gold less)."""

    officer: int = -1

    def carry_out(self, s: S) -> None:
        p, o = self.seat, self.officer
        cost = bribe_cost(s, p, o)
        s.infl[p] -= 1
        pay_gold(s, p, cost)
        s.off_bribe[o] = p
        s._event(f"Seat {p} bribes Customs Officer {o} in {C.locations[s.off_at[o]].name} for {cost} Gold")
        check_seizure(s, s.off_at[o])


# -- Raid the Customs House --------------------------------------------------------------------
def legal_raids(s: S, p: int) -> list[Action]:
    """Two or more Mob characters, a Network Counter in Penzance, 1 Influence: one seized Goods Shape."""
    if s.infl[p] < 1 or C.penzance not in s.counters[p]:
        return []
    if mob_count(s, p) < raid_mobs_needed(s, p):
        return []
    seen: set[int] = set()
    acts: list[Action] = []
    for g in range(len(C.goods)):
        if s.g_where[g] == WAREHOUSE and C.goods[g] not in seen:
            seen.add(C.goods[g])
            acts.append(act("raid", GOODS_IDS[g]))
    return acts


def begin_raid(s: S, p: int, g: int) -> None:
    s.infl[p] -= 1
    push(s, F.Raid(seat=p, goods=g))


# == dispatch: each verb of the Main decision to its rule ========================================================
def _card_action(s: S, p: int, a: Any) -> None:
    A.begin(s, p, F.play_card(s, p, a), None)


def _pass(s: S, p: int, a: Any) -> None:
    s._event(f"Seat {p} passes")


_Handler = Callable[["S", int, Any], None]
_FREE: dict[type, _Handler] = {
    Store: lambda s, p, a: store_goods(s, a.goods, a.store),
    Unstore: lambda s, p, a: unstore_goods(s, a.goods),
    Claim: lambda s, p, a: claim_goods(s, p, a.goods),
}
_ACTIONS: dict[type, _Handler] = {
    Pass: _pass,
    Motivate: _card_action,
    Play: _card_action,
    Sail: lambda s, p, a: move_ship(s, p, a.node, a.pay),
    Carry: lambda s, p, a: move_goods(s, p, a.goods, a.loc, a.pay, with_counter=False),
    Escort: lambda s, p, a: move_goods(s, p, a.goods, a.loc, a.pay, with_counter=True),
    CounterMove: lambda s, p, a: move_counter(s, p, a.frm, a.loc, a.pay),
    OfficerAction: lambda s, p, a: move_officer_action(s, p, a.officer, a.loc, a.pay),
    BuyReputation: lambda s, p, a: BuyingReputation(seat=p).start(s, "buy-reputation"),
    HonestWork: lambda s, p, a: honest_work(s, p),
    Discover: lambda s, p, a: discover_secret(s, p, a.pay),
    Land: lambda s, p, a: begin_landing(s, p),
    Hire: lambda s, p, a: hire(s, p, a.card, a.pay),
    Buy: lambda s, p, a: Buying(seat=p, goods=a.goods).start(s, "buy", arg=a.goods),
    Bribe: lambda s, p, a: Bribing(seat=p, officer=a.officer).start(s, "bribe", s.off_at[a.officer], a.officer),
    Sell: lambda s, p, a: F.begin_sale(s, p, a.goods),
    Raid: lambda s, p, a: begin_raid(s, p, a.goods),
}
FREE_MOVES = frozenset(_FREE)


def check_consistent(s: S) -> None:
    """Refuse a loaded state whose gold or pieces do not add up."""
    if sum(s.gold) + s.bank != C.bank_gold:
        raise BadRecord("saved Cornish Smuggler state: players' Gold plus the bank does not equal the Gold supply")
    if len(s.g_where) != len(C.goods):
        raise BadRecord(f"saved Cornish Smuggler state must place all {len(C.goods)} Goods Shapes")

