"""High Card rules, one function per rule (see the table in ``RULES.md``).

Every decision is a frame (``freetrader.core.frames``):

- ``Betting``: the seat whose turn it is stakes, folds or raises.
- ``RaiseBy``: a multi-step decision: after ``raise`` the same seat chooses
  by how much (a ``ChooseOne``); the raise then opens
- ``CallTheRaise``: a reaction window (a ``ReactionWindow``): the seats that
  staked before are asked in seat order from the raiser's left to ``call``
  or ``decline``. When it closes, every earlier staker who did not call
  leaves the showdown, and the ``Betting`` frame below it resumes.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from freetrader.core import Action, BadRecord
from freetrader.core.frames import ChooseOne, Frame, ReactionWindow, finish, push, replace

from . import actions as A
from .components import COMPONENTS as C

if TYPE_CHECKING:
    from .state import HighCardState

    S = HighCardState

_CALL = (A.CALL,)


# -- set-up ------------------------------------------------------------------
def setup(s: S) -> None:
    s.chips = [C.start_chips] * s.seats
    deal_hidden_cards(s)
    s.frames = (Betting(seat=0),)


def deal_hidden_cards(s: S) -> None:
    """Shuffle the deck and deal each seat one card face down."""
    s.deck = list(C.deck)
    s.rng.shuffle(s.deck)
    s.hands = [s.deck.pop() for _ in range(s.seats)]
    s._event(f"Each of the {s.seats} seats is dealt one card face down")


# -- the betting round --------------------------------------------------------
@dataclasses.dataclass(frozen=True, slots=True)
class Betting(Frame["HighCardState"]):
    """Seats decide once each, in seat order: stake, fold, or raise."""

    seat: int

    def actor(self, s: S) -> int:
        return self.seat

    def legal(self, s: S) -> Sequence[Action]:
        stake = s.options["stake"]
        chips = s.chips[self.seat]
        if chips < stake:  # only reachable with a data pack that starts seats with fewer chips than the stake
            return (A.FOLD,)
        return (A.STAKE, A.FOLD, A.RAISE) if chips > stake else (A.STAKE, A.FOLD)

    def prompt(self, s: S) -> str:
        return f"stake {s.options['stake']} on your card, raise, or fold"

    def apply(self, s: S, action: Action) -> None:
        if type(action) is A.Fold:
            fold(s, self.seat)
        else:
            stake(s, self.seat)
            if type(action) is A.Raise:
                raises = tuple(r for r in A.RAISES if r.chips <= s.chips[self.seat])
                push(s, RaiseBy(seat=self.seat, options=raises))
                return  # the raise decides next; ``child_done`` moves on when it is settled
        next_seat(s, self)

    def child_done(self, s: S, done: Frame[Any]) -> None:
        next_seat(s, self)


def stake(s: S, seat: int) -> None:
    """The seat puts the stake (option ``stake``) into the pot and stays in."""
    amount = s.options["stake"]
    s.chips[seat] -= amount
    s.pot += amount
    s.staked[seat] = True
    s.decision[seat] = "stake"
    s._event(f"Seat {seat} stakes {amount}")


def fold(s: S, seat: int) -> None:
    """The seat drops out; its card is never shown."""
    s.decision[seat] = "fold"
    s._event(f"Seat {seat} folds")


def next_seat(s: S, betting: Betting) -> None:
    """After the last seat comes the showdown, and the game is over (no frame is left)."""
    if betting.seat + 1 == s.seats:
        finish(s, betting)
        showdown(s)
    else:
        replace(s, Betting(seat=betting.seat + 1))


# -- raising: a decision in two steps, then a reaction window ---------------------------
@dataclasses.dataclass(frozen=True, slots=True)
class RaiseBy(ChooseOne["HighCardState"]):
    """The raiser chooses by how many chips (the second step of ``raise``)."""

    def prompt(self, s: S) -> str:
        return "raise by how many chips"

    def chosen(self, s: S, action: Action) -> None:
        assert isinstance(action, A.RaiseBy)
        raise_stake(s, self.seat, action.chips)


def raise_stake(s: S, seat: int, chips: int) -> None:
    """The raiser adds ``chips``; every seat that staked before must call it or leave the showdown."""
    s.chips[seat] -= chips
    s.pot += chips
    s.decision[seat] = "raise"
    s._event(f"Seat {seat} raises by {chips}")
    if not CallTheRaise.open(s, first=(seat + 1) % s.seats, raiser=seat, chips=chips):
        leave_unless_called(s, seat, ())


@dataclasses.dataclass(frozen=True, slots=True)
class CallTheRaise(ReactionWindow["HighCardState"]):
    """Earlier stakers who can pay are asked, from the raiser's left; declines are not logged."""

    raiser: int = -1
    chips: int = 0
    called: tuple[int, ...] = ()

    def may_answer(self, s: S, seat: int) -> bool:
        # Public facts only: who staked, who called, chips in hand.
        return (seat != self.raiser and s.staked[seat] and seat not in self.called
                and s.chips[seat] >= self.chips)

    def answers(self, s: S, seat: int) -> Sequence[Action]:
        return _CALL

    def decline(self, s: S) -> Action:
        return A.DECLINE

    def prompt(self, s: S) -> str:
        return f"seat {self.raiser} raised by {self.chips}: call, or decline and leave the showdown"

    def answer(self, s: S, seat: int, action: Action) -> None:
        s.chips[seat] -= self.chips
        s.pot += self.chips
        s._event(f"Seat {seat} calls")
        replace(s, dataclasses.replace(self, called=self.called + (seat,)))

    def close(self, s: S) -> None:
        leave_unless_called(s, self.raiser, self.called)


def leave_unless_called(s: S, raiser: int, called: tuple[int, ...]) -> None:
    """Every earlier staker who did not (or could not) call leaves the showdown; its chips stay in the pot."""
    for q in range(s.seats):
        if q != raiser and s.staked[q] and q not in called:
            s.staked[q] = False
            s.decision[q] = "out"
            s._event(f"Seat {q} does not call and leaves the showdown")


# -- the end -------------------------------------------------------------------
def showdown(s: S) -> None:
    """Stakers show their cards; the highest wins the pot, a tie splits it."""
    stakers = [i for i in range(s.seats) if s.staked[i]]
    if not stakers:
        s._event("Every seat folds: no showdown, nobody wins the pot")
        return
    s._event("Showdown: " + ", ".join(f"seat {i} shows {s.hands[i]}" for i in stakers))
    best = max(s.hands[i] for i in stakers)
    s.pot_winners = [i for i in stakers if s.hands[i] == best]
    if len(s.pot_winners) == 1:
        s._event(f"Seat {s.pot_winners[0]} wins the pot of {s.pot}")
    else:
        s._event(f"Seats {', '.join(map(str, s.pot_winners))} split the pot of {s.pot}")


def scores(s: S) -> list[float]:
    """Chips in hand, plus an equal share of the pot for each winner once it is won."""
    out = [float(c) for c in s.chips]
    for i in s.pot_winners:
        out[i] += s.pot / len(s.pot_winners)
    return out


def check_consistent(s: S) -> None:
    """Refuse a loaded state whose cards or chips do not add up (core has checked each field's type and size)."""
    n = s.seats
    if sorted(s.deck + s.hands) != sorted(C.deck):
        raise BadRecord(f"saved High Card state does not hold exactly the {len(C.deck)} cards of the deck")
    if sum(s.chips) + s.pot != n * C.start_chips:
        raise BadRecord(f"saved High Card state's chips add up to {sum(s.chips) + s.pot}, not {n * C.start_chips}")
