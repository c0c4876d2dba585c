"""Playing in the terminal: humans and bots at one table, hot-seat for several humans.

A saved game (``--save``) is the game's record plus ``players``, the seat
specs, so ``freetrader play --resume FILE`` replays it and goes on with the
same seats. A seat's action numbers stay put across its consecutive
decisions (Contraband's claims: the Crown Jewels stay 9 after a claim), and
its board is drawn again only when it changed.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.text import Text

import freetrader
from freetrader.core import FreetraderError, Game, IllegalAction, State
from freetrader.core.registry import load_part
from freetrader.sim import HUMAN, bot_move, seat_players

from .render import print_actions, print_results, render_view, seat_label

__all__ = ["play", "save_record", "load_save", "Menu"]

QUIT_WORDS = frozenset(("quit", "q", "exit"))
HELP_WORDS = frozenset(("help", "?", "h"))
BOARD_WORDS = frozenset(("board", "b"))
MAX_LOG = 15  # events shown at most in "since your last turn"


class _Quit(Exception):
    pass


def seat_view(state: State, seat: int) -> dict[str, Any]:
    """``seat``'s view, with what each of its choices costs and pays (``notes``) when it acts.

    The notes are the ones the browser shows (the game's ``web.choice_notes``): the terminal says the
    same numbers, for example a Cornish Smuggler sale's Price List as the engine will pay it.
    """
    view = dict(state.view(seat))
    if state.to_act == seat:
        web = load_part(state.game, "web")
        notes = getattr(web, "choice_notes", None) if web is not None else None
        if notes is not None:
            view["notes"] = notes(state, seat)
    return view


def save_record(path: str | Path, state: State, players: Sequence[str] | None = None) -> None:
    """Write ``state.record()`` as indented JSON (``freetrader replay`` reads it back), with ``players``."""
    rec = state.record()
    if players is not None:
        rec["players"] = list(players)
    Path(path).write_text(json.dumps(rec, indent=2) + "\n", encoding="utf-8")


class ResumeError(FreetraderError):
    """A save that cannot be resumed (one line: what is wrong with it)."""


def load_save(path: str | Path, seats: Sequence[str] | None = None) -> tuple[State, list[str]]:
    """The state a save reached and its seat specs (``seats`` overrides the saved ones)."""
    try:
        rec = json.loads(Path(path).read_text(encoding="utf-8"))
    except OSError as exc:
        raise ResumeError(f"cannot read {path}: {exc.strerror or exc}") from None
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise ResumeError(f"{path} is not a saved game (JSON): {exc}") from None
    if not isinstance(rec, dict):
        raise ResumeError(f"{path} is not a saved game: it holds a JSON {type(rec).__name__}, not an object")
    state = freetrader.replay(rec)
    players = list(seats) if seats else rec.get("players")
    if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
        raise ResumeError(f"{path} does not say who sits where (no 'players'); give them with --seats, "
                          f"e.g. --seats {','.join(['human'] + ['random'] * (state.seats - 1))}")
    if len(players) != state.seats:
        raise ResumeError(f"{path} is a game of {state.seats} seats, but {len(players)} seat specs were given")
    if state.is_over:
        raise ResumeError(f"the game in {path} is over; see it with: freetrader replay {path}")
    return state, [p.strip() for p in players]


class Menu:
    """The numbers of one seat's actions, kept while the same seat decides again at once.

    After a seat's action, its next decision keeps the numbers of the actions
    still legal and numbers new ones after the highest, so a number read once
    means the same action until someone else moves.
    """

    def __init__(self) -> None:
        self.seat: int | None = None
        self.at = -1  # the action count the menu was last shown at
        self.numbers: dict[str, int] = {}

    def number(self, state: State, seat: int, legal: Sequence[Any]) -> list[tuple[int, Any]]:
        texts = [str(a) for a in legal]
        keep = self.seat == seat and state.action_count == self.at + 1
        old = self.numbers if keep else {}
        top = max(old.values(), default=0)
        numbers: dict[str, int] = {}
        for t in texts:
            if t in old:
                numbers[t] = old[t]
        for t in texts:
            if t not in numbers:
                top += 1
                numbers[t] = top
        self.seat, self.at, self.numbers = seat, state.action_count, numbers
        return sorted(((numbers[str(a)], a) for a in legal), key=lambda p: p[0])

    def warm(self, state: State) -> None:
        """Number the menus the seat to act saw in its run of decisions up to ``state`` (a resumed game):
        the numbers shown before the save are the numbers after it."""
        seat = state.to_act
        record = state.record()
        start = state.action_count
        while start > 0 and freetrader.replay(record, upto=start - 1).to_act == seat:
            start -= 1
        for i in range(start, state.action_count):
            earlier = freetrader.replay(record, upto=i)
            if seat is not None:
                self.number(earlier, seat, earlier.legal_actions())


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
    resume: State | None = None,
) -> int:
    """Play a game in the terminal (``resume``: go on from that state, a loaded save)."""
    specs = [s.strip() for s in seat_specs]
    state = resume if resume is not None else game.new_state(len(specs), seed, options)
    bots, rngs = seat_players(game, specs, seed, allow_human=True)
    humans = [seat for seat, spec in enumerate(specs) if spec.lower() == HUMAN]
    hot_seat = len(humans) > 1
    names = ["human" if s in humans else specs[s] for s in range(len(specs))]
    read = _reader(console, input_fn)
    start = len(state.events) if resume is not None else 0
    seen = {seat: start for seat in humans}  # events each human has been shown
    printed = start  # events printed so far (for the bot-only live log)
    last_human: int | None = None
    menu = Menu()
    if resume is not None:
        menu.warm(state)
    boards: dict[int, str] = {}  # the board each human was last shown (drawn again only when it changed)

    _introduce(console, game, state, names, seed, resumed=resume is not None, humans=bool(humans))

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
                boards.clear()  # the screen was cleared: draw the board again
            last_human = seat
            _human_turn(console, state, seat, names, seen, read, menu, boards)
    except _Quit:
        console.print(Text(f"Game stopped after {state.action_count} actions.", style="bold"))
        if save:
            save_record(save, state, specs)
            console.print(Text(f"Record saved to {save} (see it with: freetrader replay {save}; go on with: "
                               f"freetrader play --resume {save})"), soft_wrap=True)
        return 0

    _game_over(console, state, new_events(min(seen.values()) if seen else printed), names)
    if save:
        save_record(save, state, specs)
        console.print(Text(f"Record saved to {save}"), soft_wrap=True)
    return 0


def _introduce(console: Console, game: Game, state: State, names: list[str], seed: int, *, resumed: bool,
               humans: bool) -> None:
    """The game's first lines: its seats and its seed (or where it was resumed), and how to answer."""
    console.print(
        Text(
            f"{game.spec.title}: {', '.join(seat_label(s, names) for s in range(len(names)))}. "
            + (f"Resumed after {state.action_count} actions." if resumed else
               f"Seed {seed} (replay this deal with --seed {seed})."),
            style="bold",
        )
    )
    if humans:
        console.print(Text("Type the number of an action or its text; 'help' for more, 'quit' to stop."))


def _game_over(console: Console, state: State, events: list[str], names: list[str]) -> None:
    """The events not yet shown (the last ``MAX_LOG``), the final board and the results."""
    if events:
        console.rule(Text("Final events"))
        for e in events[-MAX_LOG:]:
            console.print(Text(f"  · {e}"))
    console.rule(Text(f"Game over after {state.action_count} actions"))
    console.print(render_view(state.view(None), names))
    print_results(console, state.scores(), state.winners(), names)


def _board_key(view: dict[str, Any]) -> str:
    """What the board shows: the view without its log, its legal actions and its counters."""
    shown = {k: v for k, v in view.items() if k not in ("events", "legal", "actions_taken", "prompt", "to_act", "notes")}
    return json.dumps(shown, sort_keys=True, default=str)


def _human_turn(
    console: Console,
    state: State,
    seat: int,
    names: Sequence[str],
    seen: dict[int, int],
    read: Callable[[str], str],
    menu: Menu,
    boards: dict[int, str],
) -> None:
    view = seat_view(state, seat)
    console.rule(Text(f"{seat_label(seat, names, you=seat)} · {state.action_count} actions"))
    key = _board_key(view)
    if boards.get(seat) != key:
        console.print(render_view(view, names))
        boards[seat] = key
    else:
        console.print(Text("(the board has not changed; 'board' draws it again)", style="dim"))
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
    numbered = menu.number(state, seat, legal)
    by_number = dict(numbered)
    console.print(Text(f"Seat {seat}, {state.prompt}:", style="bold yellow"))
    shown = [n for n, _ in numbered]
    print_actions(console, [a for _, a in numbered], numbers=shown)
    span = f"{shown[0]}" if len(shown) == 1 else (f"{shown[0]}-{shown[-1]}" if shown[-1] - shown[0] == len(shown) - 1
                                                  else ", ".join(map(str, shown)))
    while True:
        entry = read(f"Your move [{span}, action, help, quit]: ")
        low = entry.lower()
        if not entry:
            console.print(Text(f"Type a number ({span}), an action such as '{legal[0]}', or 'quit'."))
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
            print_actions(console, [a for _, a in numbered], numbers=shown)
            continue
        if low in BOARD_WORDS:
            console.print(render_view(seat_view(state, seat), names))
            print_actions(console, [a for _, a in numbered], numbers=shown)
            continue
        if entry.isdigit():
            k = int(entry)
            if k not in by_number:
                console.print(Text(f"No action {k}: choose one of the numbers shown ({span}).", style="red"))
                continue
            action: Any = by_number[k]
        else:
            action = entry
        before = len(state.events)
        try:
            state.apply(action)
        except IllegalAction as exc:
            console.print(Text(f"Not a legal action: {exc}", style="red"))
            console.print(Text(f"Try again: a number ({span}), or the action text.", style="red"))
            continue
        console.print(Text(f"You: {action}", style="green"))
        for e in state.events[before:]:
            console.print(Text(f"  · {e}"))
        seen[seat] = len(state.events)
        return
