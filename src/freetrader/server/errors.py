"""The one error type of the server: an HTTP status and a message for the user."""

from __future__ import annotations

from typing import Any

__all__ = ["ApiError", "not_found", "bad_request", "check_text", "conflict", "forbidden"]


class ApiError(Exception):
    """Sent to the client as ``{"error": message}`` with ``status``; nothing was changed."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


def bad_request(message: str) -> ApiError:
    return ApiError(400, message)


def forbidden(message: str) -> ApiError:
    return ApiError(403, message)


def not_found(message: str) -> ApiError:
    return ApiError(404, message)


def conflict(message: str) -> ApiError:
    return ApiError(409, message)


def check_text(text: Any, what: str, limit: int) -> str:
    """``text`` if it is a string of at most ``limit`` characters, else a 400 naming ``what``."""
    if not isinstance(text, str):
        raise bad_request(f"{what} must be text, got {type(text).__name__}")
    if len(text) > limit:
        raise bad_request(f"{what} is {len(text)} characters long; at most {limit} are allowed")
    return text
