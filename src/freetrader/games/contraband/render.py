"""Contraband in the terminal: players and money, the Customs Officer, the declaration, the luggage."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rich.console import Group, RenderableType
from rich.markup import escape
from rich.table import Table
from rich.text import Text

from freetrader.cli.render import register_renderer, render_generic

from .components import COMPONENTS

__all__ = ["render_contraband"]


def _article_info() -> dict[str, tuple[str, int, int]]:
    """Article id -> (name, duty, fine), from the game's components."""
    return {a.id: (a.name, a.duty, a.fine) for a in COMPONENTS.articles}


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
