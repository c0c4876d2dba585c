"""A legal action described as data for the browser: its verb, what it names, what it costs and pays.

A game's ``web.py`` answers ``moves(state, seat)``: one ``Move`` for every legal action of the seat to
act, in the engine's order, with the amounts the engine's own rule functions charge (discounts
included). The server sends them beside ``legal`` (``server/log.py: choice_notes_of``), keyed by
notation, so no ``web.js`` reads notation or card text to learn what a button does or costs.

``targets`` names the things a move is about by role (``"goods"``, ``"to"``, ``"officer"`` ...) and
component id (the ids ``web.py components`` serves); ``cost`` and ``pays`` are resource -> amount for
the acting seat (``web.py purse`` names the same resources, so a test can check them against the
engine by applying the move).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

__all__ = ["Move", "by_notation", "named", "plain"]


@dataclass(frozen=True, slots=True)
class Move:
    """One legal action as the page shows it."""

    action: str  # the notation, exactly as ``legal`` lists it (what the page sends back)
    verb: str  # what kind of move: the page groups and lights up by it
    label: str  # the button's words, names and not ids ("Sail to Mount's Bay")
    targets: Mapping[str, str] = field(default_factory=dict)  # role -> component id
    cost: Mapping[str, int] = field(default_factory=dict)  # resource -> amount the seat pays now
    pays: Mapping[str, int] = field(default_factory=dict)  # resource -> amount the seat gains now
    note: str = ""  # what the numbers do not say ("a false claim is fined $10")

    def to_json(self) -> dict[str, Any]:
        return {"verb": self.verb, "label": self.label, "targets": dict(self.targets),
                "cost": {k: v for k, v in self.cost.items() if v}, "pays": {k: v for k, v in self.pays.items() if v},
                "note": self.note}


def plain(action: object, label: str | None = None) -> Move:
    """A move with no targets or amounts: its verb is the action's ``verb`` (else its notation's first word)."""
    text = str(action)
    verb = getattr(action, "verb", None)
    return Move(text, verb if isinstance(verb, str) and verb else text.partition(" ")[0],
                label if label is not None else text[:1].upper() + text[1:])


def named(action: object, roles: Mapping[str, tuple[str, ...]], label: str = "",
          cost: Mapping[str, int] | None = None, pays: Mapping[str, int] | None = None, note: str = "") -> Move:
    """A move whose notation is ``<verb> <id> <id>...``: each id under its role, ``roles[verb]`` in order.

    A game whose notation is of that form (Precious Cargo, Contraband, Merchants Cove) names its roles once
    in its ``web.py``; the page then reads ``targets["ship"]``, never a word of the notation.
    """
    text = str(action)
    verb, *words = text.split()
    names = roles.get(verb, ())
    targets = {names[i] if i < len(names) else f"arg{i}": w for i, w in enumerate(words)}
    return Move(text, verb, label or text[:1].upper() + text[1:], targets, cost or {}, pays or {}, note)


def by_notation(moves: Iterable[Move]) -> dict[str, dict[str, Any]]:
    """The moves as the server sends them: ``{notation: move as JSON}``."""
    return {m.action: m.to_json() for m in moves}
