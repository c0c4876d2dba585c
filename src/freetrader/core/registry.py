"""Games register themselves; discovery imports every package under ``freetrader.games``.

No central list: a new folder under ``games/`` (not starting with ``_``) that
calls ``register`` on import is found. Third-party packages add games through
the ``freetrader.games`` entry-point group.

A game's other parts live in its own package, under fixed module names, and
are imported only when asked for (``load_part``), so that importing a game
never imports a bot, ``rich`` or a web library: ``bot`` (its heuristic bot and
search hooks), ``render`` (its terminal renderer), ``analysis`` (its balance
report components) and ``web`` (the components its browser renderer draws,
beside ``web.js``). Each part module registers itself with the registry of
its layer (``register_heuristic``, ``register_renderer``,
``register_components``) when imported.
"""

from __future__ import annotations

import importlib
import importlib.util
import pkgutil
import sys
from importlib import resources
from importlib.metadata import entry_points
from pathlib import Path
from types import ModuleType

from .errors import UnknownGame
from .state import Game

__all__ = ["register", "games", "game", "PARTS", "game_package", "load_part", "load_parts", "part_file"]

#: The per-game part modules ``load_part`` knows, each ``<game package>.<part>``.
PARTS = ("bot", "render", "analysis", "web")

_GAMES: dict[str, Game] = {}
_PACKAGES: dict[str, str] = {}
_LOADED: dict[tuple[str, str], ModuleType | None] = {}
_discovered = False


def register(game: Game, package: str | None = None) -> Game:
    """Add ``game``; its parts are looked up in ``package`` (default: the package defining its class)."""
    slug = game.spec.slug
    if slug in _GAMES and _GAMES[slug] is not game:
        raise ValueError(f"game {slug} is registered twice")
    _GAMES[slug] = game
    _PACKAGES[slug] = package or _package_of(type(game).__module__)
    return game


def _package_of(module: str) -> str:
    mod = sys.modules.get(module)
    if mod is not None and hasattr(mod, "__path__"):
        return module
    return module.rpartition(".")[0] or module


def _as_game(g: Game | str) -> Game:
    return g if isinstance(g, Game) else game(g)


def game_package(g: Game | str) -> str:
    """The import name of the package ``g`` registered from (``freetrader.games.contraband``)."""
    gm = _as_game(g)
    return _PACKAGES.get(gm.spec.slug) or _package_of(type(gm).__module__)


def load_part(g: Game | str, part: str) -> ModuleType | None:
    """Import ``<game package>.<part>`` once (it registers itself); ``None`` if the game has no such part."""
    if part not in PARTS:
        raise ValueError(f"unknown game part {part!r}; the parts are: {', '.join(PARTS)}")
    pkg = game_package(g)
    key = (pkg, part)
    if key not in _LOADED:
        name = f"{pkg}.{part}"
        # find_spec on a missing submodule is None; an error inside an existing part still raises.
        _LOADED[key] = importlib.import_module(name) if importlib.util.find_spec(name) is not None else None
    return _LOADED[key]


def load_parts(part: str) -> list[ModuleType]:
    """``load_part`` for every registered game (every version); the modules found."""
    _discover()
    found = [load_part(g, part) for g in list(_GAMES.values())]
    return [m for m in found if m is not None]


def part_file(g: Game | str, filename: str) -> Path | None:
    """A file shipped in the game's own folder (e.g. ``web.js``), or ``None`` if it has none."""
    if "/" in filename or "\\" in filename or filename.startswith("."):
        raise ValueError(f"a part file is a plain file name in the game's folder, got {filename!r}")
    res = resources.files(game_package(g)).joinpath(filename)
    return Path(str(res)) if res.is_file() else None


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
