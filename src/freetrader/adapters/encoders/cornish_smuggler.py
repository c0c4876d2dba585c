"""Cornish Smuggler encoder, version 1.

Seats are counted from the observer (``r = 0`` is the observer; a spectator
counts from seat 0); blocks for seats beyond the game's are zero. Sizes come
from ``data/`` (shipped: L=27 locations, E=21 sea nodes, G=30 goods pieces,
H=48 characters, X=17 secret kinds, B=10 ships, W=12 storehouses, O=7 officers,
M=3 merchants, 6 goods places, 4 Character stacks, 18 phases). Amounts are
scaled (gold /20, influence and reputation /10, counts /10).

Observation (2,905 floats with the shipped data), in this order:

| size | feature |
|---|---|
| 18 | phase one-hot (``rules.PHASES``) |
| 12 | turn/40, ending, first player (relative one-hot, 5), to act (relative one-hot, 5) |
| 5 x (5 + B+1 + E+1 + L + H + W) | per relative seat: gold, influence, reputation, goods in hold, Secrets held, ship card one-hot, ship position one-hot, network counters per location, characters hired, storehouses owned |
| 5 | passed, per relative seat |
| G x (6 + 6 + L + W + M + 1) | per goods piece: where (merchant, ship, land, storehouse, warehouse, sold), owner (relative seat, last = none), at location, at storehouse, at merchant, size/5 |
| O x (L + 1 + 6) | per officer: location one-hot (last = waiting), bribed by (relative seat, last = nobody) |
| 5 | customs track position / track end, discovery/10, bribe/10, wheel / wheel size, bank gold/100 |
| 4 x (H + 1) | face-up Character of each stack (last = none) |
| 4 + 2 | cards left in each stack /10, discarded Characters /10, Secrets deck /20 |
| B + W | ships and storehouses still to choose at set-up |
| 1 + 4 | someone is drawing set-up Characters; the stacks drawn from |
| 1 + L + G | a landing is under way; where; the goods being landed |
| X | your Secrets cards per kind |
| H | your two drawn set-up Characters (only while you choose) |

Actions (``NOTATIONS``, 4,801 with the shipped data), in this order: set-up
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
<location>``. Then 256 overflow indices for notations not listed (see ``Catalogue``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from freetrader.core import Game
from freetrader.games.cornish_smuggler.components import COMPONENTS as C
from freetrader.games.cornish_smuggler.components import DECKS, ROWS
from freetrader.games.cornish_smuggler.rules import GOODS_IDS, LOC_IDS, N_OFFICERS, PHASES, WHERE

from . import register_encoder
from ._build import index_of, multi_hot, one_hot, rel
from .base import Catalogue, Encoder

__all__ = ["CornishSmugglerEncoder", "NOTATIONS"]

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
    return out


NOTATIONS = _notations()
_CATALOGUE = Catalogue(NOTATIONS, "cornish-smuggler v2")
_SEAT_BLOCK = 5 + B + 1 + E + 1 + L + H + W
_GOODS_BLOCK = 6 + 6 + L + W + M + 1
_OFFICER_BLOCK = L + 1 + 6


class CornishSmugglerEncoder(Encoder):
    name = "cornish-smuggler"
    version = 2

    def __init__(self, game: Game, seats: int, options: Mapping[str, Any]) -> None:
        super().__init__(game, seats, options)
        self.actions = _CATALOGUE
        self.bounds = (-1e3, 1e3)
        self.observation_size = len(self.features(game.new_state(seats, 0, options).view(0)))

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
            one_hot(out, _WHERE.get(g["where"]), 6)
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
