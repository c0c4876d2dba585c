"""Loading component data (TOML) with errors that name the file, the entry and the fix."""

from __future__ import annotations

import os
import tomllib
from collections.abc import Mapping
from importlib import resources
from pathlib import Path
from typing import Any

from .errors import DataError

__all__ = ["load_toml", "Table", "PROVENANCES"]

PROVENANCES = ("rulebook", "public", "designed")


def load_toml(package: str, filename: str, data_dir: str | Path | None = None) -> dict[str, Any]:
    """Read ``data/<filename>`` of a game package, or the same file from a data pack.

    A data pack (for owners of a physical copy) is ``data_dir``, or else
    ``$FREETRADER_DATA/<game>/``; any file it has overrides the shipped one.
    """
    if data_dir is None and os.environ.get("FREETRADER_DATA"):
        data_dir = Path(os.environ["FREETRADER_DATA"]) / package.rsplit(".", 1)[-1]
    if data_dir is not None and (Path(data_dir) / filename).is_file():
        path = Path(data_dir) / filename
        text = path.read_text(encoding="utf-8")
        where = str(path)
    else:
        res = resources.files(package).joinpath("data", filename)
        text = res.read_text(encoding="utf-8")
        where = f"{package.rsplit('.', 1)[-1]}/data/{filename}"
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise DataError(f"{where}: not valid TOML ({exc})") from None


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
