"""The report's tables: one value type, shown in the terminal and HTML, exported to CSV and JSON.

A ``Table`` holds raw values (numbers stay numbers); ``kinds`` says how each
column is shown (``pct``, ``num``, ``int``, ``p``, ``signed_pct``, ``text``).
Every table of ``report`` and ``compare`` goes through ``export`` so that no
figure appears only as a picture.
"""

from __future__ import annotations

import csv
import json
import math
import os
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

__all__ = ["Table", "cell", "export"]


@dataclass
class Table:
    name: str  # the file stem of its CSV, and its key in the JSON
    title: str
    columns: list[str]
    kinds: list[str]
    rows: list[list[Any]] = field(default_factory=list)
    note: str = ""

    def formatted(self) -> list[list[str]]:
        return [[cell(v, k) for v, k in zip(row, self.kinds, strict=True)] for row in self.rows]

    def as_json(self) -> dict[str, Any]:
        return {
            "title": self.title,
            "note": self.note,
            "columns": self.columns,
            "rows": [dict(zip(self.columns, (_plain(v) for v in row), strict=True)) for row in self.rows],
        }


def _plain(v: Any) -> Any:
    if isinstance(v, float) and not math.isfinite(v):
        return None
    if hasattr(v, "item"):  # a numpy scalar
        return _plain(v.item())
    return v


def cell(v: Any, kind: str) -> str:
    """One value as the report shows it."""
    if v is None or (isinstance(v, float) and math.isnan(v)):
        return "–"
    if kind == "pct":
        return f"{v:.1%}"
    if kind == "signed_pct":
        return f"{v:+.1%}"
    if kind == "num":
        return f"{v:,.1f}"
    if kind == "signed_num":
        return f"{v:+,.1f}"
    if kind == "int":
        return f"{v:g}" if isinstance(v, float) else str(v)
    if kind == "p":
        return f"{v:.3g}"
    if kind == "flag":
        return "yes" if v else ""
    return str(v)


def export(tables: Sequence[Table], folder: str | os.PathLike[str], meta: dict[str, Any] | None = None) -> list[Path]:
    """Write ``<name>.csv`` for every table and ``tables.json`` with all of them; returns the paths."""
    out = Path(folder)
    out.mkdir(parents=True, exist_ok=True)
    paths = []
    for t in tables:
        path = out / f"{t.name}.csv"
        with open(path, "w", encoding="utf-8", newline="") as f:
            w = csv.writer(f)
            w.writerow(t.columns)
            for row in t.rows:
                w.writerow(["" if _plain(v) is None else _plain(v) for v in row])
        paths.append(path)
    doc = {"meta": meta or {}, "tables": {t.name: t.as_json() for t in tables}}
    path = out / "tables.json"
    path.write_text(json.dumps(doc, indent=1, default=str) + "\n", encoding="utf-8")
    paths.append(path)
    return paths
