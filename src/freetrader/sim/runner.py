"""Playing bot-only games: one game (``play_game``) or many, in parallel (``simulate``).

Seeding (so that any game can be rebuilt from its line alone):

- game ``i`` of a run with seed ``s`` uses the seed ``derive_seed(s, i)``;
- the bot of seat ``k`` is built with the seed ``derive_seed(game_seed, k)``;
- the rng handed to ``decide`` for seat ``k`` is ``Rng(derive_seed(game_seed, 1000 + k))``.

Designs that separate causes (``plan``):

- ``rotate``: game ``i`` is deal ``i // k`` (seed ``derive_seed(s, i // k)``) played in
  rotation ``i % k``, where seat ``j`` holds bot ``specs[(j - r) % k]``: every bot sits
  in every seat on every deal. Result lines then carry ``deal`` and ``rotation``.
- ``random_first``: the game's own first-player option (``first_player``) is set per game,
  drawn from ``derive_seed(game_seed, FIRST_PLAYER_STREAM)``, so the record holds it.

Results do not depend on the number of workers or on chunking.
"""

from __future__ import annotations

import os
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import freetrader
from freetrader.bots import Bot, decide, make_bot
from freetrader.core import BadOption, FreetraderError, Game, IllegalAction, Rng, State, derive_seed
from freetrader.core.registry import SpecFacts

from .endings import TRUNCATED, ending_of

__all__ = [
    "HUMAN",
    "MAX_ACTIONS",
    "SimulationError",
    "game_seed",
    "seat_players",
    "bot_move",
    "play_game",
    "simulate",
    "check_run",
    "GamePlan",
    "plan",
    "first_player_option",
    "SAFETY_CAPS",
    "cap_option",
    "is_cut",
]

#: Safety bound: a game that has not ended after this many actions is stopped and recorded as truncated.
MAX_ACTIONS = 100_000
#: Per game name, the option that is a safety cap and no rule of the book (``GameSpec.safety_cap``, read
#: from the registry): off by default, ``simulate --turn-cap N`` sets it, and a game it stops is cut (no
#: winner). A game's own turn limit that its rulebook offers (Contraband's end=turns) is not one.
SAFETY_CAPS: Mapping[str, str] = SpecFacts(lambda spec: spec.safety_cap)
#: The seat spec that means "a person at the keyboard" (``play`` only).
HUMAN = "human"


class SimulationError(FreetraderError):
    """A simulated game went wrong: a bot chose an illegal action, or the run is misconfigured."""


def game_seed(run_seed: int, index: int) -> int:
    """The seed of game ``index`` (0-based) of a run seeded ``run_seed``."""
    return derive_seed(run_seed, index)


#: The rng stream (``derive_seed(game_seed, FIRST_PLAYER_STREAM)``) that draws a random first player.
FIRST_PLAYER_STREAM = 7001


@dataclass(frozen=True)
class GamePlan:
    """What game ``index`` of a run is: its seats, seed, options, and its deal and rotation."""

    index: int
    seats: tuple[str, ...]
    seed: int
    options: dict[str, Any]
    deal: int
    rotation: int | None  # None when the run does not rotate


def first_player_option(game: Game, seats: int, seed: int) -> dict[str, Any]:
    """The option value that makes a seeded random seat start, from the game's own ``first_player`` option.

    ``SimulationError`` when the game has no such option (its rules fix who starts).
    """
    opt = next((o for o in game.spec.options if o.name == "first_player"), None)
    if opt is not None and opt.choices and "random" in opt.choices:
        return {"first_player": "random"}  # the game draws it from its own seed
    if opt is not None and isinstance(opt.default, int) and not isinstance(opt.default, bool):
        return {"first_player": Rng(derive_seed(seed, FIRST_PLAYER_STREAM)).below(seats)}
    raise SimulationError(
        f"{game.spec.title} has no first_player option: its rules decide who starts, so a random "
        "first player cannot be set (leave out --random-first)"
    )


def cap_option(game: Game, turns: int) -> dict[str, Any]:
    """The option that caps ``game`` at ``turns`` Turns (its spec's ``safety_cap``); ``SimulationError`` if it has none."""
    name = game.spec.safety_cap
    if name is None:
        raise SimulationError(f"{game.spec.title} has no safety cap: its games end by its own rules (leave out --turn-cap)")
    if isinstance(turns, bool) or not isinstance(turns, int) or turns < 1:
        raise SimulationError(f"the turn cap must be a whole number of turns >= 1, got {turns!r}")
    return {name: turns}


def is_cut(state: State) -> bool:
    """A safety cap stopped the game before any end of its rulebook (the state's ``cut``; it has no winner)."""
    return state.cut


def plan(
    game: Game,
    seat_specs: Sequence[str],
    run_seed: int,
    options: Mapping[str, Any],
    index: int,
    *,
    rotate: bool = False,
    random_first: bool = False,
) -> GamePlan:
    """Game ``index`` of a run (see the module docstring for the seeding)."""
    k = len(seat_specs)
    deal, rotation = (index // k, index % k) if rotate else (index, None)
    seed = game_seed(run_seed, deal)
    specs = tuple(str(seat_specs[(j - (rotation or 0)) % k]) for j in range(k))
    opts = dict(options)
    if random_first:
        opts.update(first_player_option(game, k, seed))
    return GamePlan(index, specs, seed, opts, deal, rotation)


def seat_players(
    game: Game, seat_specs: Sequence[str], seed: int, allow_human: bool = False
) -> tuple[list[Bot | None], list[Rng]]:
    """One bot per seat (``None`` for a human seat) and the rng each seat's ``decide`` uses."""
    bots: list[Bot | None] = []
    for seat, spec in enumerate(seat_specs):
        if spec.strip().lower() == HUMAN:
            if not allow_human:
                raise BadOption(f"seat {seat} is 'human': simulations play bots only (e.g. random, heuristic)")
            bots.append(None)
        else:
            bots.append(make_bot(spec, game, derive_seed(seed, seat)))
    rngs = [Rng(derive_seed(seed, 1000 + seat)) for seat in range(len(seat_specs))]
    return bots, rngs


def bot_move(state: State, bot: Bot, seat: int, rng: Rng, spec: str = "") -> None:
    """Ask ``bot`` for ``seat``'s action and apply it; ``SimulationError`` if it is illegal."""
    action = decide(bot, state, seat, rng)
    try:
        state.apply(action)
    except IllegalAction as exc:
        who = f"bot {spec!r}" if spec else f"bot {bot.name!r}"
        raise SimulationError(
            f"{who} at seat {seat} chose an illegal action in {state.game.slug} seed {state.seed} "
            f"after {state.action_count} actions: {exc}"
        ) from None


def play_game(
    game_slug: str,
    seat_specs: Sequence[str],
    seed: int,
    options: Mapping[str, Any] | None = None,
    max_actions: int = MAX_ACTIONS,
) -> dict[str, Any]:
    """Play one bot-only game; the result has the keys of one line of ``freetrader simulate``.

    A game that has not ended after ``max_actions`` actions (a rules or bot loop) is stopped and
    returned *truncated*: ``"truncated": true``, ``"end": "truncated"``, no winner, its scores and
    length so far, and its record, which replays to where it stopped. One looping game must not
    cost a run its other games.
    """
    g = freetrader.game(game_slug)
    specs = [str(s) for s in seat_specs]
    state = g.new_state(len(specs), seed, dict(options or {}))
    bots, rngs = seat_players(g, specs, seed)
    while not state.is_over and state.action_count < max_actions:
        seat = state.to_act
        assert seat is not None
        bot = bots[seat]
        assert bot is not None
        bot_move(state, bot, seat, rngs[seat], specs[seat])
    result: dict[str, Any] = {
        "game": g.spec.slug,
        "seed": seed,
        "seats": specs,
        "scores": state.scores(),
        "winners": state.winners(),
        "actions": state.action_count,
        "record": state.record(),
    }
    told = ending_of(state)
    if told is not None:
        result.update(told)
    if not state.is_over:
        result["truncated"] = True  # only then, as "cut": lines of games that end stay as they were
        result["end"] = TRUNCATED
    elif is_cut(state):
        result["cut"] = True
    return result


def check_run(game_slug: str, seat_specs: Sequence[str], options: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """Fail early (``FreetraderError``) on a bad game, seat list, bot spec or option.

    Returns the fully resolved options (defaults included), as records store them.
    """
    g = freetrader.game(game_slug)
    specs = [str(s) for s in seat_specs]
    state = g.new_state(len(specs), 0, dict(options or {}))
    seat_players(g, specs, 0)
    return dict(state.options)


def simulate(
    game_slug: str,
    seat_specs: Sequence[str],
    n: int,
    seed: int = 0,
    options: Mapping[str, Any] | None = None,
    *,
    workers: int | None = None,
    start: int = 0,
    chunksize: int | None = None,
    max_actions: int = MAX_ACTIONS,
    backend: str = "local",
    address: str | None = None,
    rotate: bool = False,
    random_first: bool = False,
) -> Iterator[dict[str, Any]]:
    """Yield the results of games ``start .. n-1`` of a run, in game order.

    ``workers`` processes play them (default: ``os.cpu_count()``); with one
    worker, or one game, they are played in this process. ``backend="ray"``
    plays them on a Ray cluster (``address``; default a local instance) with
    the same results. Closing the generator early stops the workers.
    ``rotate`` and ``random_first`` choose the design (see ``plan``).
    """
    from .backends import run_tasks  # the backends import this module

    if isinstance(n, bool) or not isinstance(n, int) or n < 0:
        raise SimulationError(f"the number of games must be a whole number >= 0, got {n!r}")
    if not 0 <= start <= n:
        raise SimulationError(f"cannot start at game {start} of {n}")
    if workers is None:
        workers = os.cpu_count() or 1
    if isinstance(workers, bool) or not isinstance(workers, int) or workers < 1:
        raise SimulationError(f"workers must be a whole number >= 1, got {workers!r}")
    g = freetrader.game(game_slug)
    slug = g.spec.slug
    specs = [str(s) for s in seat_specs]
    opts = dict(options or {})
    check_run(slug, specs, opts)
    remaining = n - start
    if remaining == 0:
        return
    if rotate and n % len(specs):
        raise SimulationError(
            f"--rotate plays each deal once per rotation of the {len(specs)} seats: ask for a multiple of "
            f"{len(specs)} games, e.g. {n + len(specs) - n % len(specs)}"
        )
    plans = [plan(g, specs, seed, opts, i, rotate=rotate, random_first=random_first) for i in range(start, n)]
    tasks = ((slug, list(p.seats), p.seed, p.options, max_actions) for p in plans)
    results = run_tasks(tasks, remaining, backend=backend, workers=workers, chunksize=chunksize, address=address)
    for p, result in zip(plans, results, strict=True):
        if p.rotation is not None:
            result = {**result, "deal": p.deal, "rotation": p.rotation}
        yield result
