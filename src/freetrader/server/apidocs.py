"""``/docs``: the interactive API page, with every script and style served by this server.

FastAPI's default page loads Swagger UI from a CDN, so it is blank offline or
behind a strict proxy. The ``swagger-ui-bundle`` package (part of the ``web``
extra) ships the same files; they are served under ``/docs/assets/``.
"""

from __future__ import annotations

from pathlib import Path

from fastapi import FastAPI
from fastapi.openapi.docs import get_swagger_ui_html
from fastapi.responses import HTMLResponse
from fastapi.staticfiles import StaticFiles

__all__ = ["ASSETS", "install_api_docs", "swagger_dir"]

ASSETS = "/docs/assets"


def swagger_dir() -> Path:
    from swagger_ui_bundle import swagger_ui_path

    return Path(str(swagger_ui_path))


def install_api_docs(app: FastAPI) -> None:
    """Add ``/docs`` and its assets to ``app`` (made with ``docs_url=None, redoc_url=None``)."""
    assets = swagger_dir()
    app.mount(ASSETS, StaticFiles(directory=str(assets)), name="swagger-assets")
    openapi_url = app.openapi_url or "/openapi.json"

    @app.get("/docs", include_in_schema=False)
    async def api_docs() -> HTMLResponse:
        return get_swagger_ui_html(
            openapi_url=openapi_url, title=f"{app.title}: API",
            swagger_js_url=f"{ASSETS}/swagger-ui-bundle.js", swagger_css_url=f"{ASSETS}/swagger-ui.css",
            swagger_favicon_url=f"{ASSETS}/favicon-32x32.png",
        )
