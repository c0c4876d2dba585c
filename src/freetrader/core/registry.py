"""Games register themselves; discovery imports every package under ``freetrader.games``.

No central list: a new folder under ``games/`` (not starting with ``_``) that
calls ``register`` on import is found. Third-party packages add games through
the ``freetrader.games`` entry-point group.
"""

from __future__ import annotations

import importlib
import pkgutil
from importlib.metadata import entry_points

from .errors import UnknownGame
from .state import Game

__all__ = ["register", "games", "game"]

_GAMES: dict[str, Game] = {}
_discovered = False


def register(game: Game) -> Game:
    slug = game.spec.slug
    if slug in _GAMES and _GAMES[slug] is not game:
        raise ValueError(f"game {slug} is registered twice")
    _GAMES[slug] = game
    return game


def _discover() -> None:
    global _discovered
    if _discovered:
        return
    _discovered = True
    pkg = importlib.import_module("freetrader.games")  # not `import ... as`: freetrader.games is also a function

    for info in pkgutil.iter_modules(pkg.__path__):
        if not info.name.startswith("_"):
            importlib.import_module(f"{pkg.__name__}.{info.name}")
    for ep in entry_points(group="freetrader.games"):
        ep.load()


def _latest() -> dict[str, Game]:
    _discover()
    latest: dict[str, Game] = {}
    for g in _GAMES.values():
        cur = latest.get(g.spec.name)
        if cur is None or g.spec.version > cur.spec.version:
            latest[g.spec.name] = g
    return latest


def games(all_versions: bool = False) -> list[str]:
    """Registered game names (latest versions), or every ``name-vN`` slug."""
    _discover()
    if all_versions:
        return sorted(_GAMES)
    return sorted(_latest())


def game(name: str) -> Game:
    """The game called ``name`` (latest version) or exactly ``name-vN``."""
    if not isinstance(name, str):
        raise UnknownGame(f"a game name must be text, got {type(name).__name__}")
    _discover()
    key = name.strip().lower().replace("_", "-")
    if key in _GAMES:
        return _GAMES[key]
    latest = _latest()
    if key in latest:
        return latest[key]
    known = ", ".join(sorted(latest)) or "none"
    raise UnknownGame(f"unknown game {name!r}; registered games: {known}")
