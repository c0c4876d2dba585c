"""Cornish Smuggler heuristic: buy, sail home, land where it is safe, sell well.

A plan in priority order, each step a sensible greedy choice:
sell goods standing in a town (the best price the purse allows); land
goods when the ship is at a port of the network, hiding the landing just
enough that no unbribed officer can reach it; bribe an officer who sits on
a selling port of the network; carry landed goods towards a town; sail home
with a full hold or to the nearest Merchant with an empty one and buy the
biggest piece that fits; hire characters that bring Reputation; honest work
when broke; pass. The small decisions (which officer moves, where a new one
goes) are chosen to hurt rivals' goods and spare its own.
"""

from __future__ import annotations

from collections import deque
from typing import Any

from freetrader.bots.base import Bot, near_best, register_bot, register_heuristic
from freetrader.bots.ismcts import register_evaluator
from freetrader.core import Action, State

from . import rules as R
from .actions import Act
from .components import COMPONENTS as C


def _sea_distances() -> list[list[int]]:
    n = len(C.sea_ids)
    out = []
    for a in range(n):
        d = [10**6] * n
        d[a] = 0
        q = deque([a])
        while q:
            x = q.popleft()
            for y in C.sea_adj[x]:
                if d[y] > d[x] + 1:
                    d[y] = d[x] + 1
                    q.append(y)
        out.append(d)
    return out


SEA = _sea_distances()
_CHARACTER = {c.id: c for c in C.characters}
SELL_PORTS = [loc.index for loc in C.locations if loc.size and loc.sea_node >= 0 and loc.kind != "cove"]


class CornishBotV1(Bot):
    """The heuristic of issue 3, which knows no card abilities: it declines every reaction window."""

    name = "cornish-heuristic-v1"

    def choose(self, state: State, seat: int) -> Action:
        s: Any = state
        legal = state.legal_actions()
        if len(legal) == 1:
            return legal[0]
        by_text = {str(a): a for a in legal}
        ph = s.phase
        pick = None
        if ph == R.MAIN:
            pick = self._main(s, seat, legal, by_text)
        elif ph == R.LAND_SELECT:
            pick = next((a for a in legal if a.verb == "unload"), None)  # type: ignore[attr-defined]
            pick = pick or by_text.get("done")
        elif ph == R.LAND_HIDE:
            pick = self._hide(s, seat, legal)
        elif ph == R.LAND_STORE:
            pick = legal[0]
        elif ph == R.PRICE:
            pick = self._price(s, seat, legal)
        elif ph in (R.CUSTOMS_OFFICER, R.CUSTOMS_STEP, R.POST):
            pick = self._customs(s, seat, legal)
        elif ph == R.PLACE or ph == R.SETUP_COUNTER:
            pick = max(legal, key=lambda a: self._spot_value(s, seat, C.loc_by_id[a.item]))  # type: ignore[attr-defined]
        elif ph == R.SETUP_SHIP:
            pick = near_best(self.rng, legal, lambda a: len(next(sh for sh in C.ships if sh.id == a.item).hold.cells), 1)  # type: ignore[attr-defined]
        elif ph == R.SETUP_KEEP:
            pick = near_best(self.rng, legal, lambda a: next(c.reputation for c in C.characters if c.id == a.item))  # type: ignore[attr-defined]
        elif ph in (R.REACT, R.PROTECT):
            pick = by_text.get("decline")
        elif ph in (R.EFFECT, R.LOSE_COUNTER):
            pick = legal[0]
        elif ph == R.SETUP_LAUNCH:
            home = s.counters[seat][0] if s.counters[seat] else C.penzance
            node = C.locations[home].sea_node if C.locations[home].sea_node >= 0 else C.locations[C.penzance].sea_node
            pick = min(legal, key=lambda a: SEA[C.sea_by_id[a.item]][node])  # type: ignore[attr-defined]
        return pick if pick is not None else legal[self.rng.below(len(legal))]

    # -- the Action --------------------------------------------------------------
    def _main(self, s: Any, p: int, legal: list[Action], by_text: dict[str, Action]) -> Action | None:
        verbs: dict[str, list[Act]] = {}
        for a in legal:
            if isinstance(a, Act):
                verbs.setdefault(a.verb, []).append(a)
        if "store" in verbs and self._threatened(s, p):
            return verbs["store"][0]
        if "unstore" in verbs:
            for a in verbs["unstore"]:
                g = R.GOODS_BY_ID[a.item]
                where = C.storehouses[s.g_at[g]].location
                if C.locations[where].size and not R.unbribed_officer_at(s, p, where):
                    return a
        if "claim" in verbs:
            return verbs["claim"][0]
        if "sell" in verbs:
            return max(verbs["sell"], key=lambda a: C.shapes[C.goods[R.GOODS_BY_ID[a.item]]].size)
        if "land" in verbs:
            return verbs["land"][0]
        for a in verbs.get("bribe", []):
            if C.locations[s.off_at[int(a.item)]].size:
                return a
        carry = self._carry_to_town(s, p, verbs.get("carry", []) + verbs.get("escort", []))
        if carry is not None:
            return carry
        if "buy" in verbs and s.gold[p] >= 3:
            return max(verbs["buy"], key=lambda a: C.shapes[C.goods[R.GOODS_BY_ID[a.item]]].size)
        sail = self._sail(s, p, verbs.get("sail", []))
        if sail is not None:
            return sail
        hires = [a for a in verbs.get("hire", []) if a.pay == "influence"]
        if hires and s.infl[p] >= 2:
            best = max(hires, key=lambda a: self._hire_value(a))
            if self._hire_value(best) > 0:
                return best
        if "honest-work" in verbs and R.honest_work_gain(s, p) >= 3:
            return verbs["honest-work"][0]
        return by_text.get("pass")

    def _threatened(self, s: Any, p: int) -> bool:
        return any(s.off_at[o] >= 0 and s.off_bribe[o] != p for o in range(R.N_OFFICERS))

    def _hire_value(self, a: Any) -> float:
        ch = next(c for c in C.characters if c.id == a.item)
        return ch.reputation * 2 - ch.gold * 0.7 + (1 if ch.coves or ch.storehouse >= 0 else 0)

    def _carry_to_town(self, s: Any, p: int, moves: list[Act]) -> Action | None:
        best: Act | None = None
        best_gain = 0.0
        for a in moves:
            g = R.GOODS_BY_ID[a.item]
            here, there = s.g_at[g], C.loc_by_id[a.to]
            if C.locations[here].size:
                continue
            gain = float(self._town_distance(here) - self._town_distance(there))
            if a.verb == "escort":
                gain -= 0.5
            if a.pay == "gold" and s.gold[p] < 8:
                gain -= 0.3
            if gain > best_gain:
                best, best_gain = a, gain
        return best

    @staticmethod
    def _town_distance(loc: int) -> int:
        return min(C.dist[loc][t.index] for t in C.locations if t.size and t.index != C.scilly)

    def _sail_targets(self, s: Any, p: int) -> list[int]:
        here = s.ship_at[p]
        if s.hold[p]:
            return [C.locations[x].sea_node for x in set(s.counters[p]) if R.can_land_at(s, p, x)]
        if here in C.merchant_nodes and not R.legal_buys(s, p):
            return []
        return [m for m in C.merchant_nodes
                if any(s.g_where[g] == R.MERCHANT and s.g_at[g] == C.merchant_nodes.index(m)
                       for g in range(len(C.goods)))]

    def _sail(self, s: Any, p: int, sails: list[Act]) -> Action | None:
        if not sails:
            return None
        targets = self._sail_targets(s, p)
        if not targets:
            return None
        pays = [a for a in sails if a.pay == "influence"] or sails
        return min(pays, key=lambda a: min(SEA[C.sea_by_id[a.to]][t] for t in targets))

    # -- small decisions ------------------------------------------------------------
    def _hide(self, s: Any, p: int, legal: list[Action]) -> Action:
        near = min((C.dist[s.off_at[o]][s.land_loc] for o in range(R.N_OFFICERS)
                    if s.off_at[o] >= 0 and s.off_bribe[o] != p), default=10**6)
        for a in legal:  # the least Influence that keeps every unbribed officer short
            if s.excess - int(a.item) < near:  # type: ignore[attr-defined]
                return a
        return legal[0]

    def _price(self, s: Any, p: int, legal: list[Action]) -> Action:
        g = s.sub_goods
        town = C.locations[s.g_at[g]]
        size = C.shapes[C.goods[g]].size

        def value(a: Any) -> float:
            row = R.ROW_NAMES.index(a.item)
            gold, rep = C.price(town.size, size, row)
            cost = C.row_cost[row]
            return gold + rep * 1.2 - (cost * 1.0 if a.pay == "reputation" else cost * 0.6)

        return max(legal, key=value)

    def _customs(self, s: Any, p: int, legal: list[Action]) -> Action:
        def harm(a: Any) -> float:
            if a.verb == "move":
                where = s.off_at[int(a.item)]
            else:
                where = C.loc_by_id[a.item]
            score = 0.0
            for g in R.goods_at(s, where):
                score += -3 if s.g_owner[g] == p else 1
            score -= 0.5 * s.counters[p].count(where)
            return float(score)

        return max(legal, key=harm)

    def _spot_value(self, s: Any, p: int, loc: int) -> float:
        place = C.locations[loc]
        landing = place.sea_node >= 0 and place.kind in ("port", "island")
        value = place.size * 1.0 + (6 if landing else 0) - place.risk * 0.4
        if any(s.off_at[o] == loc and s.off_bribe[o] != p for o in range(R.N_OFFICERS)):
            value -= 3
        value -= 2 * sum(loc in s.counters[q] for q in range(s.seats) if q != p)
        return value


class CornishBotV2(CornishBotV1):
    """The heuristic of issue 4 (``cornish-heuristic-v2``): hires for Reputation first (Reputation is next turn's Influence and final score), Motivates its
    Characters and plays Secrets when they save goods or money; declines what it does not understand.

    Against ``cornish-heuristic-v1`` at 2 seats, 1,000 games with both seat orders: 94.4% of the wins. It
    stalls: with Reputation of 11 or more and no Gold or goods it can do nothing useful (Honest Work pays
    nothing), so it passes with hundreds of Influence until a turn cap ends the game (issue 23)."""

    name = "cornish-heuristic-v2"

    def choose(self, state: State, seat: int) -> Action:
        s: Any = state
        legal = state.legal_actions()
        if len(legal) > 1:
            by_text = {str(a): a for a in legal}
            if s.phase == R.REACT:
                return self._react(s, seat, legal, by_text)
            if s.phase == R.PROTECT:
                return next((a for a in legal if a.verb == "motivate"), legal[0])  # type: ignore[attr-defined]
            if s.phase == R.EFFECT:
                return self._effect(s, seat, legal, by_text)
            if s.phase == R.MAIN:
                free = self._free_card(s, seat, legal)
                if free is not None:
                    return free
            if s.phase == R.RAID_DISCARD:  # the Mob worth least
                return min(legal, key=lambda a: _CHARACTER[a.item].reputation)  # type: ignore[attr-defined]
            if s.phase == R.RAID_REMOVE:  # never Penzance: the liberated piece lands there, to be sold there
                return next((a for a in legal if C.loc_by_id[a.item] != C.penzance), legal[0])  # type: ignore[attr-defined]
        return super().choose(state, seat)

    # -- reaction windows: use what saves goods or money -------------------------------------
    def _react(self, s: Any, p: int, legal: list[Action], by_text: dict[str, Action]) -> Action:
        ev = s.win_event
        cards = [a for a in legal if a.verb in ("play", "motivate")]  # type: ignore[attr-defined]
        if not cards:
            return legal[0]
        if ev == "seizure":
            mine = sum(C.shapes[C.goods[g]].size for g in s.seize_list if s.g_owner[g] == p)
            for a in cards:
                if a.item == "drunken-distraction" and mine < 7:  # type: ignore[attr-defined]
                    continue
                if mine:
                    return a
        elif ev == "land" and s.win_subject == p:
            if R.landing_excess(s) + s.risk_mod > 0:
                for a in cards:
                    if a.item != "holly-and-olivia" or s.infl[p] >= 4:  # type: ignore[attr-defined]
                        return a
        elif ev == "land" and s.win_subject != p:
            pass
        elif ev in ("sale", "buy", "bribe", "buy-reputation", "ship-enters"):
            return cards[0]
        elif ev == "sail" and s.hold[p]:
            return cards[0]
        return by_text.get("decline", legal[0])

    def _effect(self, s: Any, p: int, legal: list[Action], by_text: dict[str, Action]) -> Action:
        from freetrader.games.cornish_smuggler import board as A

        effect = A.card_of(s.card_in_play).effect
        if effect == "witch-toll" and "choose pay" in by_text:
            return by_text["choose pay"] if s.gold[p] >= 8 or "choose cargo" not in by_text else by_text["choose cargo"]
        if effect in ("extra-sail", "sail-free"):
            sails = [a for a in legal if a.item in C.sea_by_id]  # type: ignore[attr-defined]
            targets = self._sail_targets(s, p)
            if sails and targets:
                return min(sails, key=lambda a: min(SEA[C.sea_by_id[a.item]][t] for t in targets))  # type: ignore[attr-defined]
            return by_text.get("done", legal[0])
        if effect == "shift-landing-risk":
            return by_text.get("choose reduce" if s.win_subject == p else "choose increase", legal[0])
        rivals = [a for a in legal if a.item.startswith("seat-") and int(a.item[5:]) != p]  # type: ignore[attr-defined]
        if rivals:
            return max(rivals, key=lambda a: s.gold[int(a.item[5:])] + s.rep[int(a.item[5:])])  # type: ignore[attr-defined]
        return legal[0]

    def _free_card(self, s: Any, p: int, legal: list[Action]) -> Action | None:
        """Free plays (not the Action) worth making at once."""
        for a in legal:
            if a.verb == "play" and a.item in ("friends-in-high-places", "a-lantern-on-the-cliff"):  # type: ignore[attr-defined]
                return a
        return None

    #: Gold kept back when hiring, so that the network can still buy goods.
    hire_reserve = 3

    def _main(self, s: Any, p: int, legal: list[Action], by_text: dict[str, Action]) -> Action | None:
        hire = self._hire_first(s, p, legal)
        if hire is not None:
            return hire
        pick = super()._main(s, p, legal, by_text)
        if pick is not None and pick.verb == "pass":  # type: ignore[attr-defined]
            for a in legal:  # rather than pass: cards that draw Secrets
                if a.verb == "motivate" and a.item in ("william-kitto", "matthew-jory"):  # type: ignore[attr-defined]
                    return a
        return pick

    def _hire_first(self, s: Any, p: int, legal: list[Action]) -> Action | None:
        """Reputation is Influence every turn and score at the end: build the network first,
        paying in Influence, keeping a little Gold, as long as the game is not ending."""
        if s.ending or s.infl[p] < 2:
            return None
        best, best_value = None, 0.0
        for a in legal:
            if a.verb != "hire" or a.pay != "influence":  # type: ignore[attr-defined]
                continue
            ch = _CHARACTER[a.item]  # type: ignore[attr-defined]
            if ch.reputation < 1 or s.gold[p] - ch.gold < self.hire_reserve:
                continue
            income = 0.5 if ch.effect in ("influence-per-turn", "gold-per-turn") else 0.0
            value = (ch.reputation + income) / (ch.gold + 1)
            if value > best_value:
                best, best_value = a, value
        return best

    def _hire_value(self, a: Any) -> float:
        ch = _CHARACTER[a.item]
        bonus = {"influence-per-turn": 1.0, "gold-per-turn": 1.0}.get(ch.effect, 0.0)
        return super()._hire_value(a) + bonus


def _selling_port(loc: int) -> bool:
    """A Port in a town: goods landed there can be sold without carrying them."""
    place = C.locations[loc]
    return place.size > 0 and place.sea_node >= 0 and place.kind != "cove"


class CornishBot(CornishBotV2):
    """Issue 23: a heuristic that plays the whole game as a person would, and never stalls.

    Influence comes back every turn while Gold only comes from sales, so it pays in Influence wherever
    it can, keeps a floor of Gold for the next goods, and runs the smuggler's loop: sail to a Merchant,
    buy what sells best where it lands, sail to a Port of its network in a town, land (spending
    Influence so the Customs Officers do not come), store what it is not selling this Action, sell one
    piece at a time at the price that earns the most, and bribe or push away the officers that stand
    in its way. Influence left over buys Secrets Cards, so it never sits on a pile of it.
    """

    name = "heuristic"
    #: Gold not spent below this except on goods. Honest Work pays 11 - Reputation - Gold, nothing once
    #: Reputation reaches 11: a seat with no goods and no Gold would then be stuck for good.
    gold_floor = 4
    #: Influence above this, with nothing better to do, is spent on Secrets Cards.
    influence_cap = 16
    #: What an Influence is worth in Gold while it is not piling up: the Action/Cost table trades it for
    #: 2 to 3 Gold (ships, goods, counters), but much Influence goes on actions a seat would not buy with Gold.
    influence_worth = 0.6
    #: Below this much Gold a sale's Gold counts double: the floor plus the price of a typical piece.
    gold_reserve = 10

    # -- the Action ---------------------------------------------------------------------------
    def _main(self, s: Any, p: int, legal: list[Action], by_text: dict[str, Action]) -> Action | None:
        verbs: dict[str, list[Act]] = {}
        for a in legal:
            if isinstance(a, Act):
                verbs.setdefault(a.verb, []).append(a)
        sale = max(verbs.get("sell", []), key=lambda a: self._sale_value(s, p, R.GOODS_BY_ID[a.item]), default=None)
        free = self._free_move(s, p, verbs, sale)
        if free is not None:
            return free
        if sale is not None:
            return sale
        port = C.sea_location[s.ship_at[p]]
        if "land" in verbs and not R.unbribed_officer_at(s, p, port) and self._landable(
                s, p, port, list(s.hold[p]), s.infl[p] - 1):
            return verbs["land"][0]
        hire = self._hire_early(s, p, verbs.get("hire", []))
        if hire is not None:
            return hire
        for pick in (
            self._bribe(s, p, verbs.get("bribe", [])),
            self._carry_to_town(s, p, [a for a in verbs.get("carry", []) + verbs.get("escort", [])
                                       if a.pay == "influence" or s.gold[p] > 12]),
            self._clear_officer(s, p, verbs.get("officer", [])),
            self._buy(s, p, verbs.get("buy", [])),
            self._sail(s, p, verbs.get("sail", [])),
            self._hire(s, p, verbs.get("hire", [])),
        ):
            if pick is not None:
                return pick
        if "honest-work" in verbs and (R.honest_work_gain(s, p) >= 2 or self._work_to_buy(s, p)):
            return verbs["honest-work"][0]
        seized = self._take_seized(s, p, verbs)
        if seized is not None:
            return seized
        reclaim = self._reclaim(s, p, verbs.get("counter", []))
        if reclaim is not None:
            return reclaim
        if "buy-reputation" in verbs and s.rep[p] < 2 and s.infl[p] < 2 and not s.ending:
            return verbs["buy-reputation"][0]  # no Reputation is no Influence next turn: nothing else could start again
        for a in legal:  # Characters that draw Secrets for free
            if a.verb == "motivate" and a.item in ("william-kitto", "matthew-jory"):  # type: ignore[attr-defined]
                return a
        discover = [a for a in verbs.get("discover", []) if a.pay == "influence"]
        if discover and s.infl[p] > (0 if s.ending else self.influence_cap):
            return discover[0]
        return by_text.get("pass")

    def _free_move(self, s: Any, p: int, verbs: dict[str, list[Act]], sale: Any) -> Action | None:
        """Storehouse Locations are free: hide every piece on land but the one being sold now; bring one out to sell."""
        selling = R.GOODS_BY_ID[sale.item] if sale is not None else -1
        for a in verbs.get("store", []):
            if R.GOODS_BY_ID[a.item] != selling:
                return a
        if "claim" in verbs:
            return verbs["claim"][0]
        if sale is None:
            for a in verbs.get("unstore", []):
                where = C.storehouses[s.g_at[R.GOODS_BY_ID[a.item]]].location
                if C.locations[where].size and not R.unbribed_officer_at(s, p, where) and s.infl[p] >= 0:
                    return a
        return None

    def _sale_value(self, s: Any, p: int, g: int) -> float:
        town = R.town_size(s, s.g_at[g])
        size = C.shapes[C.goods[g]].size
        return max(sum(C.price(town, size, row)) for row in range(3))

    def _spare_gold(self, s: Any, p: int) -> int:
        """Gold above the floor kept for the next goods (none is kept once the end is triggered).

        Once Honest Work would pay little (Reputation 9 or more), the floor is at least the price of the
        cheapest piece at a Merchant its ship can hold: spent below it, with no goods left to sell, a seat
        can never buy again, and when no seat can, nothing moves the Customs Track and the game never ends.
        """
        if s.ending:
            return int(s.gold[p])
        return int(s.gold[p]) - max(self.gold_floor, self._next_piece(s, p))

    @staticmethod
    def _next_piece(s: Any, p: int) -> int:
        """The Gold the next load needs once Honest Work pays little (Reputation 9 or more): the price of the
        cheapest piece at a Merchant its ship can hold (0 before, or when none is left)."""
        if s.rep[p] < 9:
            return 0
        hold = R.hold_of_ship(s.ship_card[p])
        flips = s.options["flip_goods"]
        return min((R.buy_price(s, g) for g in range(len(C.goods))
                    if s.g_where[g] == R.MERCHANT and R.fits(hold, [C.goods[g]], flips)), default=0)

    def _targets(self, s: Any, p: int) -> list[int]:
        """Where its ship should land: the best Port of its network, weighing the town's prices against the voyage."""
        ports = [x for x in set(s.counters[p]) if R.can_land_at(s, p, x)]
        if not ports:
            return []
        here = s.ship_at[p]

        def worth(x: int) -> float:
            size = C.locations[x].size
            value = C.price(size, 5, 2)[0] if size else 0.0
            value -= 2.0 * SEA[here][C.locations[x].sea_node]
            if R.unbribed_officer_at(s, p, x):
                value -= 12
            return float(value)

        best = max(worth(x) for x in ports)
        return [x for x in ports if worth(x) >= best - 0.5]

    def _bribe(self, s: Any, p: int, bribes: list[Any]) -> Action | None:
        """An officer on its landing Port or on its goods is worth buying for good, if Gold is to spare."""
        watched = {x for x in s.counters[p] if _selling_port(x)} | {s.g_at[g] for g in range(len(C.goods))
                                              if s.g_owner[g] == p and s.g_where[g] in (R.LAND, R.STORE)}
        best, cost = None, 10**6
        for a in bribes:
            o = int(a.item)
            c = R.bribe_cost(s, p, o)
            if s.off_at[o] in watched and _selling_port(s.off_at[o]) or s.off_at[o] in watched and c <= 4:
                if c < cost and self._spare_gold(s, p) >= c:
                    best, cost = a, c
        return best

    def _clear_officer(self, s: Any, p: int, moves: list[Any]) -> Action | None:
        """Walk an unbribed officer off the Port its loaded ship is at or heading for, or off its stored goods.

        Paid in Influence (4 a space), which it has most of; in Gold only when that is to spare."""
        watched = {s.g_at[g] for g in range(len(C.goods)) if s.g_owner[g] == p and s.g_where[g] == R.STORE}
        watched = {C.storehouses[st].location for st in watched}
        if s.hold[p]:
            here = C.sea_location[s.ship_at[p]]
            watched |= set(self._targets(s, p)) | ({here} if here >= 0 and R.can_land_at(s, p, here) else set())
        blocked = {x for x in watched if R.unbribed_officer_at(s, p, x)}
        if not blocked:
            return None
        mine = set(s.counters[p])
        best, best_harm = None, 10**6
        for a in moves:
            o = int(a.item)
            if s.off_bribe[o] == p or s.off_at[o] not in blocked:
                continue
            if a.pay != "influence" and self._spare_gold(s, p) < 6:
                continue
            to = C.loc_by_id[a.to]
            harm = (5 if to in mine else 0) + sum(3 for g in R.goods_at(s, to) if s.g_owner[g] == p)
            harm += 0.1 * (a.pay != "influence")
            if harm < best_harm:
                best, best_harm = a, harm
        return best

    @staticmethod
    def _work_to_buy(s: Any, p: int) -> bool:
        """Honest Work worth only 1 Gold is still worth doing when that Gold is all a piece left at a Merchant
        costs beyond the purse: ruling 31 keeps the game going while such a piece can be bought, and a sweep's
        2-seat game (a seat with 10 Reputation and 4 Gold, one P-pentomino at 5) passed for 300 Turns."""
        gain = R.honest_work_gain(s, p)
        if gain < 1 or s.hold[p]:
            return False
        return any(s.gold[p] < price <= s.gold[p] + gain for price in R.merchant_prices_fitting(s, p))

    def _buy(self, s: Any, p: int, buys: list[Any]) -> Action | None:
        """Buy the piece that earns most where it will land; keep 2 Gold once Honest Work would not refill it."""
        if not buys or (s.ending and s.infl[p] < 8):
            return None
        towns = [C.locations[x].size for x in self._targets(s, p) if C.locations[x].size] or [3]
        for keep in (2 if s.rep[p] >= 9 and not s.ending else 0, 0):  # a floor, unless it would buy nothing
            best, best_value = None, 0.0
            for a in buys:
                g = R.GOODS_BY_ID[a.item]
                size = C.shapes[C.goods[g]].size
                price = R.buy_price(s, g)
                if s.gold[p] - price < keep:
                    continue
                value = max(C.price(t, size, 2)[0] for t in towns) - price
                if value > best_value:
                    best, best_value = a, value
            if best is not None or s.hold[p]:
                return best
        return None

    def _sail(self, s: Any, p: int, sails: list[Any]) -> Action | None:
        if not sails:
            return None
        here = s.ship_at[p]
        if s.hold[p]:
            nodes = [C.locations[x].sea_node for x in self._targets(s, p)]
            if here in C.merchant_nodes and self._buy(s, p, R.legal_buys(s, p)) is not None:
                return None  # still buying
        elif s.ending or s.gold[p] < 2:
            return None
        else:  # a Merchant with a piece it can pay for and that fits its hold (not every shape fits every hold)
            hold = R.hold_of_ship(s.ship_card[p])
            nodes = [m for m in C.merchant_nodes
                     if any(s.g_where[g] == R.MERCHANT and s.g_at[g] == C.merchant_nodes.index(m)
                            and C.shapes[C.goods[g]].size <= s.gold[p]
                            and R.fits(hold, [C.goods[g]], s.options["flip_goods"]) for g in range(len(C.goods)))]
        if not nodes or here in nodes:
            return None
        pays = [a for a in sails if a.pay == "influence"] or [a for a in sails if self._spare_gold(s, p) >= 3]
        if not pays:
            return None
        return min(pays, key=lambda a: min(SEA[C.sea_by_id[a.to]][t] for t in nodes))  # type: ignore[no-any-return]

    def _hire_early(self, s: Any, p: int, hires: list[Any]) -> Action | None:
        """Reputation brings Influence every turn: build it up first, keeping Gold for a first load of goods."""
        if s.ending or s.rep[p] >= 8 or s.infl[p] < 2:
            return None

        def value(ch: Any, price: int) -> float | None:
            if ch.reputation < 1 or s.gold[p] - price < 5:
                return None
            return float((ch.reputation + (0.5 if ch.effect in ("influence-per-turn", "gold-per-turn") else 0)) / (price + 1))

        return self._best_hire(s, p, hires, value)

    def _hire(self, s: Any, p: int, hires: list[Any]) -> Action | None:
        """Reputation is score and next turn's Influence: hire when it is worth its Gold and Gold is to spare."""

        def value(ch: Any, price: int) -> float | None:
            if self._spare_gold(s, p) < price:
                return None
            income = 1.0 if ch.effect in ("influence-per-turn", "gold-per-turn") else 0.0
            later = 0.0 if s.ending else ch.reputation + income + (1 if ch.coves or ch.storehouse >= 0 else 0)
            return float(ch.reputation + later - price)

        return self._best_hire(s, p, hires, value)

    @staticmethod
    def _take_seized(s: Any, p: int, verbs: dict[str, list[Act]]) -> Action | None:
        """Owning no goods and unable to pay for any piece that fits its ship, a seat's way back into trade is
        the Customs Warehouse: raid it (hiring the one Mob it lacks first). Without this, a sweep's seat with
        10 Reputation and no Gold (Honest Work pays it 1) passed for 500 Turns beside five seized pieces."""
        if p in s.g_owner or R.WAREHOUSE not in s.g_where:
            return None
        hold = R.hold_of_ship(s.ship_card[p])
        if any(s.g_where[g] == R.MERCHANT and R.buy_price(s, g) <= s.gold[p]
               and R.fits(hold, [C.goods[g]], s.options["flip_goods"]) for g in range(len(C.goods))):
            return None
        if "raid" not in verbs:
            if C.penzance not in s.counters[p] or R.mob_count(s, p) + 1 < R.raid_mobs_needed(s, p):
                return None
            mobs = [a for a in verbs.get("hire", []) if a.pay == "influence" and _CHARACTER[a.item].mob
                    and R.hire_price(s, p, C.characters.index(_CHARACTER[a.item])) <= s.gold[p]]
            return min(mobs, key=lambda a: _CHARACTER[a.item].gold, default=None)
        if R.unbribed_officer_at(s, p, C.penzance):  # the piece is liberated in Penzance: seized again at once
            return next((a for a in verbs.get("officer", []) if a.pay == "influence"
                         and s.off_at[int(a.item)] == C.penzance and s.off_bribe[int(a.item)] != p), None)
        return max(verbs["raid"], key=lambda a: C.shapes[C.goods[R.GOODS_BY_ID[a.item]]].size)

    @staticmethod
    def _reclaim(s: Any, p: int, moves: list[Act]) -> Action | None:
        """A piece of its own left on land where it has no Network Counter (one lost with its Character) can be
        neither carried nor sold, and while a player owns a piece the game cannot end by ruling 31: walk the
        nearest counter to it (paying Influence). Without this, a 2-seat sweep game passed for 2,000 Turns
        beside such a piece (seed 1372809655574590458)."""
        lost = [s.g_at[g] for g in range(len(C.goods))
                if s.g_owner[g] == p and s.g_where[g] == R.LAND and s.g_at[g] not in s.counters[p]]
        moves = [a for a in moves if a.pay == "influence"]
        if not lost or not moves:
            return None

        def gap(loc: int) -> int:
            return int(min(C.dist[loc][x] for x in lost))

        best = min(moves, key=lambda a: gap(C.loc_by_id[a.to]))
        return best if gap(C.loc_by_id[best.to]) < gap(C.loc_by_id[best.item]) else None

    @staticmethod
    def _best_hire(s: Any, p: int, hires: list[Any], value: Any) -> Action | None:
        """The hire paid with Influence whose ``value(character, price)`` is highest and above 0 (None: skip it)."""
        best, best_value = None, 0.0
        for a in hires:
            if a.pay != "influence":
                continue
            ch = _CHARACTER[a.item]
            v = value(ch, R.hire_price(s, p, C.characters.index(ch)))
            if v is not None and v > best_value:
                best, best_value = a, v
        return best

    # -- small decisions -------------------------------------------------------------------------
    @staticmethod
    def _store_value(st: Any, s: Any = None) -> float:
        """A START storehouse is a home: a Port in a town, dear to land at if risky or watched by an officer."""
        where = st.location
        value = len(st.hold.cells) * 0.3
        if _selling_port(where):
            value += 10 + C.locations[where].size - C.locations[where].risk
            if s is not None and any(s.off_at[o] == where for o in range(R.N_OFFICERS)):
                value -= 5
        return value

    def _reach(self, s: Any, p: int, loc: int) -> int:
        """How far the nearest unbribed officer is from ``loc`` (Customs moves it takes to reach it)."""
        return min((C.dist[s.off_at[o]][loc] for o in range(R.N_OFFICERS)
                    if s.off_at[o] >= 0 and s.off_bribe[o] != p), default=10**6)

    def _landable(self, s: Any, p: int, loc: int, pieces: list[int], infl: int) -> list[int]:
        """The pieces, biggest first, that can land at ``loc`` with Influence enough to keep every officer short.

        Pieces that go straight into a storehouse there need no hiding (Storing Landed Goods)."""
        if loc == C.scilly:
            return list(pieces)
        stores = [st for st in s.stores[p] if C.storehouses[st].location == loc]
        near = self._reach(s, p, loc)
        chosen: list[int] = []
        squares = 0
        for g in sorted(pieces, key=lambda g: -C.shapes[C.goods[g]].size):
            size = C.shapes[C.goods[g]].size
            excess = C.locations[loc].risk + squares + size - C.discovery[s.track] + s.risk_mod
            if max(0, excess - near + 1) <= infl or (stores and not chosen and R.store_fits(s, stores[0], g)):
                chosen.append(g)
                squares += size
        return chosen

    def _unload(self, s: Any, p: int, legal: list[Action]) -> Action:
        chosen = set(self._landable(s, p, s.land_loc, list(s.hold[p]), s.infl[p]))
        for a in legal:
            if a.verb == "unload" and R.GOODS_BY_ID[a.item] in chosen and R.GOODS_BY_ID[a.item] not in s.land_sel:  # type: ignore[attr-defined]
                return a
        return next((a for a in legal if a.verb == "done"), legal[0])  # type: ignore[attr-defined]

    def _hide(self, s: Any, p: int, legal: list[Action]) -> Action:
        """At least enough that no unbribed officer reaches the landing; all of it if the sales stay paid for."""
        safe = super()._hide(s, p, legal)
        pieces = len(F_landing_sel(s))
        spare = s.infl[p] - 2 * pieces
        best = max((a for a in legal if int(a.item) <= spare), key=lambda a: int(a.item), default=safe)  # type: ignore[attr-defined]
        return best if int(best.item) >= int(safe.item) else safe  # type: ignore[attr-defined]

    def _price(self, s: Any, p: int, legal: list[Action]) -> Action:
        """The row of the Price List worth most to its score, Reputation weighed by what it brings.

        A Gold is a point of score. A Reputation is a point of score and one Influence at the start of
        every Turn still to come, so early in the game the top (Reputation) rows can beat the bottom
        (Gold) row, and late they cannot. Influence is worth ``influence_worth`` Gold while it is short,
        little once it piles up past ``influence_cap``. The row's cost is paid at the same rates.
        """
        g = s.sub_goods
        town = R.town_size(s, s.g_at[g])
        size = C.shapes[C.goods[g]].size
        infl_worth = self.influence_worth if s.infl[p] <= self.influence_cap else 0.1
        rep_worth = 1.0 + self._turns_left(s) * infl_worth
        # Gold buys the next goods, and once Reputation passes 11 Honest Work pays nothing: a purse
        # below the reserve weighs Gold double, or every seat can end with Reputation and no Gold to buy
        # goods with, and the game stalls (no sale moves the Gold Wheel).
        gold_worth = 2.0 if s.gold[p] < self.gold_reserve and not s.ending else 1.0

        def value(a: Any) -> float:
            row = R.ROW_NAMES.index(a.item)
            gold, rep = C.price(town, size, row)
            cost = C.row_cost[row]
            return gold * gold_worth + rep * rep_worth - cost * (rep_worth if a.pay == "reputation" else infl_worth)

        need = 0 if s.ending or s.hold[p] else self._next_piece(s, p) - s.gold[p]
        paying = [a for a in legal if C.price(town, size, R.ROW_NAMES.index(a.item))[0] >= need]  # type: ignore[attr-defined]
        return max(paying or legal, key=value)

    @staticmethod
    def _turns_left(s: Any) -> float:
        """Turns still to come, from how far the Customs Track has moved in the Turns played (at most 8).
        Counted from the space this game started on (2-4 players skip the first spaces)."""
        if s.ending:
            return 0.0
        start = C.track_start[s.seats]
        end = max(1, len(C.discovery) - 1 - start)
        done = (s.track - start + s.wheel / max(1, C.wheel)) / end
        if done <= 0.0:
            return 8.0
        return float(min(8.0, max(0.0, (1.0 - done) * max(1, s.turn) / done)))

    def _spot_value(self, s: Any, p: int, loc: int) -> float:
        place = C.locations[loc]
        value = 0.0
        if _selling_port(loc):
            value += 8 + place.size * 1.5 - place.risk * 0.3
        elif place.kind == "island":
            value += 6
        elif place.size:
            value += 2 + place.size * 0.5
        if loc in s.counters[p]:
            value -= 6
        if any(s.off_at[o] == loc and s.off_bribe[o] != p for o in range(R.N_OFFICERS)):
            value -= 2
        value -= 3 * sum(loc in s.counters[q] for q in range(s.seats) if q != p)
        # towards a Port in a town the network does not reach yet
        value -= 0.5 * min((C.dist[loc][x] for x in range(len(C.locations))
                            if _selling_port(x) and x not in s.counters[p]), default=0)
        return value

    def choose(self, state: State, seat: int) -> Action:
        s: Any = state
        legal = state.legal_actions()
        if len(legal) > 1 and s.phase == R.SETUP_STORE:
            return max(legal, key=lambda a: self._store_value(C.storehouses[_STORE[a.item]], s))  # type: ignore[attr-defined]
        if len(legal) > 1 and s.phase == R.SETUP_COUNTER:
            homes = [a for a in legal if any(C.storehouses[st].location == C.loc_by_id[a.item]  # type: ignore[attr-defined]
                                             and _selling_port(C.loc_by_id[a.item]) for st in s.stores[seat])]  # type: ignore[attr-defined]
            if homes:
                return homes[0]
        if len(legal) > 1 and s.phase == R.LAND_SELECT:
            return self._unload(s, seat, legal)
        if len(legal) > 1 and s.phase == R.REACT and s.win_event == "seizure":
            # Drunken Distraction costs a Character and a Network Counter: never the last of them
            if len(s.chars[seat]) <= 1 or len(s.counters[seat]) <= 1:
                legal = [a for a in legal if a.item != "drunken-distraction"]  # type: ignore[attr-defined]
                if not any(a.verb in ("play", "motivate") for a in legal):  # type: ignore[attr-defined]
                    return next(a for a in legal if a.verb == "decline")  # type: ignore[attr-defined]
        if s.phase == R.SETUP_LAUNCH:
            home = s.counters[seat][0] if s.counters[seat] else C.penzance
            node = C.locations[home].sea_node if C.locations[home].sea_node >= 0 else C.locations[C.penzance].sea_node
            merchants = [a for a in legal if C.sea_by_id[a.item] in C.merchant_nodes]  # type: ignore[attr-defined]
            if merchants:  # start at a Merchant, to buy at once
                return min(merchants, key=lambda a: SEA[C.sea_by_id[a.item]][node])  # type: ignore[attr-defined]
        return super().choose(state, seat)


def F_landing_sel(s: Any) -> tuple[int, ...]:
    return tuple(s.land_sel)


_STORE = {st.id: st.index for st in C.storehouses}


register_bot("cornish-heuristic-v1", CornishBotV1, game="cornish-smuggler")
register_bot("cornish-heuristic-v2", CornishBotV2, game="cornish-smuggler")
register_heuristic("cornish-smuggler", CornishBot)


def _typical_prices() -> dict[int, float]:
    """Gold plus Reputation a piece of each size fetches, averaged over the Price List's towns and rows."""
    out = {}
    for size in range(1, 6):
        cells = [sum(row[min(size, town)]) for town, rows in C.prices.items() for row in rows]
        cells = [c for c in cells if c > 0]
        out[size] = sum(cells) / len(cells) if cells else 0.0
    return out


_TYPICAL = _typical_prices()
#: Share of a typical sale a piece is worth by where it is: the further from a sale and the
#: likelier to be lost to a search, the less (designed weights, not printed).
_STAGE = {R.SHIP: 0.45, R.LAND: 0.55, R.STORE: 0.65, R.WAREHOUSE: 0.75}


def estimate(state: State) -> list[float]:
    """Gold plus Reputation, plus each seat's unsold goods at a share of a typical sale (IS-MCTS's rollout cut)."""
    s: Any = state
    out = [float(s.gold[p] + s.rep[p]) for p in range(s.seats)]
    for g, where in enumerate(s.g_where):
        share = _STAGE.get(where)
        owner = s.g_owner[g]
        if share is not None and 0 <= owner < s.seats:
            out[owner] += share * _TYPICAL[min(5, C.shapes[C.goods[g]].size)]
    return out


register_evaluator("cornish-smuggler", estimate)
