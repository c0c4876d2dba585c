"""What a socket is sent: its connection, the view it holds, and the view's changes since.

Sockets receive a table's events as deltas: a state message holds the view
without its ``events`` list and ``events_from``/``events``, the events after
the first ``events_from`` the socket already has (0 and the whole log on
connect). A view goes whole or as its changed fields over the view the socket
holds (``SentView.changes``); ``view_from`` rebuilds it as a client does.
"""

from __future__ import annotations

import asyncio
import importlib
import marshal
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

__all__ = ["Conn", "SentView", "same_json", "still_known", "view_from"]


@dataclass(eq=False)
class Conn:
    """One websocket connection: its seat (None: spectator) and its outgoing queue."""

    seat: int | None
    queue: asyncio.Queue[str | None] = field(default_factory=lambda: asyncio.Queue(maxsize=256))
    token_hash: str | None = None
    addr: str = ""
    known: int = 0  # how many of its view's events this socket has been sent
    known_log: int = 0  # how many lines of its readable log this socket has been sent
    # the lists those counts are of: while the table's list is the same object it has only grown
    # (``Table.public_events``, ``log.table_log``), so the first ``known`` entries still stand
    events_sent: list[Any] | None = None
    log_sent: list[Any] | None = None
    view_sent: SentView | None = None  # the view it holds (sent whole or rebuilt from ``SentView.changes``)
    answered: bool = False  # its last action was acknowledged in its state message (``Lobby.act``'s answer)
    # writes a message at once, or returns False (``guard.SEND_NOW``); None: every message goes by the queue
    send_now: Callable[[str], bool] | None = None
    writing: bool = False  # its writer holds a message taken from the queue (a message sent now would pass it)

    def forget(self) -> None:
        """The socket becomes a spectator's: its next message starts its view, log and events again."""
        self.seat, self.known, self.known_log, self.events_sent, self.log_sent = None, 0, 0, None, None
        self.view_sent = None


@dataclass(frozen=True, eq=False)
class SentView:
    """A view a socket holds: the position's ``seq`` and the view (see ``changes``).

    ``==`` cannot say which fields changed: ``True == 1 == 1.0`` and ``0.0 == -0.0``, which JSON
    writes apart. ``same_json`` (``_same_json.c``) compares as ``==`` does but asks for the same type
    at every level, the same key order and the same float bits; without the compiled module each
    field's ``marshal`` bytes (``fields``), which write types exactly, are compared instead.
    """

    seq: int
    view: dict[str, Any]
    fields: list[bytes] | None = None

    @classmethod
    def of(cls, seq: int, view: dict[str, Any]) -> SentView:
        return cls(seq, view, None if _same_json is not None else [marshal.dumps(v, 2) for v in view.values()])

    def changes(self, now: SentView) -> tuple[dict[str, Any], list[str] | None]:
        """What makes ``now`` from this view: the fields that differ or are new, and ``now``'s keys
        in order when they are not this view's (a field came or went: ``legal`` does, each turn)."""
        old = self.view
        if _changes is not None:
            changed, same_keys = _changes(old, now.view)
            return changed, None if same_keys else list(now.view)
        keys = list(now.view)
        moved = keys != list(old)
        if moved or self.fields is None or now.fields is None:
            same = same_json
            changed = {k: v for k, v in now.view.items() if k not in old or not same(old[k], v)}
        else:
            changed = {k: v for (k, v), a, b in zip(now.view.items(), self.fields, now.fields, strict=True) if a != b}
        return changed, keys if moved else None


def _same_by_marshal(a: Any, b: Any) -> bool:
    return marshal.dumps(a, 2) == marshal.dumps(b, 2)


def _compiled_module() -> Any:
    try:
        return importlib.import_module("freetrader.server._same_json")
    except ImportError:  # no C compiler at install: marshal bytes decide (slower, the same answers)
        return None


_compiled = _compiled_module()
_same_json: Callable[[Any, Any], bool] | None = None if _compiled is None else _compiled.same
#: the changed or new items of a view and whether its keys are the old ones, in one pass (C only)
_changes: Callable[[dict[str, Any], dict[str, Any]], tuple[dict[str, Any], bool]] | None = \
    None if _compiled is None else _compiled.changes

#: whether two JSON-able values would be written as the same JSON (errs only towards "different")
same_json: Callable[[Any, Any], bool] = _same_json if _same_json is not None else _same_by_marshal


def view_from(message: dict[str, Any], held: tuple[int, dict[str, Any]] | None) -> dict[str, Any] | None:
    """The view a socket's state message brings, as a client rebuilds it (``web/table.js`` does the same).

    ``held``: the ``(seq, view)`` of the last state message the client applied. A message sends the
    view whole (``view``), or only its changed fields over the view of message ``view_base``
    (``view_changes``, with ``view_keys`` when the fields are not those of that view: the keys in order,
    each new value or the held one); None when the client does not hold that view (it then sends
    ``{"type": "view"}``).
    """
    if "view_changes" not in message:
        return dict(message["view"])
    if held is None or held[0] != message.get("view_base"):
        return None
    changes, old = message["view_changes"], held[1]
    keys = message.get("view_keys")
    if keys is None:
        return {**old, **changes}
    if any(k not in changes and k not in old for k in keys):
        return None
    return {k: changes[k] if k in changes else old[k] for k in keys}


def still_known(sent: list[Any] | None, known: int, now: list[Any] | None, kept: dict[tuple[int, int], int]) -> int:
    """How many first entries of ``now`` a socket already has: it was sent ``known`` entries of ``sent``.

    The table's lists grow in place, so while ``now`` is ``sent`` nothing is compared; a list made
    anew (a take-back, a rename) is compared once per broadcast for all the sockets that had the old one.
    """
    if sent is None or now is None:
        return 0
    if sent is now:
        return min(known, len(now))
    key = (id(sent), id(now))
    if key not in kept:
        kept[key] = common_prefix(sent, now)
    return min(known, kept[key])


def common_prefix(old: list[Any] | None, new: list[Any] | None) -> int:
    """How many first events two event lists share (the lists only grow, except after a take-back)."""
    if old is None or new is None:
        return 0
    n = min(len(old), len(new))
    if old[:n] == new[:n]:
        return n
    k = 0
    while k < n and old[k] == new[k]:
        k += 1
    return k

