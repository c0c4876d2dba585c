"""Card abilities: Motivate, Secrets and the handler of each effect id.

A card's ability is data (``effect``, ``event``, ``who``, ``cost``, ``amount``,
``places`` in ``data/*.toml``) plus small handlers here, one set per effect id:

- ``USABLE``: whether the card can do anything now (``w``: the window it would
  answer, None for a card played as an Action or free);
- ``START``: what playing it does at once; a card with choices pushes a
  ``frames.CardEffect`` frame;
- ``OPTIONS`` / ``CHOOSE`` / ``DONE``: the choices of that frame;
- ``MOVED``: after an officer the card moves is moved (Yew boy! may have decided where).

- **Motivate** (Characters): pay, the card turns face down (``s.motivated``)
  until the next Turn. As an Action (``motivate <card>``) or when its event happens.
- **Passive** effects are read where their rule applies (``board.passive``).
- **Secrets** (``play <card>``): ``action`` ones are Actions; ``free`` ones
  are played on your own turn without using the Action; the others answer
  an event in a reaction window (``frames.CardWindow``). Played cards are discarded (``s.sdiscard``).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from freetrader.core import Action
from freetrader.core.frames import finish, push, replace

from . import board as B
from . import frames as F
from .actions import Play, act
from .board import SECRET, card_name, card_of, passive
from .components import COMPONENTS as C
from .components import INF
from .frames import CardEffect, CardWindow, OfficerMove, effect_continue, lose_now, lose_to_rival
from .packing import fits, hold_of_ship
from .phases import LAND, MERCHANT, SHIP, STORE, WAREHOUSE

if TYPE_CHECKING:
    from .state import CornishState as S

__all__ = ["BACKHANDER_PRICES", "CHOOSE", "OPTIONS", "START", "USABLE", "legal_main_cards", "lose_now", "passive"]

BACKHANDER_PRICES = {2: 3, 3: 5, 4: 8, 5: 12}  # printed on the card, by Goods size

_CHAR_ID = {c.id: c.index for c in C.characters}
_SECRET_ID = {x.id: x.index for x in C.secrets}
WITCH_NODES = F.WITCH_NODES
_ACTION_CHARS = frozenset(c.index for c in C.characters if c.event == "action")
_N_GOODS = len(C.goods)


# == what a card may do now ==================================================================
def usable(s: S, q: int, card: int, w: CardWindow) -> bool:
    x = card_of(card)
    return _who_ok(s, q, x.who, x.event, w) and _places_ok(x, w) and USABLE[x.effect](s, q, card, w)


def _who_ok(s: S, q: int, who: str, event: str, w: CardWindow) -> bool:
    if event in ("action", "free", "passive") or who == "any":
        return True
    mine = w.is_subject(s, q)
    return mine if who == "self" else not mine


def _places_ok(x: Any, w: CardWindow) -> bool:
    places = x.places
    return not places or w.loc in places


# == Motivate / play as the Action or a free action ===========================================
def legal_main_cards(s: S, p: int) -> list[Action]:
    acts: list[Action] = []
    for c in s.chars[p]:
        if c in _ACTION_CHARS and c not in s.motivated[p] and B.pay_options(s, p, C.characters[c].cost) \
                and USABLE[C.characters[c].effect](s, p, c, None):
            acts.extend(act("motivate", C.characters[c].id, "", how)
                        for how in B.pay_options(s, p, C.characters[c].cost))
    seen: set[int] = set()
    for k in s.secrets[p]:
        x = C.secrets[k]
        if k in seen or x.event not in ("action", "free"):
            continue
        seen.add(k)
        if B.pay_options(s, p, x.cost) and USABLE[x.effect](s, p, SECRET + k, None):
            acts.append(act("play", x.id))
    return acts


def is_free(a: Play) -> bool:
    """A Secret played on your own turn without using the Action."""
    return bool(C.secrets[a.secret].event == "free")


# == the hooks the frames call (frames.CardRules) =================================================
def begin(s: S, q: int, card: int, w: CardWindow | None) -> None:
    START[card_of(card).effect](s, q, card, w)


def options(s: S, f: CardEffect) -> list[Action]:
    return OPTIONS[card_of(f.card).effect](s, f)


def choose(s: S, f: CardEffect, item: str, to: str) -> None:
    CHOOSE[card_of(f.card).effect](s, f, item, to)


def done(s: S, f: CardEffect) -> None:
    DONE.get(card_of(f.card).effect, _done_plain)(s, f)


def moved(s: S, f: CardEffect, move: OfficerMove) -> None:
    MOVED[card_of(f.card).effect](s, f, move)


def _done_plain(s: S, f: CardEffect) -> None:
    finish(s, f)


def _seat(item: str) -> int:
    return int(item.removeprefix("seat-"))


def _seat_act(k: int) -> Action:
    return act("choose", f"seat-{k}")


def _amount(f: CardEffect) -> int:
    return int(card_of(f.card).amount)


def _set(s: S, f: CardEffect, **changes: Any) -> CardEffect:
    now = dataclasses.replace(f, **changes)
    replace(s, now)
    return now


# -- usability tests -----------------------------------------------------------------------------
Usable = Callable[["S", int, int, Any], bool]


def _always(s: S, q: int, card: int, w: Any) -> bool:
    return True


def _officers_on_board(s: S, q: int, card: int, w: Any) -> bool:
    return any(x >= 0 for x in s.off_at)


def _bribed_officer(s: S, q: int, card: int, w: Any) -> bool:
    return any(s.off_at[o] >= 0 and s.off_bribe[o] >= 0 for o in range(B.N_OFFICERS))


def _deck_left(s: S, q: int, card: int, w: Any) -> bool:
    return bool(s.sdeck)


def _carry_moves(s: S, q: int, only: int = -1) -> list[tuple[int, int]]:
    mine = s.counters[q]
    out = []
    for g in range(_N_GOODS):
        if s.g_where[g] == LAND and s.g_owner[g] == q and s.g_at[g] in mine and (only < 0 or g == only):
            for b in C.locations[s.g_at[g]].land:
                if b in mine:
                    out.append((g, b))
    return out


def _can_carry(s: S, q: int, card: int, w: Any) -> bool:
    return bool(_carry_moves(s, q))


def _ship_targets(s: S, q: int) -> list[int]:
    """Rival seats whose ship, with cargo, is at a Port or Cove where ``q`` has a Network Counter."""
    out = []
    for k in range(s.seats):
        loc = C.sea_location[s.ship_at[k]] if s.ship_at[k] >= 0 else -1
        if k != q and s.hold[k] and loc >= 0 and loc in s.counters[q]:
            out.append(k)
    return out


def _has_ship_target(s: S, q: int, card: int, w: Any) -> bool:
    return bool(_ship_targets(s, q))


def _unskilled_victims(s: S, q: int) -> list[int]:
    return [k for k in range(s.seats) if k != q and any(C.characters[c].deck == 2 for c in s.chars[k])]


def _has_unskilled_victim(s: S, q: int, card: int, w: Any) -> bool:
    return bool(_unskilled_victims(s, q))


def _hand_victim(s: S, q: int, card: int, w: Any) -> bool:
    return any(s.secrets[k] for k in range(s.seats) if k != q)


def _village_goods(s: S, q: int) -> list[int]:
    return [g for g in range(_N_GOODS) if s.g_where[g] == LAND and s.g_owner[g] == q
            and s.g_at[g] in s.counters[q] and C.locations[s.g_at[g]].size == 0
            and C.shapes[C.goods[g]].size == 2]


def _can_village_sale(s: S, q: int, card: int, w: Any) -> bool:
    return bool(_village_goods(s, q))


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


def _can_backhander(s: S, q: int, card: int, w: Any) -> bool:
    return bool(_backhander_goods(s, q))


def _rival_goods_on_land(s: S, q: int, card: int, w: Any) -> bool:
    return any(s.g_where[g] == LAND and s.g_owner[g] not in (-1, q) for g in range(_N_GOODS))


def _can_sail(s: S, q: int, card: int, w: Any) -> bool:
    return not s.becalmed[q] and s.ship_at[q] >= 0


def _light_fingers_goods(s: S, q: int) -> list[int]:
    return [g for g in range(_N_GOODS) if s.g_where[g] == LAND and s.g_owner[g] not in (-1, q)
            and s.g_at[g] in s.counters[q]]


def _can_take_goods(s: S, q: int, card: int, w: Any) -> bool:
    return bool(_light_fingers_goods(s, q))


def _can_becalm(s: S, q: int, card: int, w: Any) -> bool:
    return any(not s.becalmed[k] for k in range(s.seats) if k != q)


def _can_lantern(s: S, q: int, card: int, w: Any) -> bool:
    loc = C.sea_location[s.ship_at[q]] if s.ship_at[q] >= 0 else -1
    return (loc >= 0 and C.locations[loc].kind == "cove" and loc in s.counters[q] and s.lantern[q] != loc
            and not B.can_land_at(s, q, loc))


def _can_repel(s: S, q: int, card: int, w: Any) -> bool:
    x = card_of(card)
    if not isinstance(w, F.SeizureWindow) or not w.goods or _repelled_officer(s, w) < 0:
        return False
    if card < SECRET and x.who == "any" and w.loc not in s.counters[q]:
        return False  # the Tinners answer in a location with one of your Network Counters
    if card >= SECRET and not s.chars[q]:
        return False  # Drunken Distraction costs one of your Characters
    return True


def _repelled_officer(s: S, w: F.SeizureWindow) -> int:
    owners = {s.g_owner[g] for g in w.goods}
    for o in range(B.N_OFFICERS):
        if s.off_at[o] == w.loc and any(s.off_bribe[o] != x for x in owners):
            return o
    return next((o for o in range(B.N_OFFICERS) if s.off_at[o] == w.loc), -1)


def _escapes(s: S, q: int, w: Any) -> list[tuple[int, int]]:
    out: list[tuple[int, int]] = []
    if not isinstance(w, F.SeizureWindow):
        return out
    for g in w.goods:
        if s.g_owner[g] == q:
            for b in C.locations[s.g_at[g]].land:
                if b in s.counters[q]:
                    out.append((g, b))
    return out


def _can_escape(s: S, q: int, card: int, w: Any) -> bool:
    return bool(_escapes(s, q, w))


def _jt_victim(s: S, q: int, card: int, w: Any) -> bool:
    k = w.subject
    return bool(k >= 0 and k != q and s.chars[k])


def _toll_ok(s: S, q: int, card: int, w: Any) -> bool:
    return bool(w.loc in s.counters[q])


def _free_row_ok(s: S, q: int, card: int, w: Any) -> bool:
    return not _sale(s).free_row


def _extra_sail_ok(s: S, q: int, card: int, w: Any) -> bool:
    return not s.becalmed[q]


def _witch_ok(s: S, q: int, card: int, w: Any) -> bool:
    k = w.subject
    return bool(k != q and (s.gold[k] >= C.characters[card].amount or s.hold[k]))


def _not_directed(s: S, q: int, card: int, w: Any) -> bool:
    return not F.directed(s)


def _not_placed_free(s: S, q: int, card: int, w: Any) -> bool:
    return not s.place_free


# -- effect starts, options and choices ------------------------------------------------------------
def _steps(n: int) -> Callable[[S, int, int, Any], None]:
    def start(s: S, q: int, card: int, w: Any) -> None:
        steps = n if n else int(card_of(card).amount)
        if steps > 0:
            push(s, CardEffect(card=card, seat=q, steps=steps, loc=w.loc if w else -1, subject=w.subject if w else -1))
    return start


def _officer_moves(s: S, only: int = -1, exclude: int = -1) -> list[Action]:
    out: list[Action] = []
    for o in range(B.N_OFFICERS):
        at = s.off_at[o]
        if at >= 0 and o != exclude and (only < 0 or o == only):
            out.extend(act("choose", str(o), B.LOC_IDS[b]) for b in C.locations[at].land)
    return out


def _move_officer_opts(s: S, f: CardEffect) -> list[Action]:
    opts = _officer_moves(s, only=f.officer)
    if f.officer >= 0:
        opts.append(act("done"))
    return opts


def _move_officer_choose(s: S, f: CardEffect, item: str, to: str) -> None:
    o = int(item)
    _set(s, f, officer=o, steps=f.steps - 1)
    F.move_officer(s, o, C.loc_by_id[to], C.locations[s.off_at[o]].land)


def _lead_officer(s: S, f: CardEffect, move: OfficerMove) -> None:
    o, to = move.officer, move.to
    s._event(f"Seat {f.seat} moves Customs Officer {o} from {C.locations[s.off_at[o]].name} to "
             f"{C.locations[to].name} ({card_name(f.card)})")
    s.off_at[o] = to
    if not F.check_seizure(s, to):
        effect_continue(s, f)


def _move_officers_opts(s: S, f: CardEffect) -> list[Action]:
    opts = _officer_moves(s, exclude=f.officer)
    if f.officer >= 0:
        opts.append(act("done"))
    return opts


def _lose_rep_opts(s: S, f: CardEffect) -> list[Action]:
    """Niall Horabain: "a player of your choice" is any player, yourself included."""
    return [_seat_act(k) for k in range(s.seats)]


def _lose_rep_choose(s: S, f: CardEffect, item: str, to: str) -> None:
    """A player with less Reputation than the card removes loses what they have (with none, nothing)."""
    k = _seat(item)
    lost = min(s.rep[k], _amount(f))
    s.rep[k] -= lost
    s._event(f"Seat {k} permanently loses {lost} Reputation ({card_name(f.card)})")
    finish(s, f)


def _draw_start(s: S, q: int, card: int, w: Any) -> None:
    n = 0
    for _ in range(card_of(card).amount):
        if s.sdeck:
            s.secrets[q].append(s.sdeck.pop())
            n += 1
    s._event(f"Seat {q} draws {n} Secrets card{'s' if n != 1 else ''}")


def _remove_bribe_opts(s: S, f: CardEffect) -> list[Action]:
    return [act("choose", str(o)) for o in range(B.N_OFFICERS) if s.off_at[o] >= 0 and s.off_bribe[o] >= 0]


def _remove_bribe_choose(s: S, f: CardEffect, item: str, to: str) -> None:
    o = int(item)
    s._event(f"Seat {f.seat} removes seat {s.off_bribe[o]}'s Bribe Marker from Customs Officer {o}")
    s.off_bribe[o] = -1
    f = _set(s, f, steps=0)
    if not F.check_seizure(s, s.off_at[o]):
        finish(s, f)


def _carry_opts(s: S, f: CardEffect) -> list[Action]:
    opts: list[Action] = [act("choose", B.GOODS_IDS[g], B.LOC_IDS[b]) for g, b in _carry_moves(s, f.seat, f.goods)]
    if f.goods >= 0:
        opts.append(act("done"))
    return opts


def _carry_choose(s: S, f: CardEffect, item: str, to: str) -> None:
    g, b = B.GOODS_BY_ID[item], C.loc_by_id[to]
    f = _set(s, f, goods=g, steps=f.steps - 1)
    s._event(f"Seat {f.seat} moves {B.goods_name(g)} from {C.locations[s.g_at[g]].name} to "
             f"{C.locations[b].name} ({card_name(f.card)})")
    s.g_at[g] = b
    hidden = card_of(f.card).effect == "carry-hidden"
    if hidden and f.steps > 0 and _carry_moves(s, f.seat, g):
        return  # Mock Funeral: not seized on the way, only where it stops
    if hidden:
        f = _set(s, f, steps=0)
    if not F.check_seizure(s, b):
        effect_continue(s, f)


def _carry_done(s: S, f: CardEffect) -> None:
    g = f.goods
    f = _set(s, f, steps=0)
    if card_of(f.card).effect == "carry-hidden" and g >= 0:
        if F.check_seizure(s, s.g_at[g]):
            return
    finish(s, f)


def _lanyon_opts(s: S, f: CardEffect) -> list[Action]:
    return [act("choose", B.GOODS_IDS[g]) for k in _ship_targets(s, f.seat) for g in sorted(s.hold[k])]


def _lanyon_choose(s: S, f: CardEffect, item: str, to: str) -> None:
    g = B.GOODS_BY_ID[item]
    owner = s.g_owner[g]
    s.hold[owner].remove(g)
    s._event(f"Seat {f.seat}'s Revenue Cruiser takes {B.goods_name(g)} from seat {owner}'s ship")
    B.seize(s, [g], C.sea_location[s.ship_at[owner]])
    f = _set(s, f, steps=0)
    if not F.open_window(s, "seized", owner):
        finish(s, f)


def _wreck_opts(s: S, f: CardEffect) -> list[Action]:
    if f.victim < 0:
        return [_seat_act(k) for k in _ship_targets(s, f.seat)]
    return [act("choose", B.GOODS_IDS[g]) for g in sorted(s.hold[f.victim])]


def _wreck_choose(s: S, f: CardEffect, item: str, to: str) -> None:
    if f.victim < 0:
        k = _seat(item)
        _set(s, f, victim=k, decider=k)  # the owner chooses which Goods Shape
        return
    g, k, q = B.GOODS_BY_ID[item], f.victim, f.seat
    loc = C.sea_location[s.ship_at[k]]
    s.hold[k].remove(g)
    s.g_where[g], s.g_at[g], s.g_owner[g] = LAND, loc, q
    s._event(f"The Wreckers take {B.goods_name(g)} from seat {k}'s ship onto the shore at {C.locations[loc].name} "
             f"for seat {q}")
    f = _set(s, f, steps=0, decider=-1)
    if not F.check_seizure(s, loc):
        finish(s, f)


def _keast_opts(s: S, f: CardEffect) -> list[Action]:
    if f.victim < 0:
        return [_seat_act(k) for k in _unskilled_victims(s, f.seat)]
    return [act("choose", C.characters[c].id) for c in s.chars[f.victim] if C.characters[c].deck == 2]


def _keast_choose(s: S, f: CardEffect, item: str, to: str) -> None:
    if f.victim < 0:
        k = _seat(item)
        _set(s, f, victim=k, decider=k)
        return
    f = _set(s, f, steps=0)
    _lose_and_go_on(s, f, f.victim, _CHAR_ID[item], rival=True)


def _lose_and_go_on(s: S, f: CardEffect, k: int, c: int, rival: bool) -> None:
    """A Character is lost (a rival's card may be answered by Squire Polglase); the card then goes on."""
    (lose_to_rival if rival else lose_now)(s, k, c)
    if s.frames[-1] is f:
        effect_continue(s, f)


def _steal_opts(s: S, f: CardEffect) -> list[Action]:
    return [_seat_act(k) for k in range(s.seats) if k != f.seat and s.secrets[k]]


def _steal_choose(s: S, f: CardEffect, item: str, to: str) -> None:
    k, q = _seat(item), f.seat
    card = s.secrets[k].pop(s.rng.below(len(s.secrets[k])))
    s.secrets[q].append(card)
    s._event(f"Seat {q} takes a Secrets card at random from seat {k}'s hand")
    finish(s, f)


def _village_opts(s: S, f: CardEffect) -> list[Action]:
    return [act("choose", B.GOODS_IDS[g]) for g in _village_goods(s, f.seat)]


def _village_choose(s: S, f: CardEffect, item: str, to: str) -> None:
    # the card is done: the sale takes its place (and finishes the Action)
    F.begin_sale(s, f.seat, B.GOODS_BY_ID[item], size=_amount(f), instead=f)


def _backhander_opts(s: S, f: CardEffect) -> list[Action]:
    return [act("choose", B.GOODS_IDS[g]) for g in _backhander_goods(s, f.seat)]


def _backhander_choose(s: S, f: CardEffect, item: str, to: str) -> None:
    g, q = B.GOODS_BY_ID[item], f.seat
    price = BACKHANDER_PRICES[C.shapes[C.goods[g]].size]
    B.pay_gold(s, q, price)
    s.g_where[g], s.g_at[g], s.g_owner[g] = LAND, C.penzance, q
    s._event(f"Seat {q} buys {B.goods_name(g)} out of the Customs Warehouse for {price} Gold")
    finish(s, f)


def _inform_opts(s: S, f: CardEffect) -> list[Action]:
    return [act("choose", B.GOODS_IDS[g]) for g in range(_N_GOODS)
            if s.g_where[g] == LAND and s.g_owner[g] not in (-1, f.seat)]


def _inform_choose(s: S, f: CardEffect, item: str, to: str) -> None:
    g = B.GOODS_BY_ID[item]
    _set(s, f, steps=0)
    s._event(f"An anonymous letter sends Customs towards {B.goods_name(g)} in {C.locations[s.g_at[g]].name}")
    F.start_customs(s, s.g_at[g], _amount(f))


def _sail_opts(s: S, f: CardEffect) -> list[Action]:
    opts: list[Action] = [act("choose", C.sea_ids[n]) for n in C.sea_adj[s.ship_at[f.seat]]]
    if f.steps < _amount(f):
        opts.append(act("done"))
    return opts


def _sail_choose(s: S, f: CardEffect, item: str, to: str) -> None:
    q, node = f.seat, C.sea_by_id[item]
    s.ship_at[q] = node
    s._event(f"Seat {q} sails to {B.node_name(node)} ({card_name(f.card)})")
    ship_entered(s, q, node)
    f = _set(s, f, steps=f.steps - 1)
    if f.steps <= 0:
        _sail_done(s, f)


def _sail_done(s: S, f: CardEffect) -> None:
    f = _set(s, f, steps=0)
    if not F.witch_window(s, f.witch):
        finish(s, f)


def _take_opts(s: S, f: CardEffect) -> list[Action]:
    return [act("choose", B.GOODS_IDS[g]) for g in _light_fingers_goods(s, f.seat)]


def _take_choose(s: S, f: CardEffect, item: str, to: str) -> None:
    g, q = B.GOODS_BY_ID[item], f.seat
    s._event(f"Seat {q} takes seat {s.g_owner[g]}'s {B.goods_name(g)} in {C.locations[s.g_at[g]].name}")
    s.g_owner[g] = q
    f = _set(s, f, steps=0)
    if not F.check_seizure(s, s.g_at[g]):
        finish(s, f)


def _gain_influence(s: S, q: int, card: int, w: Any) -> None:
    s.infl[q] += card_of(card).amount


def _becalm_opts(s: S, f: CardEffect) -> list[Action]:
    return [_seat_act(k) for k in range(s.seats) if k != f.seat and not s.becalmed[k]]


def _becalm_choose(s: S, f: CardEffect, item: str, to: str) -> None:
    k = _seat(item)
    s.becalmed[k] = True
    s._event(f"Seat {k}'s ship is becalmed until the end of this Turn")
    finish(s, f)


def _lantern_start(s: S, q: int, card: int, w: Any) -> None:
    s.lantern[q] = C.sea_location[s.ship_at[q]]


def _jt_opts(s: S, f: CardEffect) -> list[Action]:
    return [act("choose", C.characters[c].id) for c in s.chars[f.subject]]


def _jt_choose(s: S, f: CardEffect, item: str, to: str) -> None:
    f = _set(s, f, steps=0)
    _lose_and_go_on(s, f, f.subject, _CHAR_ID[item], rival=True)


def _repel_start(s: S, q: int, card: int, w: Any) -> None:
    push(s, CardEffect(card=card, seat=q, steps=2 if card >= SECRET else 1,  # Drunken Distraction: then a Character
                       officer=_repelled_officer(s, w), loc=w.loc, subject=w.subject))


def _repel_opts(s: S, f: CardEffect) -> list[Action]:
    if f.steps == 1 and f.card >= SECRET:
        return [act("choose", C.characters[c].id) for c in s.chars[f.seat]]
    return [act("choose", B.LOC_IDS[x]) for x in _repel_places(f)]


def _repel_places(f: CardEffect) -> list[int]:
    loc = f.loc
    row = C.dist[loc]
    want = _amount(f)
    reach = [x for x in range(len(C.locations)) if row[x] < INF]
    best = max((row[x] for x in reach if row[x] <= want), default=0)
    return [x for x in reach if row[x] == best and x != loc]


def _repel_choose(s: S, f: CardEffect, item: str, to: str) -> None:
    if item in _CHAR_ID:
        f = _set(s, f, steps=0)
        _lose_and_go_on(s, f, f.seat, _CHAR_ID[item], rival=False)
        return
    F.move_officer(s, f.officer, C.loc_by_id[item], _repel_places(f))


def _repel_moved(s: S, f: CardEffect, move: OfficerMove) -> None:
    o, to_loc = move.officer, move.to
    s._event(f"Customs Officer {o} is led away from {C.locations[f.loc].name} to {C.locations[to_loc].name}; "
             f"the Goods are not seized ({card_name(f.card)})")
    s.off_at[o] = to_loc
    w = F.window(s)
    if isinstance(w, F.SeizureWindow):
        F.replace_frame(s, w, dataclasses.replace(w, goods=()))
    f = _set(s, f, steps=f.steps - 1)
    F.check_seizure(s, to_loc)  # inside the window: at once
    effect_continue(s, f)


def _escape_opts(s: S, f: CardEffect) -> list[Action]:
    return [act("choose", B.GOODS_IDS[g], B.LOC_IDS[b]) for g, b in _escapes(s, f.seat, F.window(s))]


def _escape_choose(s: S, f: CardEffect, item: str, to: str) -> None:
    g, b = B.GOODS_BY_ID[item], C.loc_by_id[to]
    s._event(f"Seat {f.seat} slips {B.goods_name(g)} away to {C.locations[b].name} ({card_name(f.card)})")
    s.g_at[g] = b
    w = F.window(s)
    if isinstance(w, F.SeizureWindow):
        F.replace_frame(s, w, dataclasses.replace(w, goods=tuple(x for x in w.goods if x != g)))
    F.check_seizure(s, b)
    finish(s, f)


def _landing_risk(s: S, q: int, card: int, w: Any) -> None:
    f = F.landing(s)
    if f is not None:
        F.replace_frame(s, f, dataclasses.replace(f, risk_mod=f.risk_mod - card_of(card).amount))


def _shift_opts(s: S, f: CardEffect) -> list[Action]:
    return [act("choose", "reduce"), act("choose", "increase")]


def _shift_choose(s: S, f: CardEffect, item: str, to: str) -> None:
    n = _amount(f)
    land = F.landing(s)
    if land is not None:
        F.replace_frame(s, land, dataclasses.replace(land, risk_mod=land.risk_mod + (-n if item == "reduce" else n)))
    s._event(f"Holly & Olivia {'reduce' if item == 'reduce' else 'increase'} the Landing Risk by {n}")
    finish(s, f)


def _no_customs(s: S, q: int, card: int, w: Any) -> None:
    F.amend(s, F.Landing, no_customs=True)


def _sale(s: S) -> F.Sale:
    f = F.innermost(s, F.Sale)
    assert f is not None, "a sale card answers a sale"
    return f


def _toll(s: S, q: int, card: int, w: Any) -> None:
    F.amend(s, F.Sale, tolls=_sale(s).tolls + (card, q))


def _sale_bonus(s: S, q: int, card: int, w: Any) -> None:
    F.amend(s, F.Sale, bonus=_sale(s).bonus + card_of(card).amount)


def _free_row(s: S, q: int, card: int, w: Any) -> None:
    F.amend(s, F.Sale, free_row=True)


def _extra_sail_opts(s: S, f: CardEffect) -> list[Action]:
    return [act("choose", C.sea_ids[n]) for n in C.sea_adj[s.ship_at[f.seat]]]


def _extra_sail_choose(s: S, f: CardEffect, item: str, to: str) -> None:
    q, node = f.seat, C.sea_by_id[item]
    s.ship_at[q] = node
    s._event(f"Seat {q} sails on to {B.node_name(node)} ({card_name(f.card)})")
    ship_entered(s, q, node)
    finish(s, f)


def _witch_start(s: S, q: int, card: int, w: Any) -> None:
    k = w.subject  # the passing player chooses: pay, or let the Witch take cargo
    push(s, CardEffect(card=card, seat=q, steps=2, victim=k, decider=k, loc=w.loc, subject=k))


def _witch_opts(s: S, f: CardEffect) -> list[Action]:
    k, q = f.victim, f.seat
    if f.steps == 2:
        out: list[Action] = []
        if s.gold[k] >= _amount(f):
            out.append(act("choose", "pay"))
        if s.hold[k]:
            out.append(act("choose", "cargo"))
        return out
    return [act("choose", B.GOODS_IDS[g]) for g in sorted(s.hold[k])] if q >= 0 else []


def _witch_choose(s: S, f: CardEffect, item: str, to: str) -> None:
    k, q = f.victim, f.seat
    if item == "pay":
        s.gold[k] -= _amount(f)
        s.gold[q] += _amount(f)
        s._event(f"Seat {k} pays the Witch of St Levan {_amount(f)} Gold")
        finish(s, _set(s, f, steps=0))
    elif item == "cargo":
        _set(s, f, steps=1, decider=-1)
    else:
        f = _set(s, f, steps=0)
        witch_takes(s, q, k, B.GOODS_BY_ID[item])
        finish(s, f)


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


def _set_buy_disc(s: S, q: int, card: int, w: Any) -> None:
    F.amend(s, F.Purchase, disc=card_of(card).amount)


def _bribe_disc(s: S, q: int, card: int, w: Any) -> None:
    f = F.innermost(s, F.Purchase)
    assert isinstance(f, F.Purchase), "a bribe card answers a bribe"
    F.amend(s, F.Purchase, disc=f.disc + card_of(card).amount)


def _direct(s: S, q: int, card: int, w: Any) -> None:
    F.direct(s, q)


def _place_anywhere(s: S, q: int, card: int, w: Any) -> None:
    F.amend(s, F.PlaceCounter, anywhere=True)


# == events the rules fire ================================================================================
def ship_entered(s: S, p: int, node: int) -> None:
    """A card moved ``p``'s ship: the move under way (the Action's, or Fair Wind's own) notes the Witch's sea."""
    if node not in WITCH_NODES:
        return
    for f in reversed(s.frames):
        if isinstance(f, F.Sailing) or isinstance(f, CardEffect) and card_of(f.card).effect == "sail-free":
            F.replace_frame(s, f, dataclasses.replace(f, witch=p))
            return


# == the tables =============================================================================================
USABLE: dict[str, Usable] = {
    "move-officer": _officers_on_board, "move-officers": _officers_on_board, "lose-reputation": _always,
    "draw-secrets": _deck_left, "remove-bribe": _bribed_officer, "carry-free": _can_carry,
    "carry-hidden": _can_carry, "seize-from-ship": _has_ship_target, "take-from-ship": _has_ship_target,
    "discard-unskilled": _has_unskilled_victim, "steal-secret": _hand_victim, "village-sale": _can_village_sale,
    "backhander": _can_backhander, "inform": _rival_goods_on_land, "sail-free": _can_sail,
    "take-goods": _can_take_goods, "gain-influence": _always, "becalm": _can_becalm, "cove-access": _can_lantern,
    "remove-character": _jt_victim, "repel-officer": _can_repel, "escape-one": _can_escape,
    "landing-risk": _always, "shift-landing-risk": _always, "no-customs": _always, "toll": _toll_ok,
    "sale-bonus": _always, "free-bottom-row": _free_row_ok, "extra-sail": _extra_sail_ok, "witch-toll": _witch_ok,
    "buy-discount": _always, "buy-reputation-discount": _always, "bribe-discount": _always,
    "direct-customs": _not_directed, "place-anywhere": _not_placed_free, "keep-character": _always,
}
START: dict[str, Callable[[S, int, int, Any], None]] = {
    "move-officer": _steps(0), "move-officers": _steps(0), "lose-reputation": _steps(1), "draw-secrets": _draw_start,
    "remove-bribe": _steps(1), "carry-free": _steps(0), "carry-hidden": _steps(0), "seize-from-ship": _steps(1),
    "take-from-ship": _steps(2), "discard-unskilled": _steps(2), "steal-secret": _steps(1),
    "village-sale": _steps(1), "backhander": _steps(1), "inform": _steps(1), "sail-free": _steps(0),
    "take-goods": _steps(1), "gain-influence": _gain_influence, "becalm": _steps(1), "cove-access": _lantern_start,
    "remove-character": _steps(1), "repel-officer": _repel_start, "escape-one": _steps(1),
    "landing-risk": _landing_risk, "shift-landing-risk": _steps(1), "no-customs": _no_customs, "toll": _toll,
    "sale-bonus": _sale_bonus, "free-bottom-row": _free_row, "extra-sail": _steps(1), "witch-toll": _witch_start,
    "buy-discount": _set_buy_disc, "buy-reputation-discount": _set_buy_disc, "bribe-discount": _bribe_disc,
    "direct-customs": _direct, "place-anywhere": _place_anywhere,
}
OPTIONS: dict[str, Callable[[S, CardEffect], list[Action]]] = {
    "move-officer": _move_officer_opts, "move-officers": _move_officers_opts, "lose-reputation": _lose_rep_opts,
    "remove-bribe": _remove_bribe_opts, "carry-free": _carry_opts, "carry-hidden": _carry_opts,
    "seize-from-ship": _lanyon_opts, "take-from-ship": _wreck_opts, "discard-unskilled": _keast_opts,
    "steal-secret": _steal_opts, "village-sale": _village_opts, "backhander": _backhander_opts,
    "inform": _inform_opts, "sail-free": _sail_opts, "take-goods": _take_opts, "becalm": _becalm_opts,
    "remove-character": _jt_opts, "repel-officer": _repel_opts, "escape-one": _escape_opts,
    "shift-landing-risk": _shift_opts, "extra-sail": _extra_sail_opts, "witch-toll": _witch_opts,
}
CHOOSE: dict[str, Callable[[S, CardEffect, str, str], None]] = {
    "move-officer": _move_officer_choose, "move-officers": _move_officer_choose, "lose-reputation": _lose_rep_choose,
    "remove-bribe": _remove_bribe_choose, "carry-free": _carry_choose, "carry-hidden": _carry_choose,
    "seize-from-ship": _lanyon_choose, "take-from-ship": _wreck_choose, "discard-unskilled": _keast_choose,
    "steal-secret": _steal_choose, "village-sale": _village_choose, "backhander": _backhander_choose,
    "inform": _inform_choose, "sail-free": _sail_choose, "take-goods": _take_choose, "becalm": _becalm_choose,
    "remove-character": _jt_choose, "repel-officer": _repel_choose, "escape-one": _escape_choose,
    "shift-landing-risk": _shift_choose, "extra-sail": _extra_sail_choose, "witch-toll": _witch_choose,
}
DONE: dict[str, Callable[[S, CardEffect], None]] = {"carry-free": _carry_done, "carry-hidden": _carry_done,
                                                    "sail-free": _sail_done}
MOVED: dict[str, Callable[[S, CardEffect, OfficerMove], None]] = {
    "move-officer": _lead_officer, "move-officers": _lead_officer, "repel-officer": _repel_moved,
}
