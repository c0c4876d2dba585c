"""``freetrader review RECORD``: every decision of a finished game judged from its player's information then."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from .app import interrupt_on_signals, interrupted_code
from .commands import register_command


def _configure(sp: argparse.ArgumentParser) -> None:
    sp.add_argument("record", metavar="RECORD", help="a finished game's record (JSON, as 'play --save' or the table "
                                                     "server writes it; or one line of 'simulate --out')")
    sp.add_argument("--seat", type=int, action="append", metavar="N",
                    help="review only this seat's decisions (repeat for several; default every seat)")
    budget = sp.add_mutually_exclusive_group()
    budget.add_argument("--iters", type=int, metavar="K",
                        help="worlds per decision, each candidate move played in every one: the same review every "
                             "run (default 16, the server's)")
    budget.add_argument("--ms", type=float, metavar="M", help="an IS-MCTS search of M milliseconds per decision "
                                                              "instead (not reproducible: the machine's speed "
                                                              "decides)")
    sp.add_argument("--threshold", type=float, default=None, metavar="W",
                    help="flag moves whose win chance is more than W below the best move's (default 0.10)")
    sp.add_argument("--seed", type=int, default=0, help="the review's seed (default 0)")
    sp.add_argument("--workers", type=int, help="processes (default: the number of CPUs)")
    sp.add_argument("--out", metavar="FILE", help="write the review as JSON here (default: RECORD's name + "
                                                  "'.review.json'; '-' for none)")
    sp.add_argument("--all", action="store_true", help="list every decision, not only the flagged ones")
    sp.add_argument("--json", action="store_true", help="print the review as JSON (what --out writes) instead of "
                                                         "the tables")
    sp.add_argument("--no-progress", action="store_true", help="no progress bar")


def _load(path: str) -> Any:
    from .app import CliError

    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as exc:
        raise CliError(f"cannot read {path}: {exc.strerror or exc}") from None
    try:
        item = json.loads(text)
    except json.JSONDecodeError as exc:
        raise CliError(f"{path} is not a JSON record ({exc}); give one game's record") from None
    if isinstance(item, dict) and isinstance(item.get("record"), dict):
        item = item["record"]  # one line of 'simulate --out'
    if not isinstance(item, dict):
        raise CliError(f"{path} holds a JSON {type(item).__name__}, not one game's record (an object)")
    return item


def _pct(x: float) -> str:
    return f"{x:.0%}"


def _print_tables(console: Any, review: Any, every: bool, threshold: float) -> None:
    from rich.table import Table

    rows = review.decisions if every else review.flagged()
    table = Table(title=f"{'Decisions' if every else 'Flagged moves'} ({review.budget} per decision; "
                        f"flagged: win chance more than {_pct(threshold)} below the best move's, beyond the noise)")
    for col in ("#", "seat", "played", "win before", "win after", "best", "win after best", "score lost"):
        table.add_column(col, justify="right" if col.startswith(("win", "score", "#")) else "left")
    for d in rows:
        table.add_row(str(d.index + 1), str(d.seat), d.played + (" ?" if d.flagged else ""), _pct(d.before.win),
                      _pct(d.after_played.win), d.best if d.best != d.played else "=", _pct(d.after_best.win),
                      f"{d.score_loss:.1f}")
    console.print(table)
    summary = Table(title="Per seat")
    for col in ("seat", "decisions", "flagged", "mean win chance lost", "result"):
        summary.add_column(col, justify="right" if col != "result" else "left")
    for seat in review.reviewed_seats:
        mine = [d for d in review.decisions if d.seat == seat]
        lost = sum(max(0.0, d.win_loss) for d in mine) / len(mine) if mine else 0.0
        result = ("won" if seat in review.winners else "lost") + f" ({review.scores[seat]:g})"
        summary.add_row(str(seat), str(len(mine)), str(sum(d.flagged for d in mine)), _pct(lost), result)
    console.print(summary)


def _run(args: argparse.Namespace, console: Any) -> int:
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
    from rich.text import Text

    from freetrader.bots.review import DEFAULT_THRESHOLD, DEFAULT_WORLDS, default_workers, review_record
    from freetrader.core import BadOption, BadRecord

    record = _load(args.record)
    iters = args.iters if args.iters is not None else (None if args.ms is not None else DEFAULT_WORLDS)
    threshold = DEFAULT_THRESHOLD if args.threshold is None else args.threshold
    workers = args.workers if args.workers is not None else default_workers()
    err = Console(stderr=True)
    progress = Progress(TextColumn("[bold]review"), BarColumn(), MofNCompleteColumn(), TextColumn("ETA"),
                        TimeRemainingColumn(), console=err, disable=args.no_progress)
    task = progress.add_task("decisions", total=None)

    def tick(done: int, total: int) -> None:
        progress.update(task, completed=done, total=total)

    # kill -INT and kill -TERM stop it as Ctrl-C does, also where a shell started it with SIGINT ignored
    with interrupt_on_signals() as stopped_by:
        try:
            with progress:
                review = review_record(record, seats=args.seat, iters=iters, ms=args.ms, threshold=threshold,
                                       seed=args.seed, workers=workers, progress=tick)
        except KeyboardInterrupt:
            print("freetrader: review interrupted; nothing was written", file=sys.stderr)
            return interrupted_code(stopped_by)
        except BadRecord as exc:
            raise BadOption(f"{args.record}: {exc}") from None

    if args.json:
        print(json.dumps(review.to_json(), indent=1))
    else:
        _print_tables(console, review, args.all, threshold)
    if args.out != "-":
        out = Path(args.out) if args.out else Path(args.record).with_suffix(".review.json")
        try:
            out.write_text(json.dumps(review.to_json(), indent=1) + "\n", encoding="utf-8")
        except OSError as exc:
            raise BadOption(f"cannot write {out}: {exc.strerror or exc}") from None
        (err if args.json else console).print(Text(f"Wrote {out}"), soft_wrap=True)  # stdout: JSON only
    return 0


register_command("review", "judge every decision of a finished game from its player's information then "
                           "(win chance before and after; flags the moves that lost the most)", _configure, _run)
