"""``/docs``: the interactive API page, with every script and style served by this server.

FastAPI's default page loads Swagger UI from a CDN, so it is blank offline or
behind a strict proxy. The ``swagger-ui-bundle`` package (part of the ``web``
extra) ships the same files; they are served under ``/docs/assets/``.

That Swagger UI (4.15) reads OpenAPI 3.0 only: given the 3.1 document FastAPI
writes (``/openapi.json``, which stays as it is) it shows "Unable to render this
definition". The page therefore reads ``/docs/openapi-3.0.json``, the same
document in OpenAPI 3.0.3 terms (``openapi_30``): a null alternative becomes
``nullable``, a numeric ``exclusiveMinimum`` the 3.0 boolean form.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from fastapi import FastAPI
from fastapi.openapi.docs import get_swagger_ui_html
from fastapi.responses import HTMLResponse, JSONResponse
from fastapi.staticfiles import StaticFiles

__all__ = ["ASSETS", "OPENAPI_30", "install_api_docs", "openapi_30", "swagger_dir"]

ASSETS = "/docs/assets"
OPENAPI_30 = "/docs/openapi-3.0.json"


def _schema_30(node: Any) -> Any:
    """One JSON Schema node (and everything under it) in OpenAPI 3.0's dialect."""
    if isinstance(node, list):
        return [_schema_30(x) for x in node]
    if not isinstance(node, dict):
        return node
    out = {k: _schema_30(v) for k, v in node.items()}
    for key in ("anyOf", "oneOf"):
        alts = out.get(key)
        if isinstance(alts, list) and {"type": "null"} in alts:
            rest = [a for a in alts if a != {"type": "null"}]
            del out[key]
            if len(rest) == 1 and isinstance(rest[0], dict) and "$ref" not in rest[0]:
                out = {**rest[0], **out}  # the alternative's own keys, beside title, default, ...
            elif rest:
                out[key] = rest
            out["nullable"] = True
    for bound, flag in (("exclusiveMinimum", "minimum"), ("exclusiveMaximum", "maximum")):
        value = out.get(bound)
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            out[flag], out[bound] = value, True
    if isinstance(out.get("type"), list):  # ["string", "null"]
        kinds = [t for t in out["type"] if t != "null"]
        if len(kinds) < len(out["type"]):
            out["nullable"] = True
        out["type"] = kinds[0] if len(kinds) == 1 else kinds
    if "const" in out:
        out["enum"] = [out.pop("const")]
    if isinstance(out.get("examples"), list) and out["examples"] and "example" not in out:
        out["example"] = out.pop("examples")[0]
    return out


def openapi_30(spec: dict[str, Any]) -> dict[str, Any]:
    """``spec`` (OpenAPI 3.1, as FastAPI writes it) as an OpenAPI 3.0.3 document Swagger UI 4 reads."""
    out = _schema_30(spec)
    out["openapi"] = "3.0.3"
    return dict(out)


def swagger_dir() -> Path:
    from swagger_ui_bundle import swagger_ui_path

    return Path(str(swagger_ui_path))


def install_api_docs(app: FastAPI) -> None:
    """Add ``/docs`` and its assets to ``app`` (made with ``docs_url=None, redoc_url=None``)."""
    assets = swagger_dir()
    app.mount(ASSETS, StaticFiles(directory=str(assets)), name="swagger-assets")
    converted: list[dict[str, Any]] = []  # made at the first ask (the routes are all in by then)

    @app.get(OPENAPI_30, include_in_schema=False)
    async def api_docs_schema() -> JSONResponse:
        if not converted:
            converted.append(openapi_30(app.openapi()))
        return JSONResponse(converted[0])

    @app.get("/docs", include_in_schema=False)
    async def api_docs() -> HTMLResponse:
        return get_swagger_ui_html(
            openapi_url=OPENAPI_30, title=f"{app.title}: API",
            swagger_js_url=f"{ASSETS}/swagger-ui-bundle.js", swagger_css_url=f"{ASSETS}/swagger-ui.css",
            swagger_favicon_url=f"{ASSETS}/favicon-32x32.png",
        )
