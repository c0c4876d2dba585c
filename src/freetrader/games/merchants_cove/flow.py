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

A decision, once answered, gives its place to ``ANSWERED`` (``answer``): the
work the answer sets off is pushed above it, and the frame below goes on when
that work is done, exactly as if the decision had ended before its work began.
A frame pushed above a decision that is not its work (a Corruption card paid
with Goods at any decision) leaves the decision to be asked again.

Every decision of a turn is the active player's (``state.actor``); when that is
the Peddler (solo), ``go_on`` lets the decision's own ``peddler`` rule take it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar

from freetrader.core import Action
from freetrader.core.frames import ChooseOne, Frame, finish, replace

from .phases import Phase

if TYPE_CHECKING:
    from .state import CoveState

__all__ = ["ANSWERED", "Answered", "Choice", "Decision", "Effect", "answer", "go_on"]


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


@dataclass(frozen=True, slots=True)
class Answered(Effect):
    """Where an answered decision stood: the frame below goes on once the work its answer pushed is done."""

    def run(self, s: CoveState) -> None:
        return None


ANSWERED = Answered()


class Decision(Frame["CoveState"]):
    """A decision of the active player."""

    __slots__ = ()
    phase: ClassVar[Phase]

    def actor(self, s: CoveState) -> int:
        return s.actor

    def peddler(self, s: CoveState) -> None:
        """How the Peddler automaton takes this decision; none reaches it by default, so never stay stuck."""
        finish(s, self)


class Choice(ChooseOne["CoveState"]):
    """A one-off choice among options fixed when it is asked (core ``ChooseOne``), with its phase and Peddler rule."""

    __slots__ = ()
    phase: ClassVar[Phase]

    def child_done(self, s: CoveState, done: Frame[CoveState]) -> None:
        return None  # its answer pushes nothing: a frame above it was a payment made meanwhile; ask again

    def peddler(self, s: CoveState) -> None:
        finish(s, self)


def answer(s: CoveState) -> None:
    """The decision on top is answered: ``ANSWERED`` takes its place; push the work, then ``go_on``."""
    replace(s, ANSWERED)


def go_on(s: CoveState) -> None:
    """Go on from the top frame: an effect is done at once, a Peddler's decision is taken by its own rule;
    a seat's decision waits for the seat."""
    if not s.frames:
        return
    top = s.frames[-1]
    if isinstance(top, Effect):
        finish(s, top)
    elif isinstance(top, (Decision, Choice)) and top.actor(s) >= s.seats:
        top.peddler(s)
