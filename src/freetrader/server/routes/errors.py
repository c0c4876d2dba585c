"""Every error as ``{"error": "..."}``: the API's own, the request checks', Starlette's, and a bug's (500)."""

from __future__ import annotations

import logging

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException

from .. import wire
from ..errors import ApiError

__all__ = ["install_error_handlers"]

log = logging.getLogger("freetrader.server")


def _validation_message(exc: RequestValidationError) -> str:
    parts = []
    for err in exc.errors()[:5]:
        loc = ".".join(str(p) for p in err.get("loc", ()) if p != "body")
        if err.get("type") == "json_invalid":
            return "the request body is not valid JSON; send one JSON object (Content-Type: application/json)"
        msg = str(err.get("msg", "is invalid"))
        parts.append(f"{loc}: {msg}" if loc else msg)
    return "bad request: " + "; ".join(parts)


async def _api_error(_req: Request, exc: ApiError) -> JSONResponse:
    return JSONResponse({"error": exc.message}, status_code=exc.status)


async def _invalid(_req: Request, exc: RequestValidationError) -> JSONResponse:
    return JSONResponse({"error": _validation_message(exc)}, status_code=422)


async def _http(_req: Request, exc: StarletteHTTPException) -> JSONResponse:
    if isinstance(exc.__cause__, RecursionError):  # FastAPI's body reader hit 8,000 nested [
        return JSONResponse({"error": f"the request body is {wire.NESTED}"}, status_code=400)
    return JSONResponse({"error": str(exc.detail)}, status_code=exc.status_code)


async def _crash(_req: Request, exc: Exception) -> JSONResponse:
    log.exception("unexpected error", exc_info=exc)
    return JSONResponse({"error": "internal error; nothing was changed"}, status_code=500)


def install_error_handlers(app: FastAPI) -> None:
    """Answer every error in one JSON line (a 4xx changes nothing; an unexpected one is logged, a 500)."""
    app.exception_handler(ApiError)(_api_error)
    app.exception_handler(RequestValidationError)(_invalid)
    app.exception_handler(StarletteHTTPException)(_http)
    app.exception_handler(Exception)(_crash)
