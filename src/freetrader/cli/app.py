"""The ``freetrader`` command: argument parsing and one function per sub-command."""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import json
import math
import os
import signal
import sys
import threading
import time
import warnings
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn

from rich.console import Console
from rich.markup import escape
from rich.padding import Padding
from rich.progress import BarColumn, MofNCompleteColumn, Progress, ProgressColumn, Task, TextColumn, TimeRemainingColumn
from rich.table import Table
from rich.text import Text

import freetrader
from freetrader.core import BadOption, BadRecord, FreetraderError, Game, State
from freetrader.core.data import DataPackWarning, set_pack_root
from freetrader.core.record import pack_mismatch
from freetrader.core.registry import broken_games, part_file

from .commands import extra_commands
from .render import print_state

if TYPE_CHECKING:
    from freetrader.sim import EndTally, Tally

# The bots and the simulator are imported inside the commands, not here: importing them loads every
# game's components, and --data must choose the data pack first.

__all__ = ["main", "CliError", "interrupt_on_signals", "interrupted_code", "json_safe"]

PROG = "freetrader"


class CliError(Exception):
    """A user mistake the CLI itself detects; printed as one line, exit code 2."""


class _ArgumentParser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:  # one line, no usage block
        raise CliError(f"{message} (see '{self.prog} --help')")


def _one_line(text: str) -> str:
    return " ".join(str(text).split())


def _warning(message: str) -> None:
    print(f"{PROG}: warning: {_one_line(message)}", file=sys.stderr, flush=True)


def _show_warning(message: Warning | str, category: type[Warning], filename: str, lineno: int,
                  file: Any = None, line: str | None = None) -> None:
    if issubclass(category, DataPackWarning):
        _warning(str(message))
    else:
        _default_showwarning(message, category, filename, lineno, file, line)


_default_showwarning = warnings.showwarning


def _fail(message: str) -> int:
    print(f"{PROG}: error: {_one_line(message)}", file=sys.stderr, flush=True)
    return 2


def _os_message(exc: OSError) -> str:
    what = exc.strerror or str(exc)
    return f"{exc.filename}: {what}" if exc.filename else what


# -- shared helpers ------------------------------------------------------------------
def _options(game: Game, pairs: Sequence[str] | None) -> dict[str, Any]:
    """``--option key=value`` pairs, each converted and checked by the game's option."""
    out: dict[str, Any] = {}
    for pair in pairs or []:
        key, eq, value = pair.partition("=")
        if not eq or not key.strip():
            raise BadOption(f"--option needs key=value, got {pair!r}")
        out[key.strip()] = game.spec.option(key.strip()).parse_text(value.strip())
    return out


def game_arg(sp: argparse.ArgumentParser, required: bool = True) -> None:
    """``GAME`` as the first argument or as ``--game GAME``: the same in every command."""
    sp.add_argument("game", nargs="?", metavar="GAME", help="the game's name or slug (see 'games'); or --game")
    sp.add_argument("--game", dest="game_flag", metavar="GAME", help="the game, as a flag (same as the argument)")
    sp.set_defaults(game_required=required)


def resolve_game_arg(args: argparse.Namespace) -> None:
    """Merge ``GAME`` and ``--game`` into ``args.game``; one clear line if neither or two different ones."""
    flag = getattr(args, "game_flag", None)
    if flag is not None:
        if args.game is not None and args.game != flag:
            raise CliError(f"two games given ({args.game!r} and --game {flag!r}); give one")
        args.game = flag
    if args.game is None and getattr(args, "game_required", False):
        raise CliError(f"{args.command} needs a game: 'freetrader {args.command} GAME' or --game GAME "
                       "(see 'freetrader games')")


def seat_count(text: str | int) -> int:
    """``--seats`` where only the number matters: a count (``3``) or one spec per seat (``random,random,random``)."""
    if isinstance(text, int):
        return text
    t = str(text).strip()
    if t.lstrip("-").isdigit():
        return int(t)
    from freetrader.bots import parse_seats

    specs = parse_seats(t)
    if len(specs) < 2:
        raise CliError(f"--seats must be a number of seats (3) or one spec per seat (random,random,random), got {t!r}")
    return len(specs)


def _read_json_items(path: str) -> list[tuple[str, Any]]:
    """The JSON values of a file: one object, or JSON Lines; each with a label for messages."""
    with open(path, encoding="utf-8") as f:
        text = f.read()
    try:
        return [(path, json.loads(text))]
    except json.JSONDecodeError as whole_exc:
        lines = [(i, line) for i, line in enumerate(text.splitlines(), 1) if line.strip()]
        if len(lines) <= 1:
            raise CliError(f"{path} is not valid JSON ({whole_exc})") from None
        items = []
        for i, line in lines:
            try:
                items.append((f"{path} line {i}", json.loads(line)))
            except json.JSONDecodeError as exc:
                raise CliError(f"{path} line {i} is not valid JSON ({exc})") from None
        return items


def _record_of(item: Any) -> Any:
    """The record inside a simulate result line, or the item itself (a bare record)."""
    if isinstance(item, dict) and "record" in item:
        return item["record"]
    return item


def _print_state_or_json(console: Console, state: State, seat: int | None, as_json: bool) -> None:
    if seat is not None:
        try:
            state.view(seat)
        except FreetraderError as exc:
            raise CliError(f"--seat {seat}: {exc}") from None
    if as_json:
        # with --seat, only what that seat may see; without it, the whole state (for debugging)
        print(json.dumps(state.to_json() if seat is None else state.view(seat), indent=2))
    else:
        print_state(console, state, seat)


def json_safe(value: Any) -> Any:
    """``value`` with every non-finite float (an interval without statsmodels) as ``None``: JSON has no NaN."""
    if isinstance(value, float) and not math.isfinite(value):
        return None
    if isinstance(value, dict):
        return {k: json_safe(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [json_safe(v) for v in value]
    return value


def _print_json(value: Any) -> None:
    print(json.dumps(json_safe(value), indent=2, sort_keys=False, allow_nan=False))


@contextlib.contextmanager
def interrupt_on_signals() -> Iterator[list[int]]:
    """In this block SIGINT and SIGTERM raise ``KeyboardInterrupt``, as Ctrl-C does; the list gets the signal.

    Also where the shell started us with SIGINT ignored (a job started with ``&``), so that
    ``kill -INT`` and ``kill -TERM`` stop a run the way Ctrl-C does, leaving a file to resume.
    """
    got: list[int] = []
    if threading.current_thread() is not threading.main_thread():
        yield got
        return

    def stop(signum: int, frame: Any) -> None:
        got.append(signum)
        raise KeyboardInterrupt

    old = {sig: signal.signal(sig, stop) for sig in (signal.SIGINT, signal.SIGTERM)}
    try:
        yield got
    finally:
        for sig, handler in old.items():
            signal.signal(sig, handler)


def interrupted_code(got: list[int]) -> int:
    """The exit code of a run stopped by a signal: 128 + its number (130 for Ctrl-C, 143 for SIGTERM)."""
    return 128 + (got[-1] if got else signal.SIGINT)


def game_json(game: Game, chosen: dict[str, Any] | None = None) -> dict[str, Any]:
    """A game's spec as JSON: what ``games --json`` lists and ``rules --json`` prints."""
    from freetrader.bots import bot_names

    spec = game.spec
    out: dict[str, Any] = {
        "slug": spec.slug, "name": spec.name, "version": spec.version, "title": spec.title,
        "summary": spec.summary, "min_seats": spec.min_seats, "max_seats": spec.max_seats,
        "hidden_information": spec.hidden_information, "chance": spec.chance, "bots": bot_names(game),
        "options": [{"name": o.name, "default": o.default, "help": o.help,
                     "choices": list(o.choices) if o.choices else None, "minimum": o.minimum, "maximum": o.maximum}
                    for o in spec.options],
        # the components' content hash (a data pack's, with --data), as records carry it; None: no data files
        "data": game.data_hash,
    }
    if chosen is not None:
        out["chosen"] = chosen
    return out


# -- commands ----------------------------------------------------------------------
def cmd_games(args: argparse.Namespace, console: Console) -> int:
    from freetrader.bots import bot_names

    for reason in broken_games().values():  # the other games still work
        _warning(f"left out: {reason}")
    if args.json:
        _print_json([game_json(freetrader.game(slug)) for slug in freetrader.games(all_versions=True)])
        return 0
    table = Table(title="Registered games", title_justify="left")
    for col in ("slug", "title", "seats", "hidden info", "chance", "bots"):
        table.add_column(col)
    for slug in freetrader.games(all_versions=True):
        spec = freetrader.game(slug).spec
        seats = f"{spec.min_seats}-{spec.max_seats}" if spec.min_seats != spec.max_seats else str(spec.min_seats)
        table.add_row(
            spec.slug,
            escape(spec.title),
            seats,
            "yes" if spec.hidden_information else "no",
            "yes" if spec.chance else "no",
            ", ".join(bot_names(freetrader.game(slug))),
        )
    console.print(table)
    return 0


def _rules_file(game: Game) -> Any:
    """The game's ``RULES.md`` (its rule-to-code table), from its own folder wherever it was installed from."""
    try:
        return part_file(game, "RULES.md")
    except (ModuleNotFoundError, TypeError, OSError):
        return None


def _option_text(value: Any) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)


def cmd_rules(args: argparse.Namespace, console: Console) -> int:
    from freetrader.bots import bot_names

    g = freetrader.game(args.game)
    spec = g.spec
    chosen = _options(g, args.option)  # checked like play's: a bad option is one clear line
    rules = _rules_file(g)
    if args.json:
        out = game_json(g, chosen)
        out["rules"] = rules.read_text(encoding="utf-8") if args.full and rules is not None else None
        _print_json(out)
        return 0
    if args.full:
        if rules is None:
            raise CliError(f"{spec.title} has no RULES.md; 'freetrader rules {spec.name}' prints its summary")
        print(rules.read_text(encoding="utf-8"), end="")
        return 0
    console.rule(Text(f"{spec.title} ({spec.slug})"))
    console.print(Text(spec.summary or "(no summary)"))
    console.print()
    seats = f"{spec.min_seats} to {spec.max_seats}" if spec.min_seats != spec.max_seats else str(spec.min_seats)
    facts = [f"Seats: {seats}"]
    facts.append("hidden information" if spec.hidden_information else "perfect information")
    facts.append("chance" if spec.chance else "no chance")
    console.print(Text(" · ".join(facts)))
    console.print(Text(f"Bots: {', '.join(bot_names(g))}"))
    if spec.options:
        console.print()
        console.print(Text("Options (--option name=value):", style="bold"))
        for o in spec.options:
            if o.choices:
                allowed = " | ".join(str(c) for c in o.choices)
            elif isinstance(o.default, bool):
                allowed = "true | false"
            elif isinstance(o.default, int):
                allowed = f"whole number {'' if o.minimum is None else o.minimum}..{'' if o.maximum is None else o.maximum}"
            else:
                allowed = "text"
            default = _option_text(o.default)
            line = Text("  ")
            line.append(o.name, style="bold")
            if o.name in chosen:
                line.append(f"  = {_option_text(chosen[o.name])}", style="bold green")
                line.append(f"  (default {default}; {allowed})")
            else:
                line.append(f"  default {default}  ({allowed})")
            console.print(line)
            console.print(Padding(Text(o.help), (0, 0, 0, 6)))
    else:
        console.print(Text("No options."))
    if rules is not None:
        console.print(Text(f"Full rules: freetrader rules {spec.name} --full"))
    return 0


def cmd_state(args: argparse.Namespace, console: Console) -> int:
    g = freetrader.game(args.game)
    options = _options(g, args.option)
    state = g.new_state(seat_count(args.seats), args.seed, options)
    texts = [t.strip() for t in (args.apply or "").split(";")]
    for i, text in enumerate([t for t in texts if t], 1):
        try:
            state.apply(text)
        except FreetraderError as exc:
            raise CliError(f"action {i} ({text!r}) cannot be applied: {exc}") from None
    _print_state_or_json(console, state, args.seat, args.json)
    return 0


def cmd_replay(args: argparse.Namespace, console: Console) -> int:
    items = _read_json_items(args.file)
    if isinstance(items[0][1], list) and len(items) == 1:  # a JSON array of records
        label = items[0][0]
        items = [(f"{label} record {i}", r) for i, r in enumerate(items[0][1], 1)]
    if args.verify:
        if args.upto is not None:
            raise CliError("--upto shows one position; it cannot be combined with --verify")
        others = []
        for label, item in items:
            try:
                state = freetrader.replay(_record_of(item))
            except BadRecord as exc:
                raise CliError(f"{label}: {exc}") from None
            mismatch = pack_mismatch(_record_of(item))
            if isinstance(item, dict) and "record" in item:
                try:
                    _check_result(label, item, state)
                except CliError as exc:  # other components explain a different result: say so in the same line
                    raise CliError(f"{exc}; {mismatch}" if mismatch else str(exc)) from None
            if mismatch:
                others.append((label, mismatch))
        if others:
            first = others[0]
            _warning(f"{len(others)} of {len(items)} records replay with other data than they were made with; "
                     f"{first[0]}: {first[1]}")
        n = len(items)
        if args.json:  # what was checked, for a script: every record replayed (a failure is exit 2)
            _print_json({"records": n, "replayed": n, "other_data": [{"record": k, "why": w} for k, w in others]})
            return 0
        console.print(Text(f"{n} records replay" if n != 1 else "1 record replays"))
        return 0
    if len(items) != 1 and args.index is None:
        raise CliError(f"{args.file} holds {len(items)} records; pick one with --index K, or check all with --verify")
    index = args.index or 1
    if not 1 <= index <= len(items):
        raise CliError(f"{args.file} holds {len(items)} record(s); --index must be 1..{len(items)}")
    label, item = items[index - 1]
    try:
        state = freetrader.replay(_record_of(item), upto=args.upto)
    except BadRecord as exc:
        raise CliError(f"{label}: {exc}") from None
    mismatch = pack_mismatch(_record_of(item))
    if mismatch:
        _warning(f"{label}: {mismatch}")
    _print_state_or_json(console, state, args.seat, args.json)
    return 0


def _check_result(label: str, item: dict[str, Any], state: State) -> None:
    checks: list[tuple[str, Any, Any]] = []
    if "scores" in item:
        try:
            got = [float(x) for x in item["scores"]]
        except (TypeError, ValueError):
            got = item["scores"]
        checks.append(("scores", got, state.scores()))
    if "winners" in item:
        checks.append(("winners", item["winners"], state.winners()))
    if "actions" in item:
        checks.append(("actions", item["actions"], state.action_count))
    for key, stated, replayed in checks:
        if stated != replayed:
            raise CliError(f"{label}: {key} {stated!r} do not match the replayed game's {replayed!r}")


def cmd_play(args: argparse.Namespace, console: Console) -> int:
    from freetrader.bots import parse_seats

    from .play import play

    if args.save:
        parent = Path(args.save).resolve().parent
        if not parent.is_dir():
            raise CliError(f"cannot save to {args.save}: folder {parent} does not exist")
    if args.resume:
        from .play import load_save

        if args.option or args.seed is not None:
            raise CliError("--resume goes on with the saved game's options and seed; leave out --option and --seed")
        state, specs = load_save(args.resume, parse_seats(args.seats) if args.seats else None)
        if args.game is not None and freetrader.game(args.game).spec.name != state.game.spec.name:
            raise CliError(f"{args.resume} is a game of {state.game.spec.title}, not {args.game}")
        # a resumed game is saved back to its file unless --save names another
        return play(console, state.game, specs, 0, dict(state.options), args.save or args.resume, resume=state)
    if args.game is None:
        raise CliError("play needs a game: 'freetrader play GAME --seats ...' (or --resume FILE)")
    if not args.seats:
        raise CliError("play needs --seats, one spec per seat, e.g. --seats human,heuristic,random")
    g = freetrader.game(args.game)
    specs = parse_seats(args.seats)
    options = _options(g, args.option)
    seed = args.seed if args.seed is not None else time.time_ns() // 1000 % 1_000_000_000
    return play(console, g, specs, seed, options, args.save)


class _SpeedColumn(ProgressColumn):
    def render(self, task: Task) -> Text:
        speed = task.finished_speed or task.speed
        return Text(f"{speed:,.0f} games/s" if speed else "– games/s", style="cyan")


def cmd_simulate(args: argparse.Namespace, console: Console) -> int:
    from freetrader.bots import parse_seats
    from freetrader.sim import cap_option, check_run, lock_out

    g = freetrader.game(args.game)
    slug = g.spec.slug
    specs = parse_seats(args.seats)
    options = _options(g, args.option)
    if args.turn_cap is not None:
        cap = cap_option(g, args.turn_cap)
        clash = {k: v for k, v in cap.items() if k in options and options[k] != v}
        if clash:
            raise CliError(f"--turn-cap {args.turn_cap} and --option {next(iter(clash))}={options[next(iter(clash))]} "
                           "disagree: give the cap once")
        options.update(cap)
    if args.n < 0:
        raise CliError(f"-n must be >= 0, got {args.n}")
    workers = args.workers if args.workers is not None else (os.cpu_count() or 1)
    if workers < 1:
        raise CliError(f"--workers must be >= 1, got {workers}")
    if args.max_actions is not None and args.max_actions < 1:
        raise CliError(f"--max-actions must be >= 1, got {args.max_actions}")
    resolved = check_run(slug, specs, options)
    design = {"rotate": args.rotate, "random_first": args.random_first}
    if args.rotate and args.n % len(specs):
        raise CliError(f"--rotate plays each deal in all {len(specs)} seat rotations: -n must be a multiple of "
                       f"{len(specs)}, e.g. {args.n + len(specs) - args.n % len(specs)}")
    if args.rotate and len(set(specs)) == 1:
        # every rotation seats the same bot in every seat: the k games of a deal are one game k times
        print(f"note: --rotate with {specs[0]} in every seat plays each deal {len(specs)} times over; "
              "without --rotate the same -n plays that many different deals", file=sys.stderr, flush=True)
    out = lock_out(args.out) if args.out else None  # before resume reads it: one writer at a time
    try:
        return _simulate_into(args, console, g, specs, options, resolved, workers, design, out)
    finally:
        if out is not None:
            out.close()


def _simulate_into(args: argparse.Namespace, console: Console, g: Game, specs: list[str], options: dict[str, Any],
                   resolved: dict[str, Any], workers: int, design: dict[str, bool], out: Any) -> int:
    from freetrader.sim import MAX_ACTIONS, SAFETY_CAPS, EndTally, Tally, plan, result_line, resume, simulate

    slug = g.spec.slug
    bound = args.max_actions or MAX_ACTIONS
    tally = Tally(specs)
    ends = EndTally()
    done = 0
    if args.out:
        def plan_of(i: int) -> Any:
            return plan(g, specs, args.seed, resolved, i, **design)

        for r in resume(args.out, slug, specs, args.seed, resolved, args.n, plan_of=plan_of):
            tally.add(r)
            ends.add(r)
        done = tally.games
    err = Console(stderr=True)
    if done:
        print(f"Resuming {args.out}: {done} of {args.n} games already there", file=sys.stderr, flush=True)
    started = time.perf_counter()
    new = 0
    progress = Progress(
        TextColumn("[bold]simulating"),
        BarColumn(),
        MofNCompleteColumn(),
        _SpeedColumn(),
        TextColumn("ETA"),
        TimeRemainingColumn(),
        console=err,
        transient=False,
        disable=args.no_progress or not err.is_terminal,
    )
    with interrupt_on_signals() as stopped_by:
        try:
            with progress:
                task = progress.add_task("games", total=args.n, completed=done)
                for result in simulate(
                    slug, specs, args.n, args.seed, options, workers=workers, start=done,
                    backend=args.backend, address=args.address, max_actions=bound, **design,
                ):
                    made_with = result["record"].get("data")
                    if made_with != g.data_hash:  # e.g. Ray workers on nodes that do not see the pack
                        raise CliError(
                            f"game {done + new} was played with other components (data {made_with}) than this run "
                            f"({g.data_hash}); every worker must see the same data pack (--data / $FREETRADER_DATA)"
                        )
                    if out is not None:
                        out.write(result_line(result) + "\n")
                        out.flush()
                    tally.add(result)
                    ends.add(result)
                    new += 1
                    progress.advance(task)
        except KeyboardInterrupt:
            stopped_by = stopped_by or [signal.SIGINT]
        else:
            stopped_by = []
    elapsed = time.perf_counter() - started
    cap_name = SAFETY_CAPS.get(g.spec.name)
    turn_cap = resolved.get(cap_name) or None if cap_name else None
    if args.json:
        summary = dataclasses.asdict(tally.summary())
        _print_json({"game": slug, "data": g.data_hash, "out": args.out, "played": new,
                     "seconds": round(elapsed, 3), "turn_cap": turn_cap, **summary, **ends.summary(),
                     "action_bound": bound})
    else:
        _print_summary(console, slug, tally, new, elapsed, ends)
        if cap_name:
            s = tally.summary()
            cap_text = f"a safety cap of {turn_cap} turns" if turn_cap else "no turn cap"
            console.print(Text(f"Ended by the rulebook: {s.games - s.cut - ends.truncated} of {s.games} games; cut "
                               f"with no winner: {s.cut} ({cap_text}, not in the rulebook)"), soft_wrap=True)
    if stopped_by:
        where = f"; run the same command to resume {args.out}" if args.out else ""
        print(f"{PROG}: interrupted after {tally.games} of {args.n} games{where}", file=sys.stderr)
        return interrupted_code(stopped_by)
    if args.out and not args.json:
        console.print(Text(f"Wrote {args.out} ({tally.games} games)"), soft_wrap=True)
    return 0


def _print_summary(console: Console, slug: str, tally: Tally, new: int, elapsed: float, ends: EndTally) -> None:
    s = tally.summary()
    table = Table(title=f"{slug}: {s.games} games", title_justify="left")
    table.add_column("seat", justify="right")
    table.add_column("bot", overflow="fold")  # a bot spec is never cut: it is what a finding rests on
    table.add_column("wins", justify="right")
    table.add_column("win rate", justify="right")
    table.add_column("95% CI", justify="right")
    table.add_column("mean score", justify="right")
    for seat in s.seats:
        wins = f"{seat.wins:.0f}" if float(seat.wins).is_integer() else f"{seat.wins:.2f}"
        table.add_row(
            str(seat.seat),
            escape(seat.spec),
            wins,
            f"{seat.win_rate:.1%}",
            f"{seat.low:.1%}–{seat.high:.1%}",
            f"{seat.mean_score:,.1f}",
        )
    console.print(table)
    if s.by_bot:
        bots = Table(title="By bot (every seat it sat in)", title_justify="left")
        for col in ("bot", "seat-games", "wins", "win rate", "95% CI", "mean score"):
            bots.add_column(col, justify="left" if col == "bot" else "right", overflow="fold")
        for b in s.by_bot:
            bots.add_row(escape(b.spec), str(b.games), f"{b.wins:g}", f"{b.win_rate:.1%}",
                         f"{b.low:.1%}–{b.high:.1%}", f"{b.mean_score:,.1f}")
        console.print(bots)
    e = ends.summary()
    length = f"Game length: mean {s.mean_length:.1f} actions, median {s.median_length:g} actions"
    if e["unit"] is not None:
        length += f"; mean {e['mean_units']:.1f} {e['unit']}, median {e['median_units']:g} {e['unit']}"
    console.print(Text(length))
    if e["ends"]:
        console.print(Text("Ended by: " + ", ".join(f"{k} {v} ({v / ends.games:.1%})" for k, v in e["ends"].items())),
                      soft_wrap=True)
    if e["truncated"]:
        console.print(Text(f"Truncated: {e['truncated']} of {ends.games} games did not end within the action bound "
                           "(--max-actions); "
                           "stopped with no winner (\"truncated\": true in their lines; replay them to see why)",
                           style="bold yellow"), soft_wrap=True)
    rate = new / elapsed if elapsed > 0 else 0.0
    console.print(Text(f"Played {new} games in {elapsed:.2f} s ({rate:,.1f} games/s)"))


# -- parser --------------------------------------------------------------------------
def build_parser() -> argparse.ArgumentParser:
    p = _ArgumentParser(prog=PROG, description="Play, simulate and replay smuggling and sea-trade board games.")
    p.add_argument("--version", action="version", version=f"{PROG} {freetrader.__version__}")
    sub = p.add_subparsers(dest="command", metavar="COMMAND")

    def add(name: str, help: str) -> argparse.ArgumentParser:
        sp = sub.add_parser(name, help=help, description=help)
        sp.add_argument("--data", metavar="DIR",
                        help="a data pack: a folder with one folder per game (e.g. cornish-smuggler/) whose files "
                             "replace the shipped components [$FREETRADER_DATA]")
        return sp

    for name, help, configure, func in (
        ("games", "list the registered games", _games_args, cmd_games),
        ("rules", "show a game's summary, seats and options", _rules_args, cmd_rules),
        ("play", "play in the terminal against bots, or hot-seat with several humans", _play_args, cmd_play),
        ("simulate", "play many bot games, in parallel, into a JSON Lines file", _simulate_args, cmd_simulate),
        ("replay", "replay a record (JSON) or results (JSON Lines); --verify checks them all", _replay_args,
         cmd_replay),
        ("state", "build a position from a seed and actions, and show it", _state_args, cmd_state),
    ):
        sp = add(name, help)
        configure(sp)
        sp.set_defaults(func=func)
    for command in extra_commands():
        sp = add(command.name, command.help)
        command.configure(sp)
        sp.set_defaults(func=command.run)
    return p


def _option_arg(sp: argparse.ArgumentParser) -> None:
    sp.add_argument(
        "--option", "-o", action="append", metavar="KEY=VALUE", help="a game option (repeatable); see 'rules'"
    )


def _games_args(sp: argparse.ArgumentParser) -> None:
    sp.add_argument("--json", action="store_true", help="print the games, their seats, bots and options as JSON")


def _rules_args(sp: argparse.ArgumentParser) -> None:
    game_arg(sp)
    sp.add_argument("--full", action="store_true", help="print the full rules (RULES.md)")
    _option_arg(sp)
    sp.add_argument("--json", action="store_true",
                    help="print the game's facts and options as JSON (with --full: and its RULES.md text)")


def _play_args(sp: argparse.ArgumentParser) -> None:
    game_arg(sp, required=False)
    sp.add_argument("--seats", help="one spec per seat, e.g. human,heuristic,random (with --resume: the saved ones)")
    sp.add_argument("--seed", type=int, help="deal seed (default: from the clock, printed)")
    _option_arg(sp)
    sp.add_argument("--save", metavar="FILE", help="write the game record (JSON) at the end or on quit")
    sp.add_argument("--resume", metavar="FILE", help="go on with a game saved by --save (its record and seats)")


def _simulate_args(sp: argparse.ArgumentParser) -> None:
    game_arg(sp)
    sp.add_argument("-n", type=int, default=100, help="number of games (default 100)")
    sp.add_argument("--seats", required=True, help="one bot spec per seat, e.g. heuristic,random,random")
    sp.add_argument("--seed", type=int, default=0, help="run seed; game i uses derive_seed(seed, i) (default 0)")
    sp.add_argument("--workers", type=int, help="processes (default: the number of CPUs)")
    sp.add_argument("--out", metavar="FILE", help="JSON Lines results; an existing file is resumed")
    sp.add_argument("--no-progress", action="store_true", help="no progress bar")
    sp.add_argument("--backend", choices=("local", "ray"), default="local",
                    help="local processes (default) or a Ray cluster; same results for the same seeds")
    sp.add_argument("--address", help="Ray cluster address for --backend ray (default: a local Ray instance)")
    sp.add_argument("--rotate", action="store_true",
                    help="play each deal once per rotation of the seats, so every bot sits in every seat")
    sp.add_argument("--random-first", action="store_true",
                    help="a seeded random first player each game, through the game's first_player option")
    sp.add_argument("--max-actions", type=int, metavar="N",
                    help="the action bound: a game not over after N actions (a rules or bot loop) is stopped and "
                         "recorded as truncated, with no winner, and the run goes on (default 100000)")
    sp.add_argument("--turn-cap", type=int, metavar="N",
                    help="stop a game after N turns (a safety cap, not in the rulebook; Cornish Smuggler and "
                         "Precious Cargo): a game so stopped is counted as cut, with no winner")
    _option_arg(sp)
    sp.add_argument("--json", action="store_true",
                    help="print the summary as JSON on stdout (the progress bar stays on stderr)")


def _replay_args(sp: argparse.ArgumentParser) -> None:
    sp.add_argument("file")
    sp.add_argument("--verify", action="store_true", help="replay every record and check stated scores/winners")
    sp.add_argument("--upto", type=int, metavar="K", help="show the position after K actions")
    sp.add_argument("--index", type=int, metavar="K", help="which record of a JSON Lines file (1-based)")
    sp.add_argument("--seat", type=int, help="show this seat's view (default: spectator)")
    sp.add_argument("--json", action="store_true", help="print the state as JSON (with --seat: that seat's view; "
                                                        "with --verify: what was checked)")


def _state_args(sp: argparse.ArgumentParser) -> None:
    game_arg(sp)
    sp.add_argument("--seats", required=True,
                    help="the seats: how many (3), or one spec per seat as in play (random,random,random)")
    sp.add_argument("--seed", type=int, default=0, help="deal seed (default 0)")
    _option_arg(sp)
    sp.add_argument("--apply", metavar="ACTIONS", help="actions separated by ';', e.g. \"claim brandy; declare\"")
    sp.add_argument("--seat", type=int, help="show this seat's view (default: spectator)")
    sp.add_argument("--json", action="store_true", help="print state.to_json() (with --seat: that seat's view)")


def main(argv: list[str] | None = None) -> int:
    """Run the ``freetrader`` command; returns the exit code (0 ok, 2 user error)."""
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except CliError as exc:
        return _fail(str(exc))
    except SystemExit as exc:  # --help, --version
        return exc.code if isinstance(exc.code, int) else 0
    if getattr(args, "func", None) is None:
        names = ", ".join(c for a in parser._subparsers._group_actions for c in a.choices)  # type: ignore[union-attr]
        return _fail(f"choose a command: {names} (see '{PROG} --help')")
    console = Console()
    warnings.showwarning = _show_warning  # a data pack's warnings: one line each, like errors
    try:
        if getattr(args, "data", None):
            set_pack_root(args.data)
        if hasattr(args, "game_flag"):
            resolve_game_arg(args)
        return int(args.func(args, console))
    except (CliError, FreetraderError) as exc:
        return _fail(str(exc))
    except json.JSONDecodeError as exc:
        return _fail(f"not valid JSON ({exc})")
    except UnicodeDecodeError as exc:
        return _fail(f"not a text file ({exc.reason})")
    except OSError as exc:
        return _fail(_os_message(exc))
    except KeyboardInterrupt:
        print(f"{PROG}: interrupted", file=sys.stderr)
        return 130
