"""``freetrader tournament``: a round-robin of bots over seat permutations, with openskill ratings."""

from __future__ import annotations

import argparse
import os
import sys
import time
from typing import Any

from .commands import register_command


def _configure(sp: argparse.ArgumentParser) -> None:
    from .app import game_arg

    game_arg(sp)
    sp.add_argument("--bots", required=True, help="bot specs separated by commas, e.g. random,heuristic,ismcts:ms=50")
    sp.add_argument("-n", type=int, default=60, help="number of games (default 60; a multiple of the lineups is fairest)")
    sp.add_argument("--seats", help="seats per game: how many, or one spec per seat (its length counts; the bots "
                                    "come from --bots) (default: the game's minimum, at least two)")
    sp.add_argument("--seed", type=int, default=0, help="run seed; game i uses derive_seed(seed, i) (default 0)")
    sp.add_argument("--workers", type=int, help="processes (default: the number of CPUs)")
    sp.add_argument("--backend", choices=("local", "ray"), default="local")
    sp.add_argument("--address", help="Ray cluster address for --backend ray")
    sp.add_argument("--out", metavar="FILE", help="also write every game as JSON Lines (for 'freetrader report'); an existing file is resumed")
    sp.add_argument("--option", "-o", action="append", metavar="KEY=VALUE", help="a game option (repeatable)")
    sp.add_argument("--no-progress", action="store_true", help="no progress bar")
    sp.add_argument("--json", action="store_true", help="print the ratings and head-to-head table as JSON")


def _run(args: argparse.Namespace, console: Any) -> int:
    from rich.console import Console
    from rich.markup import escape
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
    from rich.table import Table
    from rich.text import Text

    import freetrader
    from freetrader.bots import parse_seats
    from freetrader.sim import check_run, lock_out, result_line, resume
    from freetrader.sim.tournament import Ratings, run_tournament, tournament_tasks

    from .app import CliError, _options, _print_json, seat_count

    g = freetrader.game(args.game)
    bots = parse_seats(args.bots)
    seats = seat_count(args.seats) if args.seats else max(2, g.spec.min_seats)
    if args.n < 1:
        raise CliError(f"-n must be >= 1, got {args.n}")
    workers = args.workers if args.workers is not None else (os.cpu_count() or 1)
    options = _options(g, args.option)
    table, _ = tournament_tasks(g.spec.slug, bots, seats, args.n, args.seed, options)
    ratings = Ratings(bots)
    done = 0
    out = None
    if args.out:
        resolved = check_run(g.spec.slug, list(table[0]), options)
        out = lock_out(args.out)  # held from before the resume read until the run ends: one writer at a time
        try:
            for saved in resume(args.out, g.spec.slug, lambda i: table[i % len(table)], args.seed, resolved, args.n):
                ratings.add(saved)
        except BaseException:
            out.close()
            raise
        done = ratings.played
        if done:
            print(f"Resuming {args.out}: {done} of {args.n} games already there", file=sys.stderr, flush=True)
    err = Console(stderr=True)
    progress = Progress(TextColumn("[bold]tournament"), BarColumn(), MofNCompleteColumn(), TextColumn("ETA"),
                        TimeRemainingColumn(), console=err, disable=args.no_progress or not err.is_terminal)
    started = time.perf_counter()
    interrupted = False
    try:
        with progress:
            task = progress.add_task("games", total=args.n, completed=done)
            for result in run_tournament(g.spec.slug, bots, seats, args.n, args.seed, options,
                                         backend=args.backend, workers=workers, address=args.address, start=done):
                ratings.add(result)
                if out is not None:
                    out.write(result_line(result) + "\n")
                    out.flush()
                progress.advance(task)
    except KeyboardInterrupt:
        interrupted = True
    finally:
        if out is not None:
            out.close()
    rows = ratings.table()
    played = ratings.played
    if args.json:
        import dataclasses

        pairs = {b: {c: dict(zip(("higher", "games", "low", "high"), ratings.head_to_head(b, c), strict=True))
                     for c in bots if c != b} for b in bots}
        _print_json({"game": g.spec.slug, "data": g.data_hash, "games": played, "seats": seats,
                     "lineups": len(table), "complete": not interrupted,
                     "ratings": [dataclasses.asdict(r) for r in rows], "head_to_head": pairs})
        return 130 if interrupted else 0
    t = Table(title=f"{g.spec.slug}: {args.n if not interrupted else 'part of'} games, {seats} seats, "
                    f"{len(table)} lineups", title_justify="left")
    for col in ("bot", "rating (mu)", "95% interval", "sigma", "games", "win share", "95% CI"):
        t.add_column(col, justify="left" if col == "bot" else "right")
    for r in rows:
        t.add_row(escape(r.bot), f"{r.mu:.2f}", f"{r.low:.2f}–{r.high:.2f}", f"{r.sigma:.2f}", str(r.games),
                  f"{r.win_rate:.1%}", f"{r.win_low:.1%}–{r.win_high:.1%}")
    console.print(t)
    h = Table(title="Head to head: how often the row bot finished with a higher score than the column bot "
                    "(ties count half), 95% Wilson interval", title_justify="left")
    h.add_column("bot")
    for b in bots:
        h.add_column(escape(b), justify="right")
    for b in bots:
        cells = []
        for c in bots:
            k, n, lo, hi = ratings.head_to_head(b, c)
            cells.append("–" if b == c or not n else f"{k:g}/{n} ({lo:.0%}–{hi:.0%})")
        h.add_row(escape(b), *cells)
    console.print(h)
    console.print(Text("Ratings: openskill Plackett-Luce, updated in game order; interval mu ± 1.96 sigma. "
                       f"Fair win share per seat: {1 / seats:.1%}.", style="dim"))
    resumed = f" (and {done} resumed from {args.out})" if done else ""
    console.print(Text(f"Played {played - done} games in {time.perf_counter() - started:.1f} s{resumed}"))
    if interrupted:
        where = f"; run the same command to resume {args.out}" if args.out else ""
        print(f"freetrader: tournament interrupted; the ratings above cover the games played{where}", file=sys.stderr)
        return 130
    return 0


register_command("tournament", "round-robin of bots over seat permutations, with openskill ratings", _configure, _run)
