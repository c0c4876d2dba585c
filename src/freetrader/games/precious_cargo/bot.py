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
Where it sails and what it sells follow one rule (``_sells_here``), so it never
stays for, or sails to, a sale it then declines. Asked who goes first, it picks
the start that has won more heuristic games for its country (``FIRST_WINS``).
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
#: The first player's win rate in heuristic self-play, by the country the first player leads
#: (0 Koruna, 1 Talonas): 4,000 games, seed 5, ``freetrader simulate precious-cargo -n 4000
#: --seats heuristic,heuristic --seed 5 -o first_player=seat0`` split by the first action
#: (seat 0 chose Koruna: 59.3%, 57.1-61.4%, 2,014 games; Talonas: 55.5%, 53.3-57.7%, 1,986).
#: Re-measure when the heuristic changes (see RULES.md, "Who goes first").
FIRST_WINS = (0.593, 0.555)
#: A crate is loaded only when its best sale, less the sailing to it, is worth at least this.
TAKE_AT_LEAST = 1.2


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

    def _sells_here(self, s: Any, slot: int, code: int, seat: int, here: int) -> bool:
        """The one rule for selling a crate at ``here``: it fetches no less there than anywhere else.

        ``_target`` counts the sales at every port by this same rule, so a ship never stays
        for, or sails to, a sale it then declines. It did, and games stalled for good: both
        players docked and passing, each ship "staying to sell" a crate its sell rule kept
        for later, or a ship stepping out of port and back, drawn by a sale it refused there.
        """
        if not sellable(s, code, here):
            return False
        return self._crate_value(s, code, here, seat) >= self._best_sale_elsewhere(s, slot, code, seat, here) - 0.01

    def _load_value(self, s: Any, p: int, code: int, seat: int) -> float:
        """What a crate loaded at ``p`` is worth: its best sale less the sailing to it."""
        return max((self._crate_value(s, code, q, seat) - 0.4 * DIST[p][q] / 2.5
                    for q in range(NS) if sellable(s, code, q)), default=0.0)

    def _load_potential(self, s: Any, p: int, room: int, seat: int) -> float:
        """The worth of the best ``room`` crates worth loading at ``p`` (by ``_take_list``'s threshold)."""
        if room <= 0:
            return 0.0
        c = C.country_of[p]
        vals = []
        for k in C.buyable[c]:
            if not s.stock[c * C.n_cargo + k]:
                continue
            v = self._load_value(s, p, p if k == FOOD else k << 3, seat)
            if v >= TAKE_AT_LEAST:
                vals.append(v)
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
            sold = [code for code in hold if self._sells_here(s, slot, code, seat, p)]
            sale = sum(self._crate_value(s, code, p, seat) for code in sold)
            load = self._load_potential(s, p, room + len(sold), seat) if s.sails[slot] else 0.0
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
            return A.FIRST[self._first_choice(s, seat)]
        if phase == HOME:
            # A home with room to trade along both coasts: the most neighbours, then the middle.
            return max(legal, key=lambda a: (len(C.neighbors[C.by_id[a.settlement]]), -abs(C.places[C.by_id[a.settlement]].y - 3)))  # type: ignore[attr-defined]
        return legal[0]

    def _first_choice(self, s: Any, seat: int) -> int:
        """Set Up, "Choose a player to go first": the seat whose start wins this seat more games.

        Going first wins ``FIRST_WINS[c]`` of the games when the first player leads country
        ``c``; going second wins what the first player, leading the other country, loses.
        """
        mine = s.country[seat]
        first = FIRST_WINS[mine]
        second = 1.0 - FIRST_WINS[1 - mine]
        return seat if first >= second else 1 - seat

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
                code = next(c for c in s.holds[slot] if A.crate_token(c) == a.crate)
                if self._sells_here(s, slot, code, seat, s.at[slot]):
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
                best = self._load_value(s, p, p if k == FOOD else k << 3, seat)
                if best >= TAKE_AT_LEAST:
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
