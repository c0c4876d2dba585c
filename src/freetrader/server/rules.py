"""The players' rules page of a game (``/rules/{game}``): its text, then what of it is designed.

The text is the game's own ``rules.html`` (in its folder), written for players; each section that
governs a decision carries ``id="phase-<phase>"`` so the table links a prompt
to it. The designed components are listed from the game's own data files
(every entry with ``provenance = "designed"``), so the page cannot drift from
the data the rules engine reads.
"""

from __future__ import annotations

import functools
import html
import tomllib
from html.parser import HTMLParser
from importlib import resources
from pathlib import Path
from typing import Any

import freetrader
from freetrader.core.registry import game_package, part_file

__all__ = ["designed_components", "rules_page", "rules_file", "rule_sections", "governing_rule", "refusal"]


def rules_file(name: str) -> Path | None:
    """Game ``name``'s players' rules page: ``rules.html`` in the game's own folder, if it has one."""
    return part_file(name, "rules.html")


def designed_components(name: str) -> dict[str, list[str]]:
    """Per data file, the names (else ids) of the entries marked ``provenance = "designed"``."""
    out: dict[str, list[str]] = {}
    data = resources.files(game_package(freetrader.game(name))).joinpath("data")
    if not data.is_dir():
        return out
    for f in sorted(data.iterdir(), key=lambda p: p.name):
        if not f.name.endswith(".toml"):
            continue
        doc = tomllib.loads(f.read_text(encoding="utf-8"))
        found: list[str] = []
        _collect(doc, found, f.name[:-5])
        if found:
            out[f.name] = found
    return out


def _collect(node: Any, found: list[str], where: str) -> None:
    if isinstance(node, dict):
        if node.get("provenance") == "designed":
            found.append(str(node.get("name") or node.get("id") or where))
        for key, value in node.items():
            if isinstance(value, (dict, list)):
                _collect(value, found, key)
    elif isinstance(node, list):
        for item in node:
            _collect(item, found, where)


def rules_page(name: str) -> str | None:
    """The whole HTML page for game ``name``; ``None`` if it has no rules text."""
    path = rules_file(name)
    if path is None:
        return None
    spec = freetrader.game(name).spec
    designed = designed_components(name)
    items = "".join(
        f"<li><b>{html.escape(file)}</b>: {html.escape(', '.join(names[:40]))}"
        + (f" and {len(names) - 40} more" if len(names) > 40 else "") + "</li>"
        for file, names in designed.items())
    designed_html = (
        '<section id="designed"><h2>Designed components</h2><p>These components are not printed in any '
        "published source: they were <b>designed</b> for Freetrader so the game can be played, and are "
        "marked <code>provenance = \"designed\"</code> in the game's data files.</p>"
        f'<ul class="designed">{items}</ul></section>'
        if items else '<section id="designed"><h2>Designed components</h2><p>None: every component '
                      "follows the published rules.</p></section>")
    title = html.escape(spec.title)
    return (
        '<!doctype html><html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>{title}: rules · Freetrader</title>"
        '<link rel="icon" href="/static/favicon.svg" type="image/svg+xml">'
        '<link rel="stylesheet" href="/static/app.css"></head><body>'
        f'<header class="bar"><a href="/" class="brand">Freetrader</a><h1>{title}: the rules</h1></header>'
        f'<main class="rules-page">{path.read_text(encoding="utf-8")}{designed_html}</main></body></html>')


class _Sections(HTMLParser):
    """Collects, per ``<section>``, its heading's text and the ``phase-*`` anchors inside it."""

    def __init__(self) -> None:
        super().__init__()
        self.found: dict[str, tuple[str, str]] = {}  # phase -> (section id, heading)
        self._section: str | None = None
        self._phases: list[str] = []
        self._heading: list[str] | None = None
        self._title = ""

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        ids = dict(attrs).get("id") or ""
        if tag == "section":
            self._section, self._phases, self._title = ids, [], ""
        elif tag in ("h2", "h3") and self._section is not None and not self._title:
            self._heading = []
        if ids.startswith("phase-") and self._section is not None:
            self._phases.append(ids[len("phase-"):])

    def handle_data(self, data: str) -> None:
        if self._heading is not None:
            self._heading.append(data)

    def handle_endtag(self, tag: str) -> None:
        if tag in ("h2", "h3") and self._heading is not None:
            self._title = " ".join("".join(self._heading).split())
            self._heading = None
        elif tag == "section" and self._section is not None:
            for phase in self._phases:
                self.found.setdefault(phase, (self._section, self._title or self._section))
            self._section = None


@functools.cache
def rule_sections(name: str) -> dict[str, tuple[str, str]]:
    """Game ``name``'s decisions (phases) -> (section id, section heading) of its players' rules page."""
    path = rules_file(name)
    if path is None:
        return {}
    parser = _Sections()
    parser.feed(path.read_text(encoding="utf-8"))
    return dict(parser.found)


def governing_rule(name: str, phase: Any) -> str | None:
    """The heading of the rules section that governs decision ``phase`` of game ``name``, if the page has one."""
    if not isinstance(phase, str):
        return None
    found = rule_sections(name).get(phase)
    return found[1] if found else None


def refusal(name: str, phase: Any, message: str) -> str:
    """A refused move's one line, naming the rule that refused it: "Refused by 'Selling goods': ...".

    ``phase`` is the decision as the refused seat's own view shows it, so naming it tells that seat
    nothing it cannot see; the engine's message already names only that seat's own options.
    """
    rule = governing_rule(name, phase)
    return f"Refused by '{rule}': {message}" if rule else message
