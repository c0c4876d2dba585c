"""A request-body size limit, as plain ASGI middleware (answers 413 with a JSON error)."""

from __future__ import annotations

import json
from typing import Any

from starlette.exceptions import HTTPException

__all__ = ["BodyLimit"]

Scope = dict[str, Any]
Message = dict[str, Any]


class _TooLarge(HTTPException):
    """Raised while the body is read; FastAPI passes an HTTPException on to the error handler."""

    def __init__(self, limit: int) -> None:
        super().__init__(413, f"request body too large: at most {limit} bytes are accepted")


class BodyLimit:
    """Refuse HTTP bodies over ``limit`` bytes (``large_paths`` maps a path to its own limit)."""

    def __init__(self, app: Any, limit: int, large_paths: dict[str, int] | None = None) -> None:
        self.app = app
        self.limit = limit
        self.large_paths = large_paths or {}

    async def __call__(self, scope: Scope, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        limit = self.large_paths.get(scope.get("path", ""), self.limit)
        for name, value in scope.get("headers", ()):
            if name == b"content-length":
                try:
                    too_big = int(value) > limit
                except ValueError:
                    too_big = False
                if too_big:
                    await self._refuse(send, limit)
                    return
        seen = 0
        started = False

        async def counting_receive() -> Message:
            nonlocal seen
            msg: Message = await receive()
            if msg["type"] == "http.request":
                seen += len(msg.get("body", b""))
                if seen > limit:
                    raise _TooLarge(limit)
            return msg

        async def tracking_send(msg: Message) -> None:
            nonlocal started
            if msg["type"] == "http.response.start":
                started = True
            await send(msg)

        try:
            await self.app(scope, counting_receive, tracking_send)
        except _TooLarge:
            if not started:
                await self._refuse(send, limit)

    @staticmethod
    async def _refuse(send: Any, limit: int) -> None:
        body = json.dumps({"error": f"request body too large: at most {limit} bytes are accepted"}).encode()
        await send({"type": "http.response.start", "status": 413,
                    "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]})
        await send({"type": "http.response.body", "body": body})
