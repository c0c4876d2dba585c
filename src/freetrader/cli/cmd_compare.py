"""``freetrader compare A.jsonl B.jsonl``: what changed between two runs, metric by metric."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from .commands import register_command


def _configure(sp: argparse.ArgumentParser) -> None:
    sp.add_argument("a", metavar="A.jsonl", help="the first run (results of 'freetrader simulate --out')")
    sp.add_argument("b", metavar="B.jsonl", help="the second run, of the same game and seat count")
    sp.add_argument("--out", metavar="DIR",
                    help="folder for index.html (the difference table and both reports side by side), "
                         "compare.csv and tables.json (default: A's name + '-vs-' + B's name)")
    sp.add_argument("--min-games", type=int, default=5, metavar="N",
                    help="leave out components seen fewer than N times in either run (default 5)")
    sp.add_argument("--no-html", action="store_true", help="print the table only; write no files")


def _run(args: argparse.Namespace, console: Any) -> int:
    from rich.text import Text

    from freetrader.core import BadOption
    from freetrader.sim.analysis import load_results, summary_line
    from freetrader.sim.compare import compare, write_compare

    from .cmd_report import print_tables

    if args.min_games < 1:
        raise BadOption(f"--min-games must be >= 1, got {args.min_games}")
    c = compare(load_results(args.a), load_results(args.b), args.min_games)
    console.print(Text(f"A: {args.a}: {summary_line(c.a)}"), soft_wrap=True)
    console.print(Text(f"B: {args.b}: {summary_line(c.b)}"), soft_wrap=True)
    print_tables(console, [c.table])
    if not args.no_html:
        a, b = Path(args.a), Path(args.b)
        folder = Path(args.out) if args.out else a.with_name(f"{a.stem}-vs-{b.stem}")
        page = write_compare(c, folder, str(a), str(b))
        console.print(Text(f"Wrote {page} (both runs side by side), compare.csv and tables.json"), soft_wrap=True)
    return 0


register_command("compare", "compare two results files: each metric's difference with its interval and p-value",
                 _configure, _run)
