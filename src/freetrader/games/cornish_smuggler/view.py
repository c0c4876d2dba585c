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
from .phases import PHASES, WHERE

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
    """Reshuffle each Character stack (with set-up draws ``seat`` has not seen) and the unseen Secrets."""
    rng = Rng(seed)
    mine = s.drawn if s.actor == seat else []
    for d in range(4):
        pool = s.stacks[d][:]
        slots = []
        if not mine:
            slots = [i for i, dd in enumerate(s.drawn_decks) if dd == d]
            pool += [s.drawn[i] for i in slots]
        rng.shuffle(pool)
        for i in slots:
            s.drawn[i] = pool.pop()
        s.stacks[d] = pool
    s.sdeck = rng.redeal(s.sdeck, s.secrets, (p for p in range(s.seats) if p != seat))


def results(s: S) -> Results:
    """Object of the Game: Gold plus Reputation. The rulebook names no tie-break for the winner."""
    parts: list[list[Part]] = [[{"label": "Gold", "value": float(s.gold[p])},
                                {"label": "Reputation", "value": float(s.rep[p])}] for p in range(s.seats)]
    return make_results("Gold + Reputation", "none in the rulebook (its Ties rule settles choices, not the "
                        "winner): tied players share the win", f"{s.turn} turn{'' if s.turn == 1 else 's'}", s.scores(), s.winners(), parts)
