"""Component data (TOML): loading with errors that name the file, the entry and the fix; data packs.

A **data pack** lets the owner of a physical copy replace the shipped
components. It is a folder (``--data DIR`` on every command, or
``$FREETRADER_DATA``) holding one folder per game, named by the game's name
(``cornish-smuggler/``); any file there replaces the shipped file of the same
name, the others stay as shipped. A folder named after the Python package
(``cornish_smuggler/``) still works, with a warning. Folders and files that
belong to no game are warned about and ignored.

Every game's data is identified by its **content hash** (``content_hash``):
SHA-256 over the name and bytes of each data file the game read, from the pack
or shipped. Records and simulate lines carry it, so results made with
different components are never mixed silently.
"""

from __future__ import annotations

import hashlib
import os
import pkgutil
import tomllib
import warnings
from collections.abc import Mapping
from importlib import resources
from pathlib import Path
from typing import Any

from .errors import DataError

__all__ = [
    "load_toml", "Table", "PROVENANCES", "DataPackWarning", "ENV", "pack_root", "pack_folder", "content_hash",
    "check_pack_root", "set_pack_root",
]

PROVENANCES = ("rulebook", "public", "designed")
ENV = "FREETRADER_DATA"

# package -> {data file name: sha256 of the bytes read}; only loads of the registered game (data_dir None)
_READ: dict[str, dict[str, str]] = {}
_warned: set[str] = set()
_checked: set[Path] = set()  # pack roots already looked through


class DataPackWarning(UserWarning):
    """A data pack with something in it that no game reads (a misnamed folder or file)."""


def _warn(message: str) -> None:
    if message not in _warned:  # once per process, however often the pack is consulted
        _warned.add(message)
        warnings.warn(message, DataPackWarning, stacklevel=3)


def set_pack_root(path: str | os.PathLike[str] | None) -> None:
    """Use the data pack at ``path`` (None: the shipped components) in this process and its workers.

    Set through the environment variable, so worker processes (multiprocessing,
    the server's) read the same pack. Must be called before a game is used.
    """
    if path is None:
        os.environ.pop(ENV, None)
        return
    p = Path(path).expanduser()
    if not p.is_dir():
        raise DataError(f"data pack {p} is not a folder; --data (or ${ENV}) names a folder with one folder per game")
    os.environ[ENV] = str(p.resolve())


def pack_root() -> Path | None:
    """The data pack in use (``$FREETRADER_DATA``), or None."""
    root = os.environ.get(ENV, "")
    return Path(root) if root else None


def _game_name(package: str) -> str:
    return package.rsplit(".", 1)[-1].replace("_", "-")


def _known_folders() -> dict[str, str]:
    """Folder name -> game name, for every game package (without importing any)."""
    from importlib.metadata import entry_points

    pkg = "freetrader.games"
    spec = __import__(pkg, fromlist=["__path__"])
    names = [info.name for info in pkgutil.iter_modules(spec.__path__) if not info.name.startswith("_")]
    names += [ep.name for ep in entry_points(group="freetrader.games")]
    out: dict[str, str] = {}
    for n in names:
        out[n.replace("_", "-")] = n.replace("_", "-")
        out[n.replace("-", "_")] = n.replace("_", "-")
    return out


def check_pack_root(root: Path | None = None) -> None:
    """Warn about folders and files at the top of the pack that belong to no game (once per pack)."""
    root = root if root is not None else pack_root()
    if root is None or root in _checked:
        return
    if not root.is_dir():
        raise DataError(f"data pack {root} (${ENV}) is not a folder; it must hold one folder per game")
    known = _known_folders()
    games = ", ".join(sorted(set(known.values())))
    for entry in sorted(root.iterdir()):
        if entry.name.startswith("."):
            continue
        if not entry.is_dir():
            _warn(f"data pack {root}: {entry.name} is a file; a pack holds one folder per game ({games}); ignored")
        elif entry.name not in known:
            _warn(f"data pack {root}: folder {entry.name}/ is not a game's name ({games}); ignored")
    _checked.add(root)


def pack_folder(package: str) -> Path | None:
    """The pack's folder for the game of ``package`` (slug-named, else the old package-named one), or None."""
    root = pack_root()
    if root is None:
        return None
    check_pack_root(root)
    short = package.rsplit(".", 1)[-1]
    by_name, by_package = root / _game_name(package), root / short
    if by_name.is_dir():
        if by_package != by_name and by_package.is_dir():
            _warn(f"data pack {root}: both {by_name.name}/ and {by_package.name}/ exist; using {by_name.name}/")
        return by_name
    if by_package != by_name and by_package.is_dir():
        _warn(f"data pack {root}: folder {short}/ is named after the Python package; "
              f"rename it to {by_name.name}/ (the game's name)")
        return by_package
    return None


def _check_pack_files(folder: Path, package: str) -> None:
    shipped = {p.name for p in resources.files(package).joinpath("data").iterdir() if p.name.endswith(".toml")}
    for entry in sorted(folder.iterdir()):
        if entry.name.startswith("."):
            continue
        if entry.name not in shipped or not entry.is_file():
            _warn(f"data pack {folder}: {entry.name} is not a data file of {_game_name(package)} "
                  f"(its files: {', '.join(sorted(shipped))}); ignored")


def load_toml(package: str, filename: str, data_dir: str | Path | None = None) -> dict[str, Any]:
    """Read ``data/<filename>`` of a game package, or the same file from a data pack.

    ``data_dir`` (a folder of the game's files, for tests and tools) overrides
    everything; else the pack in use (see ``pack_folder``) overrides the
    shipped file when it has one of that name.
    """
    tracked = data_dir is None
    if data_dir is None:
        folder = pack_folder(package)
        if folder is not None:
            if package not in _READ:
                _check_pack_files(folder, package)
            data_dir = folder
    if data_dir is not None and (Path(data_dir) / filename).is_file():
        path = Path(data_dir) / filename
        try:
            raw = path.read_bytes()
        except OSError as exc:
            raise DataError(f"{path}: cannot be read ({exc.strerror or exc})") from None
        where = str(path)
    else:
        raw = resources.files(package).joinpath("data", filename).read_bytes()
        where = f"{package.rsplit('.', 1)[-1]}/data/{filename}"
    if tracked:
        _READ.setdefault(package, {})[filename] = hashlib.sha256(raw).hexdigest()
    try:
        return tomllib.loads(raw.decode("utf-8"))
    except UnicodeDecodeError as exc:
        raise DataError(f"{where}: not UTF-8 text ({exc.reason} at byte {exc.start})") from None
    except tomllib.TOMLDecodeError as exc:
        raise DataError(f"{where}: not valid TOML ({exc})") from None


def content_hash(module: str) -> str | None:
    """``sha256:<16 hex>`` of every data file of the game defined in ``module`` (None: it has no data folder).

    Each ``data/*.toml`` the game ships counts, read from the data pack where
    the pack replaces it, whether or not this process has read it yet (the
    browser's drawing data, say, is read only by the server): so the same
    files give the same hash in every process and on every machine, and a
    pack that replaces any file gives another.
    """
    package = _package_with_data(module)
    if package is None:
        return None
    folder = pack_folder(package)
    h = hashlib.sha256()
    shipped = resources.files(package).joinpath("data")
    for entry in sorted(shipped.iterdir(), key=lambda e: e.name):
        if not entry.name.endswith(".toml"):
            continue
        override = Path(folder) / entry.name if folder is not None else None
        raw = override.read_bytes() if override is not None and override.is_file() else entry.read_bytes()
        h.update(f"{entry.name}\0{hashlib.sha256(raw).hexdigest()}\n".encode())
    return "sha256:" + h.hexdigest()[:16]


def _package_with_data(module: str) -> str | None:
    """The package of ``module`` (or the nearest one above it) that ships a ``data`` folder."""
    parts = module.split(".")
    while parts:
        name = ".".join(parts)
        try:
            if resources.files(name).joinpath("data").is_dir():
                return name
        except (ModuleNotFoundError, TypeError):
            pass
        parts.pop()
    return None


class Table:
    """One TOML table, read with typed accessors that fail with a clear message."""

    def __init__(self, data: Mapping[str, Any], where: str) -> None:
        if not isinstance(data, Mapping):
            raise DataError(f"{where}: expected a table, got {type(data).__name__}")
        self.data = data
        self.where = where
        self._used: set[str] = set()

    def get(self, key: str, kind: type, default: Any = ...) -> Any:
        self._used.add(key)
        if key not in self.data:
            if default is ...:
                raise DataError(f"{self.where}: missing key {key!r} ({kind.__name__})")
            return default
        value = self.data[key]
        if kind is int and (isinstance(value, bool) or not isinstance(value, int)):
            raise DataError(f"{self.where}: {key!r} must be a whole number, got {value!r}")
        if not isinstance(value, kind):
            raise DataError(f"{self.where}: {key!r} must be {kind.__name__}, got {value!r}")
        return value

    def provenance(self) -> str:
        p: str = self.get("provenance", str)
        if p not in PROVENANCES:
            raise DataError(f"{self.where}: provenance {p!r} must be one of {', '.join(PROVENANCES)}")
        return p

    def done(self) -> None:
        """Fail on keys nobody read: a typo must not be silently ignored."""
        extra = sorted(set(self.data) - self._used)
        if extra:
            raise DataError(f"{self.where}: unknown key(s) {', '.join(map(repr, extra))}")
