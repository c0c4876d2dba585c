"""Typed errors. Every message says what was wrong and what would be right."""

from __future__ import annotations

__all__ = [
    "FreetraderError",
    "IllegalAction",
    "InvalidNotation",
    "BadOption",
    "BadRecord",
    "UnknownGame",
    "DataError",
]


class FreetraderError(Exception):
    """Base of every error the engine raises on purpose."""


class IllegalAction(FreetraderError, ValueError):
    """An action that is not legal in this state (the state is unchanged)."""


class InvalidNotation(IllegalAction):
    """Text that is not the notation of any action of this game."""


class BadOption(FreetraderError, ValueError):
    """An unknown game option, or a value outside its allowed range."""


class BadRecord(FreetraderError, ValueError):
    """A game record or saved state that cannot be read or does not replay."""

    def __init__(self, message: str, action: int | None = None) -> None:
        super().__init__(message)
        # the action (counted from 1) that did not replay, when that was the problem: a server that
        # must not quote a hidden action back names only its number
        self.action = action


class UnknownGame(FreetraderError, ValueError):
    """A game slug that is not registered."""


class DataError(FreetraderError, ValueError):
    """A broken component data file (board, cards, tracks)."""
