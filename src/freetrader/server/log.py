"""The table's readable log: the engine's events with players' names and the game's display names.

The engine writes its events for records and golden digests ("Seat 1 puts to
sea at scilly-sound"); players read "Bob puts to sea at Scilly Sound". This
module renders at the table layer so the engine's strings (and the golden
records' digests) stay as they are:

* ``Seat N`` becomes the seat's name (a person's chosen name, or its bot);
* an id of the game's components (``GET /api/games/{game}/components``) becomes
  its display name;
* a seat's own private news ("You draw Sea Fret") is added to that seat's log
  only, from the difference of its ``your_*`` view fields before and after
  each action: another seat's or a spectator's log never holds it;
* a move the turn timer made and a take-back are marked as such.

Lines carry their number (``n``) so a client shows stable numbers however
long the log grows.
"""

from __future__ import annotations

import importlib
import re
import weakref
from collections.abc import Mapping, Sequence
from typing import Any, TypedDict

import freetrader
from freetrader.core.registry import game_package, load_part

__all__ = ["LogLine", "display_names", "item_names", "seat_names", "render_event", "private_lines", "table_log", "results_of", "choice_notes_of"]


class LogLine(TypedDict):
    n: int      #: the line's number, from 1
    text: str
    kind: str   #: "event", "you" (private to the reader), "timeout" or "takeback"


_SEAT = re.compile(r"\b[Ss]eat (\d+)\b")
_TOKEN = re.compile(r"[A-Za-z0-9][A-Za-z0-9'_-]*[A-Za-z0-9]")


def display_names(components: Mapping[str, Any]) -> dict[str, str]:
    """Every hyphenated id of the components that has a ``name``: "scilly-sound" -> "Scilly Sound".

    One-word ids ("red", "black") are left out: they are also ordinary words of the events; a game
    names the ids its events print that way in ``log_names`` (id -> name) of its components.
    """
    named = components.get("log_names")
    out: dict[str, str] = dict(named) if isinstance(named, dict) else {}
    for group in components.values():
        if not isinstance(group, dict):
            continue
        for key, item in group.items():
            if isinstance(item, dict) and isinstance(item.get("name"), str) and "-" in key:
                out.setdefault(key, item["name"])
    return out


def item_names(components: Mapping[str, Any]) -> dict[str, str]:
    """Every id of the components that has a ``name``, one-word ids too: for ids a view lists, never free text."""
    out = display_names(components)
    for group in components.values():
        if isinstance(group, dict):
            for key, item in group.items():
                if isinstance(item, dict) and isinstance(item.get("name"), str):
                    out.setdefault(key, item["name"])
    return out


def seat_names(seats: Sequence[Mapping[str, Any]]) -> list[str]:
    """What the log calls each seat, as the table page does: a person's name, else "Seat N"; a bot
    by its kind ("Seat 2 · random bot")."""
    out = []
    for s in seats:
        n = int(s["seat"])
        if s.get("kind") == "human":
            out.append(str(s["name"]) if s.get("name") else f"Seat {n}")
        else:
            out.append(f"Seat {n} · {s.get('kind')} bot")
    return out


def render_event(text: str, names: Sequence[str], ids: Mapping[str, str]) -> str:
    """One engine event for players: seats by name, component ids by display name."""
    def seat(m: re.Match[str]) -> str:
        k = int(m.group(1))
        return names[k] if 0 <= k < len(names) else m.group(0)

    text = _SEAT.sub(seat, text)
    return _TOKEN.sub(lambda m: ids.get(m.group(0), m.group(0)), text)


#: How a new private item reads in its seat's log, by view field; other ``your_*`` fields use the default.
_PRIVATE_VERBS = {"your_secrets": "You draw", "your_corruption": "You draw"}


def private_lines(before: Mapping[str, Any], after: Mapping[str, Any], ids: Mapping[str, str]) -> list[str]:
    """The private news of one action for one seat: what its ``your_*`` lists gained."""
    out = []
    for key, now in after.items():
        if not key.startswith("your_") or not isinstance(now, list):
            continue
        old = before.get(key)
        was = list(old) if isinstance(old, list) else []
        gained = []
        for item in now:
            if item in was:
                was.remove(item)
            else:
                gained.append(item)
        if not gained:
            continue
        shown = [ids.get(str(g), str(g)) for g in gained]
        verb = _PRIVATE_VERBS.get(key, "You now hold")
        if key == "your_luggage":  # the whole luggage: it is looked at as one
            out.append("You look inside the luggage: " + ", ".join(ids.get(str(g), str(g)) for g in now))
        else:
            out.append(f"{verb} {', '.join(shown)}")
    return out


def _private_fields(view: Mapping[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in view.items() if k.startswith("your_")}


class _Cache:
    """Per table: the number of events after each action, and each seat's private lines so far."""

    def __init__(self) -> None:
        self.marks: list[int] = []                       # marks[k]: events after k actions
        self.private: dict[int, list[tuple[int, str]]] = {}  # seat -> (events before the line, text)
        self.fields: dict[int, dict[str, Any]] = {}      # seat -> its your_* fields after the last action
        self.ids: dict[str, str] | None = None    # for event text: hyphenated ids and log_names
        self.items: dict[str, str] | None = None  # for the ids a view lists: every named id
        self.shown: tuple[list[str], list[str], list[str]] = ([], [], [])  # names, events, their rendering


_CACHES: weakref.WeakKeyDictionary[Any, _Cache] = weakref.WeakKeyDictionary()


def _names_of(game: str) -> tuple[dict[str, str], dict[str, str]]:
    part = load_part(freetrader.game(game), "web")
    if part is None:
        return {}, {}
    comps = part.components()
    return display_names(comps), item_names(comps)


def _step(c: _Cache, state: Any, seats: int) -> None:
    """Record the state reached by one more action: its event count and each seat's private news."""
    c.marks.append(state.event_count)
    for seat in range(seats):
        now = _private_fields(state.view(seat, events=False))
        before = c.fields.get(seat, {})
        for line in private_lines(before, now, c.items or {}):
            c.private.setdefault(seat, []).append((c.marks[-1], line))
        c.fields[seat] = now


def _sync(table: Any) -> _Cache:
    c = _CACHES.get(table)
    if c is None:
        c = _CACHES[table] = _Cache()
        c.ids, c.items = _names_of(table.row.game)
    n = table.state.action_count
    seats = table.state.seats
    if len(c.marks) == n + 1:
        return c
    if len(c.marks) == n and n > 0:   # one more action: the common case
        _step(c, table.state, seats)
        return c
    # a take-back, a restart or the first look: walk the record once
    c.marks, c.private, c.fields = [], {}, {}
    record = table.record_core()
    s = freetrader.replay(record, upto=0)
    c.marks.append(s.event_count)
    for seat in range(seats):
        c.fields[seat] = _private_fields(s.view(seat, events=False))
        for line in private_lines({}, c.fields[seat], c.items or {}):
            c.private.setdefault(seat, []).append((c.marks[0], line))
    for text in record["actions"]:
        s.apply(text)
        _step(c, s, seats)
    return c


def table_log(table: Any, seat: int | None, names: Sequence[str] | None = None) -> list[LogLine]:
    """The log of ``table`` as ``seat`` reads it (``None``: a spectator), numbered from 1."""
    c = _sync(table)
    names = list(names) if names is not None else seat_names(table.info()["seats"])
    ids = c.ids or {}
    # a live table follows its public log move by move (tables.Table.public_events): no walk per seat
    events = table.public_events() if hasattr(table, "public_events") else table.state.events
    extra: list[tuple[int, int, str, str]] = []  # (events before it, order, kind, text)
    for i, row in enumerate(table.stack):
        if row.origin == "timeout" and i < len(c.marks):
            who = names[row.seat] if row.seat is not None and 0 <= row.seat < len(names) else "the seat"
            bot = table.row.settings.get("timeout_bot") or "random"
            extra.append((c.marks[i], 0, "timeout", f"Time ran out for {who}: the {bot} bot moves for them"))
    asked: dict[int, int] = {}
    for note in table.notes:
        kind = note.get("kind")
        if kind == "takeback-requested":
            asked[int(note["seq"])] = int(note["seat"])
        elif kind == "takeback-done":
            k = max(0, min(int(note.get("index", 0)), len(c.marks) - 1))
            who_seat = asked.get(int(note.get("request", -1)))
            who = names[who_seat] if who_seat is not None and 0 <= who_seat < len(names) else "A player"
            action = render_event(str(note.get("action", "")), names, ids)
            extra.append((c.marks[k], 1, "takeback", f"{who} took back “{action}” (the others agreed)"))
    if seat is not None:
        extra += [(pos, 2, "you", text) for pos, text in c.private.get(seat, [])]
    extra.sort(key=lambda e: (e[0], e[1]))
    # events only grow between take-backs: each is rendered once (again after a rename or a take-back)
    shown_names, raw, shown = c.shown
    if shown_names != names or raw != events[:len(raw)]:
        raw, shown = [], []
    shown += [render_event(text, names, ids) for text in events[len(raw):]]
    c.shown = (names, raw + events[len(raw):], shown)
    out: list[LogLine] = []
    j = 0
    for i in range(len(events)):
        while j < len(extra) and extra[j][0] <= i:
            out.append({"n": len(out) + 1, "text": extra[j][3], "kind": extra[j][2]})
            j += 1
        out.append({"n": len(out) + 1, "text": shown[i], "kind": "event"})
    for e in extra[j:]:
        out.append({"n": len(out) + 1, "text": e[3], "kind": e[2]})
    return out


def results_of(state: Any) -> Any:
    """The finished game's ``Results`` (``view.results`` of the game's folder); ``None`` while it goes on."""
    if not state.is_over:
        return None
    module = importlib.import_module(game_package(state.game) + ".view")
    fn = getattr(module, "results", None)
    if fn is None:
        return None
    # a game stopped by its safety cap is no ordinary win: the ranks are the standing when it was cut
    return {**fn(state), "cut": state.cut}


def choice_notes_of(state: Any, seat: int | None) -> dict[str, str]:
    """What each of ``seat``'s legal choices costs and pays (the game's ``web.choice_notes``), when it acts."""
    if seat is None or state.is_over or state.to_act != seat:
        return {}
    part = load_part(state.game, "web")
    fn = getattr(part, "choice_notes", None) if part is not None else None
    return dict(fn(state, seat)) if fn is not None else {}
