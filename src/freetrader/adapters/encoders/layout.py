"""An observation layout declared once, as named pieces; offsets, bounds, docs and C headers derive from it.

An encoder declares its vector as a sequence of ``Piece`` (``size`` floats
that mean one thing, each within ``low .. high``) and ``Block`` (pieces
repeated ``count`` times, e.g. once per relative seat). From that one
declaration ``Layout`` gives:

- the offsets the Python code writes at (``layout.at("table.round")``,
  ``layout.stride("seats")``) and the total ``size``;
- per-feature ``low`` / ``high`` arrays, the observation Box's bounds;
- ``markdown()``, the table in ``docs/reference/observations.md``
  (``python -m freetrader.adapters.encoders --docs`` writes it);
- ``c_header()``, the ``#define``s the compiled encoder includes
  (``python -m freetrader.adapters.encoders --headers`` writes them).

Tests check that the committed doc and headers match the declarations, and
that every value observed in random games lies within its declared bounds.
A piece's bounds are what its values can be, argued from the rules and the
data (the doc says why where it is not plain), not a measurement.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import numpy as np

__all__ = ["Piece", "Block", "Layout"]


@dataclass(frozen=True)
class Piece:
    """``size`` floats meaning one thing, each within ``low .. high``."""

    name: str
    size: int
    low: float
    high: float
    doc: str

    def __post_init__(self) -> None:
        if not re.fullmatch(r"[a-z][a-z0-9_]*", self.name):
            raise ValueError(f"a piece name is lower-case letters, digits and _, got {self.name!r}")
        if self.size < 0 or self.low > self.high:
            raise ValueError(f"piece {self.name}: size {self.size} and bounds {self.low} .. {self.high} do not fit")


@dataclass(frozen=True)
class Block:
    """``pieces`` repeated ``count`` times, one after the other (``stride`` floats each)."""

    name: str
    count: int
    pieces: tuple[Piece, ...]
    doc: str

    @property
    def stride(self) -> int:
        return sum(p.size for p in self.pieces)


class Layout:
    """The declared layout of one encoder version."""

    def __init__(self, encoder: str, version: int, items: Sequence[Piece | Block], notes: str = "") -> None:
        self.encoder = encoder
        self.version = version
        self.items = tuple(items)
        self.notes = notes
        self._at: dict[str, int] = {}
        self._blocks: dict[str, Block] = {}
        at = 0
        for item in self.items:
            if item.name in self._at:
                raise ValueError(f"{encoder} layout names {item.name!r} twice")
            self._at[item.name] = at
            if isinstance(item, Block):
                self._blocks[item.name] = item
                inner = 0
                for p in item.pieces:
                    key = f"{item.name}.{p.name}"
                    if key in self._at:
                        raise ValueError(f"{encoder} layout names {key!r} twice")
                    self._at[key] = inner
                    inner += p.size
                at += item.count * item.stride
            else:
                at += item.size
        self.size = at

    def at(self, name: str) -> int:
        """Where a piece or block starts; ``"block.piece"``: where the piece starts inside one repeat."""
        try:
            return self._at[name]
        except KeyError:
            raise KeyError(f"the {self.encoder} layout has no piece {name!r}") from None

    def stride(self, block: str) -> int:
        return self._blocks[block].stride

    def pieces(self) -> Iterator[tuple[int, Piece, str]]:
        """Each piece of the vector in order, every repeat of a block: (offset, piece, its full name)."""
        at = 0
        for item in self.items:
            if isinstance(item, Block):
                for r in range(item.count):
                    for p in item.pieces:
                        yield at, p, f"{item.name}[{r}].{p.name}"
                        at += p.size
            else:
                yield at, item, item.name
                at += item.size

    def bounds(self) -> tuple[np.ndarray, np.ndarray]:
        """Per-feature ``low`` and ``high`` (float32 arrays of ``size``)."""
        import numpy as np

        low = np.empty(self.size, np.float32)
        high = np.empty(self.size, np.float32)
        for at, p, _ in self.pieces():
            low[at : at + p.size] = p.low
            high[at : at + p.size] = p.high
        return low, high

    def name_of(self, index: int) -> str:
        """The full name of the piece holding feature ``index`` (for messages)."""
        for at, p, full in self.pieces():
            if at <= index < at + p.size:
                return full if p.size == 1 else f"{full}+{index - at}"
        raise IndexError(f"feature {index} is beyond the {self.encoder} layout's {self.size}")

    def markdown(self) -> str:
        """The documentation table: offset, size, name, bounds, meaning."""
        lines = [f"### {self.encoder} (encoder version {self.version}): {self.size:,} floats", ""]
        if self.notes:
            lines += [self.notes, ""]
        lines += ["| offset | size | piece | low | high | meaning |", "|---:|---:|---|---:|---:|---|"]
        for item in self.items:
            at = self._at[item.name]
            if isinstance(item, Block):
                lines.append(f"| {at} | {item.count} x {item.stride} | **{item.name}** | | | {item.doc} |")
                for p in item.pieces:
                    lines.append(f"| +{self._at[item.name + '.' + p.name]} | {p.size} | {item.name}.{p.name} | "
                                 f"{_num(p.low)} | {_num(p.high)} | {p.doc} |")
            else:
                lines.append(f"| {at} | {item.size} | {item.name} | {_num(item.low)} | {_num(item.high)} | {item.doc} |")
        return "\n".join(lines) + "\n"

    def c_header(self, prefix: str) -> str:
        """``#define``s of every offset and size, for the compiled encoder (generated: do not edit)."""
        guard = f"FREETRADER_{prefix}_LAYOUT_H"
        out = [
            f"/* The {self.encoder} observation layout (encoder version {self.version}), generated from its",
            " * declaration by `python -m freetrader.adapters.encoders --headers`: do not edit. */",
            f"#ifndef {guard}", f"#define {guard}", "",
            f"#define {prefix}_VERSION {self.version}", f"#define {prefix}_SIZE {self.size}",
        ]
        for item in self.items:
            name = f"{prefix}_{item.name.upper()}"
            out.append(f"#define {name} {self._at[item.name]}")
            if isinstance(item, Block):
                out += [f"#define {name}_COUNT {item.count}", f"#define {name}_STRIDE {item.stride}"]
                for p in item.pieces:
                    out.append(f"#define {name}_{p.name.upper()} {self._at[item.name + '.' + p.name]}")
            else:
                out.append(f"#define {name}_SIZE {item.size}")
        out += ["", "#endif", ""]
        return "\n".join(out)


def _num(x: float) -> str:
    return f"{x:g}"
