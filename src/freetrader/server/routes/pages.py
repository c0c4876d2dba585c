"""The pages: the lobby, a table, the replay page, the players' rules, the games' scripts, the static files."""

from __future__ import annotations

import functools
from importlib import resources
from pathlib import Path

from fastapi import APIRouter, FastAPI
from fastapi.responses import FileResponse, HTMLResponse
from fastapi.staticfiles import StaticFiles

from ..errors import not_found
from ..rules import rules_page
from .games import game_file, registered

__all__ = ["install_pages", "router", "web_dir"]

router = APIRouter(include_in_schema=False)


@functools.cache
def web_dir() -> Path:
    """The browser client's folder (``freetrader/web``)."""
    return Path(str(resources.files("freetrader") / "web"))


@router.get("/")
async def index() -> FileResponse:
    return FileResponse(web_dir() / "index.html")


@router.get("/t/{table_id}")
async def table_page(table_id: str) -> FileResponse:
    return FileResponse(web_dir() / "table.html")


@router.get("/replay")
async def replay_page() -> FileResponse:
    return FileResponse(web_dir() / "replay.html")


@router.get("/rules/{name}")
async def rules(name: str) -> HTMLResponse:
    registered(name)
    page = rules_page(name)
    if page is None:
        raise not_found(f"{name} has no players' rules page yet; see its RULES.md")
    return HTMLResponse(page)


@router.get("/static/games/{name}.js")
async def game_script(name: str) -> FileResponse:
    # a game's browser renderer lives in its own folder (games/<game>/web.js); generic.js stays here
    path = web_dir() / "games" / "generic.js" if name == "generic" else game_file(name, "web.js")
    return FileResponse(path, media_type="text/javascript")


def install_pages(app: FastAPI) -> None:
    """The pages' routes, then ``/static`` (mounted last: the routes above take their paths first)."""
    app.include_router(router)
    app.mount("/static", StaticFiles(directory=str(web_dir())), name="static")
