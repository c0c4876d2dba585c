"""What the browser draws Precious Cargo from: the countries, the places and the commodities.

Served at ``GET /api/games/precious-cargo/components`` and read by ``web.js``
beside this file, which keeps no copy of any of it. A data pack
(``$FREETRADER_DATA/precious_cargo/`` or ``data_dir``) overrides these files as
it does for the rules; ``data/drawing.toml`` holds the drawing's colours.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import Any

from freetrader.core.data import load_toml
from freetrader.core.moves import Move, named

from .components import COMPONENTS, Components, load_components

__all__ = ["choice_notes", "components", "moves", "purse"]

_PKG = __package__ or "freetrader.games.precious_cargo"


def components(data_dir: str | Path | None = None) -> dict[str, Any]:
    """The countries, places (with their grid x/y) and commodities, as JSON-able dicts keyed by id."""
    c: Components = COMPONENTS if data_dir is None else load_components(data_dir)

    def country(k: int) -> str | None:
        return c.countries[k].id if k >= 0 else None

    return {
        "countries": {k.id: {"name": k.name, "color": k.color, "emblem": k.emblem} for k in c.countries},
        "places": {
            p.id: {"name": p.name, "country": country(p.country), "x": p.x, "y": p.y, "capacity": p.capacity}
            for p in c.places
        },
        "cargo": {g.id: {"name": g.name, "color": g.color, "value": g.value, "country": country(g.country)}
                  for g in c.cargo},
        "drawing": load_toml(_PKG, "drawing.toml", data_dir),
    }


def choice_notes(state: Any, seat: int) -> dict[str, str]:
    """What the acting seat's choices cost and pay, by notation (How to Play's six actions): a hull's
    and sails' price, each crate's sale (the chip's value in demand, else the lower price; the Governor
    there pays its owner), and what a Governor earns. All of it is on the open board."""
    from . import actions as A
    from .rules import VALUE

    if state.to_act != seat or state.is_over:
        return {}
    c = COMPONENTS
    kind = {g.id: k for k, g in enumerate(c.cargo)}
    out: dict[str, str] = {}
    for action in state.legal_actions():
        text = str(action)
        if isinstance(action, A.Build):
            out[text] = f"costs {_coins(c.hull_cost)}"
        elif isinstance(action, A.AddSails):
            out[text] = f"costs {_coins(action.n * c.sail_cost)}"
        elif isinstance(action, A.Install):
            out[text] = f"free; earns you {_coins(c.governor_income)} for each crate sold there"
        elif isinstance(action, A.Take):
            out[text] = "free; takes one of the ship's four places"
        elif isinstance(action, A.Sell):
            p = state.at[seat * A.SHIPS + action.ship - 1]
            k = kind[action.crate.partition("@")[0]]
            wanted = state.chips[p] == k
            note = (f"pays {_coins(VALUE[k])} (in demand)" if wanted
                    else f"pays {_coins(c.not_in_demand)} (not in demand)")
            owner = state.gov[p]
            if owner == seat:
                note += f", and your Governor there {c.governor_income} more"
            elif owner >= 0:
                note += f"; the other player's Governor there earns {c.governor_income}"
            out[text] = note
    return out


def _coins(n: int) -> str:
    return f"{n} coin{'' if n == 1 else 's'}"


#: the ids each verb's notation names, in order (``core.moves.named``)
ROLES: dict[str, tuple[str, ...]] = {
    "move": ("ship", "to"), "again": ("ship", "to"), "build": ("place",), "governor": ("place",),
    "home": ("place",), "country": ("country",), "first": ("seat",), "take": ("ship", "cargo"),
    "sell": ("ship", "crate"), "sails": ("ship", "sails"),
}


def purse(state: Any, seat: int) -> dict[str, int]:
    """What ``seat`` holds of each resource a move's ``cost`` or ``pays`` names."""
    return {"coins": state.coins[seat]}


def _place(pid: str) -> str:
    """A settlement by its name; a dot of the route board by its printed grid name ("dot b5")."""
    return next((p.name for p in COMPONENTS.places if p.id == pid and p.country >= 0), f"dot {pid}")


def _crate(token: str) -> str:
    kind, _, origin = token.partition("@")
    name = next((g.name for g in COMPONENTS.cargo if g.id == kind), kind)
    return name + (f" from {_place(origin)}" if origin else "")


def _label(verb: str, t: dict[str, str]) -> str:
    ship, n = t.get("ship", ""), t.get("sails", "")
    words: dict[str, Callable[[], str]] = {
        "move": lambda: f"Move ship {ship} → {_place(t['to'])}",
        "again": lambda: f"Move ship {ship} again → {_place(t['to'])}",
        "build": lambda: f"Build a hull at {_place(t['place'])}",
        "governor": lambda: f"Governor at {_place(t['place'])}",
        "home": lambda: f"Home: {_place(t['place'])}",
        "country": lambda: "Lead " + next((k.name for k in COMPONENTS.countries if k.id == t["country"]), t["country"]),
        "first": lambda: f"Seat {t['seat']} goes first",
        "take": lambda: f"Ship {ship} takes {_crate(t['cargo'])}",
        "sell": lambda: f"Ship {ship} sells {_crate(t['crate'])}",
        "sails": lambda: f"Ship {ship}: add {n} sail{'' if n == '1' else 's'}",
        "stop": lambda: "Stop moving", "done": lambda: "Done", "end": lambda: "End the turn",
    }
    return words[verb]() if verb in words else verb.capitalize()


def moves(state: Any, seat: int) -> list[Move]:
    """Every legal action of the seat to act, with what it costs and pays in coins (``choice_notes``' numbers)."""
    from . import actions as A
    from .rules import VALUE

    if state.to_act != seat or state.is_over:
        return []
    c = COMPONENTS
    kind = {g.id: k for k, g in enumerate(c.cargo)}
    legal = state.legal_actions()
    # Install's and Take's words: only where such a choice is open
    notes = choice_notes(state, seat) if any(isinstance(a, (A.Install, A.Take)) for a in legal) else {}
    out = []
    for action in legal:
        cost: dict[str, int] = {}
        pays: dict[str, int] = {}
        note = notes.get(str(action), "")  # Install's and Take's words; the amounts say the rest
        if isinstance(action, A.Build):
            cost, note = {"coins": c.hull_cost}, ""
        elif isinstance(action, A.AddSails):
            cost, note = {"coins": action.n * c.sail_cost}, ""
        elif isinstance(action, A.Sell):
            p = state.at[seat * A.SHIPS + action.ship - 1]
            k = kind[action.crate.partition("@")[0]]
            wanted, owner = state.chips[p] == k, state.gov[p]
            pays = {"coins": (VALUE[k] if wanted else c.not_in_demand) + (c.governor_income if owner == seat else 0)}
            note = ("in demand" if wanted else "not in demand") + (
                f"; your Governor there adds {c.governor_income}" if owner == seat else
                f"; the other player's Governor there earns {c.governor_income}" if owner >= 0 else "")
        m = _described(action)
        out.append(Move(m.action, m.verb, m.label, m.targets, cost, pays, note))
    return out


@cache  # actions are frozen and interned: what one names and how it reads is fixed
def _described(action: Any) -> Move:
    m = named(action, ROLES)
    return Move(m.action, m.verb, _label(m.verb, dict(m.targets)), m.targets)
