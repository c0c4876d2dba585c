"""``freetrader compare A.jsonl B.jsonl``: what changed between two runs, metric by metric (paired when the seeds match)."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from .commands import register_command


def _configure(sp: argparse.ArgumentParser) -> None:
    from freetrader.sim.analysis import MIN_GAMES

    sp.add_argument("a", metavar="A.jsonl", help="the first run (results of 'freetrader simulate --out')")
    sp.add_argument("b", metavar="B.jsonl", help="the second run, of the same game and seat count")
    sp.add_argument("--out", metavar="DIR",
                    help="folder for index.html (the difference table and both reports side by side), "
                         "compare.csv and tables.json (default: A's name + '-vs-' + B's name)")
    sp.add_argument("--min-games", type=int, default=MIN_GAMES, metavar="N",
                    help="leave out components seen fewer than N times in either run (default %(default)s)")
    sp.add_argument("--unpaired", action="store_true",
                    help="compare as independent samples even when the runs share their seeds (by default "
                         "runs made with the same --seed are paired game by game)")
    sp.add_argument("--no-html", action="store_true", help="print the table only; write no files")
    sp.add_argument("--json", action="store_true", help="print the comparison as JSON (no tables; HTML as usual)")


def _run(args: argparse.Namespace, console: Any) -> int:
    from rich.text import Text

    from freetrader.core import BadOption
    from freetrader.sim.analysis import load_results, require_analysis_extra, summary_line

    if args.min_games < 1:
        raise BadOption(f"--min-games must be >= 1, got {args.min_games}")
    require_analysis_extra("compare", plots=not args.no_html)
    from freetrader.sim.compare import compare, write_compare

    from .cmd_report import print_tables

    c = compare(load_results(args.a), load_results(args.b), args.min_games, paired=False if args.unpaired else None)
    page = None
    if not args.no_html:
        a, b = Path(args.a), Path(args.b)
        folder = Path(args.out) if args.out else a.with_name(f"{a.stem}-vs-{b.stem}")
        page = write_compare(c, folder, str(a), str(b))
    if args.json:
        import json

        out: dict[str, Any] = {"a": {**c.a.meta(), "source": str(args.a), "summary": summary_line(c.a)},
                               "b": {**c.b.meta(), "source": str(args.b), "summary": summary_line(c.b)},
                               "paired": c.paired, "pairing": c.pairing, "table": c.table.as_json()}
        if page is not None:
            out["html"] = str(page)
        print(json.dumps(out, indent=2, default=str))
        return 0
    console.print(Text(f"A: {args.a}: {summary_line(c.a)}"), soft_wrap=True)
    console.print(Text(f"B: {args.b}: {summary_line(c.b)}"), soft_wrap=True)
    console.print(Text(c.pairing[:1].upper() + c.pairing[1:], style="bold"), soft_wrap=True)
    print_tables(console, [c.table])
    if page is not None:
        console.print(Text(f"Wrote {page} (both runs side by side), compare.csv and tables.json"), soft_wrap=True)
    return 0


register_command("compare", "compare two results files: each metric's difference with its interval and p-value "
                            "(paired by seed when the runs share their seeds)", _configure, _run)
