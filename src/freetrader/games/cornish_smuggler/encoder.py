"""Cornish Smuggler encoder, version 4.

Seats are counted from the observer (``r = 0`` is the observer; a spectator
counts from seat 0); blocks for seats beyond the game's are zero. Sizes come
from ``data/`` (shipped: L=27 locations, E=21 sea nodes, G=35 goods pieces,
H=48 characters, X=17 secret kinds, B=10 ships, W=12 storehouses, O=8 officers,
M=3 merchants, 7 goods places, 4 Character stacks, 22 phases). Version 4 adds the
goods place ``out``: a piece of another player count (goods.toml ``extra``), never in play. Amounts are
scaled (gold /20, influence and reputation /10, counts /10).

Observation (3,258 floats with the shipped data): declared once as named pieces in
``layout(seats, options)``; the table with offsets and bounds is generated into
``docs/reference/observations.md``. Influence and reputation have no upper bound in the rules
(their pieces' high is infinite); every other piece is bounded by the data or the options.

Actions (``NOTATIONS``, 6,978 with the shipped data), in this order: set-up
``ship <ship>``, ``storehouse <st>``, ``draw <stack>``, ``keep <character>``,
``place <location>``, ``launch <sea node>``; ``sail to <sea node> with
influence|gold``; ``carry`` then ``escort <goods> to <location> with
influence|gold``; ``counter <a> to <b> with influence|gold`` for adjacent
land locations; ``officer <o> to <location> with influence|gold``; ``pass``,
``buy-reputation``, ``land``, ``honest-work``, ``discover with
influence|gold``; ``sell <goods>``; ``bribe <o>``; ``hire <character> with
influence|reputation``; ``buy <goods>``; ``unload <goods>``, ``done``,
``hide 0`` .. ``hide 60``; ``store <goods> to <storehouse>``, ``claim <goods>``,
``unstore <goods>``; ``price top``, ``price <row> with influence|reputation``;
``raid <goods>``, ``discard <character>``, ``remove <location>``;
``move <o>``, ``step <location>``, ``post <location>``; ``play <secret>``;
version 2 appends the card abilities: ``decline``, ``motivate <character>
[with influence|gold|reputation]``, ``choose <seat-k|officer|goods|character|
sea node|location|reduce|increase|pay|cargo>``, ``choose <officer|goods> to
<location>``; version 3 appends ``price bottom`` (the Forged Cocket's bottom
row without its cost). Then 256 overflow indices for notations not listed (see ``Catalogue``).

``encode_state(state, seat)`` builds the same vector from the state's fields
(the public ones, the seat's own Secrets and, while it chooses, its own
set-up draws) without building the view: blocks are kept as float32 bytes,
memoized by the values they show, and joined. Where the install compiled
``_cornish_smuggler_fast.c`` (``ACCELERATED``) the whole vector is made in C
in one call instead, at the offsets of the header generated from the layout.
Tests prove both paths equal to ``encode(view)`` bit for bit and blind to
what a determinization resamples.
"""

from __future__ import annotations

import struct
from collections.abc import Callable, Iterable, Mapping
from typing import TYPE_CHECKING, Any

import numpy as np

from freetrader.adapters.encoders import register_encoder, register_layout
from freetrader.adapters.encoders._build import compiled, index_of, multi_hot, one_hot, rel
from freetrader.adapters.encoders.base import Catalogue, Encoder, seat_in_range
from freetrader.adapters.encoders.layout import Block, Layout, Piece
from freetrader.adapters.limits import default_max_actions
from freetrader.core import Game, State
from freetrader.games.cornish_smuggler.components import COMPONENTS as C
from freetrader.games.cornish_smuggler.components import DECKS, ROWS
from freetrader.games.cornish_smuggler.rules import GOODS_IDS, LOC_IDS, N_OFFICERS, OUT, OVER, PHASES, WHERE

if TYPE_CHECKING:
    from freetrader.games.cornish_smuggler.state import CornishState

__all__ = ["CornishSmugglerEncoder", "NOTATIONS", "ACCELERATED", "layout", "LAYOUT"]

MAX_SEATS = 5
HIDE_MAX = 60
L = len(LOC_IDS)
E = len(C.sea_ids)
G = len(GOODS_IDS)
H = len(C.characters)
SHIP_IDS = [s.id for s in C.ships]
STORE_IDS = [s.id for s in C.storehouses]
CHAR_IDS = [c.id for c in C.characters]
SECRET_IDS = sorted({s.id for s in C.secrets})
MERCHANT_IDS = [C.sea_ids[m] for m in C.merchant_nodes]
_LOC, _SEA, _GOODS, _CHAR = index_of(LOC_IDS), index_of(C.sea_ids), index_of(GOODS_IDS), index_of(CHAR_IDS)
_SHIP, _STORE, _SECRET, _MERCH = index_of(SHIP_IDS), index_of(STORE_IDS), index_of(SECRET_IDS), index_of(MERCHANT_IDS)
_PHASE, _WHERE, _DECK = index_of(PHASES), index_of(WHERE), index_of(DECKS)
B, W, X, M, NO = len(SHIP_IDS), len(STORE_IDS), len(SECRET_IDS), len(MERCHANT_IDS), N_OFFICERS


def _notations() -> list[str]:
    pays = ("influence", "gold")
    out = [f"ship {x}" for x in SHIP_IDS] + [f"storehouse {x}" for x in STORE_IDS]
    out += [f"draw {d}" for d in DECKS] + [f"keep {c}" for c in CHAR_IDS]
    out += [f"place {x}" for x in LOC_IDS] + [f"launch {x}" for x in C.sea_ids]
    out += [f"sail to {x} with {p}" for x in C.sea_ids for p in pays]
    out += [f"{verb} {g} to {x} with {p}" for verb in ("carry", "escort") for g in GOODS_IDS for x in LOC_IDS for p in pays]
    out += [f"counter {LOC_IDS[a]} to {LOC_IDS[b]} with {p}"
            for a in range(L) for b in C.locations[a].land for p in pays]
    out += [f"officer {o} to {x} with {p}" for o in range(NO) for x in LOC_IDS for p in pays]
    out += ["pass", "buy-reputation", "land", "honest-work"] + [f"discover with {p}" for p in pays]
    out += [f"sell {g}" for g in GOODS_IDS] + [f"bribe {o}" for o in range(NO)]
    out += [f"hire {c} with {p}" for c in CHAR_IDS for p in ("influence", "reputation")]
    out += [f"buy {g}" for g in GOODS_IDS] + [f"unload {g}" for g in GOODS_IDS] + ["done"]
    out += [f"hide {k}" for k in range(HIDE_MAX + 1)]
    out += [f"store {g} to {st}" for g in GOODS_IDS for st in STORE_IDS]
    out += [f"claim {g}" for g in GOODS_IDS] + [f"unstore {g}" for g in GOODS_IDS]
    out += ["price top"] + [f"price {r} with {p}" for r in ROWS for p in ("influence", "reputation")]
    out += [f"raid {g}" for g in GOODS_IDS] + [f"discard {c}" for c in CHAR_IDS] + [f"remove {x}" for x in LOC_IDS]
    out += [f"move {o}" for o in range(NO)] + [f"step {x}" for x in LOC_IDS] + [f"post {x}" for x in LOC_IDS]
    out += [f"play {x}" for x in SECRET_IDS]
    # version 2: card abilities (Motivate, reaction windows, effect choices), appended so v1 indices stay put
    out += ["decline"]
    out += [f"motivate {c}" for c in CHAR_IDS]
    out += [f"motivate {c} with {p}" for c in CHAR_IDS for p in ("influence", "gold", "reputation")]
    targets = ([f"seat-{k}" for k in range(MAX_SEATS)] + [str(o) for o in range(NO)] + list(GOODS_IDS) + CHAR_IDS
               + list(C.sea_ids) + [x for x in LOC_IDS if x not in C.sea_ids] + ["reduce", "increase", "pay", "cargo"])
    out += [f"choose {x}" for x in targets]
    out += [f"choose {o} to {x}" for o in range(NO) for x in LOC_IDS]
    out += [f"choose {g} to {x}" for g in GOODS_IDS for x in LOC_IDS]
    # version 3: the Forged Cocket's free bottom row, appended so v2 indices stay put
    out += ["price bottom"]
    return out


NOTATIONS = _notations()
_CATALOGUE = Catalogue(NOTATIONS, "cornish-smuggler v3")


def _flag(name: str, doc: str, size: int = 1) -> Piece:
    return Piece(name, size, 0.0, 1.0, doc)


def _most(ids: list[str]) -> float:
    """The most copies of one id (a multi-hot piece's high)."""
    return float(max((ids.count(x) for x in set(ids)), default=1))


def layout(seats: int = MAX_SEATS, options: Mapping[str, Any] | None = None) -> Layout:
    """The observation's pieces; the turn's bound follows ``turn_limit`` (else the default action
    bound: a turn takes at least one action, and a longer ``max_actions`` can go beyond it)."""
    turns = (options or {}).get("turn_limit", 0) or default_max_actions("cornish-smuggler", seats)
    inf = float("inf")
    stack_most = max(sum(1 for c in C.characters if c.deck == d) for d in range(4))
    secret_ids = [C.secrets[k].id for k in C.secret_deck]
    deck = len(C.secret_deck)
    return Layout("cornish-smuggler", 3, [
        _flag("phase", "phase one-hot (``rules.PHASES``)", len(PHASES)),
        Piece("turn", 1, 0.0, turns / 40, "turn/40 (turn_limit, or the action bound)"),
        _flag("ending", "the game is ending"),
        _flag("first_player", "the first player (relative one-hot)", MAX_SEATS),
        _flag("to_act", "the seat to act (relative one-hot)", MAX_SEATS),
        Block("seats", MAX_SEATS, (
            Piece("gold", 1, 0.0, C.bank_gold / 20, f"gold/20 (at most the whole supply, {C.bank_gold})"),
            Piece("influence", 1, 0.0, inf, "influence/10 (no upper bound in the rules)"),
            Piece("reputation", 1, 0.0, inf, "reputation/10 (no upper bound in the rules)"),
            Piece("hold", 1, 0.0, G / 10, "goods in the hold/10 (at most every goods piece)"),
            Piece("secrets", 1, 0.0, deck / 10, f"Secrets cards held/10 (at most the deck, {deck})"),
            _flag("ship", "ship card one-hot (last = none)", B + 1),
            _flag("ship_at", "ship position one-hot (sea nodes, last = none)", E + 1),
            Piece("counters", L, 0.0, float(C.counters), f"network counters per location (each has {C.counters})"),
            Piece("characters", H, 0.0, _most(CHAR_IDS), "characters hired"),
            Piece("storehouses", W, 0.0, _most(STORE_IDS), "storehouses owned"),
        ), "per relative seat (0 = the observer); seats beyond the game's are zero"),
        _flag("passed", "passed, per relative seat", MAX_SEATS),
        Block("goods", G, (
            _flag("where", "where (merchant, ship, land, storehouse, warehouse, sold, out)", len(WHERE)),
            _flag("owner", "owner (relative seat, last = none)", 6),
            _flag("location", "at location (one-hot)", L),
            _flag("storehouse", "at storehouse (one-hot)", W),
            _flag("merchant", "at merchant (one-hot)", M),
            Piece("size", 1, 0.0, max(sh.size for sh in C.shapes) / 5, "size/5"),
        ), "per goods piece"),
        Block("officers", NO, (
            _flag("at", "location one-hot (last = waiting)", L + 1),
            _flag("bribed_by", "bribed by (relative seat, last = nobody)", 6),
        ), "per officer"),
        _flag("track", "customs track position / track end"),
        Piece("discovery", 1, 0.0, max(C.discovery) / 10, "discovery/10 (the track's values)"),
        Piece("bribe", 1, 0.0, max(C.bribe) / 10, "bribe/10 (the track's values)"),
        _flag("wheel", "gold wheel / wheel size"),
        Piece("bank", 1, 0.0, C.bank_gold / 100, "bank gold/100"),
        _flag("face_up", "face-up Character of each of the 4 stacks (one-hot, last = none)", 4 * (H + 1)),
        Piece("stacks", 4, 0.0, stack_most / 10, "cards left in each stack/10"),
        Piece("discarded", 1, 0.0, H / 10, "discarded Characters/10"),
        Piece("secrets_deck", 1, 0.0, deck / 20, "Secrets deck/20"),
        Piece("ships_to_choose", B, 0.0, _most(SHIP_IDS), "ships still to choose at set-up"),
        Piece("storehouses_to_choose", W, 0.0, _most(STORE_IDS), "storehouses still to choose at set-up"),
        _flag("drawing", "someone is drawing set-up Characters"),
        _flag("drawn_from", "the stacks drawn from (two different stacks)", 4),
        _flag("landing", "a landing is under way"),
        _flag("landing_at", "where (one-hot)", L),
        _flag("landing_goods", "the goods being landed", G),
        Piece("your_secrets", X, 0.0, _most(secret_ids), "your Secrets cards per kind"),
        Piece("your_drawn", H, 0.0, _most(CHAR_IDS), "your two drawn set-up Characters (only while you choose)"),
    ], notes=f"L={L} locations, E={E} sea nodes, G={G} goods pieces, H={H} characters, X={X} secret kinds, "
             f"B={B} ships, W={W} storehouses, O={NO} officers, M={M} merchants; bounds at {seats} seats, default "
             "options.")


LAYOUT = layout()
_SEAT_BLOCK = LAYOUT.stride("seats")
_GOODS_BLOCK = LAYOUT.stride("goods")
_OFFICER_BLOCK = LAYOUT.stride("officers")


# -- encode_state: the same features, from the state ----------------------------
# Each table maps a state's component index to the slot ``features`` gives the id the view
# shows for it; lists as long as the id lists, so that a negative index wraps as it does there.
_SHIP_SLOT = [_SHIP.get(s.id, B) for s in C.ships]
_SEA_SLOT = [_SEA.get(x, E) for x in C.sea_ids]
_LOC_SLOT = [_LOC[x] for x in LOC_IDS]
_CHAR_SLOT = [_CHAR.get(c.id) for c in C.characters]
_FACE_SLOT = [_CHAR.get(c.id, H) for c in C.characters]
_STORE_SLOT = [_STORE.get(s.id) for s in C.storehouses]
_SECRET_SLOT = [_SECRET.get(s.id) for s in C.secrets]
_GOODS_SLOT = [_GOODS.get(g) for g in GOODS_IDS]
_DECK_SLOT = [_DECK.get(d) for d in DECKS]
_SIZE = [C.shapes[C.goods[g]].size / 5 for g in range(G)]
_LANDING_PHASES = frozenset(PHASES.index(p) for p in ("land-unload", "land-hide", "land-store"))


_STRUCTS: dict[int, Callable[..., bytes]] = {}


def _pack(values: list[float]) -> bytes:
    """float32 bytes, rounded from float64 as ``np.asarray(values, np.float32)`` rounds them."""
    pack = _STRUCTS.get(len(values))
    if pack is None:
        pack = _STRUCTS[len(values)] = struct.Struct(f"{len(values)}f").pack
    return pack(*values)


def _hot(i: int | None, n: int) -> bytes:
    block: list[float] = []
    one_hot(block, i, n)
    return _pack(block)


def _counts(block: list[float], slots: Iterable[int | None], n: int) -> list[float]:
    """``multi_hot`` over slots already looked up (None: not shown), so repeats add up."""
    start = len(block)
    block.extend([0.0] * n)
    for i in slots:
        if i is not None:
            block[start + i] += 1.0
    return block


_PHASE_BYTES = [_hot(k, len(PHASES)) for k in range(len(PHASES))]
_REL_BYTES = [_hot(r, MAX_SEATS) for r in range(MAX_SEATS)] + [_hot(None, MAX_SEATS)]  # [-1]: nobody
_NOT_DRAWING, _NO_LANDING, _NO_SECRETS, _NO_DRAWN = bytes(4 * 5), bytes(4 * (1 + L + G)), bytes(4 * X), bytes(4 * H)
_FLOAT32 = np.dtype(np.float32)
_TWO = struct.Struct("2f").pack
_FIVE = struct.Struct("5f").pack
_SIX = struct.Struct("6f").pack
_SEAT_PADS = [bytes(4 * _SEAT_BLOCK * (MAX_SEATS - k)) for k in range(MAX_SEATS + 1)]
_TRACK_END = max(1, len(C.discovery) - 1)
_WHEEL = max(1, C.wheel)


class _Memo(dict[Any, bytes]):
    """key -> float32 bytes, made by ``make(key)`` on a miss; emptied when it outgrows ``limit``."""

    def __init__(self, make: Callable[[Any], bytes], limit: int = 4096) -> None:
        super().__init__()
        self.make = make
        self.limit = limit

    def __missing__(self, key: Any) -> bytes:
        if len(self) >= self.limit:
            self.clear()
        got = self[key] = self.make(key)
        return got


_SHIP_HOT = [_hot(i, B + 1) for i in _SHIP_SLOT]
_NO_SHIP = _hot(B, B + 1)
_SEA_HOT = [_hot(i, E + 1) for i in _SEA_SLOT]
_NO_SEA = _hot(E, E + 1)


def _counters(locations: list[int]) -> bytes:
    block = [0.0] * L
    for x in locations:
        block[_LOC_SLOT[x]] += 1.0
    return _pack(block)


def _hired(key: tuple[tuple[int, ...], tuple[int, ...]]) -> bytes:
    """A seat's Characters and storehouses."""
    chars, stores = key
    return _pack(_counts(_counts([], [_CHAR_SLOT[c] for c in chars], H), [_STORE_SLOT[x] for x in stores], W))


def _place(where: int, at: int) -> Any:
    """What the view shows as a goods piece's ``at`` (as ``view._goods`` does)."""
    if where == 0:
        return C.sea_ids[C.merchant_nodes[at]]
    if where == 1:
        return at
    if where == 3:
        return C.storehouses[at].id
    if where == OUT:
        return None
    return LOC_IDS[at]


def _goods_piece(key: tuple[int, int, int, int | None]) -> bytes:
    g, where, at, owner = key
    block: list[float] = []
    place = _place(where, at)
    shown = isinstance(place, str)
    one_hot(block, _WHERE.get(WHERE[where]), len(WHERE))
    one_hot(block, 5 if owner is None else owner, 6)
    one_hot(block, _LOC.get(place) if shown else None, L)
    one_hot(block, _STORE.get(place) if shown else None, W)
    one_hot(block, _MERCH.get(place) if shown else None, M)
    block.append(_SIZE[g])
    return _pack(block)


_PIECES = _Memo(_goods_piece)


def _goods(key: tuple[int, int, tuple[int, ...], tuple[int, ...], tuple[int, ...]]) -> bytes:
    n, me, where, at, owner = key
    return b"".join([_PIECES[g, where[g], at[g], (owner[g] - me) % n if owner[g] >= 0 else None]
                     for g in range(len(where))])


def _officer(key: tuple[int, int | None]) -> bytes:
    at, by = key
    block: list[float] = []
    one_hot(block, _LOC_SLOT[at] if at >= 0 else L, L + 1)
    one_hot(block, 5 if by is None else by, 6)
    return _pack(block)


_OFFICER_ROWS = _Memo(_officer)


def _officers(key: tuple[int, int, tuple[int, ...], tuple[int, ...]]) -> bytes:
    n, me, at, bribed = key
    return b"".join([_OFFICER_ROWS[at[o], (bribed[o] - me) % n if bribed[o] >= 0 else None] for o in range(len(at))])


def _face_up(key: tuple[int, ...]) -> bytes:
    block: list[float] = []
    for c in key:
        one_hot(block, _FACE_SLOT[c] if c >= 0 else H, H + 1)
    return _pack(block)


def _to_choose(key: tuple[tuple[int, ...], tuple[int, ...]]) -> bytes:
    ships, stores = key
    return _pack(_counts(_counts([], [_SHIP_SLOT[x] for x in ships], B), [_STORE_SLOT[x] for x in stores], W))


def _drawing(decks: tuple[int, ...]) -> bytes:
    return _pack(_counts([1.0], [_DECK_SLOT[d] for d in decks], 4))


def _landing(key: tuple[int, tuple[int, ...]]) -> bytes:
    at, goods = key
    block = [1.0]
    one_hot(block, _LOC_SLOT[at], L)
    return _pack(_counts(block, [_GOODS_SLOT[g] for g in goods], G))


def _passed(key: tuple[int, tuple[bool, ...]]) -> bytes:
    me, passed = key
    return _FIVE(*passed[me:], *passed[:me], *[False] * (MAX_SEATS - len(passed)))


def _head(key: tuple[int, int, bool, int, int, int, int]) -> bytes:
    """Phase, turn, ending, first player and seat to act."""
    phase, turn, ending, first, actor, me, n = key
    act = -1 if phase == OVER else actor
    return b"".join((_PHASE_BYTES[phase], _TWO(turn / 40, ending), _REL_BYTES[(first - me) % n if first >= 0 else -1],
                     _REL_BYTES[(act - me) % n if act >= 0 else -1]))


def _quiet_tail(key: tuple[tuple[tuple[int, ...], tuple[int, ...]], tuple[int, ...] | None]) -> bytes:
    """The blocks after the stack sizes while no one draws and no landing is under way."""
    to_choose, secrets = key
    mine = _NO_SECRETS if secrets is None else _SECRETS[secrets]
    return b"".join((_TO_CHOOSE[to_choose], _NOT_DRAWING, _NO_LANDING, mine, _NO_DRAWN))


# Blocks memoized by what they show (goods and officers also by the observer, for the owners);
# the goods block is large, so fewer of them are kept.
_PASSED = _Memo(_passed)
_HIRED = _Memo(_hired)
_GOODS_BLOCKS = _Memo(_goods, 1024)
_OFFICER_BLOCKS = _Memo(_officers)
_FACE_UP = _Memo(_face_up)
_TO_CHOOSE = _Memo(_to_choose)
_DRAWING = _Memo(_drawing)
_LANDING = _Memo(_landing)
_SECRETS = _Memo(lambda cards: _pack(_counts([], [_SECRET_SLOT[k] for k in cards], X)))
_DRAWN = _Memo(lambda cards: _pack(_counts([], [_CHAR_SLOT[c] for c in cards], H)))
_HEAD = _Memo(_head)
_QUIET_TAIL = _Memo(_quiet_tail)


def _place_slots(where: int, at: int) -> tuple[int | None, int | None, int | None]:
    """The location, storehouse and merchant slots the view shows for a goods piece's place."""
    place = _place(where, at)
    shown = isinstance(place, str)
    return (_LOC.get(place) if shown else None, _STORE.get(place) if shown else None,
            _MERCH.get(place) if shown else None)


# Where the install compiled ``_cornish_smuggler_fast.c`` (``ACCELERATED``) the whole vector is made
# in one call; the memoized Python blocks above stay the reference and the fallback. The tables are
# handed over from here, so that they are defined once, with the declared layout, which the C checks
# against the header it was compiled with (a stale build fails at import, not encodes wrongly).
_C_LAYOUT = ("size", "phase", "phase#", "turn", "ending", "first_player", "to_act", "seats", "seats*", "seats/",
             "seats.gold", "seats.influence", "seats.reputation", "seats.hold", "seats.secrets", "seats.ship",
             "seats.ship_at", "seats.counters", "seats.characters", "seats.storehouses", "passed", "goods", "goods*",
             "goods/", "goods.where", "goods.owner", "goods.location", "goods.storehouse", "goods.merchant",
             "goods.size", "officers", "officers*", "officers/", "officers.at", "officers.bribed_by", "track",
             "discovery", "bribe", "wheel", "bank", "face_up", "face_up#", "stacks", "stacks#", "discarded",
             "secrets_deck", "ships_to_choose", "ships_to_choose#", "storehouses_to_choose",
             "storehouses_to_choose#", "drawing", "drawn_from", "landing", "landing_at", "landing_at#",
             "landing_goods", "landing_goods#", "your_secrets", "your_secrets#", "your_drawn", "your_drawn#")


def _c_layout(lay: Layout) -> list[int]:
    """The values of ``_C_LAYOUT`` (``#``: a piece's size, ``*``: a block's count, ``/``: its stride)."""
    sizes = {name: p.size for name, p in ((p.name, p) for _, p, _ in lay.pieces())}
    counts = {b.name: b.count for b in lay.items if isinstance(b, Block)}
    out = []
    for key in _C_LAYOUT:
        if key == "size":
            out.append(lay.size)
        elif key.endswith("#"):
            out.append(sizes[key[:-1]])
        elif key.endswith("*"):
            out.append(counts[key[:-1]])
        elif key.endswith("/"):
            out.append(lay.stride(key[:-1]))
        else:
            out.append(lay.at(key))
    return out


_compiled: Any = compiled("_cornish_smuggler_fast")  # None where not built; self.compiled guards its use
_CONFIGURE = (
    _SHIP_SLOT, _SEA_SLOT, _LOC_SLOT, _CHAR_SLOT, _FACE_SLOT, _STORE_SLOT, _SECRET_SLOT, _GOODS_SLOT, _DECK_SLOT,
    [_WHERE.get(w) for w in WHERE], C.discovery, C.bribe,
    [x for m in range(len(C.merchant_nodes)) for x in _place_slots(0, m)],
    [x for w in range(len(C.storehouses)) for x in _place_slots(3, w)],
    [x for loc in range(L) for x in _place_slots(2, loc)],
    sorted(_LANDING_PHASES), _SIZE, int(OVER), _TRACK_END, _WHEEL, _c_layout(LAYOUT),
)
if _compiled is not None:
    _compiled.configure(*_CONFIGURE)
ACCELERATED = _compiled is not None


class CornishSmugglerEncoder(Encoder):
    name = "cornish-smuggler"
    version = 4

    def __init__(self, game: Game, seats: int, options: Mapping[str, Any]) -> None:
        super().__init__(game, seats, options)
        self.actions = _CATALOGUE
        self.use_layout(layout(seats, self.options))
        # The goods and the officers last seen, with their blocks by (seats, observer), and each
        # seat's ship, counters, Characters and storehouses last seen, with their block: these change
        # seldom, and comparing lists is cheaper than making and hashing keys of them.
        self._goods_seen: tuple[Any, ...] = (None, None, None, {})
        self._officers_seen: tuple[Any, ...] = (None, None, {})
        self._seats_seen: list[tuple[Any, ...]] = [(None,) * 8] * MAX_SEATS
        self.compiled = ACCELERATED

    def encode_state(self, state: State, seat: int | None) -> np.ndarray:
        """``encode(state.view(seat))`` from the state's fields, without building the view.

        It reads only what the view shows: the board and tracks, how many
        cards each player holds, ``seat``'s own Secrets, and the set-up
        Characters ``seat`` drew while it chooses between them. Blocks are
        float32 bytes memoized by the values they show.
        """
        if self.compiled and _compiled is not None:
            got = self.compiled_bytes(state, seat)
            return super().encode_state(state, seat) if got is None else np.frombuffer(bytearray(got), _FLOAT32)
        parts = self.encode_parts(state, seat)
        if parts is None:
            return super().encode_state(state, seat)  # seat_view raises the error
        return np.frombuffer(bytearray().join(parts), _FLOAT32)

    def compiled_bytes(self, state: State, seat: int | None) -> bytes | bytearray | None:
        """The vector from ``_cornish_smuggler_fast``, where it is used; None otherwise."""
        s: CornishState = state  # type: ignore[assignment]
        if not self.compiled or _compiled is None or not seat_in_range(seat, s.seats):
            return None
        phase = s.phase
        if phase in _LANDING_PHASES:
            return _compiled.encode(s, seat, phase, s.actor, s.land_loc, s.land_sel)  # type: ignore[no-any-return]
        return _compiled.encode(s, seat, phase, s.actor, -1, ())  # type: ignore[no-any-return]

    def encode_parts(self, state: State, seat: int | None) -> list[bytes] | None:
        """The float32 blocks ``encode_state`` joins (memoized ones are the same objects while unchanged)."""
        s: CornishState = state  # type: ignore[assignment]
        n = s.seats
        if not seat_in_range(seat, n):
            return None
        me = seat or 0
        phase = s.phase
        gold, infl, rep, hold, secrets = s.gold, s.infl, s.rep, s.hold, s.secrets
        ship, ship_at, counters, chars, stores = s.ship_card, s.ship_at, s.counters, s.chars, s.stores
        seen = self._seats_seen
        rows: list[bytes] = []
        for p in (*range(me, n), *range(me)):
            k, at, c, ch, st = ship[p], ship_at[p], counters[p], chars[p], stores[p]
            row = seen[p]
            if k != row[0] or at != row[1] or c != row[2] or ch != row[3] or st != row[4]:
                # counters move on many Actions: their block alone is made anew, without a memo
                row = seen[p] = (
                    k, at, c[:], ch[:], st[:],
                    row[5] if k == row[0] and at == row[1] else
                    (_SHIP_HOT[k] if k >= 0 else _NO_SHIP) + (_SEA_HOT[at] if at >= 0 else _NO_SEA),
                    row[6] if c == row[2] else _counters(c),
                    row[7] if ch == row[3] and st == row[4] else _HIRED[tuple(ch), tuple(st)],
                )
            rows += (_FIVE(gold[p] / 20, infl[p] / 10, rep[p] / 10, len(hold[p]) / 10, len(secrets[p]) / 10),
                     row[5], row[6], row[7])
        stacks = s.stacks
        drawn = s.drawn
        to_choose = tuple(s.ships_left), tuple(s.stores_left)
        if drawn or phase in _LANDING_PHASES:
            tail = b"".join((
                _TO_CHOOSE[to_choose],
                _DRAWING[tuple(s.drawn_decks)] if drawn else _NOT_DRAWING,
                _LANDING[s.land_loc, tuple(s.land_sel)] if phase in _LANDING_PHASES else _NO_LANDING,
                _NO_SECRETS if seat is None else _SECRETS[tuple(secrets[seat])],
                _DRAWN[tuple(drawn)] if drawn and seat is not None and s.actor == seat else _NO_DRAWN,
            ))
        else:
            tail = _QUIET_TAIL[to_choose, None if seat is None else tuple(secrets[seat])]
        # goods and officers move seldom: compare them with those last seen rather than key a memo by them
        goods_seen = self._goods_seen
        if s.g_where != goods_seen[0] or s.g_at != goods_seen[1] or s.g_owner != goods_seen[2]:
            goods_seen = self._goods_seen = (s.g_where[:], s.g_at[:], s.g_owner[:], {})
        goods = goods_seen[3].get((n, me))
        if goods is None:
            goods = goods_seen[3][n, me] = _GOODS_BLOCKS[n, me, tuple(s.g_where), tuple(s.g_at), tuple(s.g_owner)]
        officers_seen = self._officers_seen
        if s.off_at != officers_seen[0] or s.off_bribe != officers_seen[1]:
            officers_seen = self._officers_seen = (s.off_at[:], s.off_bribe[:], {})
        officers = officers_seen[2].get((n, me))
        if officers is None:
            officers = officers_seen[2][n, me] = _OFFICER_BLOCKS[n, me, tuple(s.off_at), tuple(s.off_bribe)]
        return [
            _HEAD[phase, s.turn, s.ending, s.first, s.actor, me, n],
            *rows, _SEAT_PADS[n], _PASSED[me, tuple(s.passed)],
            goods,
            officers,
            _FIVE(s.track / _TRACK_END, C.discovery[s.track] / 10, C.bribe[s.track] / 10, s.wheel / _WHEEL,
                  s.bank / 100),
            _FACE_UP[tuple(s.faceup)],
            _SIX(len(stacks[0]) / 10, len(stacks[1]) / 10, len(stacks[2]) / 10, len(stacks[3]) / 10,
                 len(s.char_discard) / 10, len(s.sdeck) / 20),
            tail,
        ]

    def features(self, v: Mapping[str, Any]) -> list[float]:
        n = v["seats"]
        me = v["seat"] or 0
        out: list[float] = []
        one_hot(out, _PHASE.get(v["phase"]), len(PHASES))
        out += [v["turn"] / 40, float(v["ending"])]
        one_hot(out, rel(v["first_player"], me, n), MAX_SEATS)
        one_hot(out, rel(v["to_act"], me, n), MAX_SEATS)
        seats = [0.0] * (MAX_SEATS * _SEAT_BLOCK)
        passed = [0.0] * MAX_SEATS
        for p, pl in enumerate(v["players"]):
            r = rel(p, me, n)
            assert r is not None
            block: list[float] = [pl["gold"] / 20, pl["influence"] / 10, pl["reputation"] / 10,
                                  len(pl["hold"]) / 10, pl["secrets"] / 10]
            one_hot(block, _SHIP.get(pl["ship"], B) if pl["ship"] else B, B + 1)
            one_hot(block, _SEA.get(pl["ship_at"], E) if pl["ship_at"] else E, E + 1)
            multi_hot(block, pl["counters"], _LOC, L)
            multi_hot(block, pl["characters"], _CHAR, H)
            multi_hot(block, pl["storehouses"], _STORE, W)
            seats[r * _SEAT_BLOCK : (r + 1) * _SEAT_BLOCK] = block
            passed[r] = float(pl["passed"])
        out += seats
        out += passed
        for g in v["goods"]:
            one_hot(out, _WHERE.get(g["where"]), len(WHERE))
            owner = rel(g["owner"], me, n)
            one_hot(out, 5 if owner is None else owner, 6)
            at = g["at"]
            one_hot(out, _LOC.get(at) if isinstance(at, str) else None, L)
            one_hot(out, _STORE.get(at) if isinstance(at, str) else None, W)
            one_hot(out, _MERCH.get(at) if isinstance(at, str) else None, M)
            out.append(g["size"] / 5)
        for o in v["officers"]:
            one_hot(out, _LOC.get(o["at"], L) if o["at"] else L, L + 1)
            by = rel(o["bribed_by"], me, n)
            one_hot(out, 5 if by is None else by, 6)
        cu = v["customs"]
        out += [cu["track"] / max(1, cu["track_end"]), cu["discovery"] / 10, cu["bribe"] / 10,
                cu["wheel"] / max(1, cu["wheel_size"]), v["bank"] / 100]
        ch = v["characters"]
        for d in DECKS:
            c = ch["face_up"].get(d)
            one_hot(out, _CHAR.get(c, H) if c else H, H + 1)
        out += [ch["stacks"].get(d, 0) / 10 for d in DECKS]
        out += [ch["discarded"] / 10, v["secrets_deck"] / 20]
        multi_hot(out, v["ships_to_choose"], _SHIP, B)
        multi_hot(out, v["storehouses_to_choose"], _STORE, W)
        drawing = v["drawing"]
        out.append(1.0 if drawing else 0.0)
        multi_hot(out, drawing["stacks"] if drawing else (), _DECK, 4)
        landing = v["landing"]
        out.append(1.0 if landing else 0.0)
        one_hot(out, _LOC.get(landing["at"]) if landing else None, L)
        multi_hot(out, landing["goods"] if landing else (), _GOODS, G)
        multi_hot(out, v.get("your_secrets", ()), _SECRET, X)
        multi_hot(out, v.get("your_drawn", ()), _CHAR, H)
        return out


register_encoder("cornish-smuggler", CornishSmugglerEncoder, versions=(1,))
register_layout("cornish-smuggler", LAYOUT, c_prefix="CS")
