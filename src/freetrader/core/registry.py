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

A game is imported (and its data loaded) when first asked for: ``game(name)``
imports that game's package only; ``games()`` imports them all. A game whose
data pack is broken is left out and remembered with its one-line reason
(``broken_games``); asking for it raises that ``DataError``, and every other
game works.
"""

from __future__ import annotations

import importlib
import importlib.util
import pkgutil
import sys
from collections.abc import Callable, Iterator, Mapping
from importlib import resources
from importlib.metadata import entry_points
from pathlib import Path
from types import ModuleType
from typing import Generic, TypeVar

from .data import pack_folder
from .errors import DataError, UnknownGame
from .spec import GameSpec
from .state import Game

__all__ = [
    "register", "games", "game", "broken_games", "import_game_module",
    "PARTS", "game_package", "load_part", "load_parts", "part_file", "SpecFacts",
]

#: The per-game part modules ``load_part`` knows, each ``<game package>.<part>``.
PARTS = ("bot", "render", "analysis", "web")

_GAMES: dict[str, Game] = {}
_PACKAGES: dict[str, str] = {}
_LOADED: dict[tuple[str, str], ModuleType | None] = {}
_BROKEN: dict[str, str] = {}  # game name -> why its data pack does not load
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
        # find_spec on a missing submodule is None; an error inside an existing part still raises,
        # unless a data pack broke it (then the part is missing and the game is reported as broken).
        found = importlib.util.find_spec(name) is not None
        _LOADED[key] = sys.modules[name] if found and import_game_module(name, _as_game(g).spec.name) else None
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


def import_game_module(module: str, game_name: str) -> bool:
    """Import ``module`` (a game package, or a module built on one); False if ``game_name``'s data is broken.

    A ``DataError`` is remembered for that game, and so is any other failure
    while a data pack for it is in use (a pack can break a game in ways the
    loaders do not foresee); without a pack, a failure is a bug and is raised.
    """
    if game_name in _BROKEN:
        return False
    try:
        importlib.import_module(module)
    except DataError as exc:
        folder = pack_folder(f"freetrader.games.{game_name.replace('-', '_')}")
        where = f" (data pack {folder})" if folder is not None and str(folder) not in str(exc) else ""
        _BROKEN[game_name] = f"{game_name} cannot load its components{where}: {exc}"
        return False
    except Exception as exc:
        folder = pack_folder(f"freetrader.games.{game_name.replace('-', '_')}")
        if folder is None:
            raise
        _BROKEN[game_name] = f"the data pack {folder} breaks {game_name} ({type(exc).__name__}: {exc})"
        return False
    return True


def _discover() -> None:
    global _discovered
    if _discovered:
        return
    _discovered = True
    pkg = importlib.import_module("freetrader.games")  # not `import ... as`: freetrader.games is also a function

    for info in pkgutil.iter_modules(pkg.__path__):
        if not info.name.startswith("_"):
            import_game_module(f"{pkg.__name__}.{info.name}", info.name.replace("_", "-"))
    for ep in entry_points(group="freetrader.games"):
        ep.load()


def _find_one(key: str) -> None:
    """Import only the game package ``key`` names (``cornish-smuggler-v1`` -> ``games.cornish_smuggler``)."""
    name = key.rsplit("-v", 1)[0] if key.rsplit("-v", 1)[-1].isdigit() else key
    module = "freetrader.games." + name.replace("-", "_")
    if name.startswith("_") or "." in name or not name:
        return
    try:
        found = importlib.util.find_spec(module) is not None
    except (ImportError, ValueError):
        found = False
    if found:
        import_game_module(module, name)


def broken_games() -> dict[str, str]:
    """Games left out because their data does not load: name -> the one-line reason."""
    _discover()
    return dict(_BROKEN)


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
    key = name.strip().lower().replace("_", "-")
    if not _discovered:
        _find_one(key)
    if key in _GAMES:
        return _GAMES[key]
    base = key.rsplit("-v", 1)[0] if key.rsplit("-v", 1)[-1].isdigit() else key
    if base in _BROKEN:
        raise DataError(_BROKEN[base])
    if not _discovered:  # found by name alone: its latest version, without importing the other games
        versions = [g for g in _GAMES.values() if g.spec.name == key]
        if versions:
            return max(versions, key=lambda g: g.spec.version)
    latest = _latest()  # imports every game, entry points included
    if base in _BROKEN:
        raise DataError(_BROKEN[base])
    if key in _GAMES:
        return _GAMES[key]
    if key in latest:
        return latest[key]
    known = ", ".join(sorted(latest)) or "none"
    raise UnknownGame(f"unknown game {name!r}; registered games: {known}")


V = TypeVar("V")


class SpecFacts(Mapping[str, V], Generic[V]):
    """A read-only table, game name -> one fact of its spec, over the registered games that state it.

    For callers that read a fact by game name (``SAFETY_CAPS.get(name)``): the table is the
    registry's, so it names no game itself and a new game's own spec is in it.
    """

    def __init__(self, fact: Callable[[GameSpec], V | None]) -> None:
        self._fact = fact

    def __getitem__(self, name: str) -> V:
        try:
            spec = game(name).spec  # imports that game only
        except (UnknownGame, DataError):
            raise KeyError(name) from None
        value = self._fact(spec)
        if value is None:
            raise KeyError(name)
        return value

    def __iter__(self) -> Iterator[str]:
        return iter([n for n in games() if self._fact(game(n).spec) is not None])

    def __len__(self) -> int:
        return sum(1 for _ in self)
