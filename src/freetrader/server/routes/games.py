"""The registered games: their options and bots, and the components the browser draws them from."""

from __future__ import annotations

import asyncio
import functools
from pathlib import Path
from typing import Any

from fastapi import APIRouter

import freetrader
from freetrader.bots import bot_names
from freetrader.core import FreetraderError
from freetrader.core.registry import load_part, part_file

from ..errors import not_found
from ..models import GameInfo
from .common import ERRORS

__all__ = ["game_file", "registered", "router"]

router = APIRouter()


@router.get("/api/games", response_model=list[GameInfo], summary="The registered games, their options and bots")
async def list_games() -> list[dict[str, Any]]:
    out = []
    for name in freetrader.games():
        g = freetrader.game(name)
        spec = g.spec
        out.append({
            "name": spec.name, "slug": spec.slug, "title": spec.title, "summary": spec.summary,
            "min_seats": spec.min_seats, "max_seats": spec.max_seats,
            "options": [{"name": o.name, "kind": o.kind, "default": o.default, "help": o.help,
                         "choices": list(o.choices) if o.choices else None,
                         "minimum": o.minimum, "maximum": o.maximum} for o in spec.options],
            "bots": bot_names(g),
        })
    return out


@router.get("/api/games/{name}/components", responses=ERRORS,
            summary="What the browser draws a game from: its board, cards, names, texts and costs")
async def game_components(name: str) -> dict[str, Any]:
    # built once per game, but the first build can take seconds (Cornish Smuggler's hold
    # packings): off the loop, so other tables are not held up meanwhile
    return await asyncio.to_thread(_components, name)


def registered(name: str) -> freetrader.Game:
    """The game registered as ``name``; a 404 naming the registered games otherwise."""
    try:
        return freetrader.game(name)
    except FreetraderError as exc:
        raise not_found(str(exc)) from None


def game_file(name: str, filename: str) -> Path:
    """A file of the game's own folder (``games/<game>/<filename>``); a 404 when it has none."""
    path = part_file(registered(name), filename)
    if path is None:
        raise not_found(f"{name} has no {filename} of its own; the generic renderer draws it")
    return path


@functools.lru_cache(maxsize=64)
def _components(name: str) -> dict[str, Any]:
    """The game's ``web`` part (``games/<game>/web.py``) serialised once: the data never changes while serving."""
    g = registered(name)
    part = load_part(g, "web")
    return {"game": g.spec.slug, "components": part.components() if part is not None else {}}
