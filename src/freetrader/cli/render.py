"""Drawing game views in the terminal: a per-game renderer registry with a generic fallback.

A renderer draws the game-specific part of a view (``State.view(seat)``):
``fn(view, names) -> rich renderable``, where ``names`` labels the seats
(e.g. the seat specs ``["human", "heuristic", "random"]``) or is ``None``.
The frame around it (title, log, prompt, legal actions, scores) is shared.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from rich.console import Console, Group, RenderableType
from rich.markup import escape
from rich.table import Table
from rich.text import Text

__all__ = [
    "Renderer",
    "register_renderer",
    "renderer_for",
    "render_view",
    "render_generic",
    "render_contraband",
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


def _discover_renderers() -> None:
    """Import every ``freetrader.cli.render_<game>`` module once; each registers its renderer."""
    global _discovered
    if _discovered:
        return
    _discovered = True
    import importlib
    import pkgutil

    from freetrader.core.registry import import_game_module

    pkg = importlib.import_module("freetrader.cli")
    for info in pkgutil.iter_modules(pkg.__path__):
        if info.name.startswith("render_"):  # render_<game package>: skipped if that game's data pack is broken
            import_game_module(f"freetrader.cli.{info.name}", info.name[len("render_"):].replace("_", "-"))


_discovered = False


def renderer_for(game_slug: str) -> Renderer:
    """The renderer registered for a slug (exact first, then its name), else the generic one."""
    _discover_renderers()
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


# -- contraband --------------------------------------------------------------------
def _article_info() -> dict[str, tuple[str, int, int]]:
    """Article id -> (name, duty, fine), from the game's components if they load."""
    try:
        from freetrader.games.contraband.components import COMPONENTS

        return {a.id: (a.name, a.duty, a.fine) for a in COMPONENTS.articles}
    except Exception:  # drawing must not depend on the game package's internals
        return {}


_ARTICLES: dict[str, tuple[str, int, int]] | None = None


def _article(aid: str) -> tuple[str, int, int] | None:
    global _ARTICLES
    if _ARTICLES is None:
        _ARTICLES = _article_info()
    return _ARTICLES.get(aid)


def _article_name(aid: str) -> str:
    info = _article(aid)
    return info[0] if info else aid.replace("-", " ").capitalize()


def _article_list(ids: Sequence[str], detail: bool = False) -> str:
    if not ids:
        return "nothing"
    parts = []
    for aid in sorted(set(ids), key=list(ids).index):
        n = list(ids).count(aid)
        text = _article_name(aid)
        if n > 1:
            text = f"{n} × {text}"
        info = _article(aid)
        if detail and info and (info[1] or info[2]):
            text += f" (duty ${info[1]}, fine ${info[2]})"
        parts.append(text)
    return ", ".join(parts)


def _money(x: Any) -> str:
    try:
        return f"${int(x):,}"
    except (TypeError, ValueError):
        return str(x)


def render_contraband(view: Mapping[str, Any], names: Sequence[str] | None = None) -> RenderableType:
    """The Contraband table: players and money, the officer, the declaration, the luggage."""
    try:
        return _contraband(view, names)
    except (KeyError, TypeError, ValueError, IndexError, AttributeError):
        # A view this renderer does not understand (an older or newer game version).
        return render_generic(view, names)


def _contraband(view: Mapping[str, Any], names: Sequence[str] | None) -> RenderableType:
    seats = int(view["seats"])
    you = view.get("seat")
    officer = view.get("officer")
    luggage = view.get("luggage") or None
    holder = luggage["holder"] if luggage else None
    declarer = view.get("declarer")
    to_act = view.get("to_act")
    cash = view["cash"]
    retired = view.get("retired") or [False] * seats
    tally = view.get("table") or {}
    owes: dict[int, list[str]] = {}
    for loan in view.get("loans") or []:
        owes.setdefault(loan["borrower"], []).append(f"{_money(loan['amount'])} to {loan['lender']}")

    players = Table(title=None, expand=False, show_edge=True, pad_edge=False)
    players.add_column("seat", justify="right")
    players.add_column("player")
    players.add_column("cash", justify="right")
    players.add_column("role")
    players.add_column("loans")
    players.add_column("decl/caught/clear", justify="center")
    for p in range(seats):
        roles = []
        if p == officer:
            roles.append("[bold magenta]Customs Officer[/]")
        if p == holder:
            roles.append("[cyan]holds luggage[/]")
        elif p == declarer and declarer is not None and declarer >= 0:
            roles.append("[cyan]declarer[/]")
        if retired[p]:
            roles.append("[dim]retired[/]")
        name = names[p] if names is not None and p < len(names) else ""
        if p == you:
            name = f"[bold green]{escape(name + ' (you)' if name else 'you')}[/]"
        else:
            name = escape(name)
        stats = "/".join(str(tally.get(k, [0] * seats)[p]) for k in ("declared", "caught", "cleared"))
        style = "dim" if retired[p] else ("bold" if p == you else "")
        marker = "[bold yellow]▶[/] " if p == to_act else ""
        players.add_row(
            f"{marker}{p}", name, _money(cash[p]), ", ".join(roles), escape("; ".join(owes.get(p, []))) or "-", stats,
            style=style,
        )

    lines: list[RenderableType] = [players]
    discard = view.get("discard") or {}
    revealed = discard.get("revealed") or []
    info = (
        f"Round {view.get('round')} · reshuffles {view.get('reshuffles')} · declarations {view.get('declarations')} · "
        f"pack {view.get('pack')} cards · discards {discard.get('face_down', 0)} face down"
    )
    if view.get("unused"):
        info += f" · {_money(view['unused'])} unused"
    lines.append(Text(info))
    if revealed:
        lines.append(Text(f"Impounded (seen by all): {_article_list(revealed)}", style="dim"))

    claim = view.get("claim") or {}
    if declarer is not None and declarer >= 0:
        if claim.get("diplomatic_bag"):
            what = "a Diplomatic Bag"
        else:
            what = _article_list(claim.get("articles") or [])
        lines.append(Text.from_markup(f"Declaration of seat {declarer}: [bold]{escape(what)}[/]"))
    if luggage:
        looked = "looked at" if luggage.get("examined") else "not looked at yet"
        lines.append(Text(f"Luggage: {luggage['cards']} cards face down with seat {holder} ({looked})"))
    mine = view.get("your_luggage")
    if mine is not None:
        lines.append(
            Text.from_markup(f"[bold black on yellow] Your luggage: {escape(_article_list(mine, detail=True))} [/]")
        )
    owed = view.get("owed") or []
    if owed:
        pays = "; ".join(f"seat {o['payer']} owes seat {o['payee']} {_money(o['amount'])}" for o in owed)
        lines.append(Text(f"Payments due: {pays}", style="red"))
    return Group(*lines)


register_renderer("contraband", render_contraband)


# -- the shared frame ---------------------------------------------------------------
def print_actions(console: Console, actions: Sequence[Any], who: str = "") -> None:
    if who:
        console.print(Text(who, style="bold"))
    for i, a in enumerate(actions, 1):
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
    """Draw ``state`` as ``seat`` sees it (``None``: a spectator), with its recent log and the legal actions."""
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
        print_actions(console, state.legal_actions())
