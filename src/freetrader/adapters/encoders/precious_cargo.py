"""Precious Cargo encoder, version 1.

Two seats, counted from the observer: "me" then "the other" (a spectator
counts from seat 0). From ``data/``: S settlements and D dots (places
``S + D``, settlements first, in file order), K cargo types (food first),
two countries. A crate type is food bought at one settlement (S kinds) or
a non-food cargo (K - 1 kinds): ``T = S + K - 1``.

Observation (with the shipped data S=8, D=21, K=7: 452 floats):

| size | feature |
|---|---|
| 8 | phase one-hot (``rules.PHASES``) |
| 7 | turn/100, target/50, bank/100, actions left/2, first player is me, is the other, not chosen yet |
| 6 | actions used this turn (build, sails, governor, take, sell, again) |
| 4 + S + 1 | the ship being loaded (none, 1-3); the settlement being sold at (one-hot, last = none) |
| 2 x (3 + S + 1 + 2) | per player (me, other): country (koruna, talonas, none), home (settlement one-hot, last = none), coins/25, governors left/5 |
| S x (3 + K + 1 + 2) | per settlement: governor (me, other, none), chip wanted (cargo one-hot, last = none), my ships there, the other's |
| 2 x 3 x (1 + S + D + 2 + T) | per player and ship 1-3: built, place one-hot, sails/3, moves left/5, crates per crate type |
| sum of buyable | supply per country per buyable cargo / 10 (country order, then ``buyable`` order) |
| 2 | face-down chips per country / 10 |

Actions (``3 + 2 + 2 + 3 S + 3 (2 (S + D) + 3 + K + T)`` = 277 with the shipped data):
``stop, done, end``; ``country <c>`` per country; ``first 0, first 1``;
``home``, ``build``, ``governor`` per settlement; then for ship 1, 2, 3:
``move <ship> <place>`` per place, ``again <ship> <place>`` per place,
``sails <ship> 1..3``, ``take <ship> <cargo>`` per cargo,
``sell <ship> <crate>`` per crate type (food@<settlement> first, then cargo);
then 256 overflow indices (see ``Catalogue``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from freetrader.core import Game, State
from freetrader.games.precious_cargo import actions as A
from freetrader.games.precious_cargo.components import COMPONENTS as C
from freetrader.games.precious_cargo.rules import ACTION_NAMES, ACTIONS_PER_TURN, PHASES

from . import register_encoder
from ._build import index_of, one_hot, rel
from .base import Catalogue, Encoder

__all__ = ["PreciousCargoEncoder", "NOTATIONS"]

S = C.n_settlements
PLACES = [p.id for p in C.places]
NP = len(PLACES)
K = C.n_cargo
_PLACE = index_of(PLACES)
_CARGO = index_of([c.id for c in C.cargo])
_COUNTRY = index_of([c.id for c in C.countries])
_PHASE = index_of(PHASES)
_USED = index_of([name for _, name in ACTION_NAMES])
CRATES = [A.crate_token(p) for p in range(S)] + [A.crate_token(k << 3) for k in range(1, K)]
_CRATE = index_of(CRATES)
T = len(CRATES)
SHIPS = A.SHIPS

NOTATIONS: list[str] = [str(a) for a in (A.STOP, A.DONE, A.END, *A.COUNTRY, *A.FIRST, *A.HOME, *A.BUILD, *A.INSTALL)]
for _k in range(SHIPS):
    NOTATIONS += [str(a) for a in A.MOVE[_k]]
    NOTATIONS += [str(a) for a in A.AGAIN[_k]]
    NOTATIONS += [str(a) for a in A.SAILS[_k][1:]]
    NOTATIONS += [str(a) for a in A.TAKE[_k]]
    NOTATIONS += [f"sell {_k + 1} {c}" for c in CRATES]
_CATALOGUE = Catalogue(NOTATIONS, "precious-cargo v1")
_SHIP_BLOCK = 1 + NP + 2 + T
_USED_BITS = [(bit, _USED[name]) for bit, name in ACTION_NAMES]
_TURN_PHASES = frozenset(PHASES.index(p) for p in ("move", "actions", "loading", "selling"))
_CRATE_OF: dict[int, int] = {}  # crate code -> its crate type's index, filled as codes are met


class PreciousCargoEncoder(Encoder):
    name = "precious-cargo"
    version = 1

    def __init__(self, game: Game, seats: int, options: Mapping[str, Any]) -> None:
        super().__init__(game, seats, options)
        self.actions = _CATALOGUE
        self.bounds = (-1e3, 1e3)
        self.observation_size = len(self.features(game.new_state(seats, 0, options).view(0)))

    def encode_state(self, state: State, seat: int | None) -> np.ndarray:
        """``encode(state.view(seat))`` from the state's fields: everything on the board is public.

        The only hidden thing, the order of the face-down chips, appears in
        neither (their count does).
        """
        s: Any = state
        if seat is not None and not (type(seat) is int and 0 <= seat < 2):
            return super().encode_state(state, seat)  # seat_view raises the error
        me = seat or 0
        out: list[float] = []
        one_hot(out, s.phase, len(PHASES))
        first = rel(s.first, me, 2)
        left = ACTIONS_PER_TURN - s.n_used if s.phase in _TURN_PHASES else 0
        out += [s.turn / 100, s.options["target"] / 50, (C.coins_total - sum(s.coins)) / 100, left / 2,
                float(first == 0), float(first == 1), float(first is None)]
        used = [0.0] * len(_USED)
        for bit, i in _USED_BITS:
            if s.used & bit:
                used[i] = 1.0
        out += used
        one_hot(out, s.cur_ship % SHIPS + 1 if s.cur_ship >= 0 else 0, SHIPS + 1)
        one_hot(out, s.sell_at if s.sell_at >= 0 else S, S + 1)
        for r in (0, 1):
            p = (me + r) % 2
            one_hot(out, s.country[p] if s.country[p] >= 0 else 2, 3)
            one_hot(out, s.home[p] if s.home[p] >= 0 else S, S + 1)
            out += [s.coins[p] / 25, s.gov_left[p] / 5]
        at = s.at
        for p in range(S):
            one_hot(out, (s.gov[p] - me) % 2 if s.gov[p] >= 0 else 2, 3)
            one_hot(out, s.chips[p] if s.chips[p] >= 0 else K, K + 1)
            mine = other = 0
            for slot, place in enumerate(at):
                if place == p:
                    if slot // SHIPS == me:
                        mine += 1
                    else:
                        other += 1
            out += [float(mine), float(other)]
        blocks = [0.0] * (2 * SHIPS * _SHIP_BLOCK)
        for slot, place in enumerate(at):
            if place < 0:
                continue
            owner, number = divmod(slot, SHIPS)
            base = (((owner - me) % 2) * SHIPS + number) * _SHIP_BLOCK
            blocks[base] = 1.0
            blocks[base + 1 + place] = 1.0
            blocks[base + 1 + NP] = s.sails[slot] / 3
            blocks[base + 2 + NP] = s.moves[slot] / 5
            for code in s.holds[slot]:
                k = _CRATE_OF.get(code)
                if k is None:
                    k = _CRATE_OF[code] = _CRATE[A.crate_token(code)]
                blocks[base + 3 + NP + k] += 1.0
        out += blocks
        for country in C.countries:
            out += [s.stock[country.index * K + k] / 10 for k in C.buyable[country.index]]
        out += [len(s.pools[c.index]) / 10 for c in C.countries]
        return np.asarray(out, dtype=np.float32)

    def features(self, v: Mapping[str, Any]) -> list[float]:
        me = v["seat"] or 0
        out: list[float] = []
        one_hot(out, _PHASE.get(v["phase"]), len(PHASES))
        first = rel(v["first"], me, 2)
        out += [v["turn"] / 100, v["target"] / 50, v["bank"] / 100, v["actions_left"] / 2,
                float(first == 0), float(first == 1), float(first is None)]
        used = [0.0] * len(_USED)
        for name in v["actions_used"]:
            used[_USED[name]] = 1.0
        out += used
        one_hot(out, v["loading_ship"] or 0, SHIPS + 1)
        one_hot(out, _PLACE.get(v["selling_at"], S) if v["selling_at"] else S, S + 1)
        players = v["players"]
        for r in (0, 1):
            pl = players[(me + r) % 2]
            one_hot(out, _COUNTRY.get(pl["country"], 2) if pl["country"] else 2, 3)
            one_hot(out, _PLACE[pl["home"]] if pl["home"] else S, S + 1)
            out += [pl["coins"] / 25, pl["governors_left"] / 5]
        for st in v["settlements"]:
            one_hot(out, rel(st["governor"], me, 2) if st["governor"] is not None else 2, 3)
            one_hot(out, _CARGO[st["wants"]] if st["wants"] else K, K + 1)
            ships = st["ships"]
            mine = sum(1 for x in ships if int(x.split(":")[0]) == me)
            out += [float(mine), float(len(ships) - mine)]
        blocks = [0.0] * (2 * SHIPS * _SHIP_BLOCK)
        for sh in v["ships"]:
            r = (sh["owner"] - me) % 2
            base = (r * SHIPS + sh["number"] - 1) * _SHIP_BLOCK
            blocks[base] = 1.0
            blocks[base + 1 + _PLACE[sh["at"]]] = 1.0
            blocks[base + 1 + NP] = sh["sails"] / 3
            blocks[base + 2 + NP] = sh["moves_left"] / 5
            for c in sh["cargo"]:
                blocks[base + 3 + NP + _CRATE[c]] += 1.0
        out += blocks
        for country in C.countries:
            supply = v["supply"][country.id]
            out += [supply[C.cargo[k].id] / 10 for k in C.buyable[country.index]]
        out += [v["face_down_chips"][c.id] / 10 for c in C.countries]
        return out


register_encoder("precious-cargo", PreciousCargoEncoder, versions=(1,))
