"""Write the generated pages of the documentation site (run by ``./dev docs`` before ``mkdocs build``).

- ``docs/reference/commands.md``: every command and flag, from the argument parser itself;
- ``docs/games/<game>.md``: a page per game for players: summary, seats, options, the components
  (how many entries of each file are printed, public or designed), the design notes and the rules as coded.

Generated files are not committed (``.gitignore``); everything else under ``docs/`` is written by hand.
"""

from __future__ import annotations

import argparse
import sys
import tomllib
from collections import Counter
from importlib import resources
from pathlib import Path
from typing import Any

import freetrader
from freetrader.cli import build_parser

DOCS = Path(__file__).resolve().parents[1] / "docs"


def _flags(action: argparse.Action) -> str:
    if not action.option_strings:
        return f"`{action.metavar or action.dest}`"
    names = ", ".join(f"`{s}`" for s in action.option_strings)
    if action.nargs == 0:
        return names
    meta = action.metavar or action.dest.upper()
    return f"{names} `{meta}`"


def _cell(text: str | None) -> str:
    return " ".join((text or "").replace("|", "\\|").split())


def commands_page() -> str:
    parser = build_parser()
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    out = ["# Command reference", "",
           "Generated from `freetrader`'s argument parser (`scripts/gen_docs.py`): it is what `--help` says.",
           "Every command takes `--data DIR` (a [data pack](../tutorials/data-pack.md)).", ""]
    helps = {a.dest: a.help for a in sub._choices_actions}
    for name, sp in sub.choices.items():
        out += [f"## {name}", "", _cell(helps.get(name)), "", "```text", sp.format_usage().strip(), "```", "",
                "| argument | meaning | default |", "|---|---|---|"]
        for action in sp._actions:
            if isinstance(action, argparse._HelpAction):
                continue
            default = action.default
            shown = "" if default in (None, False, argparse.SUPPRESS) or action.nargs == 0 else f"`{default}`"
            if action.choices and not isinstance(action, argparse._SubParsersAction):
                extra = " (one of: " + ", ".join(f"`{c}`" for c in action.choices) + ")"
            else:
                extra = ""
            out.append(f"| {_cell(_flags(action))} | {_cell(action.help)}{extra} | {shown} |")
        out.append("")
    return "\n".join(out) + "\n"


def _provenance_counts(raw: Any) -> Counter[str]:
    """How many entries of a TOML document carry each provenance (tables and arrays of tables, any depth)."""
    counts: Counter[str] = Counter()
    if isinstance(raw, dict):
        if isinstance(raw.get("provenance"), str):
            counts[raw["provenance"]] += 1
        for value in raw.values():
            counts += _provenance_counts(value)
    elif isinstance(raw, list):
        for value in raw:
            counts += _provenance_counts(value)
    return counts


def _demote(markdown: str) -> str:
    """A file's headings one level down (the page has its own title), outside code blocks."""
    out, fenced = [], False
    for line in markdown.splitlines():
        if line.startswith("```"):
            fenced = not fenced
        out.append("#" + line if line.startswith("#") and not fenced else line)
    return "\n".join(out)


def game_page(name: str) -> str:
    game = freetrader.game(name)
    spec = game.spec
    package = "freetrader.games." + spec.name.replace("-", "_")
    seats = f"{spec.min_seats} to {spec.max_seats}" if spec.min_seats != spec.max_seats else str(spec.min_seats)
    out = [f"# {spec.title}", "", spec.summary, "",
           f"- **Slug**: `{spec.slug}` · **seats**: {seats} · "
           f"{'hidden information' if spec.hidden_information else 'perfect information'} · "
           f"{'chance' if spec.chance else 'no chance'}",
           f"- **Play it**: `freetrader play {spec.name} --seats human,{','.join(['heuristic'] * (max(2, spec.min_seats) - 1))}`"
           f" or in the browser with `freetrader serve`",
           f"- **Data hash** of the shipped components: `{game.data_hash}` (records carry it)", ""]
    if spec.options:
        out += ["## Options", "", "Set with `--option name=value` (or in the lobby).", "",
                "| option | default | allowed | meaning |", "|---|---|---|---|"]
        for o in spec.options:
            if o.choices:
                allowed = ", ".join(f"`{c}`" for c in o.choices)
            elif isinstance(o.default, bool):
                allowed = "`true`, `false`"
            elif isinstance(o.default, int):
                allowed = f"{'' if o.minimum is None else o.minimum}..{'' if o.maximum is None else o.maximum}"
            else:
                allowed = "text"
            out.append(f"| `{o.name}` | `{o.default}` | {allowed} | {_cell(o.help)} |")
        out.append("")
    data = resources.files(package) / "data"
    out += ["## Components", "",
            "Each entry of the data says where it comes from: `rulebook` (printed in the rulebook), `public` "
            "(a cited public source) or `designed` (a stand-in that fits the rules; an owner of the game can "
            "replace it with a [data pack](../tutorials/data-pack.md)).", "",
            "| file | rulebook | public | designed |", "|---|---:|---:|---:|"]
    for f in sorted(data.iterdir(), key=lambda p: p.name):
        if f.name.endswith(".toml"):
            c = _provenance_counts(tomllib.loads(f.read_text(encoding="utf-8")))
            out.append(f"| `{f.name}` | {c['rulebook']} | {c['public']} | {c['designed']} |")
    out.append("")
    designed = data / "DESIGNED.md"
    if designed.is_file():
        out += ["## Design notes", "", _demote(designed.read_text(encoding="utf-8")), ""]
    rules = resources.files(package) / "RULES.md"
    if rules.is_file():
        out += ["## Rules as coded", "", "Every rulebook rule, where it is coded and which test shows it "
                "(the same text as `freetrader rules " + spec.name + " --full`).", "",
                _demote(_demote(rules.read_text(encoding="utf-8"))), ""]
    return "\n".join(out) + "\n"


def main() -> int:
    (DOCS / "reference").mkdir(exist_ok=True)
    (DOCS / "reference" / "commands.md").write_text(commands_page(), encoding="utf-8")
    (DOCS / "games").mkdir(exist_ok=True)
    for name in freetrader.games():
        (DOCS / "games" / f"{name}.md").write_text(game_page(name), encoding="utf-8")
    print(f"wrote docs/reference/commands.md and {len(freetrader.games())} game pages", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
