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

Observation (1,590 floats with the shipped data), in this order:

| size | feature |
|---|---|
| P + 4 + 4 | phase one-hot (``rules.PHASES``), stage one-hot (``rules.STAGES``), number of seats one-hot |
| 4 | day/3, game over, I am to act, the Peddler plays |
| H | Mice on each Clock hour 1-12 |
| R + R | the Rogue card of set-up one-hot; active Rogue cards, the top one 1, then 2/3, 1/3 (Multiple Rogues) |
| F | Townsfolk sets in play |
| B x 16 | per Boat: in the game, sailing, docked at (slot one-hot), adventurers aboard per kind |
| 8 + 1 | Boat Setup card revealed (one-hot), cards left in its deck/3 |
| 4 x 10 | customers on each pier slot per kind |
| 9 | Faction Halls per colour/10, Lair/10, Doppelgangers in each Hall/10 |
| 15 | bag per colour/10; Faction Leaders: in the bag (per colour), in each Hall, in the Lair |
| 10 + 10 + 1 | adventurers in the Kraken's bay, on Dragon Island (per kind); Grey Rogue Goods in the supply/8 |
| T + T + 1 | Town Square (multi-hot), cards put under the Townsfolk deck (multi-hot), Townsfolk deck/84 |
| 1 + K + 10 | Corruption deck/60, discards per kind/10, the adventurer drawn and waiting (one-hot) |
| 12 + 3 | solo Challenge: active card one-hot, deck/6, set aside/6, Challenge Timepiece hour/36 |
| K | your Corruption cards per kind (private; zero for a spectator) |
| 28 | the Peddler: plays, gold/100, hour/13, place in the Clock order/4, Sale Shelf per good, Corruption cards, deck/10, revealed card one-hot (10), still to sell, place in the Market order/4 |
| 4 x 253 | per relative seat: the block below |

Seat block (253 floats):

| offset | size | feature |
|---|---|---|
| 0 | 5 | seated; merchant one-hot (alchemist, blacksmith, captain, chronomancer) |
| 5 | 4 | gold/100, hour/13, place in the Clock order/4 (0 acts next), to act |
| 9 | 16 | action space the figure stands on (load, recruit, sponsor, then each merchant's in the order above) |
| 25 | 10 + 10 | Sale Shelf and supply per good |
| 45 | 4 | Sponsorship shields per colour |
| 49 | 1 + 5 | Townsfolk hired; their faction icons per colour (grey last) |
| 55 | 3 | Corruption cards held, still to sell in the Market, place in the Market order/4 |
| 58 | 46 | Alchemist: marble bag (4 colours + Ichor), slide slots 1-6 one-hot (5 each), cauldron marbles and Ichor per colour, Toxic Waste, pours left, Ichor waiting |
| 104 | 56 | Blacksmith: per die 1-5 unlocked, pips/6, colour one-hot, furnace one-hot; furnace heat/10 per colour, coal, dice placed this action |
| 160 | 21 | Captain: per ship 1-3 at sea and hold (4 colours + treasure); treasures left, spins left, treasures to place |
| 181 | 72 | Chronomancer: grid cells 1-9 tile one-hot (4 colours + anomaly), spare tile one-hot, each worker's cell one-hot, shards per colour |

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
view: the non-zero features are gathered as index and value lists into a
zeroed array, the slow-moving blocks (merchant boards, the Town Square, the
cards under the deck, the Corruption discards) memoized by the values they
show. Tests prove it equal to ``encode(view)`` bit for bit and blind to what
a determinization resamples.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

import numpy as np

from freetrader.core import Game, State
from freetrader.games.merchants_cove import boats as _boats
from freetrader.games.merchants_cove.components import ADV_NAMES, COLOURS, GOOD_IDS, GREY, SIZES
from freetrader.games.merchants_cove.components import COMPONENTS as C
from freetrader.games.merchants_cove.merchants import MERCHANTS
from freetrader.games.merchants_cove.merchants import alchemist as _al
from freetrader.games.merchants_cove.merchants import blacksmith as _bs
from freetrader.games.merchants_cove.merchants import captain as _ca
from freetrader.games.merchants_cove.merchants import chronomancer as _ch
from freetrader.games.merchants_cove.rules import COMMON, OVER, PHASES, SLOT_IDS, STAGES, townsfolk_sets

from . import register_encoder
from ._build import index_of, one_hot
from .base import Catalogue, Encoder

if TYPE_CHECKING:
    from freetrader.games.merchants_cove.state import CoveState

__all__ = ["MerchantsCoveEncoder", "NOTATIONS"]

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
    + [f"push {x}" for x in _ch.PUSHES] + [f"worker {w + 1} {cell + 1}" for w in range(2) for cell in range(_ch.N ** 2)]
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
SEAT = 58 + _AL + _BS + _CA + _CH
_BOARD_AT = {"alchemist": 58, "blacksmith": 58 + _AL, "captain": 58 + _AL + _BS, "chronomancer": 58 + _AL + _BS + _CA}
_BOAT = 2 + NSLOT + NADV
_PEDDLER = 28


def _offsets(*blocks: tuple[str, int]) -> tuple[dict[str, int], int]:
    at, n = {}, 0
    for name, size in blocks:
        at[name] = n
        n += size
    return at, n


_AT, SIZE = _offsets(
    ("phase", len(PHASES)), ("stage", len(STAGES)), ("seats", MAX_SEATS), ("table", 4), ("mice", HOURS),
    ("rogue", NR), ("rogues", NR), ("sets", len(C.tf_sets)), ("boats", NB * _BOAT),
    ("bsetup", len(C.boat_setups) + 1), ("piers", NSLOT * NADV), ("halls", 9), ("bag", 15), ("bay", NADV),
    ("island", NADV), ("grey", 1), ("square", NT), ("under", NT), ("tfdeck", 1), ("cdeck", 1), ("cdiscard", NC),
    ("drawn", NADV), ("chal", len(C.challenges) + 3), ("mine", NC), ("peddler", _PEDDLER),
    ("seat", MAX_SEATS * SEAT),
)
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


def _seat_block(v: Mapping[str, Any], pl: Mapping[str, Any], p: int, rank: int, market: list[int]) -> list[float]:
    out: list[float] = [1.0]
    one_hot(out, _MERCH.get(pl["merchant"]) if pl["merchant"] else None, 4)
    out += [pl["gold"] / 100, pl["hour"] / C.market, rank / MAX_SEATS, float(v["to_act"] == p)]
    one_hot(out, _SPACE[pl["on_action"]] if pl["on_action"] else None, len(SPACES))
    out += [float(pl["shelf"].get(g, 0)) for g in GOOD_IDS]
    out += [float(pl["supply"].get(g, 0)) for g in GOOD_IDS]
    out += [float(pl["shields"][c]) for c in COLOURS[:4]]
    icons = [0.0] * 5
    for t in pl["townsfolk"]:
        for c in C.townsfolk[_TF[t]].icons:
            icons[c] += 1.0
    out += [float(len(pl["townsfolk"])), *icons, float(pl["corruption_cards"])]
    out += [float(p in market), market.index(p) / MAX_SEATS if p in market else 0.0]
    for m in MERCHANT_IDS:
        build, n = _BOARDS[m]
        if pl["merchant"] == m:
            build(out, pl["board"])
        else:
            out += [0.0] * n
    return out


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
    order = clock["order"]
    market = v["market_order"]
    if ped is None:
        out += [0.0] * _PEDDLER
    else:
        q = n
        out += [1.0, ped["gold"] / 100, ped["hour"] / C.market, order.index(q) / MAX_SEATS]
        out += [float(ped["shelf"].get(g, 0)) for g in GOOD_IDS]
        out += [float(ped["corruption_cards"]), ped["deck"] / PEDDLER_DECK]
        one_hot(out, _PCARD[ped["card"]] if ped["card"] else None, len(C.peddler_cards))
        out += [float(q in market), market.index(q) / MAX_SEATS if q in market else 0.0]
    blocks = [0.0] * (MAX_SEATS * SEAT)
    players = v["players"]
    for p in range(n):
        r = (p - me) % n
        blocks[r * SEAT : (r + 1) * SEAT] = _seat_block(v, players[p], p, order.index(p), market)
    out += blocks
    return out


# == the fast path: from the state ====================================================================
def _board_alchemist(b: list[int], at: int) -> list[tuple[int, float]]:
    out = [(at + c, float(b[_al.BAG + c])) for c in range(5)]
    for i in range(b[_al.SLIDE_N]):
        out.append((at + 5 + i * 5 + b[_al.SLIDE + i], 1.0))
    out += [(at + 35 + c, float(b[_al.CAUL + c])) for c in range(4)]
    out += [(at + 39 + c, float(b[_al.CICH + c])) for c in range(4)]
    out += [(at + 43, float(b[_al.TOXIC])), (at + 44, float(b[_al.POURS])), (at + 45, float(b[_al.WAIT]))]
    return out


def _board_blacksmith(b: list[int], at: int) -> list[tuple[int, float]]:
    out = []
    for i in range(b[_bs.UNLOCKED]):
        k = at + i * 10
        out += [(k, 1.0), (k + 1, b[_bs.PIPS + i] / 6)]
        if b[_bs.COL + i] >= 0:
            out.append((k + 2 + b[_bs.COL + i], 1.0))
        if b[_bs.PLACE + i] >= 0:
            out.append((k + 6 + b[_bs.PLACE + i], 1.0))
    k = at + _bs.MAXD * 10
    out += [(k + c, b[_bs.HEAT + c] / 10) for c in range(4)]
    out += [(k + 4, float(b[_bs.COAL])), (k + 5, float(b[_bs.PLACED]))]
    return out


def _board_captain(b: list[int], at: int) -> list[tuple[int, float]]:
    out = []
    for i in range(_ca.SHIPS):
        k = at + i * 6
        out.append((k, float(b[_ca.AT_SEA + i])))
        out += [(k + 1 + j, float(b[_ca.HOLD + i * 5 + j])) for j in range(5)]
    k = at + _ca.SHIPS * 6
    return out + [(k, float(b[_ca.TREAS])), (k + 1, float(b[_ca.SPINS])), (k + 2, float(b[_ca.WAIT]))]


def _board_chronomancer(b: list[int], at: int) -> list[tuple[int, float]]:
    cells = _ch.N ** 2
    out = [(at + i * 5 + b[_ch.GRID + i], 1.0) for i in range(cells)]
    out.append((at + 45 + b[_ch.SPARE], 1.0))
    out += [(at + 50 + w * cells + b[_ch.WORKER + w], 1.0) for w in range(2)]
    return out + [(at + 68 + c, float(b[_ch.SHARDS + c])) for c in range(4)]


_BOARD_FAST = {"alchemist": _board_alchemist, "blacksmith": _board_blacksmith, "captain": _board_captain,
               "chronomancer": _board_chronomancer}
_ICONS = [tuple(t.icons) for t in C.townsfolk]


class MerchantsCoveEncoder(Encoder):
    name = "merchants-cove"
    version = 1

    def __init__(self, game: Game, seats: int, options: Mapping[str, Any]) -> None:
        super().__init__(game, seats, options)
        self.actions = _CATALOGUE
        self.observation_size = SIZE
        self.bounds = (0.0, 1e3)
        self._boards: dict[tuple[Any, ...], list[tuple[int, float]]] = {}
        self._sets: dict[str, list[int]] = {}

    def features(self, view: Mapping[str, Any]) -> list[float]:
        return _view_features(view)

    def encode_state(self, state: State, seat: int | None) -> np.ndarray:
        """``encode(state.view(seat))`` from the state's fields, without building the view.

        It reads only what the view shows: the public board and merchants,
        the sizes of the decks and of each hand of Corruption cards, and the
        seat's own Corruption cards.
        """
        s: CoveState = state  # type: ignore[assignment]
        n = s.seats
        if seat is not None and not (type(seat) is int and 0 <= seat < n):
            return super().encode_state(state, seat)  # seat_view raises the error
        me = seat or 0
        at = _AT
        idx: list[int] = []
        val: list[float] = []
        push = idx.append
        put = val.append
        over = s.phase == OVER
        to_act = -1 if over else s.actor
        np_ = s.np
        ped = np_ > n
        push(at["phase"] + s.phase)
        put(1.0)
        push(at["stage"] + s.stage)
        put(1.0)
        push(at["seats"] + n - 1)
        put(1.0)
        k = at["table"]
        idx += [k, k + 1, k + 2, k + 3]
        val += [s.day / C.days, float(over), float(to_act == me), float(ped)]
        mice: dict[int, int] = {}
        for m in s.mice:
            if m < C.market:
                mice[m] = mice.get(m, 0) + 1
        k = at["mice"] - 1
        for m, c in mice.items():
            push(k + m)
            put(float(c))
        push(at["rogue"] + s.rogue)
        put(1.0)
        k = at["rogues"]
        for pos, r in enumerate(s.rogues):
            push(k + r)
            put((ROGUE_SLOTS - pos) / ROGUE_SLOTS)
        sets = self._sets.get(s.tf_sets)
        if sets is None:
            sets = self._sets[s.tf_sets] = [at["sets"] + _SET[x] for x in townsfolk_sets(s.tf_sets)]
        idx += sets
        val += [1.0] * len(sets)
        k = at["boats"]
        for b, aboard in enumerate(s.boats):
            kb = k + b * _BOAT
            push(kb)
            put(1.0)
            if s.afloat[b]:
                push(kb + 1)
                put(1.0)
            if s.docked[b] >= 0:
                push(kb + 2 + s.docked[b])
                put(1.0)
            self._count(idx, val, aboard, kb + 2 + NSLOT)
        if s.bcard >= 0:
            push(at["bsetup"] + s.bcard)
            put(1.0)
        push(at["bsetup"] + len(C.boat_setups))
        put(len(s.bdeck) / BOAT_DECK)
        k = at["piers"]
        for slot, adv in enumerate(s.slot_adv):
            self._count(idx, val, adv, k + slot * NADV)
        k = at["halls"]
        idx += [k, k + 1, k + 2, k + 3, k + 4, k + 5, k + 6, k + 7, k + 8]
        h, hr = s.halls, s.hall_rogues
        val += [h[0] / 10, h[1] / 10, h[2] / 10, h[3] / 10, s.lair / 10, hr[0] / 10, hr[1] / 10, hr[2] / 10,
                hr[3] / 10]
        k = at["bag"]
        bag = s.bag
        idx += [k, k + 1, k + 2, k + 3, k + 4]
        val += [bag[0] / 10, bag[1] / 10, bag[2] / 10, bag[3] / 10, bag[4] / 10]
        if len(bag) > 5:
            for c in range(5):
                if bag[5 + c]:
                    push(k + 5 + c)
                    put(1.0)
            idx += [k + 10, k + 11, k + 12, k + 13, k + 14]
            val += [float(s.hall_leaders[c] + s.hall_rogue_leaders[c]) for c in range(4)]
            val.append(float(s.lair_leaders))
        k = at["bay"]
        for c, m in enumerate(s.bay):
            if m:
                push(k + c)
                put(float(m))
        self._count(idx, val, s.island, at["island"])
        push(at["grey"])
        put(s.grey / GREY_GOODS)
        k = at["square"]
        for t in s.square:
            push(k + t)
            put(1.0)
        k = at["under"]
        for t in s.tf_bottom:
            push(k + t)
            put(1.0)
        idx += [at["tfdeck"], at["cdeck"]]
        val += [(len(s.tf_deck) + len(s.tf_bottom)) / TF_DECK, len(s.cdeck) / CORR_DECK]
        if s.cdiscard:
            got: dict[int, int] = {}
            for c in s.cdiscard:
                got[c] = got.get(c, 0) + 1
            k = at["cdiscard"]
            for c, m in got.items():
                push(k + c)
                put(m / 10.0)
        if s.drawn >= 0:
            push(at["drawn"] + s.drawn)
            put(1.0)
        if s.options["challenges"]:
            k = at["chal"]
            if s.chal_deck:
                push(k + s.chal_deck[0])
                put(1.0)
            k += len(C.challenges)
            idx += [k, k + 1, k + 2]
            val += [len(s.chal_deck) / CHAL_DECK, len(s.chal_aside) / CHAL_DECK, s.chal_at / CHAL_HOURS]
        if seat is not None:
            self._count(idx, val, s.corr[seat], at["mine"])
        time, stack = s.time, s.stack
        order = sorted(range(np_), key=lambda p: (time[p], -stack[p]))
        market = s.order if s.stage == 2 else []
        if ped:
            q = n
            k = at["peddler"]
            idx += [k, k + 1, k + 2, k + 3]
            val += [1.0, s.gold[q] / 100, time[q] / C.market, order.index(q) / MAX_SEATS]
            for g, m in enumerate(s.shelf[q]):
                if m:
                    push(k + 4 + g)
                    put(float(m))
            idx += [k + 14, k + 15]
            val += [float(len(s.corr[q])), len(s.pdeck) / PEDDLER_DECK]
            if s.pcard >= 0:
                push(k + 16 + s.pcard)
                put(1.0)
            if q in market:
                idx += [k + 26, k + 27]
                val += [1.0, market.index(q) / MAX_SEATS]
        base = at["seat"]
        for p in range(n):
            k = base + (p - me) % n * SEAT
            merchant = s.merchant[p]
            idx += [k, k + 5, k + 6, k + 7, k + 8]
            val += [1.0, s.gold[p] / 100, time[p] / C.market, order.index(p) / MAX_SEATS, float(to_act == p)]
            if merchant:
                push(k + 1 + _MERCH[merchant])
                put(1.0)
            if s.last[p]:
                push(k + 9 + _SPACE[s.last[p]])
                put(1.0)
            for g, m in enumerate(s.shelf[p]):
                if m:
                    push(k + 25 + g)
                    put(float(m))
            for g, m in enumerate(s.supply[p]):
                if m:
                    push(k + 35 + g)
                    put(float(m))
            idx += [k + 45, k + 46, k + 47, k + 48]
            val += [float(x) for x in s.shields[p]]
            staff = s.staff[p]
            icons = [0, 0, 0, 0, 0]
            for t in staff:
                for c in _ICONS[t]:
                    icons[c] += 1
            idx += [k + 49, k + 50, k + 51, k + 52, k + 53, k + 54, k + 55]
            val += [float(len(staff)), *map(float, icons), float(len(s.corr[p]))]
            if p in market:
                idx += [k + 56, k + 57]
                val += [1.0, market.index(p) / MAX_SEATS]
            if merchant:
                key = (merchant, k, *s.mb[p])
                board = self._boards.get(key)
                if board is None:
                    if len(self._boards) > _MEMO_LIMIT:
                        self._boards.clear()
                    board = self._boards[key] = _BOARD_FAST[merchant](s.mb[p], k + _BOARD_AT[merchant])
                for i, x in board:
                    push(i)
                    put(x)
        out = np.zeros(SIZE, np.float32)
        out[idx] = val
        return out

    @staticmethod
    def _count(idx: list[int], val: list[float], items: list[int], at: int) -> None:
        """How many of each item, at ``at + item`` (only the non-zero counts)."""
        if not items:
            return
        got: dict[int, int] = {}
        for c in items:
            got[c] = got.get(c, 0) + 1
        for c, m in got.items():
            idx.append(at + c)
            val.append(float(m))


register_encoder("merchants-cove", MerchantsCoveEncoder, versions=(1,))
