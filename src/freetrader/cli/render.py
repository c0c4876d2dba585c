"""Drawing game views in the terminal: a per-game renderer registry with a generic fallback.

A game's renderer lives in its folder (``games/<game>/render.py``), imported
through the game registry the first time a view of that game is drawn.

A renderer draws the game-specific part of a view (``State.view(seat)``):
``fn(view, names) -> rich renderable``, where ``names`` labels the seats
(e.g. the seat specs ``["human", "heuristic", "random"]``) or is ``None``.
The frame around it (title, log, prompt, legal actions, scores) is shared.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from rich.console import Console, RenderableType
from rich.markup import escape
from rich.table import Table
from rich.text import Text

from freetrader.core import DataError, UnknownGame
from freetrader.core.registry import load_part

__all__ = [
    "Renderer",
    "register_renderer",
    "renderer_for",
    "render_view",
    "render_generic",
    "print_state",
    "print_actions",
    "print_results",
    "seat_label",
]

Renderer = Callable[[Mapping[str, Any], Sequence[str] | None], RenderableType]
_RENDERERS: dict[str, Renderer] = {}

#: View keys the shared frame draws itself; game renderers may ignore them.
BASE_KEYS = frozenset(
    ("game", "seat", "seats", "to_act", "prompt", "is_over", "actions_taken", "legal", "events", "scores", "winners")
)
_VERSION = re.compile(r"-v\d+$")


def register_renderer(game_name: str, fn: Renderer) -> Renderer:
    """Draw views of ``game_name`` (a name such as ``contraband``, or an exact slug) with ``fn``."""
    _RENDERERS[game_name.strip().lower()] = fn
    return fn


def _load_renderer(game_slug: str) -> None:
    """Import the game's ``render`` part (``games/<game>/render.py``) once; it registers its renderer."""
    try:
        load_part(game_slug, "render")
    except (UnknownGame, DataError):
        pass  # a game this install does not know, or whose data pack is broken: the generic renderer draws it


def renderer_for(game_slug: str) -> Renderer:
    """The renderer registered for a slug (exact first, then its name), else the generic one."""
    _load_renderer(game_slug)
    key = str(game_slug).strip().lower()
    return _RENDERERS.get(key) or _RENDERERS.get(_VERSION.sub("", key)) or render_generic


def render_view(view: Mapping[str, Any], names: Sequence[str] | None = None) -> RenderableType:
    return renderer_for(str(view.get("game", "")))(view, names)


def seat_label(seat: int, names: Sequence[str] | None = None, you: int | None = None) -> str:
    label = f"seat {seat}"
    if names is not None and 0 <= seat < len(names):
        label += f" ({names[seat]})"
    if you is not None and seat == you:
        label += " (you)"
    return label


# -- generic ---------------------------------------------------------------------
def _scalar(value: Any) -> bool:
    return value is None or isinstance(value, (str, int, float, bool))


def _fmt(value: Any) -> str:
    if value is None:
        return "-"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def _flatten(prefix: str, value: Any, rows: list[tuple[str, str]]) -> None:
    if _scalar(value):
        rows.append((prefix, _fmt(value)))
    elif isinstance(value, Mapping):
        if not value:
            rows.append((prefix, "-"))
        for k, v in value.items():
            _flatten(f"{prefix}.{k}" if prefix else str(k), v, rows)
    elif isinstance(value, (list, tuple)):
        if all(_scalar(v) for v in value):
            rows.append((prefix, ", ".join(_fmt(v) for v in value) if value else "-"))
        else:
            for i, v in enumerate(value):
                _flatten(f"{prefix}[{i}]", v, rows)
    else:
        rows.append((prefix, str(value)))


def render_generic(view: Mapping[str, Any], names: Sequence[str] | None = None) -> RenderableType:
    """Every game-specific field of the view: scalars, then lists and tables flattened to ``key.sub``."""
    rows: list[tuple[str, str]] = []
    for key, value in view.items():
        if key not in BASE_KEYS:
            _flatten(str(key), value, rows)
    table = Table.grid(padding=(0, 2))
    table.add_column(style="bold")
    table.add_column()
    for k, v in rows:
        table.add_row(Text(k), Text(v))
    return table


# -- the shared frame ---------------------------------------------------------------
def print_actions(console: Console, actions: Sequence[Any], who: str = "",
                  numbers: Sequence[int] | None = None) -> None:
    """The actions, numbered 1, 2, ... or by ``numbers`` (a menu that keeps its numbers)."""
    if who:
        console.print(Text(who, style="bold"))
    nums = list(numbers) if numbers is not None else list(range(1, len(actions) + 1))
    for i, a in zip(nums, actions, strict=True):
        console.print(Text(f"  {i:>2}. {a}"))


def print_results(console: Console, scores: Sequence[float], winners: Sequence[int], names: Sequence[str] | None) -> None:
    table = Table(title="Final scores", title_justify="left")
    table.add_column("seat", justify="right")
    table.add_column("player")
    table.add_column("score", justify="right")
    table.add_column("")
    for seat, score in enumerate(scores):
        name = names[seat] if names is not None and seat < len(names) else ""
        table.add_row(str(seat), escape(name), _fmt(score), "[bold green]winner[/]" if seat in winners else "")
    console.print(table)
    who = ", ".join(seat_label(w, names) for w in winners)
    if len(winners) == 1:
        console.print(Text(f"Winner: {who}", style="bold green"))
    elif winners:
        console.print(Text(f"Tie between {who}", style="bold green"))


def print_state(
    console: Console,
    state: Any,
    seat: int | None = None,
    names: Sequence[str] | None = None,
    recent: int = 8,
    actions: bool = True,
) -> None:
    """Draw ``state`` as ``seat`` sees it (``None``: a spectator), with its recent log.

    The legal actions are listed when ``seat`` is the one to act (or, for a
    spectator, when the game has no hidden information).
    """
    view = state.view(seat)
    spec = state.game.spec
    who = "spectator" if seat is None else seat_label(seat, names)
    console.rule(Text(f"{spec.title} ({spec.slug}) · {state.seats} seats · {state.action_count} actions · {who}"))
    console.print(render_view(view, names))
    events = view.get("events") or []
    if recent and events:
        shown = events[-recent:]
        head = "Recent events" + (f" (last {len(shown)} of {len(events)})" if len(shown) < len(events) else "")
        console.print(Text(head + ":", style="bold"))
        for e in shown:
            console.print(Text(f"  · {e}"))
    if state.is_over:
        print_results(console, state.scores(), state.winners(), names)
    elif actions:
        to_act = state.to_act
        console.print(Text(f"{seat_label(to_act, names).capitalize()} to act: {state.prompt}", style="bold yellow"))
        # Legal actions can name hidden cards (Contraband's discard lists the luggage): only the seat to
        # act sees them, and a spectator only when the game hides nothing.
        if seat == to_act or (seat is None and not spec.hidden_information):
            print_actions(console, state.legal_actions())
