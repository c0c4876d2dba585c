"""``freetrader report games.jsonl``: the balance report as tables here and as HTML with PNG plots."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from .commands import register_command


def _configure(sp: argparse.ArgumentParser) -> None:
    sp.add_argument("file", help="results of 'freetrader simulate --out' or 'freetrader tournament --out'")
    sp.add_argument("--out", metavar="DIR", help="folder for index.html and the plots (default: FILE's name + '-report')")
    sp.add_argument("--min-games", type=int, default=5, metavar="N",
                    help="leave out components seen fewer than N times (default 5)")
    sp.add_argument("--no-html", action="store_true", help="print the tables only")
    sp.add_argument("--json", action="store_true", help="print the analysis as JSON (no tables; HTML as usual)")


def _run(args: argparse.Namespace, console: Any) -> int:
    from rich.markup import escape
    from rich.table import Table
    from rich.text import Text

    from freetrader.sim.analysis import analyze, load_results
    from freetrader.sim.report import LIFT_HEAD, SEAT_HEAD, lift_cells, seat_cells, write_report

    a = analyze(load_results(args.file), max(1, args.min_games))
    if args.json:
        import dataclasses
        import json

        out = dataclasses.asdict(a)
        if not args.no_html:
            folder = Path(args.out) if args.out else Path(args.file).with_name(Path(args.file).stem + "-report")
            out["html"] = str(write_report(a, folder, source=str(args.file)))
        print(json.dumps(out, indent=2, default=str))
        return 0

    def table(title: str, head: list[str], rows: list[list[str]]) -> None:
        t = Table(title=title, title_justify="left")
        for i, h in enumerate(head):
            t.add_column(h, justify="left" if i == 0 else "right")
        for row in rows:
            t.add_row(*[escape(c) for c in row])
        console.print(t)

    console.print(Text(f"{a.game}: {a.games} games, {a.seats} seats", style="bold"))
    for note in a.notes:
        console.print(Text(note, style="dim"))
    table("Seats (95% Wilson intervals; p against the fair share)", SEAT_HEAD, [seat_cells(r) for r in a.seat_rows])
    table("First-player advantage", SEAT_HEAD, [seat_cells(a.first_player)])
    lengths = sorted(a.lengths)
    console.print(Text(f"Game length: mean {sum(lengths) / len(lengths):.1f} actions, "
                       f"median {lengths[len(lengths) // 2]}, range {lengths[0]}–{lengths[-1]}"))
    if a.lift:
        table(f"Component lift ({a.components_source}; significant = Bonferroni at 5%)", LIFT_HEAD,
              [lift_cells(r) for r in a.lift])
    else:
        console.print(Text(f"Component lift: none ({a.components_source})"))
    if not args.no_html:
        folder = Path(args.out) if args.out else Path(args.file).with_name(Path(args.file).stem + "-report")
        page = write_report(a, folder, source=str(args.file))
        console.print(Text(f"Wrote {page} and its plots"), soft_wrap=True)
    return 0


register_command("report", "balance report of a results file: tables here, HTML with PNG plots", _configure, _run)
