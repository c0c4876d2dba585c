"""The FastAPI application: the lobby and table API, the websocket hub, the static client.

Every error is ``{"error": "..."}`` with a 4xx status and changes nothing.
Responses carry views only (``State.view(seat)`` for the requester's seat,
``view(None)`` for spectators); records are given out only once a game is over.

The routes live in ``server/routes/``, one module per concern; what they share
(limits, the live lobby, the replay workers) is the app's ``context.AppContext``.
"""

from __future__ import annotations

from fastapi import FastAPI

import freetrader

from .apidocs import install_api_docs
from .context import MAX_BODY, MAX_MESSAGE, MAX_RECORD, AppContext
from .hints import install_coach
from .limits import BodyLimit, Limits
from .routes import games, lobby, play, replays, sockets
from .routes.common import ERRORS
from .routes.errors import install_error_handlers
from .routes.pages import install_pages

__all__ = ["create_app", "MAX_MESSAGE", "MAX_BODY", "MAX_RECORD"]


def create_app(db_url: str = "sqlite:///freetrader-table.db", *, bot_delay: float = 0.0,
               bot_workers: int | None = None, heavy_workers: int = 1, bot_deadline: float = 10.0,
               limits: Limits | None = None, sweep_seconds: float = 1.0) -> FastAPI:
    """The table server on ``db_url`` (SQLite file or PostgreSQL URL).

    ``bot_workers`` processes decide for bots (default: one fewer than the cores), each decision within
    ``bot_deadline`` seconds; ``heavy_workers`` processes run replays. ``limits``: see ``Limits``.
    On PostgreSQL the process joins the others on the database (``cluster``); every ``sweep_seconds``
    it takes over the tables whose owner died.
    """
    ctx = AppContext(db_url, bot_delay=bot_delay, bot_workers=bot_workers, heavy_workers=heavy_workers,
                     bot_deadline=bot_deadline, limits=limits, sweep_seconds=sweep_seconds)
    app = FastAPI(title="Freetrader table", version=freetrader.__version__, lifespan=ctx.lifespan,
                  docs_url=None, redoc_url=None,  # /docs is served with local scripts: install_api_docs
                  description="Lobby, tables and seats of the Freetrader game table. Every error is "
                              '{"error": "..."}; responses hold only what the requester\'s seat may see.')
    app.state.context = ctx
    app.add_middleware(BodyLimit, limit=MAX_BODY, large_paths={"/api/replay": MAX_RECORD})
    install_api_docs(app)
    install_error_handlers(app)
    for routes in (games, lobby, play, replays):  # the order of the API page
        app.include_router(routes.router)
    ctx.coach = install_coach(app, ctx.live, ERRORS)  # GET .../review, POST .../hint (server/hints.py)
    app.include_router(sockets.router)
    install_pages(app)
    return app
