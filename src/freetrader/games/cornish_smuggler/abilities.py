"""Card abilities: Motivate, passives, triggers, Secrets and reaction windows.

A card's ability is data (``effect``, ``event``, ``who``, ``cost``, ``amount``,
``places`` in ``data/*.toml``) plus one small handler per effect id here.

- **Motivate** (Characters): pay, the card turns face down (``s.motivated``)
  until the next Turn. As an Action (``motivate <card>`` in the Main
  decision) or when its event happens (a reaction window).
- **Passive** effects are read where their rule applies (``passive``).
- **Secrets** (``play <card>``): ``action`` ones are Actions; ``free`` ones
  are played on your own turn without using the Action; the others answer
  an event in a reaction window. Played cards are discarded (``s.sdiscard``).
- **Reaction windows** (DESIGN.md, "Out-of-turn play"): when an event fires,
  every seat that could react, judged only on public facts (a non-empty
  hand, a usable face-up Character), is asked in seat order from the active
  player: play, motivate, or ``decline``. A decline writes no event.
  Windows do not nest: whatever happens while one is open (an officer led
  away onto other goods, say) resolves at once, with no new window.

A card in ``s.eff`` is ``[context, card, seat, steps, a, b, c]``: the card is a
Character index or ``SECRET + index``; ``steps`` counts the decisions still to
make; ``a``, ``b``, ``c`` are the effect's scratch (``b``: the seat deciding,
when not the card's owner).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from freetrader.core import Action

from . import rules as R
from .actions import act
from .components import COMPONENTS as C
from .components import INF

if TYPE_CHECKING:
    from .state import CornishState as S

SECRET = 1000
NONE, IN_ACTION, IN_WINDOW, FREE = 0, 1, 2, 3
EMPTY_EFF = (0, -1, -1, 0, -1, -1, -1)
BACKHANDER_PRICES = {2: 3, 3: 5, 4: 8, 5: 12}  # printed on the card, by Goods size
RESUMES = ("phase", "finish", "customs", "post", "ashore", "land-risk", "sale", "bribe", "buy", "buy-rep", "sail",
           "effect", "effect-done")

_CHAR_ID = {c.id: c.index for c in C.characters}
_SECRET_ID = {x.id: x.index for x in C.secrets}
_PASSIVE: dict[str, list[tuple[int, int]]] = {}
for _c in C.characters:
    if _c.event == "passive":
        _PASSIVE.setdefault(_c.effect, []).append((_c.index, _c.amount))
_PASSIVE_OF = [dict() for _ in C.characters]  # type: list[dict[str, int]]
for _c in C.characters:
    if _c.event == "passive":
        _PASSIVE_OF[_c.index][_c.effect] = _c.amount
# For each event, whose event the Secrets answering it may be played on (static data: asking leaks nothing).
SECRET_WHO: dict[str, frozenset[str]] = {}
for _x in C.secrets:
    SECRET_WHO[_x.event] = SECRET_WHO.get(_x.event, frozenset()) | {_x.who}
WITCH_NODES = frozenset(n for c in C.characters if c.event == "ship-enters" for n in c.places)
_WITCH_NODE = min(WITCH_NODES, default=-1)
_TRIGGERED = frozenset(c.index for c in C.characters if c.event not in ("", "passive", "action"))
_ACTION_CHARS = frozenset(c.index for c in C.characters if c.event == "action")


def card_of(card: int) -> object:
    return C.secrets[card - SECRET] if card >= SECRET else C.characters[card]


def card_name(card: int) -> str:
    return C.secrets[card - SECRET].name if card >= SECRET else C.characters[card].name


# == passives (read where their rule applies) ===========================================
def passive(s: S, p: int, effect: str) -> int:
    """The sum of this passive effect over seat ``p``'s Characters."""
    total = 0
    for c in s.chars[p]:
        amount = _PASSIVE_OF[c].get(effect)
        if amount is not None:
            total += amount
    return total


def has_passive(s: S, p: int, effect: str) -> bool:
    return any(effect in _PASSIVE_OF[c] for c in s.chars[p])


def start_of_turn_income(s: S, p: int) -> None:
    """Start of Each Turn: "Some Character Cards give players extra Influence at this point" (and Gold)."""
    s.infl[p] += passive(s, p, "influence-per-turn")
    gold = passive(s, p, "gold-per-turn")
    if gold:
        R._gain_gold(s, p, gold)


def mob_count(s: S, p: int) -> int:
    return sum(C.characters[c].mob for c in s.chars[p]) + sum(
        a - 1 for c in s.chars[p] for e, a in _PASSIVE_OF[c].items() if e == "mob-count")


def raid_mobs_needed(s: S, p: int) -> int:
    return min([2] + [_PASSIVE_OF[c]["raid-mobs"] for c in s.chars[p] if "raid-mobs" in _PASSIVE_OF[c]])


def seizure_influence(s: S, count: int) -> None:
    """Francis Oprey: Influence for each Goods Shape seized by Customs."""
    for p in range(s.seats):
        gain = passive(s, p, "influence-per-seizure") * count
        if gain:
            s.infl[p] += gain
            s._event(f"Seat {p} gains {gain} Influence (Francis Oprey)")


# == costs ==================================================================================
def pay_options(s: S, p: int, cost: tuple[tuple[str, int], ...]) -> tuple[str, ...]:
    """How seat ``p`` can pay: ("",) when free or single-priced and affordable, else the affordable resources."""
    if not cost:
        return ("",)
    ok = tuple(r for r, n in cost if _has(s, p, r, n))
    if len(cost) == 1:
        return ("",) if ok else ()
    return ok


def _has(s: S, p: int, resource: str, n: int) -> bool:
    if resource == "gold":
        return s.gold[p] >= n
    if resource == "influence":
        return s.infl[p] >= n
    return s.rep[p] >= n


def pay(s: S, p: int, cost: tuple[tuple[str, int], ...], how: str) -> None:
    for r, n in cost:
        if how in ("", r):
            if r == "gold":
                R._pay_gold(s, p, n)
            elif r == "influence":
                s.infl[p] -= n
            else:
                s.rep[p] -= n
            return


# == what a card may do now ==================================================================
def usable(s: S, q: int, card: int) -> bool:
    x = card_of(card)
    return _who_ok(s, q, x.who, x.event) and _places_ok(s, x) and USABLE[x.effect](s, q, card)  # type: ignore[attr-defined]


def _who_ok(s: S, q: int, who: str, event: str) -> bool:
    if event in ("action", "free", "passive") or who == "any":
        return True
    mine = _is_subject(s, q)
    return mine if who == "self" else not mine


def _is_subject(s: S, q: int) -> bool:
    if s.win_event == "seizure":
        return any(s.g_owner[g] == q for g in s.seize_list)
    return q == s.win_subject


def _places_ok(s: S, x: object) -> bool:
    places = x.places  # type: ignore[attr-defined]
    return not places or s.win_loc in places


def char_ready(s: S, q: int, c: int) -> bool:
    """Face up (not Motivated this turn) and affordable."""
    return c not in s.motivated[q] and bool(pay_options(s, q, C.characters[c].cost))


# == Motivate / play as the Action or a free action ===========================================
def legal_main_cards(s: S, p: int) -> list[Action]:
    acts: list[Action] = []
    for c in s.chars[p]:
        if c in _ACTION_CHARS and c not in s.motivated[p] and pay_options(s, p, C.characters[c].cost) \
                and USABLE[C.characters[c].effect](s, p, c):
            acts.extend(act("motivate", C.characters[c].id, "", how) for how in pay_options(s, p, C.characters[c].cost))
    seen: set[int] = set()
    for k in s.secrets[p]:
        x = C.secrets[k]
        if k in seen or x.event not in ("action", "free"):
            continue
        seen.add(k)
        if pay_options(s, p, x.cost) and USABLE[x.effect](s, p, SECRET + k):
            acts.append(act("play", x.id))
    return acts


def motivate(s: S, q: int, c: int, how: str, context: int) -> None:
    ch = C.characters[c]
    pay(s, q, ch.cost, how)
    s.motivated[q].append(c)
    s._event(f"Seat {q} Motivates {ch.name}")
    begin_effect(s, q, c, context)


def play_secret(s: S, q: int, k: int, context: int) -> None:
    x = C.secrets[k]
    s.secrets[q].remove(k)
    s.sdiscard.append(k)
    pay(s, q, x.cost, "")
    s._event(f"Seat {q} plays the Secret {x.name}")
    begin_effect(s, q, SECRET + k, context)


def main_card(s: S, verb: str, item: str, how: str) -> None:
    p = s.actor
    if verb == "motivate":
        motivate(s, p, _CHAR_ID[item], how, IN_ACTION)
    else:
        k = _SECRET_ID[item]
        play_secret(s, p, k, FREE if C.secrets[k].event == "free" else IN_ACTION)


# == reaction windows ============================================================================
def could_react(s: S, q: int) -> bool:
    """Judged on public facts only: a non-empty hand (if some Secret answers this event for q), or a usable card."""
    event = s.win_event
    if s.secrets[q]:
        whos = SECRET_WHO.get(event)
        if whos and ("any" in whos or ("self" in whos) == _is_subject(s, q) or "other" in whos and not _is_subject(s, q)):
            return True
    for c in s.chars[q]:
        if c in _TRIGGERED and C.characters[c].event == event and char_ready(s, q, c) and usable(s, q, c):
            return True
    return False


def open_window(s: S, event: str, subject: int, loc: int, resume: str) -> bool:
    """Ask the seats that could react, in seat order from the active player; False (nothing changed) if none."""
    if s.win_event or s.phase == R.SETUP_LAUNCH:
        return False
    s.win_event, s.win_subject, s.win_loc = event, subject, loc
    n = s.seats
    ask = [q for q in ((s.active + i) % n for i in range(n)) if could_react(s, q)]
    if not ask:
        s.win_event, s.win_subject, s.win_loc = "", -1, -1
        return False
    s.resume = [RESUMES.index(resume), s.phase, s.actor] + s.eff
    s.win_ask = ask
    s.phase = R.REACT
    s.actor = ask[0]
    return True


def legal_react(s: S) -> tuple[Action, ...]:
    q = s.actor
    acts: list[Action] = [act("decline")] if decline_ok(s) else []
    seen: set[int] = set()
    for k in s.secrets[q]:
        x = C.secrets[k]
        if k not in seen and x.event == s.win_event:
            seen.add(k)
            if pay_options(s, q, x.cost) and usable(s, q, SECRET + k):
                acts.append(act("play", x.id))
    for c in s.chars[q]:
        ch = C.characters[c]
        if ch.event == s.win_event and c not in s.motivated[q] and usable(s, q, c):
            acts.extend(act("motivate", ch.id, "", how) for how in pay_options(s, q, ch.cost))
    return tuple(acts) or (act("decline"),)


def decline_ok(s: S) -> bool:
    """Declining must leave the triggering Action affordable (a discount the player counted on)."""
    p, ev = s.actor, s.win_event
    if p != s.win_subject:
        return True
    if ev == "buy":
        return s.gold[p] >= buy_price(s, s.buy_g)
    if ev == "bribe":
        return s.gold[p] >= R.bribe_cost(s, p, s.bribe_off)
    if ev == "buy-reputation":
        return s.gold[p] >= 4 - s.buy_disc
    return True


def react(s: S, verb: str, item: str, how: str) -> None:
    q = s.actor
    if verb == "decline":  # silent: no event
        next_asker(s, played=False)
    elif verb == "play":
        play_secret(s, q, _SECRET_ID[item], IN_WINDOW)
    else:
        motivate(s, q, _CHAR_ID[item], how, IN_WINDOW)


def next_asker(s: S, played: bool) -> None:
    """After a play the same seat may play again; after a decline, the next seat is asked."""
    if s.win_event == "seizure" and not s.seize_list:
        close_window(s)
        return
    if played and could_react(s, s.win_ask[0]):
        s.phase, s.actor = R.REACT, s.win_ask[0]
        return
    s.win_ask = s.win_ask[1:]
    while s.win_ask and not could_react(s, s.win_ask[0]):
        s.win_ask = s.win_ask[1:]
    if s.win_ask:
        s.phase, s.actor = R.REACT, s.win_ask[0]
    else:
        close_window(s)


def close_window(s: S) -> None:
    """Restore the interrupted decision's context, settle a seizure, then carry on where it stopped."""
    event = s.win_event
    s.win_event, s.win_subject, s.win_loc, s.win_ask = "", -1, -1, []
    saved = s.resume
    s.phase, s.actor, s.eff, s.resume = saved[1], saved[2], saved[3:], []
    if event == "seizure":
        loc = s.seize_loc
        goods = [g for g in s.seize_list if g in R.seizable(s, loc)]
        s.seize_list = []
        R.seize(s, goods, loc)
        if goods and open_window(s, "seized", s.seized_owner, -1, RESUMES[saved[0]]):
            return  # John Thomas may answer; the same resumption follows
    R.RESUME_FNS[RESUMES[saved[0]]](s)


def open_seizure(s: S, loc: int, goods: list[int], resume: str) -> bool:
    """Goods are about to be seized: Drunken Distraction, Under the Floorboards, the Fishwives..."""
    s.seize_list, s.seize_loc = goods, loc
    if open_window(s, "seizure", s.g_owner[goods[0]], loc, resume):
        return True
    s.seize_list = []
    return False


# == effects ===========================================================================================
def begin_effect(s: S, q: int, card: int, context: int) -> None:
    x = card_of(card)
    s.eff = [context, card, q, 0, -1, -1, -1]
    START[x.effect](s, q, card)  # type: ignore[attr-defined]


def effect_continue(s: S) -> None:
    if s.eff[3] <= 0:
        effect_done(s)
        return
    s.phase = R.EFFECT
    s.actor = s.eff[5] if s.eff[5] >= 0 else s.eff[2]


def effect_done(s: S) -> None:
    context, seat = s.eff[0], s.eff[2]
    s.eff = list(EMPTY_EFF)
    if context == IN_WINDOW:
        next_asker(s, played=True)
    elif context == IN_ACTION:
        s.actor = seat
        R.finish_action(s)
    else:
        s.phase, s.actor = R.MAIN, seat


def legal_effect(s: S) -> tuple[Action, ...]:
    x = card_of(s.eff[1])
    opts = OPTIONS[x.effect](s)  # type: ignore[attr-defined]
    return tuple(opts) if opts else (act("done"),)


def effect_choice(s: S, verb: str, item: str, to: str) -> None:
    x = card_of(s.eff[1])
    if verb == "done":
        DONE.get(x.effect, _done_plain)(s)  # type: ignore[attr-defined]
    else:
        CHOOSE[x.effect](s, item, to)  # type: ignore[attr-defined]


def _done_plain(s: S) -> None:
    effect_done(s)


def _seat(item: str) -> int:
    return int(item.removeprefix("seat-"))


def _seat_act(k: int) -> Action:
    return act("choose", f"seat-{k}")


def _amount(s: S) -> int:
    return card_of(s.eff[1]).amount  # type: ignore[attr-defined]


# -- usability tests -----------------------------------------------------------------------------
def _always(s: S, q: int, card: int) -> bool:
    return True


def _officers_on_board(s: S, q: int, card: int) -> bool:
    return any(x >= 0 for x in s.off_at)


def _bribed_officer(s: S, q: int, card: int) -> bool:
    return any(s.off_at[o] >= 0 and s.off_bribe[o] >= 0 for o in range(R.N_OFFICERS))


def _rival_reputation(s: S, q: int, card: int) -> bool:
    return any(s.rep[k] > 0 for k in range(s.seats) if k != q)


def _deck_left(s: S, q: int, card: int) -> bool:
    return bool(s.sdeck)


def _carry_moves(s: S, q: int, only: int = -1) -> list[tuple[int, int]]:
    mine = s.counters[q]
    out = []
    for g in range(len(C.goods)):
        if s.g_where[g] == R.LAND and s.g_owner[g] == q and s.g_at[g] in mine and (only < 0 or g == only):
            for b in C.locations[s.g_at[g]].land:
                if b in mine:
                    out.append((g, b))
    return out


def _can_carry(s: S, q: int, card: int) -> bool:
    return bool(_carry_moves(s, q))


def _ship_targets(s: S, q: int) -> list[int]:
    """Rival seats whose ship, with cargo, is at a Port or Cove where ``q`` has a Network Counter."""
    out = []
    for k in range(s.seats):
        loc = C.sea_location[s.ship_at[k]] if s.ship_at[k] >= 0 else -1
        if k != q and s.hold[k] and loc >= 0 and loc in s.counters[q]:
            out.append(k)
    return out


def _has_ship_target(s: S, q: int, card: int) -> bool:
    return bool(_ship_targets(s, q))


def _unskilled_victims(s: S, q: int) -> list[int]:
    return [k for k in range(s.seats) if k != q and any(C.characters[c].deck == 2 for c in s.chars[k])]


def _has_unskilled_victim(s: S, q: int, card: int) -> bool:
    return bool(_unskilled_victims(s, q))


def _hand_victim(s: S, q: int, card: int) -> bool:
    return any(s.secrets[k] for k in range(s.seats) if k != q)


def _village_goods(s: S, q: int) -> list[int]:
    return [g for g in range(len(C.goods)) if s.g_where[g] == R.LAND and s.g_owner[g] == q
            and s.g_at[g] in s.counters[q] and C.locations[s.g_at[g]].size == 0
            and C.shapes[C.goods[g]].size == 2]


def _can_village_sale(s: S, q: int, card: int) -> bool:
    return bool(_village_goods(s, q))


def _backhander_goods(s: S, q: int) -> list[int]:
    if C.penzance not in s.counters[q]:
        return []
    seen, out = set(), []
    for g in range(len(C.goods)):
        if s.g_where[g] == R.WAREHOUSE and C.goods[g] not in seen and s.gold[q] >= BACKHANDER_PRICES[C.shapes[C.goods[g]].size]:
            seen.add(C.goods[g])
            out.append(g)
    return out


def _can_backhander(s: S, q: int, card: int) -> bool:
    return bool(_backhander_goods(s, q))


def _rival_goods_on_land(s: S, q: int, card: int) -> bool:
    return any(s.g_where[g] == R.LAND and s.g_owner[g] not in (-1, q) for g in range(len(C.goods)))


def _can_sail(s: S, q: int, card: int) -> bool:
    return not s.becalmed[q] and s.ship_at[q] >= 0


def _light_fingers_goods(s: S, q: int) -> list[int]:
    return [g for g in range(len(C.goods)) if s.g_where[g] == R.LAND and s.g_owner[g] not in (-1, q)
            and s.g_at[g] in s.counters[q]]


def _can_take_goods(s: S, q: int, card: int) -> bool:
    return bool(_light_fingers_goods(s, q))


def _can_becalm(s: S, q: int, card: int) -> bool:
    return any(not s.becalmed[k] for k in range(s.seats) if k != q)


def _can_lantern(s: S, q: int, card: int) -> bool:
    loc = C.sea_location[s.ship_at[q]] if s.ship_at[q] >= 0 else -1
    return (loc >= 0 and C.locations[loc].kind == "cove" and loc in s.counters[q] and s.lantern[q] != loc
            and not R.can_land_at(s, q, loc))


def _can_repel(s: S, q: int, card: int) -> bool:
    x = card_of(card)
    if not s.seize_list or _repelled_officer(s) < 0:
        return False
    if card < SECRET and x.who == "any" and s.seize_loc not in s.counters[q]:  # type: ignore[attr-defined]
        return False  # the Tinners answer in a location with one of your Network Counters
    if card >= SECRET and not s.chars[q]:
        return False  # Drunken Distraction costs one of your Characters
    return True


def _repelled_officer(s: S) -> int:
    owners = {s.g_owner[g] for g in s.seize_list}
    for o in range(R.N_OFFICERS):
        if s.off_at[o] == s.seize_loc and any(s.off_bribe[o] != w for w in owners):
            return o
    return next((o for o in range(R.N_OFFICERS) if s.off_at[o] == s.seize_loc), -1)


def _escapes(s: S, q: int) -> list[tuple[int, int]]:
    out = []
    for g in s.seize_list:
        if s.g_owner[g] == q:
            for b in C.locations[s.g_at[g]].land:
                if b in s.counters[q]:
                    out.append((g, b))
    return out


def _can_escape(s: S, q: int, card: int) -> bool:
    return bool(_escapes(s, q))


def _jt_victim(s: S, q: int, card: int) -> bool:
    k = s.seized_owner
    return k >= 0 and k != q and bool(s.chars[k])


def _toll_ok(s: S, q: int, card: int) -> bool:
    return s.win_loc in s.counters[q]


def _free_row_ok(s: S, q: int, card: int) -> bool:
    return not s.free_row


def _extra_sail_ok(s: S, q: int, card: int) -> bool:
    return not s.becalmed[q]


def _witch_ok(s: S, q: int, card: int) -> bool:
    k = s.win_subject
    return k != q and (s.gold[k] >= C.characters[card].amount or bool(s.hold[k]))


def _not_directed(s: S, q: int, card: int) -> bool:
    return s.director < 0


def _not_placed_free(s: S, q: int, card: int) -> bool:
    return not s.place_free


# -- effect starts, options and choices ------------------------------------------------------------
def _steps(n: int) -> Callable[[S, int, int], None]:
    def start(s: S, q: int, card: int) -> None:
        s.eff[3] = n if n else card_of(card).amount  # type: ignore[attr-defined]
        effect_continue(s)
    return start


def _officer_moves(s: S, only: int = -1, exclude: int = -1) -> list[Action]:
    out: list[Action] = []
    for o in range(R.N_OFFICERS):
        at = s.off_at[o]
        if at >= 0 and o != exclude and (only < 0 or o == only):
            out.extend(act("choose", str(o), R.LOC_IDS[b]) for b in C.locations[at].land)
    return out


def _move_officer_opts(s: S) -> list[Action]:
    opts = _officer_moves(s, only=s.eff[4])
    if s.eff[4] >= 0:
        opts.append(act("done"))
    return opts


def _lead_officer(s: S, o: int, to: int, resume: str) -> None:
    q = s.eff[2]
    s._event(f"Seat {q} moves Customs Officer {o} from {C.locations[s.off_at[o]].name} to {C.locations[to].name} "
             f"({card_name(s.eff[1])})")
    s.off_at[o] = to
    if not R.check_seizure(s, to, resume):
        effect_continue(s)


def _move_officer_choose(s: S, item: str, to: str) -> None:
    s.eff[4] = int(item)
    s.eff[3] -= 1
    _lead_officer(s, int(item), C.loc_by_id[to], "effect")


def _move_officers_opts(s: S) -> list[Action]:
    opts = _officer_moves(s, exclude=s.eff[4])
    if s.eff[4] >= 0:
        opts.append(act("done"))
    return opts


def _lose_rep_opts(s: S) -> list[Action]:
    return [_seat_act(k) for k in range(s.seats) if k != s.eff[2] and s.rep[k] > 0]


def _lose_rep_choose(s: S, item: str, to: str) -> None:
    k = _seat(item)
    s.rep[k] = max(0, s.rep[k] - _amount(s))
    s._event(f"Seat {k} permanently loses {_amount(s)} Reputation ({card_name(s.eff[1])})")
    effect_done(s)


def _draw_start(s: S, q: int, card: int) -> None:
    n = 0
    for _ in range(card_of(card).amount):  # type: ignore[attr-defined]
        if s.sdeck:
            s.secrets[q].append(s.sdeck.pop())
            n += 1
    s._event(f"Seat {q} draws {n} Secrets card{'s' if n != 1 else ''}")
    effect_done(s)


def _remove_bribe_opts(s: S) -> list[Action]:
    return [act("choose", str(o)) for o in range(R.N_OFFICERS) if s.off_at[o] >= 0 and s.off_bribe[o] >= 0]


def _remove_bribe_choose(s: S, item: str, to: str) -> None:
    o = int(item)
    s._event(f"Seat {s.eff[2]} removes seat {s.off_bribe[o]}'s Bribe Marker from Customs Officer {o}")
    s.off_bribe[o] = -1
    s.eff[3] = 0
    if not R.check_seizure(s, s.off_at[o], "effect"):
        effect_done(s)


def _carry_opts(s: S) -> list[Action]:
    opts: list[Action] = [act("choose", R.GOODS_IDS[g], R.LOC_IDS[b]) for g, b in _carry_moves(s, s.eff[2], s.eff[4])]
    if s.eff[4] >= 0:
        opts.append(act("done"))
    return opts


def _carry_choose(s: S, item: str, to: str) -> None:
    g, b = R.GOODS_BY_ID[item], C.loc_by_id[to]
    s.eff[4] = g
    s.eff[3] -= 1
    s._event(f"Seat {s.eff[2]} moves {R._goods_name(g)} from {C.locations[s.g_at[g]].name} to "
             f"{C.locations[b].name} ({card_name(s.eff[1])})")
    s.g_at[g] = b
    hidden = card_of(s.eff[1]).effect == "carry-hidden"  # type: ignore[attr-defined]
    if hidden and s.eff[3] > 0 and _carry_moves(s, s.eff[2], g):
        effect_continue(s)  # Mock Funeral: not seized on the way, only where it stops
        return
    if hidden:
        s.eff[3] = 0
    if not R.check_seizure(s, b, "effect"):
        effect_continue(s)


def _carry_done(s: S) -> None:
    g = s.eff[4]
    s.eff[3] = 0
    if card_of(s.eff[1]).effect == "carry-hidden" and g >= 0:  # type: ignore[attr-defined]
        if R.check_seizure(s, s.g_at[g], "effect"):
            return
    effect_done(s)


def _lanyon_opts(s: S) -> list[Action]:
    return [act("choose", R.GOODS_IDS[g]) for k in _ship_targets(s, s.eff[2]) for g in sorted(s.hold[k])]


def _lanyon_choose(s: S, item: str, to: str) -> None:
    g = R.GOODS_BY_ID[item]
    owner = s.g_owner[g]
    s.hold[owner].remove(g)
    s._event(f"Seat {s.eff[2]}'s Revenue Cruiser takes {R._goods_name(g)} from seat {owner}'s ship")
    R.seize(s, [g], C.sea_location[s.ship_at[owner]])
    s.eff[3] = 0
    if not open_window(s, "seized", owner, -1, "effect-done"):
        effect_done(s)


def _wreck_opts(s: S) -> list[Action]:
    if s.eff[4] < 0:
        return [_seat_act(k) for k in _ship_targets(s, s.eff[2])]
    return [act("choose", R.GOODS_IDS[g]) for g in sorted(s.hold[s.eff[4]])]


def _wreck_choose(s: S, item: str, to: str) -> None:
    if s.eff[4] < 0:
        s.eff[4] = s.eff[5] = _seat(item)  # the owner chooses which Goods Shape
        effect_continue(s)
        return
    g, k, q = R.GOODS_BY_ID[item], s.eff[4], s.eff[2]
    loc = C.sea_location[s.ship_at[k]]
    s.hold[k].remove(g)
    s.g_where[g], s.g_at[g], s.g_owner[g] = R.LAND, loc, q
    s._event(f"The Wreckers take {R._goods_name(g)} from seat {k}'s ship onto the shore at {C.locations[loc].name} "
             f"for seat {q}")
    s.eff[3], s.eff[5] = 0, -1
    if not R.check_seizure(s, loc, "effect"):
        effect_done(s)


def _keast_opts(s: S) -> list[Action]:
    if s.eff[4] < 0:
        return [_seat_act(k) for k in _unskilled_victims(s, s.eff[2])]
    return [act("choose", C.characters[c].id) for c in s.chars[s.eff[4]] if C.characters[c].deck == 2]


def _keast_choose(s: S, item: str, to: str) -> None:
    if s.eff[4] < 0:
        s.eff[4] = s.eff[5] = _seat(item)
        effect_continue(s)
        return
    s.eff[3] = 0
    lose_to_rival(s, s.eff[4], _CHAR_ID[item])


def _steal_opts(s: S) -> list[Action]:
    return [_seat_act(k) for k in range(s.seats) if k != s.eff[2] and s.secrets[k]]


def _steal_choose(s: S, item: str, to: str) -> None:
    k, q = _seat(item), s.eff[2]
    card = s.secrets[k].pop(s.rng.below(len(s.secrets[k])))
    s.secrets[q].append(card)
    s._event(f"Seat {q} takes a Secrets card at random from seat {k}'s hand")
    effect_done(s)


def _village_opts(s: S) -> list[Action]:
    return [act("choose", R.GOODS_IDS[g]) for g in _village_goods(s, s.eff[2])]


def _village_choose(s: S, item: str, to: str) -> None:
    s.sale_size = _amount(s)
    s.eff = list(EMPTY_EFF)  # the sale finishes the Action
    R.begin_sale(s, R.GOODS_BY_ID[item])


def _backhander_opts(s: S) -> list[Action]:
    return [act("choose", R.GOODS_IDS[g]) for g in _backhander_goods(s, s.eff[2])]


def _backhander_choose(s: S, item: str, to: str) -> None:
    g, q = R.GOODS_BY_ID[item], s.eff[2]
    price = BACKHANDER_PRICES[C.shapes[C.goods[g]].size]
    R._pay_gold(s, q, price)
    s.g_where[g], s.g_at[g], s.g_owner[g] = R.LAND, C.penzance, q
    s._event(f"Seat {q} buys {R._goods_name(g)} out of the Customs Warehouse for {price} Gold")
    effect_done(s)


def _inform_opts(s: S) -> list[Action]:
    return [act("choose", R.GOODS_IDS[g]) for g in range(len(C.goods))
            if s.g_where[g] == R.LAND and s.g_owner[g] not in (-1, s.eff[2])]


def _inform_choose(s: S, item: str, to: str) -> None:
    g = R.GOODS_BY_ID[item]
    s.eff[3] = 0
    s._event(f"An anonymous letter sends Customs towards {R._goods_name(g)} in {C.locations[s.g_at[g]].name}")
    R.start_customs(s, s.g_at[g], _amount(s), R.AFTER_EFFECT)


def _sail_opts(s: S) -> list[Action]:
    opts: list[Action] = [act("choose", C.sea_ids[n]) for n in C.sea_adj[s.ship_at[s.eff[2]]]]
    if s.eff[3] < _amount(s):
        opts.append(act("done"))
    return opts


def _sail_choose(s: S, item: str, to: str) -> None:
    q, node = s.eff[2], C.sea_by_id[item]
    s.ship_at[q] = node
    s._event(f"Seat {q} sails to {R._node_name(node)} ({card_name(s.eff[1])})")
    ship_entered(s, q, node)
    s.eff[3] -= 1
    if s.eff[3] > 0:
        effect_continue(s)
    else:
        _sail_done(s)


def _sail_done(s: S) -> None:
    s.eff[3] = 0
    if not witch_window(s, "effect-done"):
        effect_done(s)


def _take_opts(s: S) -> list[Action]:
    return [act("choose", R.GOODS_IDS[g]) for g in _light_fingers_goods(s, s.eff[2])]


def _take_choose(s: S, item: str, to: str) -> None:
    g, q = R.GOODS_BY_ID[item], s.eff[2]
    s._event(f"Seat {q} takes seat {s.g_owner[g]}'s {R._goods_name(g)} in {C.locations[s.g_at[g]].name}")
    s.g_owner[g] = q
    s.eff[3] = 0
    if not R.check_seizure(s, s.g_at[g], "effect"):
        effect_done(s)


def _gain_influence(s: S, q: int, card: int) -> None:
    s.infl[q] += card_of(card).amount  # type: ignore[attr-defined]
    effect_done(s)


def _becalm_opts(s: S) -> list[Action]:
    return [_seat_act(k) for k in range(s.seats) if k != s.eff[2] and not s.becalmed[k]]


def _becalm_choose(s: S, item: str, to: str) -> None:
    k = _seat(item)
    s.becalmed[k] = True
    s._event(f"Seat {k}'s ship is becalmed until the end of this Turn")
    effect_done(s)


def _lantern_start(s: S, q: int, card: int) -> None:
    s.lantern[q] = C.sea_location[s.ship_at[q]]
    effect_done(s)


def _jt_opts(s: S) -> list[Action]:
    return [act("choose", C.characters[c].id) for c in s.chars[s.seized_owner]]


def _jt_choose(s: S, item: str, to: str) -> None:
    s.eff[3] = 0
    lose_to_rival(s, s.seized_owner, _CHAR_ID[item])


def _repel_start(s: S, q: int, card: int) -> None:
    s.eff[4] = _repelled_officer(s)
    s.eff[3] = 2 if card >= SECRET else 1  # Drunken Distraction: then discard a Character
    effect_continue(s)


def _repel_opts(s: S) -> list[Action]:
    if s.eff[3] == 1 and s.eff[1] >= SECRET:
        return [act("choose", C.characters[c].id) for c in s.chars[s.eff[2]]]
    loc = s.seize_loc
    row = C.dist[loc]
    want = _amount(s)
    reach = [x for x in range(len(C.locations)) if row[x] < INF]
    best = max((row[x] for x in reach if row[x] <= want), default=0)
    return [act("choose", R.LOC_IDS[x]) for x in reach if row[x] == best and x != loc]


def _repel_choose(s: S, item: str, to: str) -> None:
    q = s.eff[2]
    if item in _CHAR_ID:
        s.eff[3] = 0
        lose_now(s, q, _CHAR_ID[item])
        return
    o, to_loc = s.eff[4], C.loc_by_id[item]
    s._event(f"Customs Officer {o} is led away from {C.locations[s.seize_loc].name} to {C.locations[to_loc].name}; "
             f"the Goods are not seized ({card_name(s.eff[1])})")
    s.off_at[o] = to_loc
    s.seize_list = []
    s.eff[3] -= 1
    R.check_seizure(s, to_loc, "effect")  # inside the window: at once
    effect_continue(s)


def _escape_opts(s: S) -> list[Action]:
    return [act("choose", R.GOODS_IDS[g], R.LOC_IDS[b]) for g, b in _escapes(s, s.eff[2])]


def _escape_choose(s: S, item: str, to: str) -> None:
    g, b = R.GOODS_BY_ID[item], C.loc_by_id[to]
    s._event(f"Seat {s.eff[2]} slips {R._goods_name(g)} away to {C.locations[b].name} ({card_name(s.eff[1])})")
    s.g_at[g] = b
    s.seize_list = [x for x in s.seize_list if x != g]
    R.check_seizure(s, b, "effect")
    effect_done(s)


def _landing_risk(s: S, q: int, card: int) -> None:
    s.risk_mod -= card_of(card).amount  # type: ignore[attr-defined]
    effect_done(s)


def _shift_opts(s: S) -> list[Action]:
    return [act("choose", "reduce"), act("choose", "increase")]


def _shift_choose(s: S, item: str, to: str) -> None:
    n = _amount(s)
    s.risk_mod += -n if item == "reduce" else n
    s._event(f"Holly & Olivia {'reduce' if item == 'reduce' else 'increase'} the Landing Risk by {n}")
    effect_done(s)


def _no_customs(s: S, q: int, card: int) -> None:
    s.no_customs = True
    effect_done(s)


def _toll(s: S, q: int, card: int) -> None:
    s.tolls.append(card)
    s.tolls.append(q)
    effect_done(s)


def _sale_bonus(s: S, q: int, card: int) -> None:
    s.sale_bonus += card_of(card).amount  # type: ignore[attr-defined]
    effect_done(s)


def _free_row(s: S, q: int, card: int) -> None:
    s.free_row = True
    effect_done(s)


def _extra_sail_opts(s: S) -> list[Action]:
    return [act("choose", C.sea_ids[n]) for n in C.sea_adj[s.ship_at[s.eff[2]]]]


def _extra_sail_choose(s: S, item: str, to: str) -> None:
    q, node = s.eff[2], C.sea_by_id[item]
    s.ship_at[q] = node
    s._event(f"Seat {q} sails on to {R._node_name(node)} ({card_name(s.eff[1])})")
    ship_entered(s, q, node)
    effect_done(s)


def _witch_start(s: S, q: int, card: int) -> None:
    k = s.win_subject
    s.eff[4] = k
    s.eff[5] = k  # the passing player chooses: pay, or let the Witch take cargo
    s.eff[3] = 2
    effect_continue(s)


def _witch_opts(s: S) -> list[Action]:
    k, q = s.eff[4], s.eff[2]
    if s.eff[3] == 2:
        out = []
        if s.gold[k] >= _amount(s):
            out.append(act("choose", "pay"))
        if s.hold[k]:
            out.append(act("choose", "cargo"))
        return out
    return [act("choose", R.GOODS_IDS[g]) for g in sorted(s.hold[k])] if q >= 0 else []


def _witch_choose(s: S, item: str, to: str) -> None:
    k, q = s.eff[4], s.eff[2]
    if item == "pay":
        s.gold[k] -= _amount(s)
        s.gold[q] += _amount(s)
        s._event(f"Seat {k} pays the Witch of St Levan {_amount(s)} Gold")
        s.eff[3] = 0
        effect_done(s)
    elif item == "cargo":
        s.eff[3], s.eff[5] = 1, -1
        effect_continue(s)
    else:
        s.eff[3] = 0
        witch_takes(s, q, k, R.GOODS_BY_ID[item])
        effect_done(s)


def witch_takes(s: S, q: int, k: int, g: int) -> None:
    """Into the Witch's ship if it fits, else one of her Storehouses, else back to its Merchant."""
    from .packing import fits, hold_of_ship

    s.hold[k].remove(g)
    if s.ship_card[q] >= 0 and fits(hold_of_ship(s.ship_card[q]), [C.goods[x] for x in s.hold[q]] + [C.goods[g]],
                                    s.options["flip_goods"]):
        s.g_where[g], s.g_at[g], s.g_owner[g] = R.SHIP, q, q
        s.hold[q].append(g)
        where = "her ship"
    else:
        st = next((x for x in s.stores[q] if R.store_fits(s, x, g)), -1)
        if st >= 0:
            s.g_where[g], s.g_at[g], s.g_owner[g] = R.STORE, st, q
            where = C.storehouses[st].name
        else:
            s.g_where[g], s.g_at[g], s.g_owner[g] = R.MERCHANT, C.goods_start[g], -1
            where = "its Merchant"
    s._event(f"The Witch of St Levan takes {R._goods_name(g)} from seat {k}'s ship into {where}")


def _set_buy_disc(s: S, q: int, card: int) -> None:
    s.buy_disc = card_of(card).amount  # type: ignore[attr-defined]
    effect_done(s)


def _bribe_disc(s: S, q: int, card: int) -> None:
    s.bribe_disc += card_of(card).amount  # type: ignore[attr-defined]
    effect_done(s)


def _direct(s: S, q: int, card: int) -> None:
    s.director = q
    effect_done(s)


def _place_anywhere(s: S, q: int, card: int) -> None:
    s.place_free = True
    effect_done(s)


# == lost characters ==================================================================================
def lose_to_rival(s: S, k: int, c: int) -> None:
    """A rival's card takes a Character: Squire Polglase may keep it."""
    s.eff[6] = c
    if any(C.characters[x].effect == "keep-character" and char_ready(s, k, x) for x in s.chars[k]):
        s.phase, s.actor = R.PROTECT, k
        return
    lose_now(s, k, c)


def legal_protect(s: S) -> tuple[Action, ...]:
    k = s.actor
    acts: list[Action] = [act("decline")]
    for x in s.chars[k]:
        if C.characters[x].effect == "keep-character" and char_ready(s, k, x):
            acts.append(act("motivate", C.characters[x].id))
    return tuple(acts)


def protect(s: S, verb: str, item: str) -> None:
    k, c = s.actor, s.eff[6]
    if verb == "decline":
        lose_now(s, k, c)
        return
    x = _CHAR_ID[item]
    pay(s, k, C.characters[x].cost, "")
    s.motivated[k].append(x)
    s._event(f"Seat {k} Motivates {C.characters[x].name} and keeps {C.characters[c].name}")
    effect_continue(s)


def lose_now(s: S, p: int, c: int) -> None:
    """Lost Characters: Reputation and linked Storehouses go with the card, then one Network Counter (p chooses)."""
    s._event(f"Seat {p} loses {C.characters[c].name}")
    R.lose_character(s, p, c)
    if s.counters[p]:
        s.eff[6] = p
        s.phase, s.actor = R.LOSE_COUNTER, p
    else:
        effect_continue(s)


def legal_lose_counter(s: S) -> tuple[Action, ...]:
    return tuple(act("remove", R.LOC_IDS[x]) for x in sorted(set(s.counters[s.actor])))


def lose_counter(s: S, loc: int) -> None:
    p = s.actor
    s.counters[p].remove(loc)
    s._event(f"Seat {p} removes a Network Counter from {C.locations[loc].name}")
    R.check_seizure(s, loc, "phase", window=False)
    effect_continue(s)


# == events the rules fire ================================================================================
def ship_entered(s: S, p: int, node: int) -> None:
    if node in WITCH_NODES:
        s.witch_due = p


def witch_window(s: S, resume: str) -> bool:
    """A ship entered the sea space off St Levan during this move: the Witch may answer (``win_loc``: that node)."""
    p = s.witch_due
    s.witch_due = -1
    return p >= 0 and open_window(s, "ship-enters", p, _WITCH_NODE, resume)


def buy_price(s: S, g: int) -> int:
    size = C.shapes[C.goods[g]].size
    return max(1, size - s.buy_disc) if s.buy_disc else size


def could_discount(s: S, p: int, effect: str) -> int:
    """The best one-off discount a usable card of p's (face-up Character or Secret in hand) could give."""
    best = max([C.characters[c].amount for c in s.chars[p]
                if C.characters[c].effect == effect and C.characters[c].event != "passive" and char_ready(s, p, c)],
               default=0)
    for k in s.secrets[p]:
        if C.secrets[k].effect == effect:
            best = max(best, C.secrets[k].amount)
    return best


# == the tables =============================================================================================
USABLE: dict[str, Callable[[S, int, int], bool]] = {
    "move-officer": _officers_on_board, "move-officers": _officers_on_board, "lose-reputation": _rival_reputation,
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
START: dict[str, Callable[[S, int, int], None]] = {
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
OPTIONS: dict[str, Callable[[S], list[Action]]] = {
    "move-officer": _move_officer_opts, "move-officers": _move_officers_opts, "lose-reputation": _lose_rep_opts,
    "remove-bribe": _remove_bribe_opts, "carry-free": _carry_opts, "carry-hidden": _carry_opts,
    "seize-from-ship": _lanyon_opts, "take-from-ship": _wreck_opts, "discard-unskilled": _keast_opts,
    "steal-secret": _steal_opts, "village-sale": _village_opts, "backhander": _backhander_opts,
    "inform": _inform_opts, "sail-free": _sail_opts, "take-goods": _take_opts, "becalm": _becalm_opts,
    "remove-character": _jt_opts, "repel-officer": _repel_opts, "escape-one": _escape_opts,
    "shift-landing-risk": _shift_opts, "extra-sail": _extra_sail_opts, "witch-toll": _witch_opts,
}
CHOOSE: dict[str, Callable[[S, str, str], None]] = {
    "move-officer": _move_officer_choose, "move-officers": _move_officer_choose, "lose-reputation": _lose_rep_choose,
    "remove-bribe": _remove_bribe_choose, "carry-free": _carry_choose, "carry-hidden": _carry_choose,
    "seize-from-ship": _lanyon_choose, "take-from-ship": _wreck_choose, "discard-unskilled": _keast_choose,
    "steal-secret": _steal_choose, "village-sale": _village_choose, "backhander": _backhander_choose,
    "inform": _inform_choose, "sail-free": _sail_choose, "take-goods": _take_choose, "becalm": _becalm_choose,
    "remove-character": _jt_choose, "repel-officer": _repel_choose, "escape-one": _escape_choose,
    "shift-landing-risk": _shift_choose, "extra-sail": _extra_sail_choose, "witch-toll": _witch_choose,
}
DONE: dict[str, Callable[[S], None]] = {"carry-free": _carry_done, "carry-hidden": _carry_done,
                                         "sail-free": _sail_done}
