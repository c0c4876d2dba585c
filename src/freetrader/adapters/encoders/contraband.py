"""Contraband encoder, version 1.

Seats are counted from the observer: block ``r`` describes seat
``(me + r) % seats`` (``r = 0`` is the observer; a spectator counts from
seat 0). Blocks for seats beyond the game's are zero. ``A`` is the number
of articles in ``data/cards.toml`` (10), in file order; money is in $1000s.

Observation (``P + 24 + 17 * 8 + 4 * A`` floats = 206 with the shipped data, P = 6 phases):

| offset | size | feature |
|---|---|---|
| 0 | P | phase one-hot (``rules.PHASES``) |
| P | 8 | number of seats one-hot (index seats-1) |
| P+8 | 16 | round/10, reshuffles/10, declarations/100, unused/100, pack/54, face-down discards/54, luggage on the table, luggage cards/4, examined, diplomatic bag claimed, your luggage shown, officer is me, I hold the luggage, I am the declarer, I am to act, game over |
| P+24 | 17 x 8 | per relative seat: cash, retired, been officer, is officer, holds luggage, is declarer, to act, declared/10, caught/10, cleared/10, searches/10, waved/10, informs/10, owes in loans, is owed in loans, must pay now, will be paid now |
| P+160 | A | revealed (impounded) cards per article / its count |
| +A | A | articles claimed in the current declaration |
| +2A | A | your luggage per article (zero unless you hold it and have looked) |
| +3A | A | total cards of each article still unseen by everyone / its count: count - revealed - in your luggage |

Actions (``6 + C + A + 8`` indices = 33 with the shipped data; C claimable articles):
``declare, search, wave, accept, inform, retire`` (0-5), then ``claim <article>``
for each dutiable article and the diplomatic bag in file order, then
``discard <article>`` for every article in file order, then ``borrow 0`` ..
``borrow 7`` (absolute seat numbers); then 256 overflow indices (see ``Catalogue``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from freetrader.core import Game
from freetrader.games.contraband.components import COMPONENTS as C
from freetrader.games.contraband.rules import PHASES

from . import register_encoder
from ._build import index_of, multi_hot, one_hot, rel
from .base import Catalogue, Encoder

__all__ = ["ContrabandEncoder", "NOTATIONS"]

MAX_SEATS = 8
_ART = [a.id for a in C.articles]
_A = len(_ART)
_AIX = index_of(_ART)
_COUNT = [float(a.count) for a in C.articles]
_PIX = index_of(PHASES)
NOTATIONS = (
    ["declare", "search", "wave", "accept", "inform", "retire"]
    + [f"claim {a.id}" for a in C.articles if a.dutiable or a.is_bag]
    + [f"discard {a}" for a in _ART]
    + [f"borrow {s}" for s in range(MAX_SEATS)]
)
_CATALOGUE = Catalogue(NOTATIONS, "contraband v1")
_PER_SEAT = 17


class ContrabandEncoder(Encoder):
    name = "contraband"
    version = 1

    def __init__(self, game: Game, seats: int, options: Mapping[str, Any]) -> None:
        super().__init__(game, seats, options)
        self.actions = _CATALOGUE
        self.observation_size = len(PHASES) + MAX_SEATS + 16 + _PER_SEAT * MAX_SEATS + 4 * _A
        self.bounds = (-1e3, 1e3)

    def features(self, v: Mapping[str, Any]) -> list[float]:
        n = v["seats"]
        me = v["seat"] or 0
        out: list[float] = []
        one_hot(out, _PIX.get(v["phase"]), len(PHASES))
        one_hot(out, n - 1, MAX_SEATS)
        lug = v["luggage"]
        holder = lug["holder"] if lug else -1
        mine = v.get("your_luggage")
        claim = v["claim"]
        out += [
            v["round"] / 10, v["reshuffles"] / 10, v["declarations"] / 100, v["unused"] / 100, v["pack"] / 54,
            v["discard"]["face_down"] / 54, 1.0 if lug else 0.0, lug["cards"] / 4 if lug else 0.0,
            1.0 if lug and lug["examined"] else 0.0, 1.0 if claim["diplomatic_bag"] else 0.0,
            1.0 if mine is not None else 0.0, 1.0 if v["officer"] == me else 0.0, 1.0 if holder == me else 0.0,
            1.0 if v["declarer"] == me else 0.0, 1.0 if v["to_act"] == me else 0.0, 1.0 if v["is_over"] else 0.0,
        ]
        owes = [0.0] * n
        owed = [0.0] * n
        for loan in v["loans"]:
            owes[loan["borrower"]] += loan["amount"] / 1000
            owed[loan["lender"]] += loan["amount"] / 1000
        pay = [0.0] * n
        paid = [0.0] * n
        for o in v["owed"]:
            pay[o["payer"]] += o["amount"] / 1000
            paid[o["payee"]] += o["amount"] / 1000
        t = v["table"]
        blocks = [0.0] * (_PER_SEAT * MAX_SEATS)
        for p in range(n):
            r = rel(p, me, n)
            assert r is not None
            blocks[r * _PER_SEAT : (r + 1) * _PER_SEAT] = [
                v["cash"][p] / 1000, float(v["retired"][p]), float(v["been_officer"][p]), float(v["officer"] == p),
                float(holder == p), float(v["declarer"] == p), float(v["to_act"] == p),
                t["declared"][p] / 10, t["caught"][p] / 10, t["cleared"][p] / 10, t["searches"][p] / 10,
                t["waved"][p] / 10, t["informs"][p] / 10, owes[p], owed[p], pay[p], paid[p],
            ]
        out += blocks
        revealed = [0.0] * _A
        for a in v["discard"]["revealed"]:
            revealed[_AIX[a]] += 1
        out += [revealed[i] / _COUNT[i] for i in range(_A)]
        multi_hot(out, claim["articles"], _AIX, _A)
        held = [0.0] * _A
        for a in mine or ():
            held[_AIX[a]] += 1
        out += held
        out += [(_COUNT[i] - revealed[i] - held[i]) / _COUNT[i] for i in range(_A)]
        return out


register_encoder("contraband", ContrabandEncoder, versions=(1,))
