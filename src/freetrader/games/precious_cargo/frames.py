"""Precious Cargo's decisions as frames (``freetrader.core.frames``): the set-up choices, then turns.

The stack during play is a ``Turn`` (the seat to act and the actions it has
used) with at most one sub-decision on it: ``Moving`` (the ships' moves that
begin a turn), ``Loading`` (more crates onto the ship that took on cargo) or
``Selling`` (more crates sold at the settlement where a sale began). When a
sub-decision finishes, the turn goes on in ``Turn.child_done``; after two
actions it ends and the other seat's ``Turn`` replaces it. The game is over
when the stack is empty. Every field here is public: the only hidden thing,
the order of the face-down chips, stays on the state.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar

from freetrader.core import Action
from freetrader.core.frames import AskSeats, ChooseOne, Frame, finish, push, replace

from . import actions as A
from . import rules as R
from .components import COMPONENTS as C
from .phases import Phase

if TYPE_CHECKING:
    from .state import PreciousCargoState

__all__ = ["ChooseCountry", "ChooseFirst", "ChooseHomes", "Loading", "Moving", "Selling", "Turn", "set_up"]

SHIPS = R.SHIPS


# -- Set Up ----------------------------------------------------------------------------------------------
def set_up(s: PreciousCargoState) -> None:
    """Set Up: the country each player leads (seat 0 chooses, or the ``countries`` option deals them)."""
    how = s.options["countries"]
    if how == "choose":
        push(s, ChooseCountry(seat=0, options=A.COUNTRY))
        return
    R.assign_countries(s, 0, s.rng.below(2) if how == "random" else 0)
    choose_first_player(s)


def choose_first_player(s: PreciousCargoState) -> None:
    """Set Up: "Choose a player to go first" (seat 1 chooses, or the ``first_player`` option says)."""
    first = R.first_by_option(s)
    if first is None:
        push(s, ChooseFirst(seat=1, options=A.FIRST))
        return
    R.set_first(s, first)
    choose_homes(s)


def choose_homes(s: PreciousCargoState) -> None:
    """Set Up: each player chooses a home settlement, the first player first."""
    push(s, ChooseHomes(order=(s.first, 1 - s.first)))


@dataclass(frozen=True, slots=True)
class ChooseCountry(ChooseOne["PreciousCargoState"]):
    """Set Up: seat 0 chooses the country it leads; the other seat leads the other."""

    phase: ClassVar[Phase] = Phase.COUNTRY

    def chosen(self, s: PreciousCargoState, action: Action) -> None:
        R.assign_countries(s, self.seat, R.country_index(action))

    def close(self, s: PreciousCargoState) -> None:
        choose_first_player(s)

    def prompt(self, s: PreciousCargoState) -> str:
        return "choose the country you lead"


@dataclass(frozen=True, slots=True)
class ChooseFirst(ChooseOne["PreciousCargoState"]):
    """Set Up: seat 1 (who did not choose the country) chooses the player who goes first."""

    phase: ClassVar[Phase] = Phase.FIRST

    def chosen(self, s: PreciousCargoState, action: Action) -> None:
        R.set_first(s, action.seat)  # type: ignore[attr-defined]

    def close(self, s: PreciousCargoState) -> None:
        choose_homes(s)

    def prompt(self, s: PreciousCargoState) -> str:
        return "choose the player who goes first"


@dataclass(frozen=True, slots=True)
class ChooseHomes(AskSeats["PreciousCargoState"]):
    """Set Up: a home settlement each, in the players' own country; then the chips are dealt and play begins."""

    phase: ClassVar[Phase] = Phase.HOME

    @property
    def seat(self) -> int:
        """The seat asked now (``PreciousCargoState.to_act`` reads every frame's ``seat``)."""
        return self.order[0]

    def ask_legal(self, s: PreciousCargoState, seat: int) -> tuple[Action, ...]:
        return R.legal_homes(s, seat)

    def answer(self, s: PreciousCargoState, seat: int, action: Action) -> None:
        R.choose_home(s, seat, C.by_id[action.settlement])  # type: ignore[attr-defined]

    def close(self, s: PreciousCargoState) -> None:
        R.deal_chips(s)
        start_turn(s, s.first)

    def prompt(self, s: PreciousCargoState) -> str:
        return f"choose your home settlement in {C.countries[s.country[self.order[0]]].name}"


# -- How to Play -------------------------------------------------------------------------------------------
def start_turn(s: PreciousCargoState, seat: int) -> None:
    """How to Play: you begin your turn by moving your ships, each up to its sail count (skipped when none can)."""
    limit = s.options["turn_limit"]
    if limit and s.turn >= limit:  # the simulations' safety cap, not a rule
        R.end_game(s, f"cut by the safety cap of {limit} turns before anyone reached the target; no winner")
        return
    s.turn += 1
    moves, sails = s.moves, s.sails
    for slot in range(seat * SHIPS, seat * SHIPS + SHIPS):
        moves[slot] = sails[slot]
    turn = _TURNS[seat][0]
    if s.frames:
        replace(s, turn)
    else:
        push(s, turn)
    if R.can_move(s, seat):
        push(s, _MOVING[seat])


def end_turn(s: PreciousCargoState, seat: int) -> None:
    s.moves[:] = _NO_MOVES
    start_turn(s, 1 - seat)


@dataclass(frozen=True, slots=True)
class Turn(Frame["PreciousCargoState"]):
    """How to Play: after moving, up to two different actions of the six (each once a turn), then the turn ends."""

    phase: ClassVar[Phase] = Phase.ACTIONS

    seat: int
    used: int  # the actions taken this turn, as bits (``rules.BUILD`` ...)

    def actor(self, s: PreciousCargoState) -> int:
        return self.seat

    def legal(self, s: PreciousCargoState) -> tuple[Action, ...]:
        return R.legal_actions(s, self.seat, self.used)

    def prompt(self, s: PreciousCargoState) -> str:
        left = R.ACTIONS_PER_TURN - self.used.bit_count()
        return f"take up to {left} more different action{'s' if left > 1 else ''}, or end the turn"

    def apply(self, s: PreciousCargoState, action: Action) -> None:
        t = type(action)
        seat = self.seat
        if t is A.EndTurn:
            end_turn(s, seat)
            return
        turn = _TURNS[seat][self.used | _BIT[t]]
        replace(s, turn)
        # Taking on and selling cargo go on while there is more to take or sell (a frame on the turn).
        if t is A.Take:
            slot = seat * SHIPS + action.ship - 1  # type: ignore[attr-defined]
            R.take_crate(s, seat, slot, C.cargo_by_id[action.cargo])  # type: ignore[attr-defined]
            if R.legal_takes(s, slot):
                push(s, _LOADING[slot])
                return
        elif t is A.Sell:
            slot = seat * SHIPS + action.ship - 1  # type: ignore[attr-defined]
            demanded = R.sell_crate(s, seat, slot, R.crate_code(action.crate))  # type: ignore[attr-defined]
            if not s.frames:  # the sale ended the game
                return
            place = s.at[slot]
            if R.legal_sales(s, seat, place):
                push(s, _SELLING[seat][place][demanded])
                return
            R.draw_new_chip(s, place, demanded)
        # Move One Ship Again, Build a New Hull, Add Sails, Install a Governor: one decision each.
        elif t is A.Again:
            R.sail(s, seat * SHIPS + action.ship - 1, C.by_id[action.to])  # type: ignore[attr-defined]
        elif t is A.Build:
            R.build_hull(s, seat, C.by_id[action.settlement])  # type: ignore[attr-defined]
        elif t is A.AddSails:
            R.add_sails(s, seat, seat * SHIPS + action.ship - 1, action.n)  # type: ignore[attr-defined]
        else:
            R.install_governor(s, seat, C.by_id[action.settlement])  # type: ignore[attr-defined]
        if turn.used.bit_count() >= R.ACTIONS_PER_TURN:  # "up to two of the six actions"
            end_turn(s, seat)

    def child_done(self, s: PreciousCargoState, done: Frame[PreciousCargoState]) -> None:
        """Moving, loading or selling is over: after the second action the turn ends."""
        if self.used.bit_count() >= R.ACTIONS_PER_TURN:
            end_turn(s, self.seat)


#: Each action type of the six, its bit in ``Turn.used``.
_BIT = {A.Build: R.BUILD, A.AddSails: R.SAILS, A.Install: R.GOVERNOR, A.Take: R.TAKE, A.Sell: R.SELL_BIT,
        A.Again: R.AGAIN}


@dataclass(frozen=True, slots=True)
class Moving(Frame["PreciousCargoState"]):
    """How to Play: each ship moves up to its sails, one line at a time; the seat stops when it likes."""

    phase: ClassVar[Phase] = Phase.MOVE

    seat: int

    def actor(self, s: PreciousCargoState) -> int:
        return self.seat

    def legal(self, s: PreciousCargoState) -> tuple[Action, ...]:
        return R.legal_moves(s, self.seat)

    def prompt(self, s: PreciousCargoState) -> str:
        return "move your ships (each up to its sails), one space at a time, or stop"

    def apply(self, s: PreciousCargoState, action: Action) -> None:
        if type(action) is A.Move:
            seat = self.seat
            R.move_ship(s, seat * SHIPS + action.ship - 1, C.by_id[action.to])
            if R.can_move(s, seat):
                return
        finish(s, self)


@dataclass(frozen=True, slots=True)
class Loading(Frame["PreciousCargoState"]):
    """Take On Cargo: "one or more crates" onto the ship that took the first, until done or it is full."""

    phase: ClassVar[Phase] = Phase.LOADING

    seat: int
    slot: int  # the ship (``seat * 3 + k``)

    def actor(self, s: PreciousCargoState) -> int:
        return self.seat

    def legal(self, s: PreciousCargoState) -> tuple[Action, ...]:
        return (*R.legal_takes(s, self.slot), A.DONE)

    def prompt(self, s: PreciousCargoState) -> str:
        return f"take more cargo onto ship {self.slot % SHIPS + 1}, or done"

    def apply(self, s: PreciousCargoState, action: Action) -> None:
        if type(action) is A.Take:
            R.take_crate(s, self.seat, self.slot, C.cargo_by_id[action.cargo])
            if R.legal_takes(s, self.slot):
                return
        finish(s, self)


@dataclass(frozen=True, slots=True)
class Selling(Frame["PreciousCargoState"]):
    """Sell Cargo: "any or all of that cargo" at one settlement; when done, the settlement may draw a new chip."""

    phase: ClassVar[Phase] = Phase.SELLING

    seat: int
    place: int  # the settlement
    in_demand: bool  # whether a crate in demand there was sold (``chip_refresh``)

    def actor(self, s: PreciousCargoState) -> int:
        return self.seat

    def legal(self, s: PreciousCargoState) -> tuple[Action, ...]:
        return (*R.legal_sales(s, self.seat, self.place), A.DONE)

    def prompt(self, s: PreciousCargoState) -> str:
        return f"sell more cargo at {C.places[self.place].name}, or done"

    def apply(self, s: PreciousCargoState, action: Action) -> None:
        now = self
        if type(action) is A.Sell:
            seat = self.seat
            demanded = R.sell_crate(s, seat, seat * SHIPS + action.ship - 1,
                                    R.crate_code(action.crate))
            if not s.frames:  # the sale ended the game
                return
            if demanded and not self.in_demand:
                now = _SELLING[seat][self.place][True]
                replace(s, now)
            if R.legal_sales(s, seat, self.place):
                return
        finish(s, now)

    def close(self, s: PreciousCargoState) -> None:
        R.draw_new_chip(s, self.place, self.in_demand)


# Frames are frozen, so one instance of each serves every state (a turn's frames are made once, not per
# action: a new frozen dataclass per action cost about a tenth of a random playout's instructions).
_TURNS = tuple(tuple(Turn(seat=q, used=u) for u in range(1 << len(R.ACTION_NAMES))) for q in (0, 1))
_MOVING = (Moving(seat=0), Moving(seat=1))
_NO_MOVES = [0] * (2 * SHIPS)
_LOADING = tuple(Loading(seat=slot // SHIPS, slot=slot) for slot in range(2 * SHIPS))
_SELLING = tuple(tuple((Selling(seat=q, place=p, in_demand=False), Selling(seat=q, place=p, in_demand=True))
                       for p in range(R.NS)) for q in (0, 1))
