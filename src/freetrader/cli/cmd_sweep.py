"""``freetrader sweep GAME --vary NAME=V1,V2,...``: one simulate run per value, on the same seeds, and its curves."""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import re
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

from .app import CliError, game_arg, interrupt_on_signals, interrupted_code
from .commands import register_command

# one simulate child per data point: the game's data is read once per process
_CHILD = "import sys; from freetrader.cli import main; sys.exit(main(sys.argv[1:]))"


def _configure(sp: argparse.ArgumentParser) -> None:
    game_arg(sp)
    sp.add_argument("--vary", required=True, metavar="NAME=V1,V2,...",
                    help="a game option ('rules GAME' lists them), e.g. turn_limit=10,20,40, or a data value "
                         "FILE.TABLE.KEY of the game's data files, e.g. tracks.gold_wheel.size=6,8,10")
    sp.add_argument("-n", type=int, default=200, help="games per value (default 200)")
    sp.add_argument("--seats", required=True, help="one bot spec per seat, e.g. heuristic,heuristic:noise=0.1")
    sp.add_argument("--seed", type=int, default=0, help="run seed: game i of every value uses derive_seed(seed, i)")
    sp.add_argument("--out", required=True, metavar="DIR",
                    help="folder for each value's results (points/*.jsonl, resumed if there), index.html, the "
                         "plots, one CSV per table and tables.json")
    sp.add_argument("--workers", type=int, help="processes per value (default: the number of CPUs)")
    sp.add_argument("--rotate", action="store_true", help="as simulate: every bot in every seat on every deal")
    sp.add_argument("--random-first", action="store_true", help="as simulate: a seeded random first player")
    sp.add_argument("--max-actions", type=int, metavar="N", help="as simulate: the action bound (default 100000)")
    sp.add_argument("--option", "-o", action="append", metavar="KEY=VALUE", help="a fixed game option (repeatable)")
    sp.add_argument("--no-html", action="store_true", help="print the table only; write no page, plots, CSV or JSON")
    sp.add_argument("--json", action="store_true", help="print the tables as JSON instead of the terminal table")


def _file_name(name: str, text: str) -> str:
    return re.sub(r"[^A-Za-z0-9_.=-]+", "_", f"{name}={text}") + ".jsonl"


def _simulate_argv(args: argparse.Namespace, options: list[str], out: Path) -> list[str]:
    argv = ["simulate", args.game, "-n", str(args.n), "--seats", args.seats, "--seed", str(args.seed),
            "--out", str(out), "--json", "--no-progress"]
    for opt in options:
        argv += ["--option", opt]
    if args.workers is not None:
        argv += ["--workers", str(args.workers)]
    if args.max_actions is not None:
        argv += ["--max-actions", str(args.max_actions)]
    argv += ["--rotate"] * args.rotate + ["--random-first"] * args.random_first
    return argv


def _in_process(argv: list[str]) -> int:
    from .app import main

    with contextlib.redirect_stdout(io.StringIO()):  # the point's JSON summary: the sweep reads the file
        return main(argv)


def _child(argv: list[str], pack: Path, label: str) -> int:
    proc = subprocess.Popen([sys.executable, "-c", _CHILD, *argv, "--data", str(pack)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    try:
        _, err = proc.communicate()
    except KeyboardInterrupt:
        proc.send_signal(signal.SIGINT)  # it stops as at Ctrl-C, its file resumable
        proc.communicate()
        raise
    if proc.returncode:
        last = [line for line in err.splitlines() if line.strip()]
        raise CliError(f"the run at {label} failed: {last[-1] if last else f'exit {proc.returncode}'}")
    return 0


def _run(args: argparse.Namespace, console: Any) -> int:
    from rich.markup import escape
    from rich.table import Table
    from rich.text import Text

    import freetrader
    from freetrader.bots import parse_seats
    from freetrader.sim import check_run
    from freetrader.sim.analysis import load_results
    from freetrader.sim.sweep import Point, parse_vary, sweep_tables, terminal_rows, write_pack, write_sweep

    g = freetrader.game(args.game)
    vary = parse_vary(g, args.vary)
    fixed = list(args.option or [])
    if any(o.partition("=")[0].strip() == vary.name for o in fixed):
        raise CliError(f"--option {vary.name}=... and --vary {vary.name} disagree: the sweep sets {vary.name}")
    if args.n < 1:
        raise CliError(f"-n must be >= 1, got {args.n}")
    specs = parse_seats(args.seats)
    from .app import _options

    base = _options(g, fixed)
    for value in vary.values if vary.kind == "option" else vary.values[:1]:
        check_run(g.spec.slug, specs, {**base, vary.name: value} if vary.kind == "option" else base)
    folder = Path(args.out)
    points_dir = folder / "points"
    points_dir.mkdir(parents=True, exist_ok=True)
    points: list[Point] = []
    with interrupt_on_signals() as stopped_by:
        for i, (text, value) in enumerate(zip(vary.texts, vary.values, strict=True)):
            out = points_dir / _file_name(vary.name, text)
            print(f"sweep {vary.name}={text} ({i + 1} of {len(vary.texts)}): {args.n} games into {out}",
                  file=sys.stderr, flush=True)
            try:
                if vary.kind == "option":
                    code = _in_process(_simulate_argv(args, [*fixed, f"{vary.name}={text}"], out))
                else:
                    code = _child(_simulate_argv(args, fixed, out), write_pack(g, vary, i, folder / "packs"),
                                  f"{vary.name}={text}")
            except KeyboardInterrupt:
                code = interrupted_code(stopped_by)
            if code:
                if code >= 128:
                    print(f"freetrader: sweep interrupted at {vary.name}={text}; run the same command to resume "
                          f"{folder}", file=sys.stderr)
                return code
            # a data point's games were played from the pack this sweep wrote: read as figures, not replayed
            points.append(Point(text, value, load_results(out, check_pack=vary.kind != "data")))
    meta = {"game": g.spec.slug, "vary": vary.name, "kind": vary.kind, "values": list(vary.texts),
            "seats": specs, "games per value": args.n, "seed": args.seed, "options": base,
            "rotate": args.rotate, "random first": args.random_first}
    if args.json:
        from .app import json_safe

        tables = sweep_tables(g, vary, points)
        print(json.dumps(json_safe({"meta": meta, "tables": {t.name: t.as_json() for t in tables}}), indent=2,
                         allow_nan=False))
    else:
        console.print(Text(f"{g.spec.title}: {vary.name} over {', '.join(vary.texts)}; {args.n} games each on the "
                           f"same seeds; bots {', '.join(specs)}", style="bold"), soft_wrap=True)
        header, rows = terminal_rows(sweep_tables(g, vary, points)[0])
        table = Table(title="Each value on the same seeds; lengths are medians (all figures: index.html, CSV, JSON)",
                      title_justify="left")
        for i, h in enumerate(header):
            table.add_column(h, justify="left" if i in (0, 3) else "right", overflow="fold")
        for row in rows:
            table.add_row(*[escape(x) for x in row])
        console.print(table)
    if not args.no_html:
        page = write_sweep(g, vary, points, folder, meta)
        if not args.json:
            console.print(Text(f"Wrote {page}, its plots, one CSV per table and tables.json"), soft_wrap=True)
    return 0


register_command("sweep", "vary one option or data value over the same seeds: win rates, end triggers and "
                 "length per value (table, HTML with PNG plots, CSV, JSON)", _configure, _run)
