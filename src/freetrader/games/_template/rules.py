"""High Card rules, one function per rule (see the table in ``RULES.md``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from freetrader.core import Action, BadRecord

from . import actions as A
from .components import COMPONENTS as C

if TYPE_CHECKING:
    from .state import HighCardState as S

_STAKE_OR_FOLD = (A.STAKE, A.FOLD)
_FOLD_ONLY = (A.FOLD,)


# -- set-up ------------------------------------------------------------------
def setup(s: S) -> None:
    s.chips = [C.start_chips] * s.seats
    s.staked = [False] * s.seats
    s.pot_winners = []
    s.pot = 0
    s.turn = 0
    deal_hidden_cards(s)


def deal_hidden_cards(s: S) -> None:
    """Shuffle the deck and deal each seat one card face down."""
    s.deck = list(C.deck)
    s.rng.shuffle(s.deck)
    s.hands = [s.deck.pop() for _ in range(s.seats)]
    s._event(f"Each of the {s.seats} seats is dealt one card face down")


# -- the betting round --------------------------------------------------------
def legal(s: S) -> tuple[Action, ...]:
    # Only reachable with a data pack that starts seats with fewer chips than the stake.
    if s.chips[s.turn] < s.options["stake"]:
        return _FOLD_ONLY
    return _STAKE_OR_FOLD


def apply(s: S, a: Action) -> None:
    if a is A.STAKE or type(a) is A.Stake:
        stake(s)
    elif a is A.FOLD or type(a) is A.Fold:
        fold(s)
    else:
        raise TypeError(f"not a High Card action: {a!r}")


def stake(s: S) -> None:
    """The seat puts the stake (option ``stake``) into the pot and stays in."""
    seat, amount = s.turn, s.options["stake"]
    s.chips[seat] -= amount
    s.pot += amount
    s.staked[seat] = True
    s._event(f"Seat {seat} stakes {amount}")
    next_seat(s)


def fold(s: S) -> None:
    """The seat drops out; its card is never shown."""
    s._event(f"Seat {s.turn} folds")
    next_seat(s)


def next_seat(s: S) -> None:
    """Seats decide once each, in seat order; after the last one comes the showdown."""
    s.turn += 1
    if s.turn == s.seats:
        showdown(s)


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


def prompt(s: S) -> str:
    return f"stake {s.options['stake']} on your card, or fold"


def check_consistent(s: S) -> None:
    """Refuse a loaded state whose cards or chips do not add up."""
    n = s.seats
    for name in ("hands", "chips", "staked"):
        if len(getattr(s, name)) != n:
            raise BadRecord(f"saved High Card state field {name!r} must have one entry per seat ({n})")
    if sorted(s.deck + s.hands) != sorted(C.deck):
        raise BadRecord(f"saved High Card state does not hold exactly the {len(C.deck)} cards of the deck")
    if sum(s.chips) + s.pot != n * C.start_chips:
        raise BadRecord(f"saved High Card state's chips add up to {sum(s.chips) + s.pot}, not {n * C.start_chips}")
    if not 0 <= s.turn <= n:
        raise BadRecord(f"saved High Card state's turn {s.turn} must be 0..{n}")
