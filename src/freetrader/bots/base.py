"""The bot protocol, the bot registry and the one safe way to ask a bot.

A bot chooses from a *determinized* state (``State.determinize``), never the
true one, so it cannot see hidden cards or the future. ``decide`` does that.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from freetrader.core import Action, BadOption, Game, Rng, State
from freetrader.core.registry import load_part, load_parts

T = TypeVar("T")

__all__ = [
    "Bot", "register_bot", "register_heuristic", "make_bot", "parse_seats", "bot_names", "decide", "load_game_bots",
    "near_best",
]


class Bot(ABC):
    """``choose(state, seat)`` returns one of ``state.legal_actions()``."""

    name = "bot"
    #: False for bots that only read ``legal_actions()``: they skip determinization.
    reads_state = True

    def __init__(self, game: Game, seed: int = 0, **params: Any) -> None:
        self.game = game
        self.rng = Rng(seed)
        if params:
            raise BadOption(f"bot {self.name!r} takes no parameters, got {', '.join(params)}")

    @abstractmethod
    def choose(self, state: State, seat: int) -> Action: ...

    def __repr__(self) -> str:
        return f"<{self.name} bot>"


def near_best(rng: Rng, options: Sequence[T], key: Callable[[T], float], within: float = 0.0) -> T:
    """One of the options whose ``key`` is within ``within`` of the best, drawn with ``rng``.

    A heuristic drafts with it so that its set-up choices vary from deal to deal
    (seeded) instead of always taking the same card: otherwise a draft position
    and the card it always takes cannot be told apart in a balance report.
    """
    scored = [(key(o), o) for o in options]
    best = max(v for v, _ in scored)
    return rng.choice([o for v, o in scored if v >= best - within])


BotFactory = Callable[..., Bot]
_BOTS: dict[str, BotFactory] = {}
_GAME_BOTS: dict[str, dict[str, BotFactory]] = {}  # game name -> bots only that game offers
_HEURISTICS: dict[str, BotFactory] = {}


def register_bot(name: str, factory: BotFactory, game: str | None = None) -> None:
    """A bot by ``name``: for every game, or only for the game called ``game`` (any version)."""
    if game is None:
        _BOTS[name] = factory
    else:
        _GAME_BOTS.setdefault(game, {})[name] = factory


def register_heuristic(game_name: str, factory: BotFactory) -> None:
    """The ``heuristic`` bot of one game (looked up by the game's name, any version)."""
    _HEURISTICS[game_name] = factory


def load_game_bots(game: Game | None = None) -> None:
    """Import the ``bot`` part of ``game`` (of every registered game if ``None``): it registers its bots.

    A game's heuristic lives in its own folder (``games/<game>/bot.py``) and is
    found through the game registry, so ``bots`` keeps no list of games.
    """
    if game is None:
        load_parts("bot")
    else:
        load_part(game, "bot")


def bot_names(game: Game | None = None) -> list[str]:
    load_game_bots(game)
    names = sorted(_BOTS)
    if game is None:
        names += [n for bots in _GAME_BOTS.values() for n in bots]
    else:
        names += list(_GAME_BOTS.get(game.spec.name, {}))
    if game is None or game.spec.name in _HEURISTICS:
        names.append("heuristic")
    return sorted(names)


def _parse_value(text: str) -> Any:
    for conv in (int, float):
        try:
            return conv(text)
        except ValueError:
            pass
    return text


def make_bot(spec: str, game: Game, seed: int = 0) -> Bot:
    """A bot from ``name`` or ``name:key=value;key=value``.

    Parameters are separated by ``;`` (``,`` also works when the spec stands
    alone, but inside ``--seats`` commas separate seats). ``noise`` and ``near``
    belong to no bot: they give any bot seeded departures to near-best moves
    (``bots.noisy``), e.g. ``heuristic:noise=0.1``.
    """
    name, _, params_text = spec.strip().partition(":")
    params: dict[str, Any] = {}
    if params_text:
        for part in params_text.split(";" if ";" in params_text else ","):
            key, eq, value = part.partition("=")
            if not eq or not key.strip():
                raise BadOption(f"bot parameter {part!r} in {spec!r} must look like key=value")
            params[key.strip()] = _parse_value(value.strip())
    load_game_bots(game)
    if name == "heuristic":
        factory = _HEURISTICS.get(game.spec.name)
        if factory is None:
            raise BadOption(f"{game.spec.title} has no heuristic bot yet; use one of: {', '.join(sorted(_BOTS))}")
    else:
        factory = _BOTS.get(name) or _GAME_BOTS.get(game.spec.name, {}).get(name)
        if factory is None:
            raise BadOption(f"unknown bot {name!r}; bots for {game.spec.title}: {', '.join(bot_names(game))}")
    from .noisy import NOISE_PARAMS, NoisyBot

    noisy = {k: params.pop(k) for k in NOISE_PARAMS if k in params}
    bot = factory(game, seed, **params)
    if noisy:
        if "noise" not in noisy:
            raise BadOption(f"bot parameter near in {spec!r} goes with noise (e.g. noise=0.1;near=0.25)")
        return NoisyBot(bot, game, seed, **noisy)
    return bot


def parse_seats(text: str) -> list[str]:
    """Split ``human,heuristic,ismcts:ms=200`` into seat specs (parameters after ':' may use ';')."""
    seats = [p.strip() for p in text.split(",") if p.strip()]
    if not seats:
        raise BadOption("--seats needs at least one seat, e.g. human,heuristic,random")
    return seats


def decide(bot: Bot, state: State, seat: int, rng: Rng | random.Random) -> Action:
    """Ask ``bot`` for ``seat``'s action in ``state`` through a determinization."""
    if bot.reads_state:
        return bot.choose(state.determinize(seat, rng), seat)
    return bot.choose(state, seat)
