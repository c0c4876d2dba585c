"""The two kinds of frame on a Merchants Cove stack: decisions and the work waiting below them.

The top frame of ``state.frames`` is the pending decision. Work that an action
sets off but that must wait for decisions taken first (place the adventurers of
a Load in turn, each perhaps filling a Boat that docks where its player chooses,
then advance the timepiece) is a ``Task`` frame below them: the rules' driver
(``rules.run``) runs a task as soon as it comes to the top, and stops at a
decision. A task that needs a seat's choice pushes the ``Decision`` for it.

Every decision of a turn is the active player's (``state.actor``); when that is
the Peddler (solo), the driver lets the frame's own ``peddler`` rule decide.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

from freetrader.core.frames import ChooseOne, Frame

from .phases import Phase

if TYPE_CHECKING:
    from .state import CoveState as S

__all__ = ["Choice", "Decision", "Task", "drop"]


def drop(s: S) -> None:
    """The top frame is done: take it off (the work below goes on when the driver reaches it)."""
    s.frames = s.frames[:-1]


class Task(Frame[Any]):
    """Work waiting for the frames above it; ``run`` once it is on top (no seat decides it)."""

    __slots__ = ()
    phase: ClassVar[Phase] = Phase.RUN

    def actor(self, s: S) -> int:
        return s.actor

    def run(self, s: S) -> None:
        """Do the work; the driver has taken this frame off the stack already."""
        raise NotImplementedError


class Decision(Frame[Any]):
    """A decision of the active player."""

    __slots__ = ()
    phase: ClassVar[Phase]

    def actor(self, s: S) -> int:
        return s.actor

    def peddler(self, s: S) -> None:
        """How the Peddler automaton takes this decision; none reaches it by default, so never stay stuck."""
        drop(s)


class Choice(ChooseOne[Any]):
    """A one-off choice among options fixed when it is asked (core ``ChooseOne``), with its phase and Peddler rule."""

    __slots__ = ()
    phase: ClassVar[Phase]

    def peddler(self, s: S) -> None:
        drop(s)
