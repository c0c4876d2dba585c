"""The kinds of frame on a Merchants Cove stack: decisions, and the effects waiting below them.

The top frame of ``state.frames`` is the pending decision. An action often sets
off work that must wait for decisions taken first (place the adventurers of a
Load in turn, each perhaps filling a Boat that docks where its player chooses,
then advance the timepiece): each piece of that work is a typed ``Effect``
frame, pushed below the decisions it waits for. Core's stack does the rest:
when the frame above an effect finishes, the effect finishes too
(``child_done``) and does its work as it closes; the frame below goes on once
whatever that work pushed is done. Effects pushed together happen last pushed
first, and ``go_on`` starts them.

A decision, once answered, finishes when the work its answer pushed is done
(``settle``; at once if it pushed nothing), as core's ``ChooseOne`` does: the
frame below goes on after that work, exactly as if the decision had ended
before its work began. A frame that ``interrupts`` (a Corruption card paid with
Goods at any decision) leaves the decision below it to be asked again.

Every decision of a turn is the active player's (``state.actor``); when that is
the Peddler (solo), ``go_on`` lets the decision's own ``peddler`` rule take it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, ClassVar

from freetrader.core import Action
from freetrader.core.frames import ChooseOne, Frame, finish

from .phases import Phase

if TYPE_CHECKING:
    from .state import CoveState

__all__ = ["Choice", "Decision", "Effect", "go_on", "settle"]


class Effect(Frame["CoveState"]):
    """Work waiting for the frames above it; ``run`` once they are done (no seat decides it)."""

    __slots__ = ()
    phase: ClassVar[Phase] = Phase.RUN

    def actor(self, s: CoveState) -> int:
        return s.actor

    def legal(self, s: CoveState) -> Sequence[Action]:
        return ()  # never asked: an effect is done as soon as nothing is above it

    def run(self, s: CoveState) -> None:
        """Do the work; this frame is off the stack already, and what it pushes goes on at once."""
        raise NotImplementedError(f"{type(self).__name__} must define run()")

    def child_done(self, s: CoveState, done: Frame[CoveState]) -> None:
        finish(s, self)

    def close(self, s: CoveState) -> None:
        frames = s.frames
        self.run(s)
        if s.frames is not frames:
            go_on(s)


class Decision(Frame["CoveState"]):
    """A decision of the active player."""

    __slots__ = ()
    phase: ClassVar[Phase]
    #: True for a frame pushed above a decision at rest that is not its answer's work (a payment made at any
    #: decision): when it finishes, the decision below is asked again.
    interrupts: ClassVar[bool] = False

    def actor(self, s: CoveState) -> int:
        return s.actor

    def child_done(self, s: CoveState, done: Frame[CoveState]) -> None:
        if not getattr(done, "interrupts", False):  # the work of its answer is done
            finish(s, self)

    def peddler(self, s: CoveState) -> None:
        """How the Peddler automaton takes this decision; none reaches it by default, so never stay stuck."""
        finish(s, self)


class Choice(ChooseOne["CoveState"]):
    """A one-off choice among options fixed when it is asked (core ``ChooseOne``), with its phase and Peddler rule."""

    __slots__ = ()
    phase: ClassVar[Phase]

    def child_done(self, s: CoveState, done: Frame[CoveState]) -> None:
        return None  # its answer pushes nothing: a frame above it interrupted it (a payment); ask again

    def peddler(self, s: CoveState) -> None:
        finish(s, self)


def settle(s: CoveState, frame: Frame[CoveState], frames: tuple[Frame[CoveState], ...]) -> None:
    """``frame``, answered when the stack was ``frames``, is done now if its answer pushed nothing; otherwise
    what it pushed goes on, and ``frame`` finishes after it (``child_done``)."""
    if s.frames is frames:
        finish(s, frame)
    else:
        go_on(s)


def go_on(s: CoveState) -> None:
    """Go on from the top frame: an effect is done at once, a Peddler's decision is taken by its own rule;
    a seat's decision waits for the seat."""
    frames = s.frames
    if frames:
        top = frames[-1]
        if isinstance(top, Effect):
            finish(s, top)
        elif top.actor(s) >= s.seats and isinstance(top, (Decision, Choice)):
            top.peddler(s)
