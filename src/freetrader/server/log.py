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

import functools
import importlib
import re
import weakref
from collections.abc import Mapping, Sequence
from typing import Any, TypedDict, TypeVar

import freetrader
from freetrader.core import FreetraderError
from freetrader.core.moves import by_notation, plain
from freetrader.core.registry import game_package, load_part

__all__ = ["LogLine", "display_names", "item_names", "seat_names", "render_event", "private_lines", "table_log",
           "record_log", "takeback_lines", "results_of", "choice_notes_of"]


T = TypeVar("T", list[Any], dict[str, Any])


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

    if "eat " in text:
        text = _SEAT.sub(seat, text)
    if not ids or not _may_hold_an_id(text, ids):
        return text  # most events name no component: no word need be looked up
    return _TOKEN.sub(lambda m: ids.get(m.group(0), m.group(0)), text)


#: per ``ids`` mapping seen (its id, the mapping kept alive, a pattern finding any of its ids as text)
_ID_FILTERS: dict[int, tuple[Mapping[str, str], re.Pattern[str]]] = {}


def _may_hold_an_id(text: str, ids: Mapping[str, str]) -> bool:
    """Whether ``text`` holds any id of ``ids`` anywhere (a word or not: ``_TOKEN`` then decides)."""
    held = _ID_FILTERS.get(id(ids))
    if held is None or held[0] is not ids:
        if len(_ID_FILTERS) >= 64:  # a caller making new mappings: no filter kept for them
            return True
        pattern = re.compile("|".join(re.escape(k) for k in sorted(ids, key=len, reverse=True)))
        held = _ID_FILTERS[id(ids)] = (ids, pattern)
    return held[1].search(text) is not None


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
        self.generation = 0  # grows whenever ``shown`` is rendered again from the start
        self.timeouts: tuple[Any, int, list[int]] = (None, 0, [])  # (last row, rows, the timer's moves)
        self.readers: dict[int | None, _Reader] = {}  # per reader: its log as last made
        self.source: list[str] | None = None  # the table's events list ``shown`` was rendered from
        # ``_common`` of the position last asked about, and what it was of (the state, the stack, the notes, names)
        self.common_key: tuple[Any, ...] | None = None
        self.common: tuple[list[str], list[int], list[tuple[int, int, int, str, str]]] = ([], [], [])


class _Reader:
    """One reader's log as last made, kept so the next move only appends its own lines.

    ``lines`` grows in place while the log only grows: the same rendering (``generation``) and
    names, the reader's private lines, the timer's moves and the take-back lines each extended, and
    every new marked line placed after what is already there. Anything else makes the log anew,
    into a new list, as ``_merge`` makes it from the start; so a holder of ``lines`` (a socket) knows
    its first entries still stand while it is the same object.
    """

    __slots__ = ("generation", "names", "private", "n_private", "timeouts", "takebacks", "last", "upto", "lines")

    def __init__(self, generation: int, names: list[str], private: list[tuple[int, str]] | None,
                 timeouts: list[int], takebacks: list[tuple[int, int, int, str, str]],
                 extras: list[tuple[int, int, int, str, str]], upto: int, lines: list[LogLine]) -> None:
        self.generation, self.names, self.upto, self.lines = generation, names, upto, lines
        self.private, self.n_private = private, len(private) if private is not None else 0
        self.timeouts, self.takebacks = timeouts, takebacks
        self.last = extras[-1][:3] if extras else None  # the sort key of the last marked line


_CACHES: weakref.WeakKeyDictionary[Any, _Cache] = weakref.WeakKeyDictionary()


@functools.cache
def _names_of(game: str) -> tuple[dict[str, str], dict[str, str]]:
    """The display names of a game's ids (shared by every table of the game: not to be changed)."""
    part = load_part(freetrader.game(game), "web")
    if part is None:
        return {}, {}
    comps = part.components()
    return display_names(comps), item_names(comps)


def _step(c: _Cache, state: Any, seats: int, view: Any = None) -> None:
    """Record the state reached by one more action: its event count and each seat's private news.

    ``view(seat)``: the state's view for ``seat`` without events, when the caller has it already.
    """
    c.marks.append(state.event_count)
    for seat in range(seats):
        now = _private_fields(view(seat) if view is not None else state.view(seat, events=False))
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
        # a live table's views of this position are computed once, for its sockets and here
        _step(c, table.state, seats, getattr(table, "seat_view", None))
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
    """The log of ``table`` as ``seat`` reads it (``None``: a spectator), numbered from 1.

    Not to be changed by the caller: a live table's log grows in place (``_Reader``).
    """
    c = _sync(table)
    names = list(names) if names is not None else seat_names(table.info()["seats"])
    ids = c.ids or {}
    shown, timeouts, takebacks = _common(c, table, names)
    bot = str(table.row.settings.get("timeout_bot") or "random")
    private = c.private.get(seat) if seat is not None else None
    stack = table.stack
    marks, last = c.marks, len(c.marks) - 1
    r = c.readers.get(seat)
    if r is not None and r.generation == c.generation and r.names == names \
            and (private is r.private or (r.n_private == 0 and r.private is None)) \
            and timeouts[:len(r.timeouts)] == r.timeouts and takebacks[:len(r.takebacks)] == r.takebacks:
        new = [(pos, 0, i, "you", text) for i, (pos, text) in enumerate(private[r.n_private:], r.n_private)] \
            if private is not None else []
        new += _timeout_extras(marks, names, timeouts[len(r.timeouts):], stack, bot, last)
        new += takebacks[len(r.takebacks):]
        new.sort(key=lambda e: (e[0], e[1], e[2]))
        if not new or (new[0][0] >= r.upto and (r.last is None or new[0][:3] > r.last)):
            r.lines += _merge(shown, r.upto, new, 0, len(r.lines))
            r.upto, r.private, r.timeouts, r.takebacks = len(shown), private, timeouts, takebacks
            r.n_private = len(private) if private is not None else 0
            if new:
                r.last = new[-1][:3]
            return r.lines
    extras = _extras(marks, names, ids, timeouts, stack, table.notes, bot, private or [])
    lines = _merge(shown, 0, extras, 0, 0)
    c.readers[seat] = _Reader(c.generation, names, private, timeouts, takebacks, extras, len(shown), lines)
    return lines


def _common(c: _Cache, table: Any, names: list[str]) -> tuple[list[str], list[int], list[tuple[int, int, int, str, str]]]:
    """What every reader's log of this position holds alike: the rendered events, the timer's moves and the
    take-back lines; made once for the readers of one position (a broadcast asks for each seat's log)."""
    state, stack, notes = table.state, table.stack, table.notes
    last = stack[-1] if stack else None
    k = c.common_key
    if k is not None and k[0] is state and k[1] is last and k[2] == len(stack) and k[3] is notes \
            and k[4] == len(notes) and k[5] == names:
        return c.common
    ids = c.ids or {}
    c.common = (_shown(c, table, names, ids), _timeouts(c, stack), _takeback_extras(c.marks, names, ids, notes))
    c.common_key = (state, last, len(stack), notes, len(notes), list(names))
    return c.common


def _shown(c: _Cache, table: Any, names: list[str], ids: Mapping[str, str]) -> list[str]:
    """The table's public events rendered for ``names``, each rendered once (again after a rename or a take-back)."""
    # a live table follows its public log move by move (tables.Table.public_events), growing one list
    live = hasattr(table, "public_events")
    events: list[str] = table.public_events() if live else table.state.events
    shown_names, raw, shown = c.shown
    grown = live and events is c.source and len(events) >= len(raw)
    if shown_names != names or not (grown or raw == events[:len(raw)]):
        raw, shown = [], []
        c.generation += 1
    if len(events) > len(raw):
        new = events[len(raw):]
        shown += [render_event(text, names, ids) for text in new]
        raw += new
    c.shown, c.source = (names, raw, shown), events if live else None
    return shown


def _timeouts(c: _Cache, stack: Sequence[Any]) -> list[int]:
    """The moves the turn timer made (their indexes), followed row by row as the stack grows."""
    last, n, found = c.timeouts
    if not (0 < n <= len(stack) and stack[n - 1] is last):
        n, found = 0, []
    if n < len(stack):
        found = found + [i for i in range(n, len(stack)) if stack[i].origin == "timeout"]
        c.timeouts = (stack[-1], len(stack), found)
    elif not stack:
        c.timeouts = (None, 0, [])
    return found


def record_log(record: Mapping[str, Any], upto: int | None = None) -> tuple[Any, list[LogLine]]:
    """A game record replayed to ``upto`` actions, and its log as a spectator reads it (no private lines).

    A table's record (``GET /api/tables/{id}/record``) names its seats, and which moves the turn timer
    made, and its take-backs (``record["table"]``): the replay's log says them as the table's did.
    """
    state = freetrader.replay(record, upto=0)  # a bad record's own one-line reason
    actions = list(record["actions"])
    upto = len(actions) if upto is None else upto
    marks = [state.event_count]
    try:
        if not 0 <= upto <= len(actions):
            raise IndexError(upto)
        for text in actions[:upto]:
            state.apply(text)
            marks.append(state.event_count)
    except (FreetraderError, IndexError):
        freetrader.replay(record, upto=upto)  # raises the reason as the record module words it
        raise
    meta = _part(record, "table", dict)
    seats, given = _part(meta, "seats", list), _part(meta, "names", list)
    names = seat_names([{"seat": i, "kind": seats[i] if i < len(seats) else "human",
                         "name": given[i] if i < len(given) and isinstance(given[i], str) else None}
                        for i in range(state.seats)]) if seats else [f"Seat {i}" for i in range(state.seats)]
    moves = [m if isinstance(m, Mapping) else {} for m in _part(meta, "moves", list)][:upto]
    origins = [str(m.get("by")) for m in moves]
    movers = [m.get("seat") for m in moves]
    notes = [n for n in _part(meta, "takebacks", list) if isinstance(n, Mapping)]
    settings = _part(meta, "settings", dict)
    ids, _items = _names_of(state.game.spec.name)
    bot = str(settings.get("timeout_bot") or "random")
    shown = [render_event(text, names, ids) for text in state.events]
    return state, _lines(shown, marks, names, ids, origins, movers, notes, bot, [])


def _part(record: Mapping[str, Any], key: str, kind: type[T]) -> T:
    """``record[key]`` if it is a ``kind`` (a record from a file may hold anything), else an empty one."""
    value = record.get(key)
    return value if isinstance(value, kind) else kind()


def _name(names: Sequence[str], seat: Any, default: str) -> str:
    return names[seat] if isinstance(seat, int) and 0 <= seat < len(names) else default


def takeback_lines(notes: Sequence[Mapping[str, Any]], names: Sequence[str],
                   ids: Mapping[str, str]) -> list[tuple[int, int, str]]:
    """The take-back notes as log lines: (action count the line follows, note order, text).

    A request, its answers and its end are placed after the action asked about; a take-back that was
    done places them where that action was (its events are gone from the log).
    """
    requests = {n.get("seq"): n for n in notes if n.get("kind") == "takeback-requested"}
    ended = {n.get("request"): n.get("kind") for n in notes if n.get("kind") in
             ("takeback-done", "takeback-refused", "takeback-dropped")}
    agreed = {n.get("request") for n in notes if n.get("kind") == "takeback-approved"}
    out = []
    for order, note in enumerate(notes):
        kind = note.get("kind")
        req = note if kind == "takeback-requested" else requests.get(note.get("request"))
        if req is None:
            continue
        index = int(req.get("index", 0))
        who = _name(names, req.get("seat"), "A player")
        action = "“" + render_event(str(req.get("action", "")), names, ids) + "”"
        by = _name(names, note.get("by"), "a player")
        if kind == "takeback-requested":
            text = f"{who} asks to take back {action}"
        elif kind == "takeback-approved":
            text = f"{by} agrees that {who} takes back {action}"
        elif kind == "takeback-refused":
            text = f"{by} refuses: {who} may not take back {action}, which stands"
        elif kind == "takeback-dropped":
            reason = f" ({note['reason']})" if note.get("reason") else ""
            text = f"{who}'s request to take back {action} was dropped{reason}; the move stands"
        elif kind == "takeback-done":
            why = "the others agreed" if req.get("seq") in agreed else "no other player needed to agree"
            text = f"{who} took back {action} ({why})"
        else:
            continue
        out.append((index if ended.get(req.get("seq")) == "takeback-done" else index + 1, order, text))
    return out


def _lines(shown: Sequence[str], marks: Sequence[int], names: Sequence[str], ids: Mapping[str, str],
           origins: Sequence[str], movers: Sequence[Any], notes: Sequence[Mapping[str, Any]], timeout_bot: str,
           private: Sequence[tuple[int, str]]) -> list[LogLine]:
    """The rendered events (``shown``), with the marked lines woven in: each reader's private news, take-backs and
    timer moves, in the order they happened (extra lines at one place: private news of the action
    before, then take-backs, then the timer's move that came next)."""
    timeouts = [i for i, origin in enumerate(origins) if origin == "timeout"]
    return _merge(shown, 0, _extras(marks, names, ids, timeouts, movers, notes, timeout_bot, private), 0, 0)


def _extras(marks: Sequence[int], names: Sequence[str], ids: Mapping[str, str], timeouts: Sequence[int],
            movers: Sequence[Any], notes: Sequence[Mapping[str, Any]], timeout_bot: str,
            private: Sequence[tuple[int, str]]) -> list[tuple[int, int, int, str, str]]:
    """The marked lines, sorted: (events before it, group, order, kind, text); ``timeouts``: the timer's moves."""
    extra: list[tuple[int, int, int, str, str]] = []
    extra += [(pos, 0, i, "you", text) for i, (pos, text) in enumerate(private)]
    extra += _takeback_extras(marks, names, ids, notes)
    extra += _timeout_extras(marks, names, timeouts, movers, timeout_bot, len(marks) - 1)
    extra.sort(key=lambda e: (e[0], e[1], e[2]))
    return extra


def _takeback_extras(marks: Sequence[int], names: Sequence[str], ids: Mapping[str, str],
                     notes: Sequence[Mapping[str, Any]]) -> list[tuple[int, int, int, str, str]]:
    """The take-back lines as marked lines, in note order (a replay shows only what had happened by its position)."""
    marked = [n for n in notes if str(n.get("kind", "")).startswith("takeback")]
    if not marked:
        return []
    last = len(marks) - 1
    return [(marks[max(0, min(k, last))], 1, order, "takeback", text)
            for k, order, text in takeback_lines(marked, names, ids) if k <= last]


def _timeout_extras(marks: Sequence[int], names: Sequence[str], timeouts: Sequence[int], movers: Sequence[Any],
                    timeout_bot: str, last: int) -> list[tuple[int, int, int, str, str]]:
    """The lines of the timer's moves ``timeouts`` (indexes); ``movers[i]``: the seat, or a row with ``seat``."""
    out = []
    for i in timeouts:
        if i <= last:
            mover = movers[i] if i < len(movers) else None
            mover = getattr(mover, "seat", mover)
            who = _name(names, mover, "the seat")
            out.append((marks[max(0, min(i, last))], 2, i, "timeout",
                        f"Time ran out for {who}: the {timeout_bot} bot moves for them"))
    return out


def _merge(shown: Sequence[str], start: int, extra: Sequence[tuple[int, int, int, str, str]], j: int,
           before: int) -> list[LogLine]:
    """The lines from rendered event ``start`` and marked line ``j`` on, numbered after ``before`` lines."""
    out: list[LogLine] = []
    n = before
    for i in range(start, len(shown)):
        while j < len(extra) and extra[j][0] <= i:
            n += 1
            out.append({"n": n, "text": extra[j][4], "kind": extra[j][3]})
            j += 1
        n += 1
        out.append({"n": n, "text": shown[i], "kind": "event"})
    for e in extra[j:]:
        n += 1
        out.append({"n": n, "text": e[4], "kind": e[3]})
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


def choice_notes_of(state: Any, seat: int | None) -> dict[str, Any]:
    """Each of ``seat``'s legal choices as data, keyed by notation, when it acts: ``core.moves.Move`` as JSON.

    From the game's ``web.moves`` (its verb, targets, cost and pay: the engine's numbers), else a plain
    move per legal action; a key starting with "@" (no notation does) is the game's ``web.decision``
    context, such as Cornish Smuggler's sale being priced (``"@sale"``).
    """
    if seat is None or state.is_over or state.to_act != seat:
        return {}
    part = load_part(state.game, "web")
    moves_fn = getattr(part, "moves", None) if part is not None else None
    out: dict[str, Any] = by_notation(moves_fn(state, seat) if moves_fn is not None
                                      else [plain(a) for a in state.legal_actions()])
    decision = getattr(part, "decision", None) if part is not None else None
    if decision is not None:
        out.update({"@" + k: v for k, v in decision(state, seat).items()})
    return out
