"""What one seat may see, and determinization for that seat.

Everything on the board is public: ships, their sails and cargo, Governors,
the face-up chips, the supply card and the coins. Hidden: the order of each
country's face-down chips (which one is drawn next). Their contents are the
chips not face up, which the view does not spell out; it gives their count.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from freetrader.core import Rng
from freetrader.core.results import Part, Results
from freetrader.core.results import results as make_results

from .actions import crate_token
from .components import COMPONENTS as C
from .phases import PHASES
from .rules import ACTION_NAMES, ACTIONS_PER_TURN, SHIPS

if TYPE_CHECKING:
    from .state import PreciousCargoState as S


def _seat_or_none(v: int) -> int | None:
    return None if v < 0 else v


def view(s: S, seat: int | None) -> dict[str, Any]:
    ns = C.n_settlements
    leader = {c: p for p, c in enumerate(s.country) if c >= 0}
    ships = []
    by_place: dict[int, list[str]] = {}
    for slot, p in enumerate(s.at):
        if p < 0:
            continue
        owner, number = divmod(slot, SHIPS)
        ships.append({
            "owner": owner,
            "number": number + 1,
            "at": C.places[p].id,
            "sails": s.sails[slot],
            "cargo": [crate_token(c) for c in s.holds[slot]],
            "moves_left": s.moves[slot],
        })
        by_place.setdefault(p, []).append(f"{owner}:{number + 1}")
    d: dict[str, Any] = {
        "phase": PHASES[s.phase],
        "turn": s.turn,
        "target": s.options["target"],
        "first": _seat_or_none(s.first),
        "countries": [
            {"id": c.id, "name": c.name, "color": c.color, "emblem": c.emblem, "leader": leader.get(c.index)}
            for c in C.countries
        ],
        "players": [
            {
                "seat": p,
                "country": C.countries[s.country[p]].id if s.country[p] >= 0 else None,
                "home": C.places[s.home[p]].id if s.home[p] >= 0 else None,
                "coins": s.coins[p],
                "governors_left": s.gov_left[p],
            }
            for p in (0, 1)
        ],
        "settlements": [
            {
                "id": C.places[p].id,
                "name": C.places[p].name,
                "country": C.countries[C.places[p].country].id,
                "x": C.places[p].x,
                "y": C.places[p].y,
                "docks": C.places[p].capacity,
                "governor": _seat_or_none(s.gov[p]),
                "wants": C.cargo[s.chips[p]].id if s.chips[p] >= 0 else None,
                "ships": by_place.get(p, []),
            }
            for p in range(ns)
        ],
        "dots": [
            {"id": C.places[p].id, "x": C.places[p].x, "y": C.places[p].y, "ship": by_place[p][0] if p in by_place else None}
            for p in range(ns, len(C.places))
        ],
        "routes": [[C.places[a].id, C.places[b].id] for a, b in C.edges],
        "ships": ships,
        "cargo": [{"id": k.id, "name": k.name, "value": k.value, "country": k.country} for k in C.cargo],
        "supply": {
            c.id: {C.cargo[k].id: s.stock[c.index * C.n_cargo + k] for k in C.buyable[c.index]} for c in C.countries
        },
        "face_down_chips": {c.id: len(s.pools[c.index]) for c in C.countries},
        "bank": C.coins_total - sum(s.coins),
        "actions_used": [name for bit, name in ACTION_NAMES if s.used & bit],
        "actions_left": ACTIONS_PER_TURN - s.n_used if PHASES[s.phase] in ("move", "actions", "loading", "selling") else 0,
        "loading_ship": s.cur_ship % SHIPS + 1 if s.cur_ship >= 0 else None,
        "selling_at": C.places[s.sell_at].id if s.sell_at >= 0 else None,
    }
    for c in d["cargo"]:
        c["country"] = "both" if c["country"] < 0 else C.countries[c["country"]].id
    return d


def determinize(s: S, seat: int, seed: int) -> None:
    """Mix each country's face-down chips: nobody knows which is drawn next."""
    rng = Rng(seed)
    for pool in s.pools:
        rng.shuffle(pool)


def results(s: S) -> Results:
    """Winning the Game: the first to hold coins worth the target; at the turn limit, most coins."""
    parts: list[list[Part]] = [[{"label": "Coins", "value": float(s.coins[p])}] for p in range(s.seats)]
    return make_results(f"Coins (target {s.options['target']})", "the first to reach the target wins at once; "
                        "at the turn limit tied players share the win", f"{s.turn} turn{'' if s.turn == 1 else 's'}", s.scores(),
                        s.winners(), parts)
