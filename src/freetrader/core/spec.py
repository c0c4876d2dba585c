"""Static description of a game: slug, seats, options."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from .errors import BadOption

__all__ = ["Option", "GameSpec"]


@dataclass(frozen=True)
class Option:
    """One game option: a variant, a module or a rule interpretation.

    ``choices`` lists the allowed values of a choice option; ``minimum`` and
    ``maximum`` bound an integer option. ``help`` says what it changes and,
    for rulings, why the default was chosen. ``kind`` (from these) is how a
    form draws it: a choice, a flag, a number or a text; a text option's
    content is checked by its game when the state is made.
    """

    name: str
    default: Any
    help: str
    choices: tuple[Any, ...] = ()
    minimum: int | None = None
    maximum: int | None = None

    @property
    def kind(self) -> str:
        """``choice``, ``flag``, ``number`` or ``text``."""
        if self.choices:
            return "choice"
        if isinstance(self.default, bool):
            return "flag"
        if isinstance(self.default, int):
            return "number"
        return "text"

    def check(self, value: Any) -> Any:
        if self.choices:
            # 1 == True in Python: a choice must also be of its choices' type
            if value not in self.choices or not any(type(value) is type(c) for c in self.choices):
                allowed = ", ".join(repr(c) for c in self.choices)
                raise BadOption(f"option {self.name}={value!r} is not allowed; choose one of {allowed}")
            return value
        if isinstance(self.default, bool):
            if not isinstance(value, bool):
                raise BadOption(f"option {self.name} must be true or false, got {value!r}")
            return value
        if isinstance(self.default, int):
            lo, hi = self.minimum, self.maximum
            if isinstance(value, bool) or not isinstance(value, int):
                raise BadOption(f"option {self.name} must be {_bounds(lo, hi)}, got {value!r}")
            if (lo is not None and value < lo) or (hi is not None and value > hi):
                raise BadOption(f"option {self.name}={value} is out of range; use {_bounds(lo, hi)}")
            return value
        if isinstance(self.default, str) and not isinstance(value, str):
            raise BadOption(f"option {self.name} must be text (its default is {self.default!r}), got {value!r}")
        return value

    def parse_text(self, text: str) -> Any:
        """Convert command-line text to this option's type, then check it."""
        value: Any = text
        if isinstance(self.default, bool):
            low = text.lower()
            if low in ("1", "true", "yes", "on"):
                value = True
            elif low in ("0", "false", "no", "off"):
                value = False
            else:
                raise BadOption(f"option {self.name} must be true or false, got {text!r}")
        elif isinstance(self.default, int) and not self.choices:
            try:
                value = int(text)
            except ValueError:
                raise BadOption(f"option {self.name} must be a whole number, got {text!r}") from None
        return self.check(value)


def _bounds(lo: int | None, hi: int | None) -> str:
    if lo is None and hi is None:
        return "a whole number"
    if lo is not None and hi is not None:
        return f"a whole number from {lo} to {hi}"
    if lo is not None:
        return f"a whole number of at least {lo}"
    return f"a whole number of at most {hi}"


@dataclass(frozen=True)
class GameSpec:
    """Everything known about a game before a state exists.

    Besides its name, seats and options, a game states here the facts that simulations,
    adapters and tests read from it, so that no table outside its folder names it:

    - ``ends``: every ``end`` its ``ending(state)`` can tell (``freetrader.sim.endings``), so
      that a table shows a 0% row for an end that never came;
    - ``longest_games``: ``(seats, actions)`` pairs, the longest finished game measured at
      default options per seat count (``benchmarks/game_lengths.py``); the adapters bound an
      episode at three times it (``adapters.limits``), a seat count not measured gets
      their fallback bound;
    - ``safety_cap``: the name of an option that stops a game after N turns as a
      simulation's guard and no rule of the book (``simulate --turn-cap N`` sets it; a game
      it stops is ``cut``, with no winner); ``None`` where the game's rules always end it;
    - ``random_play_ends``: whether uniformly random play reaches an end of the rulebook;
      where it does not, tests and random playouts set the ``safety_cap``;
    - ``short_game``: ``(option, value)`` pairs that make a game short (a few turns or rounds, still
      played by every rule), for tests and demos that exercise code around the rules; the
      adapters' tests play games this short;
    - ``warm``: fills the caches that are the same for every game of it (e.g. where each
      piece fits); the table server calls it once as it starts, before it forks its workers,
      so no player's move pays for a cold cache on the event loop.
    """

    name: str
    version: int
    title: str
    min_seats: int
    max_seats: int
    hidden_information: bool
    chance: bool
    options: tuple[Option, ...] = ()
    summary: str = ""
    tags: tuple[str, ...] = field(default_factory=tuple)
    ends: tuple[str, ...] = ()
    longest_games: tuple[tuple[int, int], ...] = ()
    safety_cap: str | None = None
    random_play_ends: bool = True
    short_game: tuple[tuple[str, Any], ...] = ()
    warm: Callable[[], None] | None = None

    def __post_init__(self) -> None:
        # A wrong fact here would only show as a wrong table far away: say so where it is written.
        if self.safety_cap is not None and all(o.name != self.safety_cap for o in self.options):
            raise ValueError(f"{self.name}: safety_cap {self.safety_cap!r} is not one of its options")
        if not self.random_play_ends and self.safety_cap is None:
            raise ValueError(f"{self.name}: a game random play cannot end needs a safety_cap for its random playouts")
        unknown = sorted({name for name, _ in self.short_game} - {o.name for o in self.options})
        if unknown:
            raise ValueError(f"{self.name}: short_game sets {', '.join(unknown)}, which is not one of its options")
        for seats, longest in self.longest_games:
            if not self.min_seats <= seats <= self.max_seats or longest < 1:
                raise ValueError(f"{self.name}: longest_games entry ({seats}, {longest}) is not a seat count it "
                                 f"takes ({self.min_seats} to {self.max_seats}) with a length of at least 1")

    @property
    def slug(self) -> str:
        return f"{self.name}-v{self.version}"

    def longest_game(self, seats: int) -> int | None:
        """The longest finished game measured at ``seats`` seats (``longest_games``), or ``None``."""
        return next((n for k, n in self.longest_games if k == seats), None)

    def option(self, name: str) -> Option:
        for o in self.options:
            if o.name == name:
                return o
        known = ", ".join(o.name for o in self.options) or "none"
        raise BadOption(f"{self.slug} has no option {name!r}; its options are: {known}")

    def resolve_options(self, options: Mapping[str, Any] | None) -> dict[str, Any]:
        """Defaults overlaid with ``options``, every value checked."""
        if options is not None and not isinstance(options, Mapping):
            raise BadOption(f"options must be a mapping of name to value, got {type(options).__name__}")
        resolved = {o.name: o.default for o in self.options}
        for name, value in (options or {}).items():
            resolved[name] = self.option(name).check(value)
        return resolved

    def check_seats(self, seats: Any) -> int:
        if isinstance(seats, bool) or not isinstance(seats, int):
            raise BadOption(f"seats must be a whole number, got {seats!r}")
        if not self.min_seats <= seats <= self.max_seats:
            raise BadOption(
                f"{self.title} takes {self.min_seats} to {self.max_seats} seats, not {seats}"
            )
        return seats
