"""``freetrader tournament``: a round-robin of bots over seat permutations, with openskill ratings."""

from __future__ import annotations

import argparse
import os
import sys
import time
from typing import TYPE_CHECKING, Any

from .commands import register_command

if TYPE_CHECKING:
    from freetrader.sim.tournament import Ratings


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
    import freetrader
    from freetrader.bots import parse_seats
    from freetrader.sim.tournament import Ratings, tournament_tasks

    from .app import CliError, _options, seat_count

    g = freetrader.game(args.game)
    bots = parse_seats(args.bots)
    seats = seat_count(args.seats) if args.seats else max(2, g.spec.min_seats)
    if args.n < 1:
        raise CliError(f"-n must be >= 1, got {args.n}")
    options = _options(g, args.option)
    table, _ = tournament_tasks(g.spec.slug, bots, seats, args.n, args.seed, options)
    ratings = Ratings(bots)
    out = _resume(args, g.spec.slug, table, options, ratings)
    done = ratings.played
    started = time.perf_counter()
    interrupted = _play(args, g.spec.slug, bots, seats, options, ratings, out, done)
    if args.json:
        _print_result_json(g, bots, seats, len(table), ratings, interrupted)
        return 130 if interrupted else 0
    _print_tables(console, args, g.spec.slug, bots, seats, len(table), ratings, interrupted)
    from rich.text import Text

    resumed = f" (and {done} resumed from {args.out})" if done else ""
    console.print(Text(f"Played {ratings.played - done} games in {time.perf_counter() - started:.1f} s{resumed}"))
    if interrupted:
        where = f"; run the same command to resume {args.out}" if args.out else ""
        print(f"freetrader: tournament interrupted; the ratings above cover the games played{where}", file=sys.stderr)
        return 130
    return 0


def _resume(args: argparse.Namespace, slug: str, table: Any, options: dict[str, Any], ratings: Ratings) -> Any:
    """With ``--out``: the file, locked, its games already played added to ``ratings`` (else None)."""
    from freetrader.sim import check_run, lock_out, resume

    if not args.out:
        return None
    resolved = check_run(slug, list(table[0]), options)
    out = lock_out(args.out)  # held from before the resume read until the run ends: one writer at a time
    try:
        for saved in resume(args.out, slug, lambda i: table[i % len(table)], args.seed, resolved, args.n):
            ratings.add(saved)
    except BaseException:
        out.close()
        raise
    if ratings.played:
        print(f"Resuming {args.out}: {ratings.played} of {args.n} games already there", file=sys.stderr, flush=True)
    return out


def _play(args: argparse.Namespace, slug: str, bots: list[str], seats: int, options: dict[str, Any],
          ratings: Ratings, out: Any, done: int) -> bool:
    """Play the games not yet played, rating each (and writing it to ``out``); whether Ctrl-C stopped it."""
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

    from freetrader.sim import result_line
    from freetrader.sim.tournament import run_tournament

    workers = args.workers if args.workers is not None else (os.cpu_count() or 1)
    err = Console(stderr=True)
    progress = Progress(TextColumn("[bold]tournament"), BarColumn(), MofNCompleteColumn(), TextColumn("ETA"),
                        TimeRemainingColumn(), console=err, disable=args.no_progress or not err.is_terminal)
    try:
        with progress:
            task = progress.add_task("games", total=args.n, completed=done)
            for result in run_tournament(slug, bots, seats, args.n, args.seed, options,
                                         backend=args.backend, workers=workers, address=args.address, start=done):
                ratings.add(result)
                if out is not None:
                    out.write(result_line(result) + "\n")
                    out.flush()
                progress.advance(task)
    except KeyboardInterrupt:
        return True
    finally:
        if out is not None:
            out.close()
    return False


def _print_result_json(g: Any, bots: list[str], seats: int, lineups: int, ratings: Ratings, interrupted: bool) -> None:
    import dataclasses

    from .app import _print_json

    pairs = {b: {c: dict(zip(("higher", "games", "low", "high"), ratings.head_to_head(b, c), strict=True))
                 for c in bots if c != b} for b in bots}
    _print_json({"game": g.spec.slug, "data": g.data_hash, "games": ratings.played, "seats": seats,
                 "lineups": lineups, "complete": not interrupted,
                 "ratings": [dataclasses.asdict(r) for r in ratings.table()], "head_to_head": pairs})


def _print_tables(console: Any, args: argparse.Namespace, slug: str, bots: list[str], seats: int, lineups: int,
                  ratings: Ratings, interrupted: bool) -> None:
    """The ratings table, the head-to-head table and how to read them."""
    from rich.markup import escape
    from rich.table import Table
    from rich.text import Text

    t = Table(title=f"{slug}: {args.n if not interrupted else 'part of'} games, {seats} seats, "
                    f"{lineups} lineups", title_justify="left")
    for col in ("bot", "rating (mu)", "95% interval", "sigma", "games", "win share", "95% CI"):
        t.add_column(col, justify="left" if col == "bot" else "right")
    for r in ratings.table():
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


register_command("tournament", "round-robin of bots over seat permutations, with openskill ratings", _configure, _run)
