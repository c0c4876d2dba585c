"""What one seat may see, and determinization for that seat.

Public: the Clock (timepieces, stacking, Mice, the Market token), boats and
their adventurers, piers, Faction Halls and the Lair, the bag's make-up (every
adventurer outside it is in view), the Town Square and the cards put under the
Townsfolk deck, every merchant's board, Sale Shelf, supply, shields and
Townsfolk, how many Corruption cards each holds, the Corruption discards, the
Peddler's revealed card. Private: your own Corruption cards. Hidden from all:
the order of the Townsfolk, Corruption and Peddler decks, and which adventurer
or marble a draw will bring (drawn with the state's RNG at the moment of drawing).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from freetrader.core import Rng
from freetrader.core.results import Part, Results
from freetrader.core.results import results as make_results

from . import boats
from .actions import SLOT_IDS
from .board import who
from .components import ADV_NAMES, COLOURS, GOOD_IDS, N_GOODS
from .components import COMPONENTS as C
from .merchants import MERCHANTS
from .phases import PHASES, STAGES, Stage

if TYPE_CHECKING:
    from .state import CoveState as S


def _goods(row: list[int]) -> dict[str, int]:
    return {GOOD_IDS[g]: row[g] for g in range(N_GOODS) if row[g]}


def _colours(xs: list[int]) -> list[str]:
    return [ADV_NAMES[c] for c in xs]


def view(s: S, seat: int | None) -> dict[str, Any]:
    rc = C.rogues[s.rogues[0]]  # the top card in force (Multiple Rogues removes one at each Clean-Up)
    players = []
    for p in range(s.seats):
        m = s.merchant[p]
        players.append({
            "merchant": m or None,
            "gold": s.gold[p],
            "hour": s.time[p],
            "on_action": s.last[p] or None,
            "shelf": _goods(s.shelf[p]),
            "supply": _goods(s.supply[p]),
            "shields": {COLOURS[c]: s.shields[p][c] for c in range(4)},
            "townsfolk": [C.townsfolk[t].id for t in s.staff[p]],
            "corruption_cards": len(s.corr[p]),
            "board": MERCHANTS[m].view(s, p) if m else {},
        })
    d: dict[str, Any] = {
        "day": s.day,
        "days": C.days,
        "stage": STAGES[s.stage],
        "phase": PHASES[s.phase],
        "rogue_card": {"id": rc.id, "number": rc.number, "name": rc.name},
        "townsfolk_sets": s.tf_sets,
        "clock": {
            "market": C.market,
            "mice": [m for m in s.mice if m < C.market],
            "order": sorted(range(s.np), key=lambda p: (s.time[p], -s.stack[p])),
        },
        "players": players,
        "boats": [{"adventurers": _colours(s.boats[b]), "side": ("any", "left", "right")[boats.side(b) + 1],
                   "docked_at": SLOT_IDS[s.docked[b]] if s.docked[b] >= 0 else None,
                   "capacity": boats.capacity(b), "sailing": bool(s.afloat[b])} for b in range(len(s.boats))],
        "boat_setup": {"card": C.boat_setups[s.bcard].id if s.bcard >= 0 else None, "deck": len(s.bdeck)},
        "piers": {SLOT_IDS[k]: {"boat": s.slot_boat[k] + 1 if s.slot_boat[k] >= 0 else None,
                                "customers": _colours(s.slot_adv[k])} for k in range(len(C.slots))},
        "halls": {COLOURS[c]: s.halls[c] for c in range(4)},
        "lair": s.lair,
        "bag": {COLOURS[c]: s.bag[c] for c in range(5)},
        "town_square": [C.townsfolk[t].id for t in s.square],
        "townsfolk_deck": len(s.tf_deck) + len(s.tf_bottom),
        "townsfolk_under_deck": [C.townsfolk[t].id for t in s.tf_bottom],
        "corruption_deck": len(s.cdeck),
        "corruption_discards": sorted(C.corruption[c].id for c in s.cdiscard),
        "drawn": ADV_NAMES[s.drawn] if s.drawn >= 0 else None,
        "market_order": s.order[:] if s.stage == Stage.MARKET else [],
        # Secret Stash (keys added, never renamed)
        "rogue_cards": [{"id": C.rogues[r].id, "number": C.rogues[r].number, "name": C.rogues[r].name}
                        for r in s.rogues],
        "hall_rogues": {COLOURS[c]: s.hall_rogues[c] for c in range(4)},
        "bay": {ADV_NAMES[c]: n for c, n in enumerate(s.bay) if n},
        "faction_leaders": ({"bag": [ADV_NAMES[c] for c in range(5, len(s.bag)) if s.bag[c]],
                             "halls": {COLOURS[c]: s.hall_leaders[c] + s.hall_rogue_leaders[c] for c in range(4)},
                             "lair": s.lair_leaders} if len(s.bag) > 5 else None),
        "dragon_island": _colours(s.island),
        "grey_goods_supply": s.grey,
        "challenge": ({"active": C.challenges[s.chal_deck[0]].id if s.chal_deck else None,
                       "deck": len(s.chal_deck), "set_aside": len(s.chal_aside), "timepiece_hour": s.chal_at}
                      if s.options["challenges"] else None),
    }
    if s.np > s.seats:
        q = s.seats
        d["peddler"] = {"gold": s.gold[q], "hour": s.time[q], "shelf": _goods(s.shelf[q]),
                        "corruption_cards": len(s.corr[q]), "deck": len(s.pdeck),
                        "card": C.peddler_cards[s.pcard].id if s.pcard >= 0 else None}
    if seat is not None:
        d["your_corruption"] = sorted(C.corruption[c].id for c in s.corr[seat])
        d["your_corruption_costs"] = {C.corruption[c].id: f"{C.corruption[c].cost[0]} {C.corruption[c].cost[1]}"
                                      for c in s.corr[seat] if C.corruption[c].cost[0]}
    return d


def determinize(s: S, seat: int, seed: int) -> None:
    """Reshuffle the decks; deal the Corruption cards of every other holder anew from the unseen ones.

    The face-down Boat Setup cards become any of the eight not yet revealed,
    and the Challenge cards not yet turned up any of the plain (or dumbbell)
    cards not yet seen, in the places the set-up gave them (4 plain on top of
    2 dumbbell). Which cards were seen is read from the public log: the
    revealed Boat Setup cards and the completed Challenges are named there,
    and each completion or reached Timepiece turns the next card up.
    """
    rng = Rng(seed)
    rng.shuffle(s.tf_deck)
    rng.shuffle(s.pdeck)
    s.cdeck = rng.redeal(s.cdeck, s.corr, (p for p in range(s.np) if p != seat))
    if s.bdeck or s.chal_deck:
        events = s.events
        if s.bdeck:
            revealed = {e[len("Boat Setup card "):].split(":")[0] for e in events if e.startswith("Boat Setup card ")}
            unseen = [c.index for c in C.boat_setups if c.id not in revealed and c.index != s.bcard]
            rng.shuffle(unseen)
            s.bdeck = unseen[: len(s.bdeck)]
        if s.chal_deck:
            _resample_challenges(s, rng, events)


def _resample_challenges(s: S, rng: Rng, events: list[str]) -> None:
    rules = C.stash["challenge_rules"]
    small, total = rules["deck_small"], rules["deck_small"] + rules["deck_dumbbell"]
    turned = sum(1 for e in events if (e.startswith("Challenge ") and " complete, margin " in e)
                 or e.startswith("The Challenge Timepiece is reached"))
    done = {e[len("Challenge "):].split(" complete, margin ")[0] for e in events
            if e.startswith("Challenge ") and " complete, margin " in e}
    hidden = range(1, max(0, min(total - 1 - turned, len(s.chal_deck) - 1)) + 1)  # deck positions never turned up
    seen = {c for i, c in enumerate(s.chal_deck) if i not in hidden} | set(s.chal_aside)
    for heavy in (False, True):
        places = [i for i in hidden if (turned + i >= small) == heavy]
        pool = [c.index for c in C.challenges
                if c.dumbbell == heavy and c.index not in seen and c.id not in done]
        rng.shuffle(pool)
        for i, card in zip(places, pool, strict=False):
            s.chal_deck[i] = card


_SALE = re.compile(r"^(Seat \d+|The Peddler) sells .* for (\d+) gold$")
_SPONSOR = re.compile(r"^Sponsorship: (Seat \d+|The Peddler) gains (\d+) gold$")
_FINAL = re.compile(r"^Final scoring: (Seat \d+|The Peddler) \+(\d+) for faction icons, -(\d+) for Corruption$")


def results(s: S) -> Results:
    """Most gold wins: the gold of each seat split into sales, sponsorship, faction icons and Corruption.

    The parts are summed from the game's own events; what no event names (Townsfolk, Merchant
    abilities, challenges) is the "other gold" part, so the parts always add up to the gold.
    """
    names = [who(s, p) for p in range(s.np)]
    got = {name: {"sales": 0, "sponsor": 0, "icons": 0, "corruption": 0} for name in names}
    for e in s.events:
        if m := _SALE.match(e):
            if m.group(1) in got:
                got[m.group(1)]["sales"] += int(m.group(2))
        elif m := _SPONSOR.match(e):
            if m.group(1) in got:
                got[m.group(1)]["sponsor"] += int(m.group(2))
        elif (m := _FINAL.match(e)) and m.group(1) in got:
            got[m.group(1)]["icons"] += int(m.group(2))
            got[m.group(1)]["corruption"] -= int(m.group(3))
    parts: list[list[Part]] = []
    for p in range(s.np):
        g = got[names[p]]
        other = s.gold[p] - sum(g.values())
        parts.append([{"label": "Sales", "value": float(g["sales"])},
                      {"label": "Sponsorship", "value": float(g["sponsor"])},
                      {"label": "Faction icons", "value": float(g["icons"])},
                      {"label": "Corruption", "value": float(g["corruption"])},
                      {"label": "Everything else (start, spending, abilities)", "value": float(other)}])
    if s.np > s.seats:  # solo: the score is the gold beyond the Peddler's
        peddler = s.gold[s.seats]
        parts[0].append({"label": "The Peddler's gold", "value": float(-peddler)})
        parts = parts[:1]
    return make_results("Gold" if s.np == s.seats else "Gold beyond the Peddler's",
                        "none in the rules: tied players share the win", f"{s.day} day{'' if s.day == 1 else 's'}", s.scores(),
                        s.winners(), parts)
