"""What the browser draws Contraband from: every article of the pack, with its duty and fine.

Served at ``GET /api/games/contraband/components`` and read by ``web.js``
beside this file, which keeps no copy of it. A data pack
(``$FREETRADER_DATA/contraband/`` or ``data_dir``) overrides these files as it
does for the rules; ``data/drawing.toml`` holds the drawing's colours.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any

from freetrader.core.data import load_toml
from freetrader.core.moves import Move, named

from .components import COMPONENTS, Components, load_components

__all__ = ["choice_notes", "components", "moves", "purse"]

_PKG = __package__ or "freetrader.games.contraband"


def components(data_dir: str | Path | None = None) -> dict[str, Any]:
    """The articles (in pack order) and the money of the game, as JSON-able dicts."""
    c: Components = COMPONENTS if data_dir is None else load_components(data_dir)
    return {
        "articles": {a.id: {"name": a.name, "count": a.count, "duty": a.duty, "fine": a.fine, "bag": a.is_bag}
                     for a in c.articles},
        "money": {"total": c.total_money, "search_compensation": c.search_compensation,
                  "informer_reward": c.informer_reward, "informer_compensation": c.informer_compensation,
                  "false_bag_fine": c.false_bag_fine},
        "drawing": load_toml(_PKG, "drawing.toml", data_dir),
    }


def choice_notes(state: Any, seat: int) -> dict[str, str]:
    """What the acting seat's choices cost, by notation: the duty (list A) and the fine (list B) of each
    article it may claim; a search's stakes for the Officer."""
    if state.to_act != seat or state.is_over:
        return {}
    c = COMPONENTS
    by_id = {a.id: a for a in c.articles}
    out: dict[str, str] = {}
    for action in state.legal_actions():
        text = str(action)
        verb, _, rest = text.partition(" ")
        a = by_id.get(rest)
        if verb == "claim" and a is not None:
            out[text] = (f"no duty; a false claim is fined ${c.false_bag_fine}" if a.is_bag
                         else f"duty ${a.duty}; fine ${a.fine} if found undeclared")
        elif verb == "search":
            out[text] = f"finds contraband: fines are paid; honest luggage: you pay ${c.search_compensation}"
    return out


#: the ids each verb's notation names (``core.moves.named``)
ROLES: dict[str, tuple[str, ...]] = {"claim": ("article",), "discard": ("article",), "borrow": ("lender",)}


def purse(state: Any, seat: int) -> dict[str, int]:
    """Contraband's money changes hands when a declaration settles, never as a choice is made: no move costs now."""
    return {}


def moves(state: Any, seat: int) -> list[Move]:
    """Every legal action of the seat to act: the article a claim or discard names, the lender of a loan."""
    from . import rules

    if state.to_act != seat or state.is_over:
        return []
    notes = choice_notes(state, seat)
    out = []
    for action in state.legal_actions():
        m = _described(action)
        note = notes.get(m.action, "")
        if m.verb == "borrow":
            note = f"a loan of ${rules.shortfall(state, state.pending[0])}, taken off your net worth at the end (par. 10)"
        out.append(Move(m.action, m.verb, m.label, m.targets, note=note))
    return out


@cache  # actions are frozen and interned: what one names and how it reads is fixed
def _described(action: Any) -> Move:
    m = named(action, ROLES)
    a = next((x for x in COMPONENTS.articles if x.id == m.targets.get("article")), None)
    label = m.label
    if a is not None:
        label = f"{m.verb.capitalize()} {a.name}" + (f" (${a.duty})" if m.verb == "claim" and a.duty else "")
    elif m.verb == "borrow":
        label = f"Borrow from seat {m.targets['lender']}"
    return Move(m.action, m.verb, label, m.targets)
