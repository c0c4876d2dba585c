"""What the browser draws Merchants Cove from: adventurers, piers, merchants and every Townsfolk card.

Served at ``GET /api/games/merchants-cove/components`` and read by ``web.js``
beside this file, which keeps no copy of any of it: all 84 Townsfolk (the
base sets and the Secret Stash's) are drawn with their names, colours, costs
and icons from ``data/townsfolk.toml``. A data pack
(``$FREETRADER_DATA/merchants_cove/`` or ``data_dir``) overrides these files as
it does for the rules; ``data/drawing.toml`` holds the drawing's colours.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any

from freetrader.core.data import load_toml
from freetrader.core.moves import Move, named

from .components import COLOURS, COMPONENTS, GREY, PKG, SIZES, Components, load_components

__all__ = ["choice_notes", "components", "moves", "purse"]


def components(data_dir: str | Path | None = None) -> dict[str, Any]:
    """Every fact about the pieces and cards ``web.js`` needs, as JSON-able dicts keyed by id."""
    c: Components = COMPONENTS if data_dir is None else load_components(data_dir)
    board = load_toml(PKG, "board.toml", data_dir)  # adventurer names are not kept by the rules
    return {
        "adventurers": {t["id"]: {"name": t["name"], "count": t["count"]} for t in board.get("adventurer", [])},
        "factions": [COLOURS[k] for k in range(len(COLOURS)) if k != GREY],
        "rogue": COLOURS[GREY],
        "common": dict(c.common),
        "merchants": {m.id: {"name": m.name, "actions": dict(m.actions)} for m in c.merchants.values()},
        "piers": {
            p.id: {"name": p.name, "sizes": [SIZES[z] for z in p.sizes], "corruption": p.corruption} for p in c.piers
        },
        "townsfolk": {
            t.id: {"name": t.name, "set": t.set, "colour": COLOURS[t.colour], "cost": t.cost,
                   "icons": [COLOURS[i] for i in t.icons], "ability": t.ability, "amount": t.amount}
            for t in c.townsfolk
        },
        # how the log names the ids its events print (server/log.py): goods, piers and their sides
        "log_names": _log_names(c),
        "corruption": {
            k.id: {"icons": k.icons, "faction": COLOURS[k.faction] if k.faction >= 0 else None,
                   "cost": {"kind": k.cost[0], "amount": k.cost[1]} if k.cost[0] else None}
            for k in c.corruption
        },
        "drawing": load_toml(PKG, "drawing.toml", data_dir),
    }


def _log_names(c: Components) -> dict[str, str]:
    from .actions import SLOT_IDS
    from .components import GOOD_IDS

    piers = {p.id: p.name.split(" (")[0] for p in c.piers}
    out = {g: g.replace("-", " ") + " good" for g in GOOD_IDS}
    out.update({f"rogues-{k}": f"the Rogues at the {v}" for k, v in piers.items()})
    out.update({k: f"the {v}" for k, v in piers.items()})
    for slot in SLOT_IDS:
        pier, _, side = slot.partition("-")
        if side:
            out[slot] = f"the {piers.get(pier, pier)} ({side})"
    # the Chronomancer's pushes ("c1-bottom"): the row or column and the edge the spare tile goes in from
    for line in range(1, 4):
        for kind, edges in (("r", ("left", "right")), ("c", ("top", "bottom"))):
            for edge in edges:
                out[f"{kind}{line}-{edge}"] = f"{'row' if kind == 'r' else 'column'} {line} from the {edge}"
    # a Peddler card by its number in the deck, as printed
    out.update({p.id: f"Peddler card {p.index + 1}" for p in c.peddler_cards})
    # a Corruption card by what is printed on it, never its id ("You draw c1" said nothing; issue 34)
    for card in c.corruption:
        what = f"a Corruption card of {card.icons} icon{'s' if card.icons != 1 else ''}"
        out[card.id] = what + (f" ({COLOURS[card.faction]})" if card.faction >= 0 else "")
    return out


def choice_notes(state: Any, seat: int) -> dict[str, str]:
    """What the acting seat's choices pay and cost, by notation: each sale's gold (and the Corruption a
    Black Market or Rogue sale brings); each Corruption card's icons and Secret Stash pay-off cost."""
    from . import rules
    from .actions import SELLS

    if state.to_act != seat or state.is_over:
        return {}
    legal = {str(a) for a in state.legal_actions()}
    c = COMPONENTS
    out: dict[str, str] = {}
    for g, pi, price, rogues in rules.sale_options(state, seat):
        text = str(SELLS[g][pi][rogues])
        corrupt = c.piers[pi].corruption + (1 if rogues else 0)
        out[text] = f"pays {price} gold" + (f", {corrupt} Corruption card{'s' if corrupt > 1 else ''}"
                                          if corrupt else "")
    for card in c.corruption:
        what = f"{card.icons} Corruption icon{'s' if card.icons != 1 else ''}"
        if card.faction >= 0:
            what += f" ({COLOURS[card.faction]})"
        for verb in ("discard", "pay"):
            text = f"{verb} {card.id}"
            if text in legal:
                kind, amount = card.cost
                out[text] = what + (f"; pay-off {amount} {kind}" if verb == "pay" and kind else "")
    return {k: v for k, v in out.items() if k in legal}


#: the ids each verb's notation names, in order (``core.moves.named``); web.js draws and names them
ROLES: dict[str, tuple[str, ...]] = {
    "merchant": ("merchant",), "do": ("space",), "boat": ("boat",), "dock": ("slot",), "hire": ("townsfolk",),
    "replace": ("townsfolk",), "shield": ("colour",), "discard": ("corruption",), "pay": ("corruption",),
    "return": ("boat", "adventurer"), "take": ("boat", "adventurer"), "rob": ("seat",), "sell": ("good", "pier"),
    "pour": ("marble",), "into": ("colour",), "die": ("die",), "coal": ("colour",), "ship": ("ship",),
    "treasure": ("colour",), "push": ("push",), "worker": ("worker", "cell"), "lure": ("adventurer", "with"),
    "kraken": ("boat", "adventurer"), "hall": ("colour",), "kill": ("townsfolk",), "mind": ("adventurer",),
    "raid": ("townsfolk",), "staff": ("space",), "give": ("good",), "keep": ("what",),
}


def purse(state: Any, seat: int) -> dict[str, int]:
    """What ``seat`` holds of each resource a move's ``cost`` or ``pays`` names."""
    return {"gold": state.gold[seat]}


def _said(ident: str) -> str:
    """An id as the log names it (``log_names``), else its words; the page's web.js words moves its own way."""
    return _names().get(ident) or _names().get(ident.removeprefix("rogues-")) or ident.replace("-", " ")


@cache
def _names() -> dict[str, str]:
    c = COMPONENTS
    named = {t.id: t.name for t in c.townsfolk} | {m.id: m.name for m in c.merchants.values()}
    return {**named, **{p.id: p.name for p in c.piers}, **_log_names(c)}


def moves(state: Any, seat: int) -> list[Move]:
    """Every legal action of the seat to act: its ids by role; a sale's gold (``rules.sale_options``), a hire's cost."""
    from . import rules
    from .actions import SELLS

    if state.to_act != seat or state.is_over:
        return []
    c = COMPONENTS
    sold = {str(SELLS[g][pi][rog]): (price, c.piers[pi].corruption + (1 if rog else 0))
            for g, pi, price, rog in rules.sale_options(state, seat)}
    legal = state.legal_actions()
    described = [_described(a) for a in legal]
    # the Corruption cards' words (discard, pay off): only where such a choice is open
    notes = choice_notes(state, seat) if any(m.verb in ("discard", "pay") for m in described) else {}
    out = []
    for m in described:
        text = m.action
        cost = {"gold": _HIRE_COST[m.targets["townsfolk"]]} if m.verb == "hire" else {}
        pays = {"gold": sold[text][0]} if text in sold else {}
        note = notes.get(text, "")
        if text in sold:  # the gold is in pays; the Corruption a Black Market or Rogue sale brings is not
            k = sold[text][1]
            note = f"{k} Corruption card{'s' if k > 1 else ''}" if k else ""
        out.append(Move(text, m.verb, m.label, m.targets, cost, pays, note))
    return out


_HIRE_COST = {t.id: t.cost for t in COMPONENTS.townsfolk}  # what rules.hire pays for a Townsfolk


@cache  # actions are frozen and interned: what one names and how it reads is fixed
def _described(action: Any) -> Move:
    text = str(action)
    m = named(action, ROLES)
    targets, label = dict(m.targets), " ".join([m.verb.capitalize(), *(_said(v) for v in m.targets.values())])
    pier = targets.get("pier", "")
    if m.verb == "sell" and pier.startswith("rogues-"):  # a sale to the Rogues at that pier (Cultists)
        targets.update(pier=pier.removeprefix("rogues-"), buyer="rogues")
        label += " to the Rogues"
    return Move(text, m.verb, label, targets)
