"""Card abilities: what each card effect does, one class per effect (``frames.CardEffect``).

A card's ability is data (``effect``, ``event``, ``who``, ``cost``, ``amount``,
``places`` in ``data/*.toml``) plus the class registered here for its effect id
(``@card_effect("move-officer")``). A class has its own typed fields and says
whether the card can do anything now (``usable``), what playing it does at once
(``start``), and, for a card with choices, which (``choices``) and what each
does (``choose``). Adding a card is a line of data, and a class only when its
effect is new.

- **Motivate** (Characters): pay, the card turns face down (``s.motivated``)
  until the next Turn. As an Action (``motivate <card>``) or when its event happens.
- **Passive** effects are read where their rule applies (``board.passive``).
- **Secrets** (``play <card>``): ``action`` ones are Actions; ``free`` ones
  are played on your own turn without using the Action; the others answer
  an event in a reaction window (``frames.CardWindow``). Played cards are discarded (``s.sdiscard``).
"""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING

from freetrader.core import Action
from freetrader.core.frames import change_below, finish, push, replace

from . import board as B
from . import frames as F
from .actions import Play, act
from .board import SECRET, card_name, card_of, passive
from .components import COMPONENTS as C
from .components import INF
from .frames import EFFECTS, CardEffect, CardWindow, OfficerMove, card_effect, lose_now, lose_to_rival
from .packing import fits, hold_of_ship
from .phases import LAND, MERCHANT, SHIP, STORE, WAREHOUSE

if TYPE_CHECKING:
    from .state import CornishState as S

__all__ = ["BACKHANDER_PRICES", "EFFECTS", "begin", "is_free", "legal_main_cards", "lose_now", "passive",
           "ship_entered", "witch_takes"]

BACKHANDER_PRICES = {2: 3, 3: 5, 4: 8, 5: 12}  # printed on the card, by Goods size

_CHAR_ID = {c.id: c.index for c in C.characters}
WITCH_NODES = F.WITCH_NODES
_ACTION_CHARS = frozenset(c.index for c in C.characters if c.event == "action")
_N_GOODS = len(C.goods)


# == Motivate / play as the Action or a free action ===========================================
def legal_main_cards(s: S, p: int) -> list[Action]:
    acts: list[Action] = []
    for c in s.chars[p]:
        if c in _ACTION_CHARS and c not in s.motivated[p]:
            ch = C.characters[c]
            pays = B.pay_options(s, p, ch.cost)
            if pays and _EFFECT_OF[c].usable(s, p, c, None):
                acts.extend(_MOTIVATE[c][how] for how in pays)
    seen: set[int] = set()
    for k in s.secrets[p]:
        if k in seen or k not in _MAIN_SECRETS:
            continue
        seen.add(k)
        x = C.secrets[k]
        if B.pay_options(s, p, x.cost) and EFFECTS[x.effect].usable(s, p, SECRET + k, None):
            acts.append(_PLAY[k])
    return acts


def is_free(a: Play) -> bool:
    """A Secret played on your own turn without using the Action."""
    return bool(C.secrets[a.secret].event == "free")


def begin(s: S, q: int, card: int, w: CardWindow | None) -> None:
    """Seat ``q`` has paid for ``card``: it takes effect (``w``: the window it answers, None as an Action)."""
    EFFECTS[card_of(card).effect].start(s, q, card, w)


def _seat(item: str) -> int:
    return int(item.removeprefix("seat-"))


def _seat_act(k: int) -> Action:
    return act("choose", f"seat-{k}")


# == what the effects look at =======================================================================
def _carry_moves(s: S, q: int, only: int = -1) -> list[tuple[int, int]]:
    mine = s.counters[q]
    out = []
    for g in range(_N_GOODS):
        if s.g_where[g] == LAND and s.g_owner[g] == q and s.g_at[g] in mine and (only < 0 or g == only):
            for b in C.locations[s.g_at[g]].land:
                if b in mine:
                    out.append((g, b))
    return out


def _ship_targets(s: S, q: int) -> list[int]:
    """Rival seats whose ship, with cargo, is at a Port or Cove where ``q`` has a Network Counter."""
    out = []
    for k in range(s.seats):
        loc = C.sea_location[s.ship_at[k]] if s.ship_at[k] >= 0 else -1
        if k != q and s.hold[k] and loc >= 0 and loc in s.counters[q]:
            out.append(k)
    return out


def _unskilled_victims(s: S, q: int) -> list[int]:
    return [k for k in range(s.seats) if k != q and any(C.characters[c].deck == 2 for c in s.chars[k])]


def _village_goods(s: S, q: int) -> list[int]:
    return [g for g in range(_N_GOODS) if s.g_where[g] == LAND and s.g_owner[g] == q
            and s.g_at[g] in s.counters[q] and C.locations[s.g_at[g]].size == 0
            and C.shapes[C.goods[g]].size == 2]


def _backhander_goods(s: S, q: int) -> list[int]:
    if C.penzance not in s.counters[q]:
        return []
    seen, out = set(), []
    for g in range(_N_GOODS):
        if s.g_where[g] == WAREHOUSE and C.goods[g] not in seen \
                and s.gold[q] >= BACKHANDER_PRICES[C.shapes[C.goods[g]].size]:
            seen.add(C.goods[g])
            out.append(g)
    return out


def _light_fingers_goods(s: S, q: int) -> list[int]:
    return [g for g in range(_N_GOODS) if s.g_where[g] == LAND and s.g_owner[g] not in (-1, q)
            and s.g_at[g] in s.counters[q]]


def _repelled_officer(s: S, w: F.SeizureWindow) -> int:
    owners = {s.g_owner[g] for g in w.goods}
    for o in range(B.N_OFFICERS):
        if s.off_at[o] == w.loc and any(s.off_bribe[o] != x for x in owners):
            return o
    return next((o for o in range(B.N_OFFICERS) if s.off_at[o] == w.loc), -1)


def _escapes(s: S, q: int, w: CardWindow | None) -> list[tuple[int, int]]:
    out: list[tuple[int, int]] = []
    if not isinstance(w, F.SeizureWindow):
        return out
    for g in w.goods:
        if s.g_owner[g] == q:
            for b in C.locations[s.g_at[g]].land:
                if b in s.counters[q]:
                    out.append((g, b))
    return out


def _officer_moves(s: S, only: int = -1, exclude: int = -1) -> list[Action]:
    out: list[Action] = []
    for o in range(B.N_OFFICERS):
        at = s.off_at[o]
        if at >= 0 and o != exclude and (only < 0 or o == only):
            out.extend(act("choose", str(o), B.LOC_IDS[b]) for b in C.locations[at].land)
    return out


def _sale(s: S) -> F.Sale:
    f = F.innermost(s, F.Sale)
    assert f is not None, "a sale card answers a sale"
    return f


def _lose(s: S, f: CardEffect, k: int, c: int, rival: bool) -> None:
    """A Character is lost (a rival's card may be answered by Squire Polglase); the card then goes on."""
    (lose_to_rival if rival else lose_now)(s, k, c)
    if s.frames[-1] is f:
        f.go_on(s)


def ship_entered(s: S, p: int, node: int) -> None:
    """A card moved ``p``'s ship: the move under way (the Action's, or Fair Wind's own) notes the Witch's sea."""
    if node not in WITCH_NODES:
        return
    for f in reversed(s.frames):
        if isinstance(f, (F.Sailing, SailFree)):
            change_below(s, f, dataclasses.replace(f, witch=p))
            return


# == effects that move pieces step by step ===========================================================
@dataclasses.dataclass(frozen=True, slots=True)
class _Steps(CardEffect):
    """An effect of up to ``steps`` moves (the card's number): done when none is left."""

    steps: int = 0

    @classmethod
    def start(cls, s: S, q: int, card: int, w: CardWindow | None) -> None:
        steps = int(card_of(card).amount)
        if steps > 0:
            push(s, cls(card=card, seat=q, steps=steps))

    def go_on(self, s: S) -> None:
        if self.steps <= 0:
            finish(s, self)


@card_effect("move-officer")
@dataclasses.dataclass(frozen=True, slots=True)
class MoveOfficer(_Steps):
    """Move one Customs Officer up to ``steps`` spaces (``officer``: the one chosen); Yew boy! may answer each."""

    officer: int = -1

    @classmethod
    def usable(cls, s: S, q: int, card: int, w: CardWindow | None) -> bool:
        return any(x >= 0 for x in s.off_at)

    def choices(self, s: S) -> list[Action]:
        opts = _officer_moves(s, only=self.officer)
        if self.officer >= 0:
            opts.append(act("done"))
        return opts

    def choose(self, s: S, item: str, to: str) -> None:
        o = int(item)
        replace(s, dataclasses.replace(self, officer=o, steps=self.steps - 1))
        F.move_officer(s, o, C.loc_by_id[to], C.locations[s.off_at[o]].land)

    def moved(self, s: S, move: OfficerMove) -> None:
        o, to = move.officer, move.to
        s._event(f"Seat {self.seat} moves Customs Officer {o} from {C.locations[s.off_at[o]].name} to "
                 f"{C.locations[to].name} ({card_name(self.card)})")
        s.off_at[o] = to
        if not F.check_seizure(s, to):
            self.go_on(s)


@card_effect("move-officers")
@dataclasses.dataclass(frozen=True, slots=True)
class MoveOfficers(MoveOfficer):
    """Move up to ``steps`` Customs Officers one space each, never the one just moved again."""

    def choices(self, s: S) -> list[Action]:
        opts = _officer_moves(s, exclude=self.officer)
        if self.officer >= 0:
            opts.append(act("done"))
        return opts


@card_effect("carry-free")
@dataclasses.dataclass(frozen=True, slots=True)
class CarryGoods(_Steps):
    """Move one Goods Shape (``goods``, once chosen) up to ``steps`` spaces along your network, free."""

    goods: int = -1

    @classmethod
    def usable(cls, s: S, q: int, card: int, w: CardWindow | None) -> bool:
        return bool(_carry_moves(s, q))

    def working_on(self) -> int:
        return self.goods

    def choices(self, s: S) -> list[Action]:
        opts: list[Action] = [act("choose", B.GOODS_IDS[g], B.LOC_IDS[b])
                              for g, b in _carry_moves(s, self.seat, self.goods)]
        if self.goods >= 0:
            opts.append(act("done"))
        return opts

    def choose(self, s: S, item: str, to: str) -> None:
        g, b = B.GOODS_BY_ID[item], C.loc_by_id[to]
        f = dataclasses.replace(self, goods=g, steps=self.steps - 1)
        replace(s, f)
        s._event(f"Seat {f.seat} moves {B.goods_name(g)} from {C.locations[s.g_at[g]].name} to "
                 f"{C.locations[b].name} ({card_name(f.card)})")
        s.g_at[g] = b
        f.arrived(s, b)

    def arrived(self, s: S, b: int) -> None:
        """Seized where it passes, as any move over land."""
        if not F.check_seizure(s, b):
            self.go_on(s)

    def done(self, s: S) -> None:
        f = dataclasses.replace(self, steps=0)
        replace(s, f)
        finish(s, f)


@card_effect("carry-hidden")
@dataclasses.dataclass(frozen=True, slots=True)
class CarryHidden(CarryGoods):
    """Mock Funeral: as ``CarryGoods``, but the Goods are not seized on the way, only where they stop."""

    def arrived(self, s: S, b: int) -> None:
        if self.steps > 0 and _carry_moves(s, self.seat, self.goods):
            return
        f = dataclasses.replace(self, steps=0)
        replace(s, f)
        if not F.check_seizure(s, b):
            f.go_on(s)

    def done(self, s: S) -> None:
        f = dataclasses.replace(self, steps=0)
        replace(s, f)
        if f.goods >= 0 and F.check_seizure(s, s.g_at[f.goods]):
            return
        finish(s, f)


@card_effect("sail-free")
@dataclasses.dataclass(frozen=True, slots=True)
class SailFree(_Steps):
    """Sail up to ``steps`` sea spaces, free; the Witch of St Levan answers at the end if the ship entered her
    sea (``witch``: the seat, -1 none)."""

    witch: int = -1

    @classmethod
    def usable(cls, s: S, q: int, card: int, w: CardWindow | None) -> bool:
        return not s.becalmed[q] and s.ship_at[q] >= 0

    def choices(self, s: S) -> list[Action]:
        opts: list[Action] = [act("choose", C.sea_ids[n]) for n in C.sea_adj[s.ship_at[self.seat]]]
        if self.steps < self.amount:
            opts.append(act("done"))
        return opts

    def choose(self, s: S, item: str, to: str) -> None:
        q, node = self.seat, C.sea_by_id[item]
        s.ship_at[q] = node
        s._event(f"Seat {q} sails to {B.node_name(node)} ({card_name(self.card)})")
        replace(s, dataclasses.replace(self, steps=self.steps - 1))
        ship_entered(s, q, node)
        f = s.frames[-1]
        assert isinstance(f, SailFree)
        if f.steps <= 0:
            f.done(s)

    def done(self, s: S) -> None:
        f = dataclasses.replace(self, steps=0)
        replace(s, f)
        if not F.witch_window(s, f.witch):
            finish(s, f)


# == effects on players ===============================================================================
@card_effect("lose-reputation")
@dataclasses.dataclass(frozen=True, slots=True)
class LoseReputation(CardEffect):
    """A player of your choice (yourself included) permanently loses the card's Reputation, or what they have."""

    def choices(self, s: S) -> list[Action]:
        return [_seat_act(k) for k in range(s.seats)]

    def choose(self, s: S, item: str, to: str) -> None:
        k = _seat(item)
        lost = min(s.rep[k], self.amount)
        s.rep[k] -= lost
        s._event(f"Seat {k} permanently loses {lost} Reputation ({card_name(self.card)})")
        finish(s, self)


@card_effect("draw-secrets")
class DrawSecrets(CardEffect):
    """Draw the card's number of Secrets cards (while the deck lasts)."""

    __slots__ = ()

    @classmethod
    def usable(cls, s: S, q: int, card: int, w: CardWindow | None) -> bool:
        return bool(s.sdeck)

    @classmethod
    def start(cls, s: S, q: int, card: int, w: CardWindow | None) -> None:
        n = 0
        for _ in range(card_of(card).amount):
            if s.sdeck:
                s.secrets[q].append(s.sdeck.pop())
                n += 1
        s._event(f"Seat {q} draws {n} Secrets card{'s' if n != 1 else ''}")


@card_effect("steal-secret")
@dataclasses.dataclass(frozen=True, slots=True)
class StealSecret(CardEffect):
    """Take a Secrets card at random from a rival's hand."""

    @classmethod
    def usable(cls, s: S, q: int, card: int, w: CardWindow | None) -> bool:
        return any(s.secrets[k] for k in range(s.seats) if k != q)

    def choices(self, s: S) -> list[Action]:
        return [_seat_act(k) for k in range(s.seats) if k != self.seat and s.secrets[k]]

    def choose(self, s: S, item: str, to: str) -> None:
        k, q = _seat(item), self.seat
        card = s.secrets[k].pop(s.rng.below(len(s.secrets[k])))
        s.secrets[q].append(card)
        s._event(f"Seat {q} takes a Secrets card at random from seat {k}'s hand")
        finish(s, self)


@card_effect("discard-unskilled")
@dataclasses.dataclass(frozen=True, slots=True)
class DiscardUnskilled(CardEffect):
    """A rival (``victim``, once chosen) discards one of their Unskilled Characters, which they choose."""

    victim: int = -1

    @classmethod
    def usable(cls, s: S, q: int, card: int, w: CardWindow | None) -> bool:
        return bool(_unskilled_victims(s, q))

    def actor(self, s: S) -> int:
        return self.victim if self.victim >= 0 else self.seat

    def choices(self, s: S) -> list[Action]:
        if self.victim < 0:
            return [_seat_act(k) for k in _unskilled_victims(s, self.seat)]
        return [act("choose", C.characters[c].id) for c in s.chars[self.victim] if C.characters[c].deck == 2]

    def choose(self, s: S, item: str, to: str) -> None:
        if self.victim < 0:
            replace(s, dataclasses.replace(self, victim=_seat(item)))
            return
        _lose(s, self, self.victim, _CHAR_ID[item], rival=True)


@card_effect("remove-character")
@dataclasses.dataclass(frozen=True, slots=True)
class RemoveCharacter(CardEffect):
    """John Thomas: the player whose Goods were seized (``victim``) loses a Character of your choice."""

    victim: int = -1

    @classmethod
    def usable(cls, s: S, q: int, card: int, w: CardWindow | None) -> bool:
        k = w.subject if w is not None else -1
        return bool(k >= 0 and k != q and s.chars[k])

    @classmethod
    def start(cls, s: S, q: int, card: int, w: CardWindow | None) -> None:
        assert w is not None
        push(s, cls(card=card, seat=q, victim=w.subject))

    def choices(self, s: S) -> list[Action]:
        return [act("choose", C.characters[c].id) for c in s.chars[self.victim]]

    def choose(self, s: S, item: str, to: str) -> None:
        _lose(s, self, self.victim, _CHAR_ID[item], rival=True)


@card_effect("becalm")
@dataclasses.dataclass(frozen=True, slots=True)
class Becalm(CardEffect):
    """A rival's ship is becalmed until the end of this Turn."""

    @classmethod
    def usable(cls, s: S, q: int, card: int, w: CardWindow | None) -> bool:
        return any(not s.becalmed[k] for k in range(s.seats) if k != q)

    def choices(self, s: S) -> list[Action]:
        return [_seat_act(k) for k in range(s.seats) if k != self.seat and not s.becalmed[k]]

    def choose(self, s: S, item: str, to: str) -> None:
        k = _seat(item)
        s.becalmed[k] = True
        s._event(f"Seat {k}'s ship is becalmed until the end of this Turn")
        finish(s, self)


@card_effect("gain-influence")
class GainInfluence(CardEffect):
    """Gain the card's number of Influence."""

    __slots__ = ()

    @classmethod
    def start(cls, s: S, q: int, card: int, w: CardWindow | None) -> None:
        s.infl[q] += card_of(card).amount


@card_effect("cove-access")
class OpenCove(CardEffect):
    """A Lantern on the Cliff: land this turn at the Secret Cove your ship is off, where your network reaches."""

    __slots__ = ()

    @classmethod
    def usable(cls, s: S, q: int, card: int, w: CardWindow | None) -> bool:
        loc = C.sea_location[s.ship_at[q]] if s.ship_at[q] >= 0 else -1
        return (loc >= 0 and C.locations[loc].kind == "cove" and loc in s.counters[q] and s.lantern[q] != loc
                and not B.can_land_at(s, q, loc))

    @classmethod
    def start(cls, s: S, q: int, card: int, w: CardWindow | None) -> None:
        s.lantern[q] = C.sea_location[s.ship_at[q]]


# == effects on officers ==============================================================================
@card_effect("remove-bribe")
@dataclasses.dataclass(frozen=True, slots=True)
class RemoveBribe(CardEffect):
    """Remove a Bribe Marker from a Customs Officer (who may then seize what stands there)."""

    @classmethod
    def usable(cls, s: S, q: int, card: int, w: CardWindow | None) -> bool:
        return any(s.off_at[o] >= 0 and s.off_bribe[o] >= 0 for o in range(B.N_OFFICERS))

    def choices(self, s: S) -> list[Action]:
        return [act("choose", str(o)) for o in range(B.N_OFFICERS) if s.off_at[o] >= 0 and s.off_bribe[o] >= 0]

    def choose(self, s: S, item: str, to: str) -> None:
        o = int(item)
        s._event(f"Seat {self.seat} removes seat {s.off_bribe[o]}'s Bribe Marker from Customs Officer {o}")
        s.off_bribe[o] = -1
        if not F.check_seizure(s, s.off_at[o]):
            finish(s, self)


@card_effect("inform")
@dataclasses.dataclass(frozen=True, slots=True)
class SendCustoms(CardEffect):
    """Anonymous Letter: Customs move the card's number of spaces towards a rival's Goods on land."""

    @classmethod
    def usable(cls, s: S, q: int, card: int, w: CardWindow | None) -> bool:
        return any(s.g_where[g] == LAND and s.g_owner[g] not in (-1, q) for g in range(_N_GOODS))

    def choices(self, s: S) -> list[Action]:
        return [act("choose", B.GOODS_IDS[g]) for g in range(_N_GOODS)
                if s.g_where[g] == LAND and s.g_owner[g] not in (-1, self.seat)]

    def choose(self, s: S, item: str, to: str) -> None:
        g = B.GOODS_BY_ID[item]
        s._event(f"An anonymous letter sends Customs towards {B.goods_name(g)} in {C.locations[s.g_at[g]].name}")
        F.start_customs(s, s.g_at[g], self.amount)


@card_effect("direct-customs")
class DirectCustoms(CardEffect):
    """Yew boy!: you decide where the Customs Officer being moved goes."""

    __slots__ = ()

    @classmethod
    def usable(cls, s: S, q: int, card: int, w: CardWindow | None) -> bool:
        return not F.directed(s)

    @classmethod
    def start(cls, s: S, q: int, card: int, w: CardWindow | None) -> None:
        F.direct(s, q)


@card_effect("repel-officer")
@dataclasses.dataclass(frozen=True, slots=True)
class RepelOfficer(CardEffect):
    """The officer about to seize at ``loc`` is led away the card's number of spaces and seizes nothing; a
    Secret (Drunken Distraction) then costs one of your Characters (``steps``: 2 for it, else 1)."""

    officer: int = -1
    loc: int = -1
    steps: int = 1

    @classmethod
    def usable(cls, s: S, q: int, card: int, w: CardWindow | None) -> bool:
        x = card_of(card)
        if not isinstance(w, F.SeizureWindow) or not w.goods or _repelled_officer(s, w) < 0:
            return False
        if card < SECRET and x.who == "any" and w.loc not in s.counters[q]:
            return False  # the Tinners answer in a location with one of your Network Counters
        if card >= SECRET and not s.chars[q]:
            return False  # Drunken Distraction costs one of your Characters
        return True

    @classmethod
    def start(cls, s: S, q: int, card: int, w: CardWindow | None) -> None:
        assert isinstance(w, F.SeizureWindow)
        push(s, cls(card=card, seat=q, officer=_repelled_officer(s, w), loc=w.loc, steps=2 if card >= SECRET else 1))

    def places(self) -> list[int]:
        row = C.dist[self.loc]
        reach = [x for x in range(len(C.locations)) if row[x] < INF]
        best = max((row[x] for x in reach if row[x] <= self.amount), default=0)
        return [x for x in reach if row[x] == best and x != self.loc]

    def choices(self, s: S) -> list[Action]:
        if self.steps == 1 and self.card >= SECRET:
            return [act("choose", C.characters[c].id) for c in s.chars[self.seat]]
        return [act("choose", B.LOC_IDS[x]) for x in self.places()]

    def choose(self, s: S, item: str, to: str) -> None:
        if item in _CHAR_ID:
            f = dataclasses.replace(self, steps=0)
            replace(s, f)
            _lose(s, f, f.seat, _CHAR_ID[item], rival=False)
            return
        F.move_officer(s, self.officer, C.loc_by_id[item], self.places())

    def moved(self, s: S, move: OfficerMove) -> None:
        o, to_loc = move.officer, move.to
        s._event(f"Customs Officer {o} is led away from {C.locations[self.loc].name} to {C.locations[to_loc].name}; "
                 f"the Goods are not seized ({card_name(self.card)})")
        s.off_at[o] = to_loc
        w = F.window(s)
        if isinstance(w, F.SeizureWindow):
            change_below(s, w, dataclasses.replace(w, goods=()))
        f = dataclasses.replace(self, steps=self.steps - 1)
        replace(s, f)
        F.check_seizure(s, to_loc)  # inside the window: at once
        f.go_on(s)

    def go_on(self, s: S) -> None:
        if self.steps <= 0:
            finish(s, self)


# == effects on Goods ==================================================================================
@card_effect("seize-from-ship")
@dataclasses.dataclass(frozen=True, slots=True)
class SeizeFromShip(CardEffect):
    """James Lanyon's Revenue Cruiser: seize a Goods Shape from a rival's ship where your network reaches."""

    @classmethod
    def usable(cls, s: S, q: int, card: int, w: CardWindow | None) -> bool:
        return bool(_ship_targets(s, q))

    def choices(self, s: S) -> list[Action]:
        return [act("choose", B.GOODS_IDS[g]) for k in _ship_targets(s, self.seat) for g in sorted(s.hold[k])]

    def choose(self, s: S, item: str, to: str) -> None:
        g = B.GOODS_BY_ID[item]
        owner = s.g_owner[g]
        s.hold[owner].remove(g)
        s._event(f"Seat {self.seat}'s Revenue Cruiser takes {B.goods_name(g)} from seat {owner}'s ship")
        B.seize(s, [g], C.sea_location[s.ship_at[owner]])
        if not F.open_window(s, "seized", owner):
            finish(s, self)


@card_effect("take-from-ship")
@dataclasses.dataclass(frozen=True, slots=True)
class TakeFromShip(CardEffect):
    """The Wreckers: a rival (``victim``, once chosen) whose ship lies where your network reaches puts a Goods
    Shape of their choice ashore there, yours."""

    victim: int = -1
    taken: bool = False

    @classmethod
    def usable(cls, s: S, q: int, card: int, w: CardWindow | None) -> bool:
        return bool(_ship_targets(s, q))

    def actor(self, s: S) -> int:
        return self.victim if self.victim >= 0 and not self.taken else self.seat

    def choices(self, s: S) -> list[Action]:
        if self.victim < 0:
            return [_seat_act(k) for k in _ship_targets(s, self.seat)]
        return [act("choose", B.GOODS_IDS[g]) for g in sorted(s.hold[self.victim])]

    def choose(self, s: S, item: str, to: str) -> None:
        if self.victim < 0:
            replace(s, dataclasses.replace(self, victim=_seat(item)))  # the owner chooses which Goods Shape
            return
        g, k, q = B.GOODS_BY_ID[item], self.victim, self.seat
        loc = C.sea_location[s.ship_at[k]]
        s.hold[k].remove(g)
        s.g_where[g], s.g_at[g], s.g_owner[g] = LAND, loc, q
        s._event(f"The Wreckers take {B.goods_name(g)} from seat {k}'s ship onto the shore at "
                 f"{C.locations[loc].name} for seat {q}")
        f = dataclasses.replace(self, taken=True)
        replace(s, f)
        if not F.check_seizure(s, loc):
            finish(s, f)


@dataclasses.dataclass(frozen=True, slots=True)
class _OnGoods(CardEffect):
    """An effect on one Goods Shape of those ``candidates`` offers seat ``q``: usable when there is one."""

    @staticmethod
    def candidates(s: S, q: int) -> list[int]:
        raise NotImplementedError("an effect on Goods names its candidates")

    @classmethod
    def usable(cls, s: S, q: int, card: int, w: CardWindow | None) -> bool:
        return bool(cls.candidates(s, q))

    def choices(self, s: S) -> list[Action]:
        return [act("choose", B.GOODS_IDS[g]) for g in self.candidates(s, self.seat)]


@card_effect("take-goods")
@dataclasses.dataclass(frozen=True, slots=True)
class TakeGoods(_OnGoods):
    """Light Fingers: a rival's Goods Shape in a location of your network becomes yours."""

    candidates = staticmethod(_light_fingers_goods)

    def choose(self, s: S, item: str, to: str) -> None:
        g, q = B.GOODS_BY_ID[item], self.seat
        s._event(f"Seat {q} takes seat {s.g_owner[g]}'s {B.goods_name(g)} in {C.locations[s.g_at[g]].name}")
        s.g_owner[g] = q
        if not F.check_seizure(s, s.g_at[g]):
            finish(s, self)


@card_effect("village-sale")
@dataclasses.dataclass(frozen=True, slots=True)
class VillageSale(_OnGoods):
    """Dolly Pentreath: sell a Domino in a village of your network as if in a town of the card's size."""

    candidates = staticmethod(_village_goods)

    def choose(self, s: S, item: str, to: str) -> None:
        # the card is done: the sale takes its place (and finishes the Action)
        F.begin_sale(s, self.seat, B.GOODS_BY_ID[item], size=self.amount, instead=self)


@card_effect("backhander")
@dataclasses.dataclass(frozen=True, slots=True)
class BuyFromWarehouse(_OnGoods):
    """A Backhander: buy a seized Goods Shape out of the Customs Warehouse at the price printed for its size."""

    candidates = staticmethod(_backhander_goods)

    def choose(self, s: S, item: str, to: str) -> None:
        g, q = B.GOODS_BY_ID[item], self.seat
        price = BACKHANDER_PRICES[C.shapes[C.goods[g]].size]
        B.pay_gold(s, q, price)
        s.g_where[g], s.g_at[g], s.g_owner[g] = LAND, C.penzance, q
        s._event(f"Seat {q} buys {B.goods_name(g)} out of the Customs Warehouse for {price} Gold")
        finish(s, self)


@card_effect("escape-one")
@dataclasses.dataclass(frozen=True, slots=True)
class EscapeSeizure(CardEffect):
    """One of your Goods Shapes about to be seized slips away to a neighbouring location of your network."""

    @classmethod
    def usable(cls, s: S, q: int, card: int, w: CardWindow | None) -> bool:
        return bool(_escapes(s, q, w))

    def choices(self, s: S) -> list[Action]:
        return [act("choose", B.GOODS_IDS[g], B.LOC_IDS[b]) for g, b in _escapes(s, self.seat, F.window(s))]

    def choose(self, s: S, item: str, to: str) -> None:
        g, b = B.GOODS_BY_ID[item], C.loc_by_id[to]
        s._event(f"Seat {self.seat} slips {B.goods_name(g)} away to {C.locations[b].name} ({card_name(self.card)})")
        s.g_at[g] = b
        w = F.window(s)
        if isinstance(w, F.SeizureWindow):
            change_below(s, w, dataclasses.replace(w, goods=tuple(x for x in w.goods if x != g)))
        F.check_seizure(s, b)
        finish(s, self)


# == effects on the Action under way ====================================================================
@card_effect("landing-risk")
class LowerLandingRisk(CardEffect):
    """The landing's Landing Risk is lower by the card's number."""

    __slots__ = ()

    @classmethod
    def start(cls, s: S, q: int, card: int, w: CardWindow | None) -> None:
        f = F.landing(s)
        if f is not None:
            change_below(s, f, dataclasses.replace(f, risk_mod=f.risk_mod - card_of(card).amount))


@card_effect("shift-landing-risk")
@dataclasses.dataclass(frozen=True, slots=True)
class ShiftLandingRisk(CardEffect):
    """Holly & Olivia: reduce or increase the landing's Landing Risk by the card's number."""

    def choices(self, s: S) -> list[Action]:
        return [act("choose", "reduce"), act("choose", "increase")]

    def choose(self, s: S, item: str, to: str) -> None:
        n = self.amount
        land = F.landing(s)
        if land is not None:
            change_below(s, land, dataclasses.replace(land, risk_mod=land.risk_mod + (-n if item == "reduce" else n)))
        s._event(f"Holly & Olivia {'reduce' if item == 'reduce' else 'increase'} the Landing Risk by {n}")
        finish(s, self)


@card_effect("no-customs")
class NoCustoms(CardEffect):
    """Dark of the Moon: the landing draws no Customs movement."""

    __slots__ = ()

    @classmethod
    def start(cls, s: S, q: int, card: int, w: CardWindow | None) -> None:
        F.amend(s, F.Landing, no_customs=True)


@card_effect("toll")
class Toll(CardEffect):
    """Peter Curnow: the seller pays you the card's number of Gold after a sale where your network reaches."""

    __slots__ = ()

    @classmethod
    def usable(cls, s: S, q: int, card: int, w: CardWindow | None) -> bool:
        return w is not None and w.loc in s.counters[q]

    @classmethod
    def start(cls, s: S, q: int, card: int, w: CardWindow | None) -> None:
        F.amend(s, F.Sale, tolls=_sale(s).tolls + (card, q))


@card_effect("sale-bonus")
class SaleBonus(CardEffect):
    """Elizabeth Quick: the sale brings the card's number of Gold more."""

    __slots__ = ()

    @classmethod
    def start(cls, s: S, q: int, card: int, w: CardWindow | None) -> None:
        F.amend(s, F.Sale, bonus=_sale(s).bonus + card_of(card).amount)


@card_effect("free-bottom-row")
class FreeBottomRow(CardEffect):
    """Forged Cocket: the sale may use the bottom price row without its cost."""

    __slots__ = ()

    @classmethod
    def usable(cls, s: S, q: int, card: int, w: CardWindow | None) -> bool:
        return not _sale(s).free_row

    @classmethod
    def start(cls, s: S, q: int, card: int, w: CardWindow | None) -> None:
        F.amend(s, F.Sale, free_row=True)


@card_effect("buy-discount", "buy-reputation-discount")
class BuyDiscount(CardEffect):
    """The Goods Shape or Reputation being bought costs the card's number of Gold less."""

    __slots__ = ()

    @classmethod
    def start(cls, s: S, q: int, card: int, w: CardWindow | None) -> None:
        F.amend(s, F.Purchase, disc=card_of(card).amount)


@card_effect("bribe-discount")
class BribeDiscount(CardEffect):
    """A Little Something for the Officer: the bribe costs the card's number of Gold less."""

    __slots__ = ()

    @classmethod
    def start(cls, s: S, q: int, card: int, w: CardWindow | None) -> None:
        f = F.innermost(s, F.Purchase)
        assert f is not None, "a bribe card answers a bribe"
        F.amend(s, F.Purchase, disc=f.disc + card_of(card).amount)


@card_effect("place-anywhere")
class PlaceAnywhere(CardEffect):
    """The Old Packhorse Road: the new Network Counter may go anywhere."""

    __slots__ = ()

    @classmethod
    def usable(cls, s: S, q: int, card: int, w: CardWindow | None) -> bool:
        return not s.place_free

    @classmethod
    def start(cls, s: S, q: int, card: int, w: CardWindow | None) -> None:
        F.amend(s, F.PlaceCounter, anywhere=True)


@card_effect("keep-character")
class KeepCharacter(CardEffect):
    """Squire Polglase: keep a Character a rival's card would take (asked by ``frames.Protect``, not a window)."""

    __slots__ = ()

    @classmethod
    def start(cls, s: S, q: int, card: int, w: CardWindow | None) -> None:
        raise NotImplementedError("Squire Polglase is played from the Protect decision")


# == effects on ships ===================================================================================
@card_effect("extra-sail")
@dataclasses.dataclass(frozen=True, slots=True)
class ExtraSail(CardEffect):
    """William Bodinar: the ship sails on one sea space more."""

    @classmethod
    def usable(cls, s: S, q: int, card: int, w: CardWindow | None) -> bool:
        return not s.becalmed[q]

    def choices(self, s: S) -> list[Action]:
        return [act("choose", C.sea_ids[n]) for n in C.sea_adj[s.ship_at[self.seat]]]

    def choose(self, s: S, item: str, to: str) -> None:
        q, node = self.seat, C.sea_by_id[item]
        s.ship_at[q] = node
        s._event(f"Seat {q} sails on to {B.node_name(node)} ({card_name(self.card)})")
        ship_entered(s, q, node)
        finish(s, self)


@card_effect("witch-toll")
@dataclasses.dataclass(frozen=True, slots=True)
class WitchToll(CardEffect):
    """The Witch of St Levan: the player whose ship passed (``victim``) pays her the card's Gold or lets her
    take cargo; then (``taking``) her player chooses which Goods Shape."""

    victim: int = -1
    taking: bool = False

    @classmethod
    def usable(cls, s: S, q: int, card: int, w: CardWindow | None) -> bool:
        k = w.subject if w is not None else -1
        return bool(k != q and (s.gold[k] >= C.characters[card].amount or s.hold[k]))

    @classmethod
    def start(cls, s: S, q: int, card: int, w: CardWindow | None) -> None:
        assert w is not None
        push(s, cls(card=card, seat=q, victim=w.subject))  # the passing player chooses: pay, or lose cargo

    def actor(self, s: S) -> int:
        return self.seat if self.taking else self.victim

    def choices(self, s: S) -> list[Action]:
        k = self.victim
        if not self.taking:
            out: list[Action] = []
            if s.gold[k] >= self.amount:
                out.append(act("choose", "pay"))
            if s.hold[k]:
                out.append(act("choose", "cargo"))
            return out
        return [act("choose", B.GOODS_IDS[g]) for g in sorted(s.hold[k])]

    def choose(self, s: S, item: str, to: str) -> None:
        k, q = self.victim, self.seat
        if item == "pay":
            s.gold[k] -= self.amount
            s.gold[q] += self.amount
            s._event(f"Seat {k} pays the Witch of St Levan {self.amount} Gold")
            finish(s, self)
        elif item == "cargo":
            replace(s, dataclasses.replace(self, taking=True))
        else:
            witch_takes(s, q, k, B.GOODS_BY_ID[item])
            finish(s, self)


def witch_takes(s: S, q: int, k: int, g: int) -> None:
    """Into the Witch's ship if it fits, else one of her Storehouses, else back to its Merchant."""
    s.hold[k].remove(g)
    if s.ship_card[q] >= 0 and fits(hold_of_ship(s.ship_card[q]), [C.goods[x] for x in s.hold[q]] + [C.goods[g]],
                                    s.options["flip_goods"]):
        s.g_where[g], s.g_at[g], s.g_owner[g] = SHIP, q, q
        s.hold[q].append(g)
        where = "her ship"
    else:
        st = next((x for x in s.stores[q] if B.store_fits(s, x, g)), -1)
        if st >= 0:
            s.g_where[g], s.g_at[g], s.g_owner[g] = STORE, st, q
            where = C.storehouses[st].name
        else:
            s.g_where[g], s.g_at[g], s.g_owner[g] = MERCHANT, C.goods_start[g], -1
            where = "its Merchant"
    s._event(f"The Witch of St Levan takes {B.goods_name(g)} from seat {k}'s ship into {where}")


# == the actions legal_main_cards offers, built once (after every effect class is registered) ====================
_EFFECT_OF = [EFFECTS.get(c.effect, CardEffect) for c in C.characters]
_MOTIVATE = [{how: act("motivate", c.id, "", how) for how in ("", *(r for r, _ in c.cost))} for c in C.characters]
_MAIN_SECRETS = frozenset(x.index for x in C.secrets if x.event in ("action", "free"))
_PLAY = [act("play", x.id) for x in C.secrets]
