"""Merchants Cove heuristic: one-ply greedy on an estimate of final gold, hours priced in.

Every legal action is tried on a copy of the (determinized) state; an action
space of the shop board is followed through its small decisions by the same
greedy rule before it is judged, and its hours are charged at a fixed rate.
The estimate is gold, plus goods on the Sale Shelf valued at the best sale the
docked piers offer (or a discount if none), plus the merchant's half-made goods
(``Merchant.potential``), plus what sponsorship shields and Townsfolk icons will
pay from the Faction Halls, minus the Corruption penalty. Two choices use rules
of thumb instead of a noisy single sample: the Captain spins again while the
ship's catch is small, and Market sales are taken best price first while they
beat the Corruption they bring.
"""

from __future__ import annotations

from typing import Any

from freetrader.bots.base import Bot, register_heuristic
from freetrader.bots.ismcts import register_depth, register_evaluator
from freetrader.core import Action, State

from . import rules as R
from .actions import AGAIN, DONE, SELLS, STOP
from .components import COMPONENTS as C
from .components import GREY, N_GOODS
from .merchants import MERCHANTS
from .merchants.captain import CAPTAIN, SpinAgain

HOUR = 2.6  # gold an hour of the Clock is worth
CORRUPTION = 2.5  # gold a Corruption icon is expected to cost


def _sales(s: Any, p: int) -> float:
    """Shelf goods valued at the best docked groups still open to ``p``, else at a discount."""
    goods = [g for g in range(N_GOODS) for _ in range(s.shelf[p][g])]
    goods.sort(key=lambda g: -C.values[g])
    used: set[int] = set()
    total = 0.0
    bit = 1 << p
    markets_left = C.days - s.day + (0 if s.stage == R.ST_MARKET else 1)
    for g in goods:
        colour, size = divmod(g, 2)
        best, key = 0.0, -1
        for pi, pier in enumerate(C.piers):
            if size not in pier.sizes and colour != GREY:
                continue
            k = pi * 5 + colour
            if k in used or s.bought[k] & bit:
                continue
            n = R.customers(s, pi, colour)
            price = C.values[g] * n - pier.corruption * CORRUPTION
            if price > best:
                best, key = price, k
        if key >= 0 and s.stage != R.ST_OVER:
            used.add(key)
            total += best
        elif markets_left > (1 if s.stage == R.ST_PROD else 0):
            total += C.values[g] * 1.1
        elif s.stage == R.ST_PROD:
            total += C.values[g] * 0.9
    return total


def value(s: Any, p: int) -> float:
    v = float(s.gold[p])
    if s.stage == R.ST_OVER:
        return v
    v += _sales(s, p)
    markets = C.days - s.day + (0 if s.stage == R.ST_MARKET and not s.order else 1)
    v += MERCHANTS[s.merchant[p]].potential(s, p) if s.merchant[p] else 0.0
    halls = [h + 1.5 * max(0, C.days - s.day) for h in s.halls]
    v += sum(s.shields[p][c] * (s.halls[c] + 1) * markets for c in range(4)) * C.sponsor_rate
    icons = R.faction_icons(s, p)
    v += sum(icons[c] * min(halls[c], C.icon_cap) for c in range(4)) * C.icon_rate
    rate = C.corruption_base + s.lair // C.corruption_per_lair
    v -= R.corruption_icons(s, p) * rate
    return float(v)


class MerchantsCoveBot(Bot):
    name = "heuristic"

    def choose(self, state: State, seat: int) -> Action:
        s: Any = state
        legal = state.legal_actions()
        if len(legal) == 1:
            return legal[0]
        ph = s.phase
        if ph == R.SETUP:
            names = {a.merchant: a for a in legal}  # type: ignore[attr-defined]
            return names[self.rng.choice(sorted(names))]  # the merchants are near-equal by design
        if ph == R.SELL:
            return self._sell(s, seat, legal)
        if ph == R.MERCH and isinstance(s.frames[-1], SpinAgain):
            hold = CAPTAIN.board(s, seat).hold[s.frames[-1].ship]
            catch = sum(hold[:4]) + 3 * hold[4]
            return AGAIN if catch < 6 else STOP
        deep = ph == R.MAIN
        best, best_v = legal[0], -1e18
        for a in legal:
            v = self._score(s, seat, a, deep)
            if v > best_v:
                best, best_v = a, v
        return best

    def _score(self, s: Any, seat: int, a: Action, deep: bool) -> float:
        c = s.clone()
        before = c.time[seat]
        c.apply_unchecked(a)
        if deep:
            steps = 0
            while c.to_act == seat and c.phase not in (R.MAIN, R.SELL, R.OVER) and steps < 8:
                options = c.legal_actions()
                c.apply_unchecked(max(options, key=lambda x: self._score(c, seat, x, False)))
                steps += 1
        v = value(c, seat)
        if deep and c.day == s.day:
            v -= (c.time[seat] - before) * HOUR
        return v

    def _sell(self, s: Any, seat: int, legal: list[Action]) -> Action:
        best, best_v = None, 0.0
        for g, pi, price, rog in R.sale_options(s, seat):
            net = price - (C.piers[pi].corruption + rog) * CORRUPTION
            if net > best_v:
                best_v = net
                best = SELLS[g][pi][rog]
        return best if best is not None else DONE


register_heuristic("merchants-cove", MerchantsCoveBot)


def estimate(state: State) -> list[float]:
    """Final gold each seat can expect, for IS-MCTS's rollout cut; solo: less the Peddler's gold.

    ``value`` plus the hours still left on the Clock today at ``HOUR`` gold
    each: the heuristic charges an action its hours, and a short rollout must
    too, or the action that spends the day fastest looks best.
    """
    s: Any = state

    def gold(p: int) -> float:
        v = value(s, p)
        if s.stage == R.ST_PROD:
            v += HOUR * max(0, C.market - s.time[p])
        return v

    if s.np > s.seats:
        return [gold(0) - s.gold[s.seats]]
    return [gold(p) for p in range(s.seats)]


register_evaluator("merchants-cove", estimate)
register_depth("merchants-cove", 4)  # its heuristic is slow: 5x the iterations of 20
