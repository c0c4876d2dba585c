"""The web table: HTTP + websocket API, lobby, storage, bot seats (needs the ``web`` extra).

``create_app(db_url)`` builds the FastAPI application; ``freetrader serve``
runs it. See ``tables`` for the validate-commit-broadcast path and
``takeback`` for which moves may be taken back.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

__all__ = ["create_app"]

if TYPE_CHECKING:
    from fastapi import FastAPI


def create_app(db_url: str = "sqlite:///freetrader-table.db", **kwargs: Any) -> FastAPI:
    from .app import create_app as _create

    return _create(db_url, **kwargs)
