"""What one seat may see, and determinization for that seat.

Public: the board (counters, officers and who bribed them, goods wherever
they are, ships and holds, storehouses and what they hold), every player's
Gold, Influence, Reputation and hired Characters, the face-up Characters,
the tracks, how many cards each player holds, which Characters are
Motivated (face down), the Secrets played (discarded), and an open reaction
window's event (never who holds what). Private: a player's
Secrets cards, and the two Character cards drawn at set-up until one is
kept. Hidden from all: the order of the Character stacks and the Secrets
deck.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from freetrader.core import Rng
from freetrader.core.results import Part, Results
from freetrader.core.results import results as make_results

from .board import GOODS_IDS, LOC_IDS, ROW_NAMES, card_of
from .components import COMPONENTS as C
from .components import DECKS
from .phases import OUT, PHASES, WHERE

if TYPE_CHECKING:
    from .state import CornishState as S


def _goods(s: S) -> list[dict[str, Any]]:
    out = []
    for g in range(len(C.goods)):
        w = s.g_where[g]
        at = s.g_at[g]
        if w == 0:
            place: Any = C.sea_ids[C.merchant_nodes[at]]
        elif w == 1:
            place = at
        elif w == 3:
            place = C.storehouses[at].id
        elif w == OUT:  # a piece of another player count: in the box, not in this game
            place = None
        else:
            place = LOC_IDS[at]
        out.append({"id": GOODS_IDS[g], "shape": C.shapes[C.goods[g]].id, "size": C.shapes[C.goods[g]].size,
                    "where": WHERE[w], "at": place, "owner": s.g_owner[g]})
    return out


def sale_prices(town_size: int, goods_size: int) -> list[dict[str, Any]]:
    """Selling Goods: for one Goods Shape in one town, each Price List row's Gold, Reputation and cost.

    Read-only, for the table and the terminal: the cells are ``Components.price``, which the sale itself uses
    (a card that changes the town's size or the row's cost during the sale is not seen here).
    """
    out = []
    for row, name in enumerate(ROW_NAMES):
        gold, rep = C.price(town_size, goods_size, row)
        out.append({"row": name, "gold": gold, "reputation": rep, "cost": C.row_cost[row]})
    return out


def landing_risk(at: str, goods_sizes: Sequence[int], discovery: int, influence: int = 0) -> dict[str, Any]:
    """Landing Goods: port risk plus squares against the Discovery Level, and what each Influence spent to hide leaves.

    ``hide`` lists, for 0 up to the Influence that could be spent, the Landing Risk left and the Customs moves it
    brings (each point over the Discovery Level moves the nearest officer one space; none on the Isles of Scilly).
    """
    loc = C.locations[C.loc_by_id[at]]
    squares = sum(goods_sizes)
    risk = loc.risk + squares
    over = 0 if loc.index == C.scilly else max(0, risk - discovery)
    hide = [{"influence": k, "risk": risk - k, "customs_moves": over - k} for k in range(0, min(influence, over) + 1)]
    return {"at": at, "port_risk": loc.risk, "squares": squares, "risk": risk, "discovery": discovery, "over": over,
            "hide": hide}


def view(s: S, seat: int | None) -> dict[str, Any]:
    n = s.seats
    players = []
    for p in range(n):
        players.append({
            "gold": s.gold[p],
            "influence": s.infl[p],
            "reputation": s.rep[p],
            "ship": C.ships[s.ship_card[p]].id if s.ship_card[p] >= 0 else None,
            "ship_at": C.sea_ids[s.ship_at[p]] if s.ship_at[p] >= 0 else None,
            "hold": [GOODS_IDS[g] for g in s.hold[p]],
            "counters": sorted(LOC_IDS[x] for x in s.counters[p]),
            "characters": [C.characters[c].id for c in s.chars[p]],
            "motivated": [C.characters[c].id for c in s.motivated[p]],  # face down until the next Turn
            "becalmed": s.becalmed[p],
            "storehouses": [C.storehouses[x].id for x in s.stores[p]],
            "secrets": len(s.secrets[p]),
            "passed": s.passed[p],
        })
    d: dict[str, Any] = {
        "phase": PHASES[s.phase],
        "turn": s.turn,
        "first_player": s.first,
        "ending": s.ending,
        "players": players,
        "goods": _goods(s),
        "officers": [
            {"id": o, "at": LOC_IDS[s.off_at[o]] if s.off_at[o] >= 0 else None, "bribed_by": s.off_bribe[o]}
            for o in range(len(s.off_at))
        ],
        "customs": {
            "track": s.track,
            "discovery": C.discovery[s.track],
            "bribe": C.bribe[s.track],
            "wheel": s.wheel,
            "wheel_size": C.wheel,
            "track_end": len(C.discovery) - 1,
            # where this game's Customs Counter started (2-4 players skip the spaces only 5 play)
            "track_start": C.track_start[s.seats],
        },
        "bank": s.bank,
        "characters": {
            "face_up": {DECKS[d]: (C.characters[c].id if c >= 0 else None) for d, c in enumerate(s.faceup)},
            "stacks": {DECKS[d]: len(st) for d, st in enumerate(s.stacks)},
            "discarded": len(s.char_discard),
        },
        "secrets_deck": len(s.sdeck),
        "secrets_discarded": [C.secrets[k].id for k in s.sdiscard],
        "reaction": {"event": s.win_event, "about": s.win_subject,
                     "seizing": [GOODS_IDS[g] for g in s.seize_list]} if s.win_event else None,
        "card_in_play": card_of(s.card_in_play).id if s.card_in_play >= 0 else None,
        "ships_to_choose": [C.ships[x].id for x in s.ships_left],
        "storehouses_to_choose": [C.storehouses[x].id for x in s.stores_left],
        "drawing": {"seat": s.actor, "stacks": [DECKS[d] for d in s.drawn_decks]} if s.drawn else None,
        "landing": {"at": LOC_IDS[s.land_loc], "goods": [GOODS_IDS[g] for g in s.land_sel]}
        if s.phase in (7, 8, 9) else None,
    }
    if seat is not None:
        d["your_secrets"] = sorted(C.secrets[c].id for c in s.secrets[seat])
        if s.drawn and s.actor == seat:
            d["your_drawn"] = [C.characters[c].id for c in s.drawn]
    return d


def determinize(s: S, seat: int, seed: int) -> None:
    """Reshuffle each Character stack (with set-up draws ``seat`` has not seen) and the unseen Secrets.

    What ``seat`` saw stays: the Character it returned under a stack at set-up
    keeps its place there (``_returned``), and a Secrets card taken from its
    hand stays in the taker's hand while it can still be there (``_taken``).
    """
    rng = Rng(seed)
    mine = s.drawn if s.actor == seat else []
    fixed, known = _knowledge(s, seat)
    for d in range(4):
        pool = s.stacks[d][:]
        at = fixed.get(d, -1)
        kept = pool.pop(at) if 0 <= at < len(pool) else -1
        slots = []
        if not mine:
            slots = [i for i, dd in enumerate(s.drawn_decks) if dd == d]
            pool += [s.drawn[i] for i in slots]
        rng.shuffle(pool)
        for i in slots:
            s.drawn[i] = pool.pop()
        if kept >= 0:
            pool.insert(at, kept)
        s.stacks[d] = pool
    for q, k in known:
        s.secrets[q].remove(k)
    s.sdeck = rng.redeal(s.sdeck, s.secrets, (p for p in range(s.seats) if p != seat))
    for q, k in known:
        s.secrets[q].append(k)


# (seat, the state's RNG state) -> (its history, what ``_knowledge`` found): a search determinizes one
# position many times, and finding it reads the whole log. The history is kept to check identity.
_KNOWN: dict[tuple[int, int], tuple[Any, tuple[dict[int, int], list[tuple[int, int]]]]] = {}


def _knowledge(s: S, seat: int) -> tuple[dict[int, int], list[tuple[int, int]]]:
    """What ``seat`` saw that the state no longer shows: ``_returned`` and ``_taken``."""
    key = (seat, s.rng.state)
    hit = _KNOWN.get(key)
    if hit is not None and hit[0] is s._history:
        return hit[1]
    events = s.events
    found = (_returned(s, seat, events), _taken(s, seat, events))
    if len(_KNOWN) > 256:
        _KNOWN.clear()
    _KNOWN[key] = (s._history, found)
    return found


def _returned(s: S, seat: int, events: list[str]) -> dict[int, int]:
    """Stack -> place from the bottom of the Character ``seat`` returned at set-up, if it is still there.

    Set-up draws and keeps are public, and so is the stack each returned card
    went under (the one of the two drawn from that the kept card is not of):
    later returns under the same stack lift it one place each.
    """
    from .actions import Draw, Keep

    drawn: list[int] = []
    returns: list[int] = []  # the stack of each set-up return, in order
    mine = -1
    keepers = [e for e in events if " keeps " in e and e.endswith("and returns the other card")]
    for a in s.history:
        if isinstance(a, Draw):
            drawn.append(a.deck)
        elif isinstance(a, Keep):
            d = drawn[-2] if C.characters[a.card].deck == drawn[-1] else drawn[-1]
            if keepers[len(returns)].startswith(f"Seat {seat} "):
                mine = len(returns)
            returns.append(d)
            if len(returns) == len(keepers):
                break
    if mine < 0:
        return {}
    d = returns[mine]
    return {d: sum(1 for x in returns[mine + 1:] if x == d)}


def _taken(s: S, seat: int, events: list[str]) -> list[tuple[int, int]]:
    """(taker, card) for each Secrets card taken at random from ``seat``'s hand that the taker may still hold.

    ``seat`` saw which card left its hand; the state does not keep it, so the
    game is replayed from its record (only when such a card was taken). A
    resampled world (whose replay is not it) keeps no such knowledge.
    """
    mark = f" takes a Secrets card at random from seat {seat}'s hand"
    if not any(e.endswith(mark) for e in events):
        return []
    replay: S = s.game.new_state(s.seats, s.seed, s.options)  # type: ignore[assignment]  # this game's state
    taken: list[tuple[int, int, int]] = []  # (taker, card, event count after)
    for a in s.history:
        before, hand = replay.event_count, replay.secrets[seat][:]
        replay.apply_unchecked(a)
        for e in replay.events_since(before):
            if e.endswith(mark):
                lost = [k for k in hand if k not in replay.secrets[seat]]
                if len(lost) == 1:
                    taken.append((int(e.split()[1]), lost[0], replay.event_count))
    if replay.rng.state != s.rng.state:
        return []
    out = []
    for q, k, after in taken:
        later = events[after:]
        gone = any(e == f"Seat {q} plays the Secret {C.secrets[k].name}" or
                   e.endswith(f" takes a Secrets card at random from seat {q}'s hand") for e in later)
        if not gone and k in s.secrets[q]:
            out.append((q, k))
    return out


def results(s: S) -> Results:
    """Object of the Game: Gold plus Reputation. The rulebook names no tie-break for the winner."""
    parts: list[list[Part]] = [[{"label": "Gold", "value": float(s.gold[p])},
                                {"label": "Reputation", "value": float(s.rep[p])}] for p in range(s.seats)]
    return make_results("Gold + Reputation", "none in the rulebook (its Ties rule settles choices, not the "
                        "winner): tied players share the win", f"{s.turn} turn{'' if s.turn == 1 else 's'}", s.scores(), s.winners(), parts)
