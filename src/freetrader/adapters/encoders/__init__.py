"""Observation encoders and action index spaces, one per game, with a generic fallback.

``encoder_for(game, seats, options)`` returns the encoder registered for the
game or, if there is none, ``GenericEncoder``. A game gets better
observations by registering one: a module ``encoders/<game>.py`` here calls
``register_encoder`` on import (modules are discovered, no list to edit), or
a third-party package exposes a module in the ``freetrader.encoders``
entry-point group. Each encoder module documents its observation layout,
its action index layout and its version.
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Callable, Mapping
from importlib.metadata import entry_points
from typing import Any

from freetrader.core import BadOption, Game
from freetrader.core import game as find_game

from .base import ActionSpace, Catalogue, Encoder, HashedActions, crc, seat_view
from .generic import GenericEncoder

__all__ = [
    "ActionSpace", "Catalogue", "Encoder", "GenericEncoder", "HashedActions", "crc", "encoder_for",
    "encoder_names", "register_encoder", "seat_view",
]

EncoderFactory = Callable[[Game, int, Mapping[str, Any]], Encoder]
_ENCODERS: dict[str, tuple[EncoderFactory, frozenset[int] | None]] = {}
_NOT_GAMES = frozenset(("base", "generic"))
_discovered = False


def register_encoder(game_name: str, factory: EncoderFactory, versions: tuple[int, ...] | None = None) -> None:
    """Use ``factory(game, seats, options)`` for the game called ``game_name``.

    ``versions`` limits it to those game versions (``None``: every version);
    other versions fall back to the generic encoder.
    """
    _ENCODERS[game_name] = (factory, None if versions is None else frozenset(versions))


def _discover() -> None:
    global _discovered
    if _discovered:
        return
    _discovered = True
    for info in pkgutil.iter_modules(__path__):
        if not info.name.startswith("_") and info.name not in _NOT_GAMES:
            importlib.import_module(f"{__name__}.{info.name}")
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
    _discover()
    found = _ENCODERS.get(g.spec.name)
    if found is not None and (found[1] is None or g.spec.version in found[1]):
        return found[0](g, seats, opts)
    if encoder == "game":
        raise BadOption(f"{g.slug} has no registered encoder; use encoder='generic' or register one")
    return GenericEncoder(g, seats, opts)
