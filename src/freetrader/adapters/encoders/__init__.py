"""Observation encoders and action index spaces, one per game, with a generic fallback.

``encoder_for(game, seats, options)`` returns the encoder registered for the
game or, if there is none, ``GenericEncoder``. A game gets better
observations by registering one: a module ``encoder.py`` in the game's own
folder (``freetrader/games/<game>/encoder.py``, beside its ``bot.py``) calls
``register_encoder`` on import. It is found from the game's registration
(``core.registry.game_package``), so there is no list to edit; a
third-party package can also expose a module in the ``freetrader.encoders``
entry-point group. Each encoder declares its observation layout as named
pieces (``layout.Layout``), from which its offsets, its Box bounds, the
table in ``docs/reference/observations.md`` and its compiled twin's C
header are generated; its module documents its action index layout and
its version.

The old module names ``freetrader.adapters.encoders.<game>`` remain as
aliases of the moved modules.
"""

from __future__ import annotations

import importlib
import importlib.util
from collections.abc import Callable, Mapping
from importlib.metadata import entry_points
from pathlib import Path
from typing import Any

from freetrader.core import BadOption, Game
from freetrader.core import game as find_game
from freetrader.core import games as all_games
from freetrader.core.registry import game_package, import_game_module

from .base import ActionSpace, Catalogue, Encoder, HashedActions, crc, seat_view
from .generic import GenericEncoder
from .layout import Block, Layout, Piece

__all__ = [
    "ActionSpace", "Block", "Catalogue", "Encoder", "GenericEncoder", "HashedActions", "Layout", "Piece", "crc",
    "encoder_for", "encoder_names", "generated_docs", "layout_headers", "layouts", "register_encoder",
    "register_layout", "seat_view",
]

EncoderFactory = Callable[[Game, int, Mapping[str, Any]], Encoder]
_ENCODERS: dict[str, tuple[EncoderFactory, frozenset[int] | None]] = {}
_LAYOUTS: dict[str, tuple[Layout, str | None]] = {}
_HERE = Path(__file__).parent
_looked: set[str] = set()  # game packages whose ``encoder`` module was looked for
_entry_points_loaded = False


def register_encoder(game_name: str, factory: EncoderFactory, versions: tuple[int, ...] | None = None) -> None:
    """Use ``factory(game, seats, options)`` for the game called ``game_name``.

    ``versions`` limits it to those game versions (``None``: every version);
    other versions fall back to the generic encoder.
    """
    _ENCODERS[game_name] = (factory, None if versions is None else frozenset(versions))


def register_layout(game_name: str, layout: Layout, c_prefix: str | None = None) -> None:
    """Publish ``game_name``'s declared layout (at its default options) for the docs; with ``c_prefix``
    also as the C header ``_<game>_layout.h`` beside the compiled encoders, its names starting ``<c_prefix>_``."""
    _LAYOUTS[game_name] = (layout, c_prefix)


def layouts() -> dict[str, Layout]:
    """Every registered game's declared observation layout, by game name."""
    _discover()
    return {name: lay for name, (lay, _) in sorted(_LAYOUTS.items())}


def generated_docs() -> str:
    """The text of ``docs/reference/observations.md``, generated from the declared layouts."""
    _discover()
    parts = [
        "# Observation layouts", "",
        "Generated from each encoder's declaration (`freetrader.games.<game>.encoder.layout`) by",
        "`python -m freetrader.adapters.encoders --docs`; a test checks that this file matches.",
        "Offsets are in floats; a block's pieces are repeated `count` times, `stride` floats apart, and",
        "their offsets (`+k`) are inside one repeat. `low` and `high` bound every value of the piece (the",
        "observation Box's per-feature bounds); where they depend on the seats and options, the table shows",
        "them at the seats and default options its heading says, and the encoder computes them for its own.",
        "",
    ]
    for _name, (lay, _) in sorted(_LAYOUTS.items()):
        parts.append(lay.markdown())
    return "\n".join(parts)


def layout_headers() -> dict[Path, str]:
    """The C layout headers of the compiled encoders: path -> text."""
    _discover()
    return {_HERE / f"_{name.replace('-', '_')}_layout.h": lay.c_header(prefix)
            for name, (lay, prefix) in sorted(_LAYOUTS.items()) if prefix is not None}


def _discover(g: Game | None = None) -> None:
    """Import the ``encoder`` module of ``g``'s package (of every game's when ``g`` is None), once each."""
    global _entry_points_loaded
    for one in [g] if g is not None else [find_game(name) for name in all_games(all_versions=True)]:
        pkg = game_package(one)
        if pkg in _looked:
            continue
        _looked.add(pkg)
        module = f"{pkg}.encoder"
        if importlib.util.find_spec(module) is not None:
            import_game_module(module, one.spec.name)
    if not _entry_points_loaded:
        _entry_points_loaded = True
        for ep in entry_points(group="freetrader.encoders"):
            ep.load()


def encoder_names() -> list[str]:
    """Games with a registered encoder."""
    _discover()
    return sorted(_ENCODERS)


def encoder_for(
    game: Game | str,
    seats: int,
    options: Mapping[str, Any] | None = None,
    encoder: str | Encoder | EncoderFactory = "auto",
) -> Encoder:
    """The encoder for ``game`` at ``seats`` with ``options`` (resolved against the game's defaults).

    ``encoder``: ``"auto"`` (the game's own if registered, else generic),
    ``"generic"``, ``"game"`` (the game's own, an error if none), an
    ``Encoder`` or a factory.
    """
    g = find_game(game) if isinstance(game, str) else game
    seats = g.spec.check_seats(seats)
    opts = g.spec.resolve_options(options)
    if isinstance(encoder, Encoder):
        return encoder
    if callable(encoder):
        return encoder(g, seats, opts)
    if encoder == "generic":
        return GenericEncoder(g, seats, opts)
    if encoder not in ("auto", "game"):
        raise BadOption(f"encoder must be 'auto', 'game', 'generic', an Encoder or a factory, got {encoder!r}")
    _discover(g)
    found = _ENCODERS.get(g.spec.name)
    if found is not None and (found[1] is None or g.spec.version in found[1]):
        return found[0](g, seats, opts)
    if encoder == "game":
        raise BadOption(f"{g.slug} has no registered encoder; use encoder='generic' or register one")
    return GenericEncoder(g, seats, opts)
