"""What the route modules share: the app's context as a dependency, the documented errors, seat tokens."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import Depends
from starlette.requests import HTTPConnection

from ..context import AppContext
from ..errors import bad_request
from ..models import ErrorBody
from ..table import Table

__all__ = ["Ctx", "ERRORS", "context", "seat_of"]

#: The error responses every API route documents (all ``{"error": "..."}``).
ERRORS: dict[int | str, dict[str, Any]] = {
    code: {"model": ErrorBody} for code in (400, 403, 404, 409, 413, 422, 429, 503)
}


def context(conn: HTTPConnection) -> AppContext:
    """The app's ``AppContext`` (``create_app`` keeps it on ``app.state``)."""
    return conn.app.state.context  # type: ignore[no-any-return]


async def _context(conn: HTTPConnection) -> AppContext:
    # async: FastAPI would run a plain function in its thread pool, a thread hop on every request
    return context(conn)


#: A route's parameter for the app's context (no request parameter: the API schema is unchanged).
Ctx = Annotated[AppContext, Depends(_context)]


def seat_of(table: Table, token: str) -> int:
    """The seat ``token`` opens at ``table``; a 400 without a token."""
    seat = table.seat_of(token)
    if seat is None:
        raise bad_request("a seat token is required; the join answer gives one")
    return seat
