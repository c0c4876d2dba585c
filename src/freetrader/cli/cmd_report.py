"""``freetrader report games.jsonl``: the balance report as tables here, and as HTML with PNG plots, CSV and JSON."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from .commands import register_command


def _configure(sp: argparse.ArgumentParser) -> None:
    from freetrader.sim.analysis import MIN_GAMES

    sp.add_argument("file", help="results of 'freetrader simulate --out' or 'freetrader tournament --out'")
    sp.add_argument("--out", metavar="DIR",
                    help="folder for index.html, the plots, one CSV per table and tables.json "
                         "(default: FILE's name + '-report')")
    sp.add_argument("--min-games", type=int, default=MIN_GAMES, metavar="N",
                    help="leave out components seen fewer than N times, or missing from fewer than N "
                         "(default %(default)s; rarer ones are too rare to pass the family-wise test anyway)")
    sp.add_argument("--no-html", action="store_true", help="print the tables only; write no files")
    sp.add_argument("--json", action="store_true", help="print the analysis as JSON (no tables; HTML as usual)")


def print_tables(console: Any, tables: list[Any]) -> None:
    """Each table as a rich table (every row; the plots show both ends of a ranking)."""
    from rich.markup import escape
    from rich.table import Table
    from rich.text import Text

    for t in tables:
        rt = Table(title=t.title, title_justify="left", caption=t.note or None, caption_justify="left")
        cells = t.formatted()
        for i, h in enumerate(t.columns):
            # the label column is never cut: a truncated component name is no finding
            widest = max([len(r[i]) for r in cells] + [len(h)]) if i == 0 else None
            rt.add_column(h, justify="left" if t.kinds[i] == "text" else "right", overflow="fold",
                          min_width=min(widest, 40) if widest else None)
        for row in cells:
            rt.add_row(*[escape(c) for c in row])
        if not t.rows:
            console.print(Text(f"{t.title}: none"))
        else:
            console.print(rt)


def _run(args: argparse.Namespace, console: Any) -> int:
    from rich.text import Text

    from freetrader.core import BadOption
    from freetrader.sim.analysis import analyze, load_results, require_analysis_extra, summary_line

    if args.min_games < 1:
        raise BadOption(f"--min-games must be >= 1, got {args.min_games}")
    require_analysis_extra("report", plots=not args.no_html)
    from freetrader.sim.report import write_report

    a = analyze(load_results(args.file), args.min_games)
    if args.json:
        import json

        out: dict[str, Any] = {"game": a.game, "seats": a.seats, "games": a.games, "deals": a.deals,
                               "summary": summary_line(a), "notes": list(a.notes), "warnings": list(a.warnings),
                               "tables": {t.name: t.as_json() for t in a.table_list()}}
        if not args.no_html:
            folder = Path(args.out) if args.out else Path(args.file).with_name(Path(args.file).stem + "-report")
            out["html"] = str(write_report(a, folder, source=str(args.file)))
        print(json.dumps(out, indent=2, default=str))
        return 0
    console.print(Text(summary_line(a), style="bold"))
    for note in a.notes:
        console.print(Text(note, style="dim"))
    for w in a.warnings:
        console.print(Text(f"warning: {w}", style="yellow"))
    print_tables(console, a.table_list())
    if not args.no_html:
        folder = Path(args.out) if args.out else Path(args.file).with_name(Path(args.file).stem + "-report")
        page = write_report(a, folder, source=str(args.file))
        console.print(Text(f"Wrote {page}, its plots, one CSV per table and tables.json"), soft_wrap=True)
    return 0


register_command("report", "balance report of a results file: tables here, HTML with PNG plots, CSV and JSON",
                 _configure, _run)
