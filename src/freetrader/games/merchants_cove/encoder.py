"""Merchants Cove encoder, version 1 (for ``merchants-cove-v1``, with every Secret Stash module).

Seats are counted from the observer: seat block ``r`` describes seat
``(me + r) % seats`` (``r = 0`` is the observer; a spectator counts from
seat 0); blocks of seats beyond the game's are zero. The solo Peddler has a
block of its own. The size is the same for every seat count and option: a
module that is off leaves its features at zero. From ``data/``: 4 merchants,
P=22 phases, R=14 Rogue cards, F=7 Townsfolk sets, T=84 Townsfolk, K=18
Corruption kinds, 10 goods (``small-red`` .. ``large-grey``), 10 adventurer
kinds (5 colours, then their Faction Leaders), up to B=9 Boats, 4 pier slots
(``rules.SLOT_IDS``), H=12 Clock hours before the Market token. Counts are
raw unless scaled below.

Observation (1,591 floats with the shipped data), in this order:

| offset | size | feature |
|---|---|---|
| 0 | P + 4 + 4 | phase one-hot (``rules.PHASES``), stage one-hot (``rules.STAGES``), number of seats one-hot |
| 30 | 4 | day/3, game over, I am to act, the Peddler plays |
| 34 | H | Mice on each Clock hour 1-12 |
| 46 | R + R | the top Rogue card in force one-hot; the Rogue cards in force, the top one 1, then 2/3, 1/3 (Multiple Rogues: one fewer after each Clean-Up) |
| 74 | F | Townsfolk sets in play |
| 81 | B x 16 | per Boat: in the game, sailing, docked at (slot one-hot), adventurers aboard per kind |
| 225 | 8 + 1 | Boat Setup card revealed (one-hot), cards left in its deck/3 |
| 234 | 4 x 10 | customers on each pier slot per kind |
| 274 | 9 | Faction Halls per colour/10, Lair/10, Doppelgangers in each Hall/10 |
| 283 | 15 | bag per colour/10; Faction Leaders: in the bag (per colour), in each Hall, in the Lair |
| 298 | 10 + 10 + 1 | adventurers in the Kraken's bay, on Dragon Island (per kind); Grey Rogue Goods in the supply/8 |
| 319 | T + T + 1 | Town Square (multi-hot), cards put under the Townsfolk deck (multi-hot), Townsfolk deck/84 |
| 488 | 1 + K + 10 | Corruption deck/60, discards per kind/10, the adventurer drawn and waiting (one-hot) |
| 517 | 12 + 3 | solo Challenge: active card one-hot, deck/6, set aside/6, Challenge Timepiece hour/36 |
| 532 | K | your Corruption cards per kind (private; zero for a spectator) |
| 550 | 5 x 6 | the Clock, per relative seat 0-3 then the Peddler: gold/100, hour/13, place in the Clock order/4 (0 acts next), to act, still to sell in the Market, place in the Market order/4 |
| 580 | 23 | the Peddler: plays, Sale Shelf per good, Corruption cards, deck/10, revealed card one-hot |
| 603 | 4 x 247 | per relative seat: the block below |

Seat block (247 floats; what changes with every move on the Clock is in the Clock rows above):

| offset | size | feature |
|---|---|---|
| 0 | 5 | seated; merchant one-hot (alchemist, blacksmith, captain, chronomancer) |
| 5 | 16 | action space the figure stands on (load, recruit, sponsor, then each merchant's in the order above) |
| 21 | 10 + 10 | Sale Shelf and supply per good |
| 41 | 4 | Sponsorship shields per colour |
| 45 | 1 + 5 + 1 | Townsfolk hired, their faction icons per colour (grey last); Corruption cards held |
| 52 | 46 | Alchemist: marble bag (4 colours + Ichor), slide slots 1-6 one-hot (5 each), cauldron marbles and Ichor per colour, Toxic Waste, pours left, Ichor waiting |
| 98 | 56 | Blacksmith: per die 1-5 unlocked, pips/6, colour one-hot, furnace one-hot; furnace heat/10 per colour, coal, dice placed this action |
| 154 | 21 | Captain: per ship 1-3 at sea and hold (4 colours + treasure); treasures left, spins left, treasures to place |
| 175 | 72 | Chronomancer: grid cells 1-9 tile one-hot (4 colours + anomaly), spare tile one-hot, each worker's cell one-hot, shards per colour |

Only the block of the seat's own merchant is non-zero.

Actions (``NOTATIONS``, 802 with the shipped data), in this order:
``merchant <m>``; ``do <space>`` (load, recruit, sponsor, then each
merchant's spaces); ``boat 1`` .. ``boat 9``; ``dock <slot>``; ``hire <t>``,
then ``replace <t>`` for every Townsfolk; ``skip``; ``shield <colour>``;
``discard <c>`` per Corruption kind; ``return <boat> <kind>``, then ``take
<boat> <kind>`` for every Boat and adventurer kind; ``rob 0`` .. ``rob 3``;
``sell <good> <pier>`` then ``sell <good> rogues-<pier>`` for every good a
pier takes (Grey Rogue Goods: every pier, never ``rogues-``); ``done``; the
merchants' steps: Alchemist ``pour 1-6``, ``into <colour>``; Blacksmith ``keep
colours``, ``keep none``, ``die 1-5``, ``coal <colour>``; Captain ``ship 1-3``,
``again``, ``stop``, ``treasure <colour>``; Chronomancer ``push <edge>``,
``worker <1|2> <cell>``; then the Secret Stash: ``challenge``; ``kraken
<boat> <kind>`` (no Rogues); ``hall <colour>``; ``kill <t>``; ``mind <kind>``
(no Rogues); ``raid <t>``; ``staff 1-3``; ``pay <c>`` for each Corruption
kind with a cost; ``give <good>``; ``draw``; ``lure <kind> gold|corruption``
(no Rogues). Then 256 overflow indices (see ``Catalogue``).

``encode_state(state, seat)`` builds the same vector from the state's fields
(the public ones and the seat's own Corruption cards) without building the
view: the vector is joined from float32 byte blocks, each kept with a copy
of the state values it shows (most are unchanged from one action to the
next), so an action costs a few list comparisons and the blocks it changed.
Where the install compiled ``_merchants_cove_fast.c`` (``ACCELERATED``), the
Clock rows, the Peddler and the seat blocks, which change with most actions,
are built in C in one call instead. Tests prove both paths equal to
``encode(view)`` bit for bit and blind to what a determinization resamples.
"""

from __future__ import annotations

import struct
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

import numpy as np

from freetrader.adapters.encoders import register_encoder, register_layout
from freetrader.adapters.encoders._build import compiled, index_of, one_hot
from freetrader.adapters.encoders.base import Catalogue, Encoder, seat_in_range
from freetrader.adapters.encoders.layout import Block, Layout, Piece
from freetrader.core import Game, State
from freetrader.core.fields import declared_fields
from freetrader.games.merchants_cove import boats as _boats
from freetrader.games.merchants_cove.components import ADV_NAMES, COLOURS, GOOD_IDS, GREY, SIZES
from freetrader.games.merchants_cove.components import COMPONENTS as C
from freetrader.games.merchants_cove.merchants import MERCHANTS, Board
from freetrader.games.merchants_cove.merchants import alchemist as _al
from freetrader.games.merchants_cove.merchants import blacksmith as _bs
from freetrader.games.merchants_cove.merchants import captain as _ca
from freetrader.games.merchants_cove.merchants import chronomancer as _ch
from freetrader.games.merchants_cove.rules import COMMON, OVER, PHASES, SLOT_IDS, STAGES, townsfolk_sets

if TYPE_CHECKING:
    from freetrader.games.merchants_cove.state import CoveState

__all__ = ["MerchantsCoveEncoder", "NOTATIONS", "ACCELERATED", "LAYOUT"]

MAX_SEATS = 4
MERCHANT_IDS = ("alchemist", "blacksmith", "captain", "chronomancer")
assert set(MERCHANT_IDS) == set(MERCHANTS), "a new merchant needs a new encoder version"
SPACES = tuple(dict.fromkeys(COMMON + tuple(a for m in MERCHANT_IDS for a in C.merchants[m].actions)))
NB = _boats.ALL  # every Boat, the Secret Stash ones included
NSLOT = len(SLOT_IDS)
NADV = len(ADV_NAMES)
NC = len(C.corruption)
NT = len(C.townsfolk)
NR = len(C.rogues)
HOURS = C.market - 1
ROGUE_SLOTS = C.stash["multiple_rogues"]["cards"]
BOAT_DECK = C.stash["boat_setup_rules"]["drawn"]
CHAL_DECK = C.stash["challenge_rules"]["deck_small"] + C.stash["challenge_rules"]["deck_dumbbell"]
CHAL_HOURS = C.stash["challenge_rules"]["lap"] * C.days
GREY_GOODS = C.stash["grey_goods"]["count"]
TF_DECK = float(NT)
CORR_DECK = float(len(C.corruption_deck))
PEDDLER_DECK = float(len(C.peddler_cards))

_PHASE = index_of(PHASES)
_STAGE = index_of(STAGES)
_MERCH = index_of(MERCHANT_IDS)
_SPACE = index_of(SPACES)
_ADV = index_of(ADV_NAMES)
_SLOT = index_of(SLOT_IDS)
_GOOD = index_of(GOOD_IDS)
_TF = index_of([t.id for t in C.townsfolk])
_CORR = index_of([c.id for c in C.corruption])
_ROGUE = index_of([r.id for r in C.rogues])
_SET = index_of(C.tf_sets)
_BSETUP = index_of([b.id for b in C.boat_setups])
_CHAL = index_of([c.id for c in C.challenges])
_PCARD = index_of([c.id for c in C.peddler_cards])
_TILE = index_of(_ch.TILES)
_MARBLE = index_of(_al.NAMES)
_COLOUR = index_of(COLOURS)

# -- actions -----------------------------------------------------------------------------------
_NON_ROGUE = [a for a in ADV_NAMES if _ADV[a] % 5 != GREY]
_TF_IDS = [t.id for t in C.townsfolk]
_SALES = [
    (g, pier.id) for g in GOOD_IDS for pier in C.piers
    if SIZES.index(g.split("-")[0]) in pier.sizes or _GOOD[g] // 2 == GREY
]
NOTATIONS: list[str] = (
    [f"merchant {m}" for m in MERCHANT_IDS]
    + [f"do {a}" for a in SPACES]
    + [f"boat {b + 1}" for b in range(NB)]
    + [f"dock {k}" for k in SLOT_IDS]
    + [f"hire {t}" for t in _TF_IDS] + [f"replace {t}" for t in _TF_IDS] + ["skip"]
    + [f"shield {c}" for c in COLOURS[:4]]
    + [f"discard {c.id}" for c in C.corruption]
    + [f"{verb} {b + 1} {a}" for verb in ("return", "take") for b in range(NB) for a in ADV_NAMES]
    + [f"rob {q}" for q in range(MAX_SEATS)]
    + [f"sell {g} {p}" for g, p in _SALES] + [f"sell {g} rogues-{p}" for g, p in _SALES if _GOOD[g] // 2 != GREY]
    + ["done"]
    + [f"pour {i + 1}" for i in range(6)] + [f"into {c}" for c in COLOURS[:4]]
    + ["keep colours", "keep none"] + [f"die {i + 1}" for i in range(_bs.MAXD)] + [f"coal {c}" for c in COLOURS[:4]]
    + [f"ship {i + 1}" for i in range(_ca.SHIPS)] + ["again", "stop"] + [f"treasure {c}" for c in COLOURS[:4]]
    + [str(x) for x in _ch.PUSHES] + [f"worker {w + 1} {cell + 1}" for w in range(2) for cell in range(_ch.N ** 2)]
    + ["challenge"]
    + [f"kraken {b + 1} {a}" for b in range(NB) for a in _NON_ROGUE]
    + [f"hall {c}" for c in COLOURS[:4]]
    + [f"kill {t}" for t in _TF_IDS]
    + [f"mind {a}" for a in _NON_ROGUE]
    + [f"raid {t}" for t in _TF_IDS]
    + [f"staff {k + 1}" for k in range(C.staff_spaces)]
    + [f"pay {c.id}" for c in C.corruption if c.cost[0]]
    + [f"give {g}" for g in GOOD_IDS]
    + ["draw"]
    + [f"lure {a} {how}" for a in _NON_ROGUE for how in ("gold", "corruption")]
)
_CATALOGUE = Catalogue(NOTATIONS, "merchants-cove v1")

# -- observation layout ---------------------------------------------------------------------------
_AL, _BS, _CA, _CH = 46, 56, 21, 72  # merchant board blocks
_STATS = 52  # the seat block before the merchant boards
SEAT = _STATS + _AL + _BS + _CA + _CH
_BOARD_AT = {"alchemist": _STATS, "blacksmith": _STATS + _AL, "captain": _STATS + _AL + _BS,
             "chronomancer": _STATS + _AL + _BS + _CA}
_BOAT = 2 + NSLOT + NADV
_CLOCK = 6  # per merchant: what changes with every move on the Clock
_PEDDLER = 13 + len(C.peddler_cards)


def _flag(name: str, size: int, doc: str) -> Piece:
    return Piece(name, size, 0.0, 1.0, doc)


def _count(name: str, size: int, high: float, doc: str) -> Piece:
    return Piece(name, size, 0.0, high, doc)


# -- bounds: what each value can be, counted from the components (data/*.toml, the Secret Stash included) --
_INF = float("inf")  # only for counts the rules leave open (see the layout notes)
ADV_MAX = max(C.adventurers)  # the most Adventurers of one colour; a Faction Leader is one of a kind
ADV_ALL = sum(C.adventurers)  # Ghost Sailors send every colour to the Lair
BOAT_MAX = max(_boats.capacity(b) for b in range(NB))
ISLAND = C.stash["festival"]["island"]
_NEW_CORR = [c.index for c in C.corruption if c.box != "base" for _ in range(c.count)]
CORR_MAX = len(C.corruption_deck) + len(_NEW_CORR)  # the largest deck: the new cards mixed in
CORR_KIND_MAX = max((C.corruption_deck + tuple(_NEW_CORR)).count(c) for c in range(NC))
_GOOD_MAX = [GREY_GOODS if _GOOD[g] // 2 == GREY else C.supply[_GOOD[g]] for g in GOOD_IDS]  # goods only move
SHELF_MAX = min(C.shelf, max(_GOOD_MAX))  # between a merchant's supply and Sale Shelf (Grey ones: the board's)
SUPPLY_MAX = max(C.supply) if C.carry_over else max(_GOOD_MAX)  # without carry-over Grey ones would land there
PEDDLER_SHELF_MAX = min(C.peddler_shelf, max(C.peddler_supply))
ICONS_MAX = max(sum(t.icons.count(c) for t in C.townsfolk) for c in range(5))
_ALP, _BSP, _CAP = (C.merchants[m].params for m in ("alchemist", "blacksmith", "captain"))
# the Captain spins at most ``spins`` times an action, an action takes an hour or more, and only the
# Chronomancer ever turns a timepiece back: so one colour's catch in one hold is at most this
CATCH_MAX = _CAP["spins"] * (C.market - C.clock_start) * C.days


def _adventurers(name: str, high: float, what: str, why: str) -> tuple[Piece, Piece]:
    """Adventurers per kind: the five colours (at most ``high``), then their Faction Leaders (one each)."""
    return (_count(name, 5, high, f"{what} per colour, grey last ({why})"),
            _flag(f"{name}_leaders", 5, f"{what}: Faction Leaders per colour (one of each)"))


LAYOUT = Layout("merchants-cove", 1, [
    _flag("phase", len(PHASES), "phase one-hot (``rules.PHASES``)"),
    _flag("stage", len(STAGES), "stage one-hot (``rules.STAGES``)"),
    _flag("seats", MAX_SEATS, "number of seats one-hot"),
    _flag("table", 4, "day/3, game over, I am to act, the Peddler plays"),
    _flag("mice", HOURS, f"Mice on each Clock hour 1-{HOURS} (the Mice move 4 hours from 3 and 5: never on one hour)"),
    _flag("rogue", NR, "the top Rogue card in force one-hot"),
    _flag("rogues", NR, "the Rogue cards in force: the top one 1, then 2/3, 1/3 (Multiple Rogues)"),
    _flag("sets", len(C.tf_sets), "Townsfolk sets in play"),
    Block("boats", NB, (
        _flag("in_game", 1, "in the game"),
        _flag("sailing", 1, "sailing"),
        _flag("docked", NSLOT, "docked at (pier slot one-hot)"),
        *_adventurers("aboard", min(ADV_MAX, BOAT_MAX), "adventurers aboard", f"a Boat holds {BOAT_MAX} at most"),
    ), "per Boat"),
    _flag("bsetup", len(C.boat_setups) + 1, "Boat Setup card revealed (one-hot), cards left in its deck/3"),
    Block("piers", NSLOT, _adventurers("customers", ADV_MAX, "customers", f"at most the {ADV_MAX} Adventurers of "
                                       "a colour"), "per pier slot"),
    _count("halls", 4, ADV_MAX / 10, "Faction Halls per colour/10 (at most the Adventurers of a colour)"),
    _count("lair", 1, ADV_ALL / 10, f"Lair/10 (Ghost Sailors send every colour there: at most all {ADV_ALL})"),
    _count("hall_rogues", 4, C.adventurers[GREY] / 10, f"Doppelgangers in each Hall/10 (of the "
           f"{C.adventurers[GREY]} Rogues)"),
    _count("bag", 5, ADV_MAX / 10, "bag per colour/10"),
    _flag("bag_leaders", 5, "Faction Leaders in the bag (per colour)"),
    _count("hall_leaders", 4, 2.0, "Faction Leaders in each Hall: its own and the Rogue Leader as a Doppelganger"),
    _count("lair_leaders", 1, 5.0, "Faction Leaders in the Lair (five Leaders)"),
    *_adventurers("bay", ADV_MAX, "adventurers in the Kraken's bay", "at most the Adventurers of a colour"),
    *_adventurers("island", min(ADV_MAX, ISLAND), "adventurers on Dragon Island", f"{ISLAND} guests at most"),
    _flag("grey", 1, f"Grey Rogue Goods in the supply/{GREY_GOODS}"),
    _flag("square", NT, "Town Square (multi-hot)"),
    _flag("under", NT, "cards put under the Townsfolk deck (multi-hot)"),
    _flag("tfdeck", 1, f"Townsfolk deck/{NT}"),
    _count("cdeck", 1, CORR_MAX / CORR_DECK, f"Corruption deck/{len(C.corruption_deck)} (the new cards mixed in make "
           f"{CORR_MAX})"),
    _count("cdiscard", NC, CORR_KIND_MAX / 10, f"Corruption discards per kind/10 (at most {CORR_KIND_MAX} of a kind)"),
    _flag("drawn", NADV, "the adventurer drawn and waiting (one-hot)"),
    _flag("chal", len(C.challenges) + 3, "solo Challenge: active card one-hot, deck/6, set aside/6, Challenge "
          "Timepiece hour/36"),
    _count("mine", NC, CORR_KIND_MAX, "your Corruption cards per kind (private; zero for a spectator)"),
    Block("clock", MAX_SEATS + 1, (
        _count("gold", 1, _INF, "gold/100 (no upper bound in the rules)"),
        _flag("hour", 1, f"hour on the Clock/{C.market} (the Market hour ends the day)"),
        _flag("order", 1, "place in the Clock order/4 (0 acts next)"),
        _flag("to_act", 1, "to act"),
        _flag("to_sell", 1, "still to sell in the Market"),
        _flag("market_order", 1, "place in the Market order/4"),
    ), "the Clock, per relative seat 0-3 then the Peddler"),
    _flag("peddler", 1, "the Peddler plays"),
    _count("peddler_shelf", len(GOOD_IDS), PEDDLER_SHELF_MAX, "the Peddler's Sale Shelf per good (at most its supply "
           "of a good)"),
    _count("peddler_corruption", 1, CORR_MAX, "the Peddler's Corruption cards"),
    _flag("peddler_deck", 1, f"the Peddler's deck/{len(C.peddler_cards)}"),
    _flag("peddler_card", len(C.peddler_cards), "the Peddler's revealed card one-hot"),
    Block("seat", MAX_SEATS, (
        _flag("seated", 1, "seated"),
        _flag("merchant", len(MERCHANT_IDS), "merchant one-hot (alchemist, blacksmith, captain, chronomancer)"),
        _flag("space", len(SPACES), "action space the figure stands on (load, recruit, sponsor, then each "
              "merchant's)"),
        _count("goods", len(GOOD_IDS), SHELF_MAX, f"Sale Shelf per good (its supply of a good; {GREY_GOODS} Grey "
               "Rogue Goods)"),
        _count("supply", len(GOOD_IDS), SUPPLY_MAX, "supply per good (goods only move between supply and shelf)"),
        _count("shields", 4, C.shield_max, "Sponsorship shields per colour"),
        _count("hired", 1, NT, "Townsfolk hired"),
        _count("icons", 5, ICONS_MAX, "their faction icons per colour, grey last (at most every Townsfolk's)"),
        _count("corruption", 1, CORR_MAX, "Corruption cards held"),
        _count("alchemist", 5, max(_ALP["marbles"], _ALP["ichor"]), "Alchemist: marble bag (4 colours + Ichor)"),
        _flag("alchemist_slide", 30, "Alchemist: slide slots 1-6 one-hot (4 colours + Ichor)"),
        _count("alchemist_cauldrons", 4, _ALP["cauldron"], "Alchemist: marbles per cauldron"),
        _count("alchemist_ichor", 4, min(_ALP["cauldron"], _ALP["ichor"]), "Alchemist: Ichor per cauldron"),
        _count("alchemist_toxic", 1, _ALP["ichor"], "Alchemist: Toxic Waste (of the Ichor)"),
        _count("alchemist_pours", 1, _ALP["pours"], "Alchemist: pours left"),
        _count("alchemist_waiting", 1, _ALP["ichor"], "Alchemist: Ichor waiting"),
        _flag("blacksmith", 10 * _bs.MAXD, "Blacksmith: per die 1-5 unlocked, pips/6, colour one-hot, furnace "
              "one-hot"),
        _count("blacksmith_heat", 4, _INF, "Blacksmith: furnace heat/10 per colour (see the notes)"),
        _count("blacksmith_coal", 1, _INF, "Blacksmith: coal (see the notes)"),
        _count("blacksmith_placed", 1, min(_BSP["place"], _bs.MAXD), "Blacksmith: dice placed this action"),
        *(piece for i in range(_ca.SHIPS) for piece in (
            _flag("captain" if i == 0 else f"captain_ship_{i + 1}", 1, f"Captain: ship {i + 1} at sea"),
            _count(f"captain_catch_{i + 1}", 4, CATCH_MAX, f"Captain: ship {i + 1}'s hold per colour ({_CAP['spins']} "
                   f"spins an action of an hour or more: {CATCH_MAX} a game)"),
            _count(f"captain_treasure_{i + 1}", 1, _INF, f"Captain: ship {i + 1}'s treasures (see the notes)"))),
        _count("captain_treasures", 1, _CAP["treasures"], "Captain: treasures left this round"),
        _count("captain_spins", 1, _CAP["spins"], "Captain: spins left"),
        _count("captain_waiting", 1, _INF, "Captain: treasures to place (see the notes)"),
        _flag("chronomancer", 5 * _ch.N ** 2 + 5 + 2 * _ch.N ** 2, "Chronomancer: grid cells 1-9 tile one-hot "
              "(4 colours + anomaly), spare tile one-hot, each worker's cell one-hot"),
        _count("chronomancer_shards", 4, _INF, "Chronomancer: shards per colour (see the notes)"),
    ), "per relative seat (only the block of the seat's own merchant is non-zero)"),
], notes="Every high is the most a piece's values can be, counted from the components in ``data/*.toml`` (the "
         "Secret Stash modules included; a piece's high is the largest over its features). Where those numbers are "
         "designed (the merchant boards, the goods supply, the piers: ``data/DESIGNED.md``) the bound is as designed "
         "as the number. Only counts the rules leave open keep an infinite high: gold (the rules cap no one's gold; "
         "the bank is designed never to run out); the Blacksmith's coal and furnace heat and the Captain's "
         "treasures, which Staff abilities add at Arrival and on hiring without an hour on the Clock (heat grows "
         "with coal); the Chronomancer's shards, gathered on travels whose hour an anomaly gives back. The "
         "Captain's colour catches are bounded by the hours a game has (spins an action x hours a day x days).")
_AT = {item.name: LAYOUT.at(item.name) for item in LAYOUT.items}
SIZE = LAYOUT.size
assert LAYOUT.at("seat.alchemist") == _STATS and LAYOUT.stride("seat") == SEAT and LAYOUT.stride("boats") == _BOAT
_MEMO_LIMIT = 4096


# == the reference definition: from the view ==========================================================
def _alchemist(out: list[float], b: Mapping[str, Any]) -> None:
    out += [float(b["bag"][m]) for m in _al.NAMES]
    slide = [0.0] * 30
    for i, m in enumerate(b["slide"]):
        slide[i * 5 + _MARBLE[m]] = 1.0
    out += slide
    cauldrons = b["cauldrons"]
    out += [float(cauldrons[c]["marbles"]) for c in COLOURS[:4]]
    out += [float(cauldrons[c]["ichor"]) for c in COLOURS[:4]]
    out += [float(b["toxic_waste"]), float(b["pours_left"]), float(b["ichor_waiting"])]


def _blacksmith(out: list[float], b: Mapping[str, Any]) -> None:
    dice = [0.0] * (_bs.MAXD * 10)
    for i, d in enumerate(b["dice"]):
        dice[i * 10] = 1.0
        dice[i * 10 + 1] = d["pips"] / 6
        if d["colour"] is not None:
            dice[i * 10 + 2 + _COLOUR[d["colour"]]] = 1.0
        if d["furnace"] is not None:
            dice[i * 10 + 6 + _COLOUR[d["furnace"]]] = 1.0
    out += dice
    out += [b["furnaces"][c] / 10 for c in COLOURS[:4]]
    out += [float(b["coal"]), float(b["placed_this_action"])]


def _captain(out: list[float], b: Mapping[str, Any]) -> None:
    for ship in b["ships"]:
        out.append(float(ship["at_sea"]))
        out += [float(ship["hold"][k]) for k in _ca.ITEMS]
    out += [float(b["treasures_left"]), float(b["spins_left"]), float(b["treasures_to_place"])]


def _chronomancer(out: list[float], b: Mapping[str, Any]) -> None:
    grid = [0.0] * 45
    for r, row in enumerate(b["grid"]):
        for c, tile in enumerate(row):
            grid[(r * _ch.N + c) * 5 + _TILE[tile]] = 1.0
    out += grid
    one_hot(out, _TILE[b["spare"]], 5)
    for cell in b["workers"]:
        one_hot(out, cell - 1, _ch.N ** 2)
    out += [float(b["shards"][c]) for c in COLOURS[:4]]


_BOARDS = {"alchemist": (_alchemist, _AL), "blacksmith": (_blacksmith, _BS), "captain": (_captain, _CA),
           "chronomancer": (_chronomancer, _CH)}


def _counts(out: list[float], names: Any, index: Mapping[str, int], n: int, scale: float = 1.0) -> None:
    """``n`` slots: how many of each name, divided by ``scale``."""
    got = [0] * n
    for x in names:
        got[index[x]] += 1
    out += [k / scale for k in got] if scale != 1.0 else [float(k) for k in got]


def _seat_block(pl: Mapping[str, Any]) -> list[float]:
    out: list[float] = [1.0]
    one_hot(out, _MERCH.get(pl["merchant"]) if pl["merchant"] else None, 4)
    one_hot(out, _SPACE[pl["on_action"]] if pl["on_action"] else None, len(SPACES))
    out += [float(pl["shelf"].get(g, 0)) for g in GOOD_IDS]
    out += [float(pl["supply"].get(g, 0)) for g in GOOD_IDS]
    out += [float(pl["shields"][c]) for c in COLOURS[:4]]
    icons = [0.0] * 5
    for t in pl["townsfolk"]:
        for c in C.townsfolk[_TF[t]].icons:
            icons[c] += 1.0
    out += [float(len(pl["townsfolk"])), *icons, float(pl["corruption_cards"])]
    for m in MERCHANT_IDS:
        build, n = _BOARDS[m]
        if pl["merchant"] == m:
            build(out, pl["board"])
        else:
            out += [0.0] * n
    return out


def _clock_row(gold: int, hour: int, p: int, v: Mapping[str, Any]) -> list[float]:
    market = v["market_order"]
    return [gold / 100, hour / C.market, v["clock"]["order"].index(p) / MAX_SEATS, float(v["to_act"] == p),
            float(p in market), market.index(p) / MAX_SEATS if p in market else 0.0]


def _view_features(v: Mapping[str, Any]) -> list[float]:
    n = v["seats"]
    me = v["seat"] or 0
    out: list[float] = []
    one_hot(out, _PHASE[v["phase"]], len(PHASES))
    one_hot(out, _STAGE[v["stage"]], len(STAGES))
    one_hot(out, n - 1, MAX_SEATS)
    ped = v.get("peddler")
    out += [v["day"] / v["days"], float(v["is_over"]), float(v["to_act"] == me), float(ped is not None)]
    clock = v["clock"]
    mice = [0.0] * HOURS
    for hour in clock["mice"]:
        mice[hour - 1] += 1.0
    out += mice
    one_hot(out, _ROGUE[v["rogue_card"]["id"]], NR)
    rogues = [0.0] * NR
    for pos, card in enumerate(v["rogue_cards"]):
        rogues[_ROGUE[card["id"]]] = (ROGUE_SLOTS - pos) / ROGUE_SLOTS
    out += rogues
    sets = [0.0] * len(C.tf_sets)
    for x in townsfolk_sets(v["townsfolk_sets"]):
        sets[_SET[x]] = 1.0
    out += sets
    _board_features(v, out)
    _player_features(v, n, me, out)
    return out


def _board_features(v: Mapping[str, Any], out: list[float]) -> None:
    """The Boats, piers, halls, bag, decks, the drawn adventurer and the Challenge card."""
    for b in range(NB):
        if b < len(v["boats"]):
            bt = v["boats"][b]
            out += [1.0, float(bt["sailing"])]
            one_hot(out, _SLOT[bt["docked_at"]] if bt["docked_at"] else None, NSLOT)
            _counts(out, bt["adventurers"], _ADV, NADV)
        else:
            out += [0.0] * _BOAT
    card = v["boat_setup"]["card"]
    one_hot(out, _BSETUP[card] if card else None, len(C.boat_setups))
    out.append(v["boat_setup"]["deck"] / BOAT_DECK)
    for k in SLOT_IDS:
        _counts(out, v["piers"][k]["customers"], _ADV, NADV)
    out += [v["halls"][c] / 10 for c in COLOURS[:4]]
    out.append(v["lair"] / 10)
    out += [v["hall_rogues"][c] / 10 for c in COLOURS[:4]]
    out += [v["bag"][c] / 10 for c in COLOURS]
    leaders = v["faction_leaders"]
    if leaders is None:
        out += [0.0] * 10
    else:
        in_bag = [0.0] * 5
        for a in leaders["bag"]:
            in_bag[_ADV[a] - 5] = 1.0
        out += in_bag
        out += [float(leaders["halls"][c]) for c in COLOURS[:4]]
        out.append(float(leaders["lair"]))
    out += [float(v["bay"].get(a, 0)) for a in ADV_NAMES]
    _counts(out, v["dragon_island"], _ADV, NADV)
    out.append(v["grey_goods_supply"] / GREY_GOODS)
    _counts(out, v["town_square"], _TF, NT)
    _counts(out, v["townsfolk_under_deck"], _TF, NT)
    out.append(v["townsfolk_deck"] / TF_DECK)
    out.append(v["corruption_deck"] / CORR_DECK)
    _counts(out, v["corruption_discards"], _CORR, NC, 10.0)
    one_hot(out, _ADV[v["drawn"]] if v["drawn"] else None, NADV)
    ch = v["challenge"]
    if ch is None:
        out += [0.0] * (len(C.challenges) + 3)
    else:
        one_hot(out, _CHAL[ch["active"]] if ch["active"] else None, len(C.challenges))
        out += [ch["deck"] / CHAL_DECK, ch["set_aside"] / CHAL_DECK, ch["timepiece_hour"] / CHAL_HOURS]
    _counts(out, v.get("your_corruption", ()), _CORR, NC)


def _player_features(v: Mapping[str, Any], n: int, me: int, out: list[float]) -> None:
    """The Clock rows, the Peddler and the seat blocks, relative to seat ``me``."""
    ped = v.get("peddler")
    players = v["players"]
    rows = [0.0] * ((MAX_SEATS + 1) * _CLOCK)
    for p in range(n):
        r = (p - me) % n
        rows[r * _CLOCK : (r + 1) * _CLOCK] = _clock_row(players[p]["gold"], players[p]["hour"], p, v)
    if ped is not None:
        rows[MAX_SEATS * _CLOCK :] = _clock_row(ped["gold"], ped["hour"], n, v)
    out += rows
    if ped is None:
        out += [0.0] * _PEDDLER
    else:
        out.append(1.0)
        out += [float(ped["shelf"].get(g, 0)) for g in GOOD_IDS]
        out += [float(ped["corruption_cards"]), ped["deck"] / PEDDLER_DECK]
        one_hot(out, _PCARD[ped["card"]] if ped["card"] else None, len(C.peddler_cards))
    blocks = [0.0] * (MAX_SEATS * SEAT)
    for p in range(n):
        r = (p - me) % n
        blocks[r * SEAT : (r + 1) * SEAT] = _seat_block(players[p])
    out += blocks


# == the fast path: from the state ====================================================================
# The vector is joined from float32 byte blocks, each kept while the state values it shows are unchanged
# (most of them from one action to the next); packing floats costs far less than any numpy indexing.
def _pack(values: list[float]) -> bytes:
    """float32 bytes, rounded from float64 as ``np.asarray(values, np.float32)`` rounds them."""
    return struct.pack(f"{len(values)}f", *values)


def _one_hots(n: int) -> list[bytes]:
    """Float32 one-hot bytes of ``n`` slots: index ``i`` is a 1 at ``i``, index ``n`` all zeros."""
    return [_pack([float(i == k) for i in range(n)]) for k in range(n + 1)]


_ICONS = [tuple(t.icons) for t in C.townsfolk]
_NGOODS = len(GOOD_IDS)


class _Memo(dict[Any, bytes]):
    """Key -> float32 bytes made by ``build(key)``, cleared past ``_MEMO_LIMIT`` entries (keys are game situations)."""

    def __init__(self, build: Callable[[Any], bytes]) -> None:
        super().__init__()
        self.build = build

    def __missing__(self, key: Any) -> bytes:
        if len(self) > _MEMO_LIMIT:
            self.clear()
        got: bytes = self.build(key)
        self[key] = got
        return got


def _head(key: tuple[Any, ...]) -> bytes:
    """Phase, stage, seats, the table flags, Rogue cards, Townsfolk sets and Mice."""
    phase, stage, n, day, over, me_to_act, ped, rogue, tf_sets, n_rogues, *rest = key
    out = [0.0] * (_AT["boats"])
    out[phase] = 1.0
    out[_AT["stage"] + stage] = 1.0
    out[_AT["seats"] + n - 1] = 1.0
    k = _AT["table"]
    out[k : k + 4] = [day / C.days, float(over), float(me_to_act), float(ped)]
    out[_AT["rogue"] + rogue] = 1.0
    for pos, r in enumerate(rest[:n_rogues]):
        out[_AT["rogues"] + r] = (ROGUE_SLOTS - pos) / ROGUE_SLOTS
    for x in townsfolk_sets(tf_sets):
        out[_AT["sets"] + _SET[x]] = 1.0
    k = _AT["mice"] - 1
    for m in rest[n_rogues:]:
        if m < C.market:
            out[k + m] += 1.0
    return _pack(out)


def _boat(key: tuple[Any, ...]) -> bytes:
    afloat, docked, aboard = key
    out = [0.0] * _BOAT
    out[0] = 1.0
    out[1] = float(afloat)
    if docked >= 0:
        out[2 + docked] = 1.0
    for c in aboard:
        out[2 + NSLOT + c] += 1.0
    return _pack(out)


_BOAT_BYTES = _Memo(_boat)


def _piers(key: tuple[Any, ...]) -> bytes:
    """Boat Setup card and deck, customers at the piers."""
    bcard, bdeck, *slots = key
    out = [0.0] * (_AT["halls"] - _AT["bsetup"])
    if bcard >= 0:
        out[bcard] = 1.0
    out[len(C.boat_setups)] = bdeck / BOAT_DECK
    k = _AT["piers"] - _AT["bsetup"]
    for slot, adv in enumerate(slots):
        for c in adv:
            out[k + slot * NADV + c] += 1.0
    return _pack(out)


def _halls(key: tuple[int, ...]) -> bytes:
    """Faction Halls, the Lair, Doppelgangers in each Hall."""
    return _pack([x / 10 for x in key])


def _bag(key: tuple[int, ...]) -> bytes:
    """The bag, and where the Faction Leaders are (when they play)."""
    if len(key) == 5:
        return _pack([x / 10 for x in key] + [0.0] * 10)
    bag, leaders, rogue_leaders, lair_leaders = key[:10], key[10:14], key[14:18], key[18]
    return _pack([bag[c] / 10 for c in range(5)] + [1.0 if bag[c] else 0.0 for c in range(5, 10)]
                 + [float(leaders[c] + rogue_leaders[c]) for c in range(4)] + [float(lair_leaders)])


def _elsewhere(key: tuple[int, ...]) -> bytes:
    """The Kraken's bay, Dragon Island, Grey Rogue Goods."""
    grey, *rest = key
    out = [float(x) for x in rest[:NADV]] + [0.0] * NADV + [grey / GREY_GOODS]
    for c in rest[NADV:]:
        out[NADV + c] += 1.0
    return _pack(out)


def _townsfolk(key: tuple[int, ...]) -> bytes:
    deck, n_square, *cards = key
    out = [0.0] * (2 * NT + 1)
    for t in cards[:n_square]:
        out[t] += 1.0
    for t in cards[n_square:]:
        out[NT + t] += 1.0
    out[2 * NT] = (deck + len(cards) - n_square) / TF_DECK
    return _pack(out)


def _cards(key: tuple[Any, ...]) -> bytes:
    """Corruption deck and discards, the adventurer drawn, the solo Challenge."""
    cdeck, drawn, chal, *discards = key
    got = [0] * NC
    for c in discards:
        got[c] += 1
    out = [cdeck / CORR_DECK, *(m / 10.0 for m in got)] + [0.0] * (NADV + len(C.challenges) + 3)
    if drawn >= 0:
        out[1 + NC + drawn] = 1.0
    if chal is not None:
        active, deck, aside, hour = chal
        k = 1 + NC + NADV
        if active >= 0:
            out[k + active] = 1.0
        k += len(C.challenges)
        out[k : k + 3] = [deck / CHAL_DECK, aside / CHAL_DECK, hour / CHAL_HOURS]
    return _pack(out)


def _mine(key: tuple[int, ...]) -> bytes:
    out = [0.0] * NC
    for c in key:
        out[c] += 1.0
    return _pack(out)


_CLOCK_ROW = struct.Struct(f"{_CLOCK}f").pack


def _peddler(key: tuple[int, ...]) -> bytes:
    card, deck, corr, *shelf = key
    out = [1.0, *map(float, shelf), float(corr), deck / PEDDLER_DECK] + [0.0] * len(C.peddler_cards)
    if card >= 0:
        out[13 + card] = 1.0
    return _pack(out)


_ZEROS = {m: (bytes(4 * (_BOARD_AT[m] - _STATS)), bytes(4 * (SEAT - _BOARD_AT[m] - _BOARDS[m][1])))
          for m in MERCHANT_IDS}
_MARBLE_HOT = _one_hots(5)
_TILE_HOT = _one_hots(5)
_CELL_HOT = _one_hots(_ch.N ** 2)
_PACK5 = struct.Struct("5f").pack
_PACK11 = struct.Struct("11f").pack
_PACK6 = struct.Struct("6f").pack
_PACK4 = struct.Struct("4f").pack
_PACK21 = struct.Struct("21f").pack
_COLOUR_HOT = _one_hots(4)


def _die(key: tuple[int, int, int]) -> bytes:
    pips, colour, furnace = key
    return _pack([1.0, pips / 6]) + _COLOUR_HOT[colour if colour >= 0 else 4] + _COLOUR_HOT[furnace if furnace >= 0 else 4]


_DIE = _Memo(_die)


def _fast_alchemist(b: _al.AlchemistBoard) -> bytes:
    slide = [_MARBLE_HOT[c] for c in b.slide]
    return b"".join((_PACK5(*b.bag), *slide, _MARBLE_HOT[5] * (6 - len(slide)),
                     _PACK11(*b.cauldron, *b.ichor, b.toxic, b.pours, b.waiting)))


def _fast_blacksmith(b: _bs.BlacksmithBoard) -> bytes:
    n = b.unlocked
    dice = [_DIE[(b.pips[i], b.colour[i], b.furnace[i])] for i in range(n)]
    heat = b.heat
    return b"".join((*dice, bytes(40 * (_bs.MAXD - n)),
                     _PACK6(heat[0] / 10, heat[1] / 10, heat[2] / 10, heat[3] / 10, b.coal, b.placed)))


def _fast_captain(b: _ca.CaptainBoard) -> bytes:
    sea, hold = b.at_sea, b.hold
    return _PACK21(sea[0], *hold[0], sea[1], *hold[1], sea[2], *hold[2], b.treasures, b.spins, b.waiting)


def _fast_chronomancer(b: _ch.ChronomancerBoard) -> bytes:
    return b"".join((*[_TILE_HOT[t] for t in b.grid], _TILE_HOT[b.spare],
                     _CELL_HOT[b.workers[0]], _CELL_HOT[b.workers[1]], _PACK4(*b.shards)))


_BOARD_PACK: dict[str, Callable[[Any], bytes]] = {
    "alchemist": _fast_alchemist, "blacksmith": _fast_blacksmith, "captain": _fast_captain,
    "chronomancer": _fast_chronomancer}


def _board(merchant: str, mb: Board | None) -> bytes:
    """The four merchant boards of a seat block: zeros but for its merchant's."""
    if not merchant:
        return _NO_BOARDS
    before, after = _ZEROS[merchant]
    return before + _BOARD_PACK[merchant](mb) + after


_SEATED = [_pack([1.0]) + h for h in _one_hots(4)]  # seated, then the merchant one-hot
_SPACE_BYTES = _one_hots(len(SPACES))
_GOODS = struct.Struct(f"{2 * _NGOODS}f").pack
_REST = struct.Struct(f"{4 + 1 + 5 + 1}f").pack
_NO_BOARDS = bytes(4 * (SEAT - _STATS))


def _seat_head(key: tuple[str, str]) -> bytes:
    """Seated, the merchant and the action space its figure stands on."""
    merchant, last = key
    return _SEATED[_MERCH[merchant] if merchant else 4] + _SPACE_BYTES[_SPACE[last] if last else len(SPACES)]


def _seat_rest(shields: list[int], staff: list[int], corr: int) -> bytes:
    """Shields, Townsfolk and their icons, Corruption cards held."""
    icons = [0, 0, 0, 0, 0]
    for t in staff:
        for c in _ICONS[t]:
            icons[c] += 1
    return _REST(*shields, len(staff), *icons, corr)


_SEAT_HEADS = _Memo(_seat_head)
_PHASE_HOT = _one_hots(len(PHASES))
_NO_CLOCKS = [bytes(4 * _CLOCK * (MAX_SEATS - n)) for n in range(MAX_SEATS + 1)]
_PADS = [bytes(4 * SEAT * (MAX_SEATS - n)) for n in range(MAX_SEATS + 1)]
_CLOCK_ROW = struct.Struct(f"{_CLOCK}f").pack
_NO_PEDDLER = bytes(4 * (_CLOCK + _PEDDLER))
_HEAD_CUT = 4 * len(PHASES)  # the phase one-hot is a part of its own: it changes with most actions


# The Clock rows, the Peddler and the seat blocks change with most actions, so that keeping them costs
# more comparisons and joins than building them: where the install compiled ``_merchants_cove_fast.c``
# (``ACCELERATED``) that tail of the vector is built in one call; the Python blocks above stay the
# reference and the fallback. The layout check makes a stale build fail at import, not encode wrongly.
_compiled: Any = compiled("_merchants_cove_fast")  # None where not built; self.compiled guards its use
if _compiled is not None:
    _compiled.configure(
        _MERCH, _SPACE, _ICONS, float(C.market), PEDDLER_DECK, len(C.peddler_cards),
        (6, _bs.MAXD, _ca.SHIPS, _ch.N ** 2, MAX_SEATS, _CLOCK, _NGOODS, len(SPACES), _STATS, SEAT),
        tuple(tuple(f.name for f in declared_fields(MERCHANTS[m].board_class)) for m in MERCHANT_IDS),
    )
ACCELERATED = _compiled is not None
# ``encode_parts`` cuts the compiled tail (the Clock rows and Peddler, then the seat blocks) into the
# Clock and Peddler, and per seat its stats and each merchant board: an action mostly changes a few of
# them; the blocks of the seats beyond the game's are zeros, one constant block.
_TAIL_AT = 4 * (_CLOCK * (MAX_SEATS + 1) + _PEDDLER)
_SEAT_CUTS = (0, _STATS, *(_BOARD_AT[m] + _BOARDS[m][1] for m in MERCHANT_IDS))
_TAIL_CUTS = [[(0, _TAIL_AT)] + [(_TAIL_AT + 4 * (SEAT * r + a), _TAIL_AT + 4 * (SEAT * r + b))
                                 for r in range(n) for a, b in zip(_SEAT_CUTS, _SEAT_CUTS[1:], strict=False)]
              for n in range(MAX_SEATS + 1)]


class MerchantsCoveEncoder(Encoder):
    name = "merchants-cove"
    version = 1

    def __init__(self, game: Game, seats: int, options: Mapping[str, Any]) -> None:
        super().__init__(game, seats, options)
        self.actions = _CATALOGUE
        self.use_layout(LAYOUT)  # LAYOUT.size is SIZE (test_layouts)
        self._head, self._piers = _Memo(_head), _Memo(_piers)
        self._halls, self._bag, self._elsewhere = _Memo(_halls), _Memo(_bag), _Memo(_elsewhere)
        self._townsfolk, self._cards = _Memo(_townsfolk), _Memo(_cards)
        self._mine, self._peddler = _Memo(_mine), _Memo(_peddler)
        # Each block is kept with a copy of the state values it shows and rebuilt only when they differ:
        # comparing lists runs in C, while a memo key has to be built in Python for every block on every
        # call, and a move changes few blocks. The Clock rows and seat blocks are kept by absolute seat
        # (the observer only rotates them).
        self._builders: list[Callable[[list[Any]], Any]] = [
            self._head_part, self._boats_part, lambda g: self._piers[(g[1], g[2], *map(tuple, g[0]))],
            lambda g: self._halls[(*g[0], g[1], *g[2])],
            lambda g: self._bag[(*g[0], *g[1], *g[2], g[3]) if len(g[0]) > 5 else tuple(g[0])],
            lambda g: self._elsewhere[(g[0], *g[1], *g[2])],
            lambda g: self._townsfolk[(g[0], len(g[1]), *g[1], *g[2])],
            lambda g: self._cards[(g[0], g[1], g[2], *g[3])],
        ]
        self._seen: list[Any] = [None] * len(self._builders)
        self._got: list[Any] = [b""] * len(self._builders)
        self._boat_seen: list[Any] = []  # per Boat: [afloat, docked, aboard]
        self._boat_got: list[bytes] = []
        self._time_seen: list[Any] = []  # time, stack -> the Clock ranks
        self._rank: list[int] = []
        self._clock_seen: list[Any] = []
        self._rows: list[bytes] = []
        # per seat: the merchant and action space, goods, the rest, the merchant board; then the whole block
        self._seat_seen: list[Any] = [None, None, None, None, [None, None, None], None]
        self._seat_parts: list[list[bytes]] = [[b""] * MAX_SEATS for _ in range(4)]
        self._blocks = [b""] * MAX_SEATS
        self.compiled = ACCELERATED

    def features(self, view: Mapping[str, Any]) -> list[float]:
        return _view_features(view)

    def _head_part(self, g: list[Any]) -> tuple[bytes, bytes]:
        """The head after the phase, with "I am to act" off and on."""
        stage, n, day, over, ped, rogue, tf_sets, rogues, mice = g
        return tuple(  # type: ignore[return-value]
            self._head[(0, stage, n, day, over, flag, ped, rogue, tf_sets, len(rogues), *rogues, *mice)][_HEAD_CUT:]
            for flag in (False, True)
        )

    def _boats_part(self, g: list[Any]) -> bytes:
        """Every Boat, rebuilding only those that changed."""
        boats, docked, afloat = g
        nb = len(boats)
        seen, got = self._boat_seen, self._boat_got
        if len(seen) != nb:
            seen[:], got[:] = [None] * nb, [b""] * nb
        for b in range(nb):
            cur = [afloat[b], docked[b], boats[b]]
            if cur != seen[b]:
                seen[b] = [afloat[b], docked[b], boats[b][:]]
                got[b] = _BOAT_BYTES[(afloat[b], docked[b], tuple(boats[b]))]
        return b"".join(got) + bytes(4 * _BOAT * (NB - nb))

    def _refresh(self, groups: list[list[Any]]) -> None:
        seen, got = self._seen, self._got
        for i, g in enumerate(groups):
            if g != seen[i]:
                got[i] = self._builders[i](g)
                seen[i] = [(x[:] if not x or type(x[0]) is not list else [y[:] for y in x]) if type(x) is list else x
                           for x in g]

    def _clock_rows(self, time: list[int], stack: list[int], gold: list[int], to_act: int,
                    market: list[int] | tuple[()], n: int) -> None:
        """The Clock row of each merchant (the Peddler last), by absolute seat."""
        if [time, stack] != self._time_seen:
            # the Clock order as the view sorts it, (hour, -stack) then seat, in one int each (ticks stay far
            # below 2**32, and there are at most 5 timepieces); its place in the sorted list is the rank
            keys = [((t << 32) - k) * 8 + p for p, (t, k) in enumerate(zip(time, stack, strict=True))]
            self._rank = [*map(sorted(keys).index, keys)]
            self._time_seen = [time[:], stack[:]]
        rank = self._rank
        self._rows = [
            _CLOCK_ROW(gold[p] / 100, time[p] / C.market, rank[p] / MAX_SEATS, float(p == to_act and p < n),
                       *((1.0, market.index(p) / MAX_SEATS) if p in market else (0.0, 0.0)))
            for p in range(len(time))
        ]

    def _refresh_seats(self, s: CoveState, n: int, ncorr: list[int]) -> None:
        """Rebuild the parts of the seat blocks whose values changed, then the blocks."""
        merchant, last, shelf, supply, shields, staff, mb = s.merchant, s.last, s.shelf, s.supply, s.shields, s.staff, s.mb
        seen = self._seat_seen
        heads, goods, rest, boards = self._seat_parts
        if merchant != seen[0] or last != seen[1]:
            for p in range(n):
                heads[p] = _SEAT_HEADS[(merchant[p], last[p])]
            seen[1] = last[:]
        if shelf != seen[2] or supply != seen[3]:
            for p in range(n):
                goods[p] = _GOODS(*shelf[p], *supply[p])
            seen[2], seen[3] = [x[:] for x in shelf], [x[:] for x in supply]
        if [shields, staff, ncorr] != seen[4]:
            for p in range(n):
                rest[p] = _seat_rest(shields[p], staff[p], ncorr[p])
            seen[4] = [[x[:] for x in shields], [x[:] for x in staff], ncorr]
        if merchant != seen[0] or mb != seen[5]:
            old = seen[5] if merchant == seen[0] else None
            for p in range(n):
                if old is None or mb[p] != old[p]:
                    boards[p] = _board(merchant[p], mb[p])
            seen[0], seen[5] = merchant[:], [x.copy() if x is not None else None for x in mb]
        self._blocks = [heads[p] + goods[p] + rest[p] + boards[p] for p in range(n)]

    def encode_state(self, state: State, seat: int | None) -> np.ndarray:
        """``encode(state.view(seat))`` from the state's fields, without building the view.

        It reads only what the view shows: the public board and merchants,
        the sizes of the decks and of each hand of Corruption cards, and the
        seat's own Corruption cards.
        """
        parts = self._parts(state, seat, False)
        if parts is None:
            return super().encode_state(state, seat)  # seat_view raises the error
        return np.frombuffer(bytearray().join(parts), np.float32)

    def encode_parts(self, state: State, seat: int | None) -> list[bytes] | None:
        """The float32 blocks ``encode_state`` joins; the compiled tail cut into the Clock rows and
        Peddler, then one block per seat (most of them unchanged from one action to the next)."""
        return self._parts(state, seat, True)

    def encode_buffer(self, state: State, seat: int | None) -> np.ndarray | bytes | bytearray | list[bytes]:
        """The blocks ``encode_state`` joins, the compiled tail uncut (for a reader of the bytes in C)."""
        parts = self._parts(state, seat, False)
        return parts if parts is not None else self.encode_state(state, seat)

    def _parts(self, state: State, seat: int | None, cut: bool) -> list[bytes] | None:
        s: CoveState = state  # type: ignore[assignment]
        n = s.seats
        if not seat_in_range(seat, n):
            return None
        me = seat or 0
        over = s.phase == OVER
        to_act = -1 if over else s.actor
        ped = s.np > n
        chal = None
        if s.options["challenges"]:
            chal = (s.chal_deck[0] if s.chal_deck else -1, len(s.chal_deck), len(s.chal_aside), s.chal_at)
        groups: list[list[Any]] = [
            [s.stage, n, s.day, over, ped, s.rogues[0], s.tf_sets, s.rogues, s.mice],
            [s.boats, s.docked, s.afloat],
            [s.slot_adv, s.bcard, len(s.bdeck)],
            [s.halls, s.lair, s.hall_rogues],
            [s.bag, s.hall_leaders, s.hall_rogue_leaders, s.lair_leaders],
            [s.grey, s.bay, s.island],
            [len(s.tf_deck), s.square, s.tf_bottom],
            [len(s.cdeck), s.drawn, chal, s.cdiscard],
        ]
        if groups != self._seen:
            self._refresh(groups)
        got = self._got
        corr = s.corr
        parts = [_PHASE_HOT[s.phase], got[0][to_act == me], got[1], got[2], got[3], got[4], got[5], got[6], got[7],
                 self._mine[tuple(corr[seat]) if seat is not None else ()]]
        market = s.order if s.stage == 2 else ()
        if self.compiled:
            tail = _compiled.tail(s, me, to_act, market)
            if cut:
                whole = bytes(tail)
                parts += [whole[a:b] for a, b in _TAIL_CUTS[n]]
                parts.append(_PADS[n])
            else:
                parts.append(tail)
            return parts
        time, stack, gold = s.time, s.stack, s.gold
        clock = [time, stack, gold, to_act, market]
        if clock != self._clock_seen:
            self._clock_rows(time, stack, gold, to_act, market, n)
            self._clock_seen = [time[:], stack[:], gold[:], to_act, market[:]]
        rows = self._rows
        parts += rows[me:n]
        parts += rows[:me]
        parts.append(_NO_CLOCKS[n])
        if ped:
            parts.append(rows[n])
            parts.append(self._peddler[(s.pcard, len(s.pdeck), len(corr[n]), *s.shelf[n])])
        else:
            parts.append(_NO_PEDDLER)
        ncorr = [*map(len, corr)]
        seen = self._seat_seen
        if (s.last != seen[1] or s.mb != seen[5] or s.merchant != seen[0] or ncorr != seen[4][2] or s.shelf != seen[2]
                or s.supply != seen[3] or s.shields != seen[4][0] or s.staff != seen[4][1]):
            self._refresh_seats(s, n, ncorr)
        blocks = self._blocks
        parts += blocks[me:n]
        parts += blocks[:me]
        parts.append(_PADS[n])
        return parts


register_encoder("merchants-cove", MerchantsCoveEncoder, versions=(1,))
register_layout("merchants-cove", LAYOUT, c_prefix="MC")
