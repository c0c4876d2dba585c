"""Precious Cargo heuristic: routes, demand, Governors and blockades.

Each ship picks a next port by value per turn of sailing: what its cargo
fetches there (the chip's value for the commodity in demand, 1 otherwise,
plus 1 a crate when the Governor there is ours, less 1 when it is the
opponent's), plus what it could load there for the other country's demand.
It sails along the shortest free path (other ships are obstacles), breaking
ties towards dots that lengthen the opponent's routes: a blockade when it
costs nothing. At port it sells what will not fetch more elsewhere, loads the
cargo most wanted across the sea, installs Governors where it trades, adds a
second sail to a slow ship and builds a hull when it can afford to sail it.
"""

from __future__ import annotations

from collections import deque
from typing import Any

from freetrader.bots.base import Bot, register_heuristic
from freetrader.bots.ismcts import register_evaluator
from freetrader.core import Action, State

from . import actions as A
from .components import COMPONENTS as C
from .components import FOOD
from .rules import (
    ACT,
    COUNTRY,
    FIRST,
    HOME,
    LOAD,
    MOVE,
    SELL,
    SHIPS,
    crate_type,
    sellable,
)

NS = C.n_settlements
NP = len(C.places)
DIST = C.dist
VALUE = C.cargo_value
_FAR = 99


def _free_dist(s: Any, target: int, me: int) -> list[int]:
    """Moves from every place to ``target`` through places a ship may enter now (``me`` is not an obstacle)."""
    d = [_FAR] * NP
    d[target] = 0
    q = deque([target])
    occ, cap, at = s.occ, C.capacity, s.at[me]
    while q:
        u = q.popleft()
        for v in C.neighbors[u]:
            if d[v] == _FAR and (occ[v] < cap[v] or v == at):
                d[v] = d[u] + 1
                if v != at:
                    q.append(v)
    return d


class PreciousCargoBot(Bot):
    name = "heuristic"

    def __init__(self, game: Any, seed: int = 0, **params: Any) -> None:
        self.block_weight = float(params.pop("block", 0.3))
        super().__init__(game, seed, **params)

    # -- values ------------------------------------------------------------------
    def _crate_value(self, s: Any, code: int, p: int, seat: int) -> float:
        k = crate_type(code)
        v = VALUE[k] if s.chips[p] == k else C.not_in_demand
        g = s.gov[p]
        return v + (1.0 if g == seat else -0.5 if g >= 0 else 0.0)

    def _turns(self, s: Any, slot: int, a: int, b: int) -> float:
        speed = max(1, s.sails[slot]) + 0.5
        return float(DIST[a][b] / speed)

    def _best_sale_elsewhere(self, s: Any, slot: int, code: int, seat: int, here: int) -> float:
        best = 0.0
        for q in range(NS):
            if q != here and sellable(s, code, q):
                best = max(best, self._crate_value(s, code, q, seat) - 0.8 * self._turns(s, slot, here, q))
        return best

    def _load_potential(self, s: Any, p: int, room: int, seat: int, have: tuple[int, ...]) -> float:
        if room <= 0:
            return 0.0
        c = C.country_of[p]
        vals = []
        for k in C.buyable[c]:
            if not s.stock[c * C.n_cargo + k]:
                continue
            code = p if k == FOOD else k << 3
            best = 0.0
            for q in range(NS):
                if sellable(s, code, q):
                    best = max(best, self._crate_value(s, code, q, seat) - 0.4 * DIST[p][q] / 2.5)
            vals.append(best)
        vals.sort(reverse=True)
        return sum(vals[:room])

    def _target(self, s: Any, slot: int, seat: int) -> int:
        here = s.at[slot]
        hold = s.holds[slot]
        room = C.ship_places - s.sails[slot] - len(hold)
        best, best_p = -1.0, int(here)
        for p in range(NS):
            if p != here and s.occ[p] >= C.capacity[p]:
                continue
            sale = sum(self._crate_value(s, code, p, seat) for code in hold if sellable(s, code, p))
            freed = room + sum(1 for code in hold if sellable(s, code, p))
            load = self._load_potential(s, p, freed, seat, hold)
            score = (sale + 0.6 * load) / (1.0 + self._turns(s, slot, here, p))
            if p == here:
                score *= 1.05
            if score > best:
                best, best_p = score, p
        return best_p

    def _opponent_cost(self, s: Any, seat: int, place: int) -> float:
        """How much longer the opponent's ships' routes to their own ports get if ``place`` is taken."""
        opp = 1 - seat
        total = 0.0
        for slot in range(opp * SHIPS, opp * SHIPS + SHIPS):
            a = s.at[slot]
            if a < 0 or not s.sails[slot]:
                continue
            t = self._target(s, slot, opp)
            if t == a:
                continue
            before = _free_dist(s, t, slot)[a]
            s.occ[place] += 1
            after = _free_dist(s, t, slot)[a]
            s.occ[place] -= 1
            total += min(after, 12) - min(before, 12)
        return total

    # -- decisions -----------------------------------------------------------------
    def choose(self, state: State, seat: int) -> Action:
        s: Any = state
        legal = state.legal_actions()
        if len(legal) == 1:
            return legal[0]
        phase = s.phase
        if phase == MOVE:
            return self._move(s, seat, legal, again=False) or A.STOP
        if phase == ACT:
            return self._act(s, seat, legal)
        if phase == LOAD:
            return self._load_more(s, seat, legal)
        if phase == SELL:
            return self._sell_more(s, seat, legal)
        if phase == COUNTRY:
            return legal[self.rng.below(len(legal))]
        if phase == FIRST:
            return A.FIRST[seat]
        if phase == HOME:
            # A home with room to trade along both coasts: the most neighbours, then the middle.
            return max(legal, key=lambda a: (len(C.neighbors[C.by_id[a.settlement]]), -abs(C.places[C.by_id[a.settlement]].y - 3)))  # type: ignore[attr-defined]
        return legal[0]

    def _move(self, s: Any, seat: int, legal: list[Action], again: bool) -> Action | None:
        kind = A.Again if again else A.Move
        steps: dict[int, list[A.Move | A.Again]] = {}
        for a in legal:
            if isinstance(a, (A.Move, A.Again)) and type(a) is kind:
                steps.setdefault(a.ship, []).append(a)
        for number in sorted(steps):
            slot = seat * SHIPS + number - 1
            target = self._target(s, slot, seat)
            here = s.at[slot]
            if target == here:
                continue
            d = _free_dist(s, target, slot)
            if d[here] >= _FAR:
                continue
            options = [a for a in steps[number] if d[C.by_id[a.to]] < d[here]]
            if not options:
                continue
            if len(options) > 1 and self.block_weight:
                return max(options, key=lambda a: self._opponent_cost(s, seat, C.by_id[a.to]))
            return options[0]
        return None

    def _sell_list(self, s: Any, seat: int, legal: list[Action]) -> list[Action]:
        out: list[Action] = []
        for a in legal:
            if type(a) is A.Sell:
                slot = seat * SHIPS + a.ship - 1
                here = s.at[slot]
                code = next(c for c in s.holds[slot] if A.crate_token(c) == a.crate)
                if self._crate_value(s, code, here, seat) >= self._best_sale_elsewhere(s, slot, code, seat, here) - 0.01:
                    out.append(a)
        return out

    def _take_list(self, s: Any, seat: int, legal: list[Action]) -> list[tuple[float, Action]]:
        out: list[tuple[float, Action]] = []
        for a in legal:
            if type(a) is A.Take:
                slot = seat * SHIPS + a.ship - 1
                if not s.sails[slot]:
                    continue  # a hull without sails must keep room for them
                p = s.at[slot]
                k = C.cargo_by_id[a.cargo]
                code = p if k == FOOD else k << 3
                best = max((self._crate_value(s, code, q, seat) - 0.4 * DIST[p][q] / 2.5
                            for q in range(NS) if sellable(s, code, q)), default=0.0)
                if best >= 1.2:
                    out.append((best, a))
        out.sort(key=lambda t: -t[0])
        return out

    def _act(self, s: Any, seat: int, legal: list[Action]) -> Action:
        sells = self._sell_list(s, seat, legal)
        if sells:
            return sells[0]
        takes = self._take_list(s, seat, legal)
        if takes:
            return takes[0][1]
        coins = s.coins[seat]
        for a in legal:
            if type(a) is A.Install:
                return a
        ships = [slot for slot in range(seat * SHIPS, seat * SHIPS + SHIPS) if s.at[slot] >= 0]
        for a in legal:
            if type(a) is A.AddSails:
                slot = seat * SHIPS + a.ship - 1
                want = 2 - s.sails[slot]
                if a.n == want and (s.sails[slot] == 0 or coins >= 4):
                    return a
        if len(ships) < 3 and coins >= 6 and coins < s.options["target"] - 6:
            builds = [a for a in legal if type(a) is A.Build]
            if builds:
                return builds[0]
        step = self._move(s, seat, legal, again=True)
        if step is not None:
            return step
        return A.END

    def _load_more(self, s: Any, seat: int, legal: list[Action]) -> Action:
        takes = self._take_list(s, seat, legal)
        return takes[0][1] if takes else A.DONE

    def _sell_more(self, s: Any, seat: int, legal: list[Action]) -> Action:
        sells = self._sell_list(s, seat, legal)
        return sells[0] if sells else A.DONE


register_heuristic("precious-cargo", PreciousCargoBot)


_VALUER = PreciousCargoBot(None)


def estimate(state: State) -> list[float]:
    """Coins plus, for each crate aboard, its best sale less the sailing it takes (the heuristic's prices).

    For IS-MCTS's rollout cut: a cargo carried towards its buyers is worth
    more than one sailed away from them, though no coin has changed hands.
    """
    s: Any = state
    out = []
    for seat in range(s.seats):
        v = float(s.coins[seat])
        for slot in range(seat * SHIPS, seat * SHIPS + SHIPS):
            here = s.at[slot]
            if here < 0:
                continue
            for code in s.holds[slot]:
                best = 0.0
                for q in range(NS):
                    if sellable(s, code, q):
                        best = max(best, _VALUER._crate_value(s, code, q, seat) - 0.8 * _VALUER._turns(s, slot, here, q))
                v += best
        out.append(v)
    return out


register_evaluator("precious-cargo", estimate)
