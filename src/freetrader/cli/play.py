"""Playing in the terminal: humans and bots at one table, hot-seat for several humans."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.text import Text

from freetrader.core import Game, IllegalAction, State
from freetrader.sim import HUMAN, bot_move, seat_players

from .render import print_actions, print_results, render_view, seat_label

__all__ = ["play", "save_record"]

QUIT_WORDS = frozenset(("quit", "q", "exit"))
HELP_WORDS = frozenset(("help", "?", "h"))
BOARD_WORDS = frozenset(("board", "b"))
MAX_LOG = 15  # events shown at most in "since your last turn"


class _Quit(Exception):
    pass


def save_record(path: str | Path, state: State) -> None:
    """Write ``state.record()`` as indented JSON (``freetrader replay`` reads it back)."""
    Path(path).write_text(json.dumps(state.record(), indent=2) + "\n", encoding="utf-8")


def _reader(console: Console, input_fn: Callable[[str], str] | None) -> Callable[[str], str]:
    """Read one line (``_Quit`` on EOF or Ctrl-C); echo it when stdin is not a terminal."""
    piped = not sys.stdin.isatty() if input_fn is None else False

    def read(prompt: str) -> str:
        console.print(Text(prompt, style="bold"), end="")
        console.file.flush()
        try:
            line = (input_fn or input)("")
        except (EOFError, KeyboardInterrupt):
            console.print()
            raise _Quit from None
        if piped:
            console.print(Text(line))
        return line.strip()

    return read


def play(
    console: Console,
    game: Game,
    seat_specs: Sequence[str],
    seed: int,
    options: dict[str, Any],
    save: str | None = None,
    input_fn: Callable[[str], str] | None = None,
) -> int:
    specs = [s.strip() for s in seat_specs]
    state = game.new_state(len(specs), seed, options)
    bots, rngs = seat_players(game, specs, seed, allow_human=True)
    humans = [seat for seat, spec in enumerate(specs) if spec.lower() == HUMAN]
    hot_seat = len(humans) > 1
    names = ["human" if s in humans else specs[s] for s in range(len(specs))]
    read = _reader(console, input_fn)
    seen = {seat: 0 for seat in humans}  # events each human has been shown
    printed = 0  # events printed so far (for the bot-only live log)
    last_human: int | None = None

    console.print(
        Text(
            f"{game.spec.title}: {', '.join(seat_label(s, names) for s in range(len(specs)))}. "
            f"Seed {seed} (replay this deal with --seed {seed}).",
            style="bold",
        )
    )
    if humans:
        console.print(Text("Type the number of an action or its text; 'help' for more, 'quit' to stop."))

    def new_events(since: int) -> list[str]:
        return state.events[since:]

    try:
        while not state.is_over:
            seat = state.to_act
            assert seat is not None
            bot = bots[seat]
            if bot is not None:
                bot_move(state, bot, seat, rngs[seat], specs[seat])
                if not humans:
                    for e in new_events(printed):
                        console.print(Text(f"  · {e}", style="dim"))
                    printed = len(state.events)
                continue
            if hot_seat and seat != last_human:
                console.clear()
                read(f"Pass to seat {seat}, press Enter ")
                console.clear()
            last_human = seat
            _human_turn(console, state, seat, names, seen, read)
    except _Quit:
        console.print(Text(f"Game stopped after {state.action_count} actions.", style="bold"))
        if save:
            save_record(save, state)
            console.print(Text(f"Record saved to {save} (see it with: freetrader replay {save})"), soft_wrap=True)
        return 0

    since = min(seen.values()) if seen else printed
    events = new_events(since)
    if events:
        console.rule(Text("Final events"))
        for e in events[-MAX_LOG:]:
            console.print(Text(f"  · {e}"))
    console.rule(Text(f"Game over after {state.action_count} actions"))
    console.print(render_view(state.view(None), names))
    print_results(console, state.scores(), state.winners(), names)
    if save:
        save_record(save, state)
        console.print(Text(f"Record saved to {save}"), soft_wrap=True)
    return 0


def _human_turn(
    console: Console,
    state: State,
    seat: int,
    names: Sequence[str],
    seen: dict[int, int],
    read: Callable[[str], str],
) -> None:
    view = state.view(seat)
    console.rule(Text(f"{seat_label(seat, names, you=seat)} · {state.action_count} actions"))
    console.print(render_view(view, names))
    events = view["events"][seen[seat] :]
    if events:
        skipped = len(events) - MAX_LOG
        console.print(Text("Since your last turn:", style="bold"))
        if skipped > 0:
            console.print(Text(f"  … {skipped} earlier events", style="dim"))
        for e in events[-MAX_LOG:]:
            console.print(Text(f"  · {e}"))
    seen[seat] = len(view["events"])
    legal = state.legal_actions()
    console.print(Text(f"Seat {seat}, {state.prompt}:", style="bold yellow"))
    print_actions(console, legal)
    while True:
        choices = "1" if len(legal) == 1 else f"1-{len(legal)}"
        entry = read(f"Your move [{choices}, action, help, quit]: ")
        low = entry.lower()
        if not entry:
            console.print(Text(f"Type a number from 1 to {len(legal)}, an action such as '{legal[0]}', or 'quit'."))
            continue
        if low in QUIT_WORDS:
            raise _Quit
        if low in HELP_WORDS:
            console.print(
                Text(
                    "Enter the number of an action, or its text (e.g. "
                    f"'{legal[-1]}'); 'board' draws the table again; 'quit' (or Ctrl-D) stops the game."
                )
            )
            print_actions(console, legal)
            continue
        if low in BOARD_WORDS:
            console.print(render_view(state.view(seat), names))
            print_actions(console, legal)
            continue
        if entry.isdigit():
            k = int(entry)
            if not 1 <= k <= len(legal):
                console.print(Text(f"No action {k}: choose a number from 1 to {len(legal)}.", style="red"))
                continue
            action: Any = legal[k - 1]
        else:
            action = entry
        before = len(state.events)
        try:
            state.apply(action)
        except IllegalAction as exc:
            console.print(Text(f"Not a legal action: {exc}", style="red"))
            console.print(Text(f"Try again: a number from 1 to {len(legal)}, or the action text.", style="red"))
            continue
        console.print(Text(f"You: {action}", style="green"))
        for e in state.events[before:]:
            console.print(Text(f"  · {e}"))
        seen[seat] = len(state.events)
        return
