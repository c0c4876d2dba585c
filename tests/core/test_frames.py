"""Core decision frames and declared fields, on a small game made for the purpose.

The toy game: each seat in turn either takes a coin or robs a chosen rival.
A robbery opens a window in which any seat holding a shield may block; a
block opens a window of its own (nested) in which a seat holding a horn may
cancel the block. After ten turns every seat is asked, in order, whether to
cash in.
"""

from __future__ import annotations

import dataclasses
import enum
from typing import Any

import pytest

from freetrader.core import Action, BadRecord, Game, GameSpec
from freetrader.core.fields import Hidden, PerSeat, declared_fields, hidden_fields
from freetrader.core.frames import (
    AskSeats,
    ChooseOne,
    Frame,
    FrameState,
    ReactionWindow,
    finish,
    push,
    replace,
)


@dataclasses.dataclass(frozen=True, slots=True)
class Act(Action):
    verb: str
    arg: int = -1

    def __str__(self) -> str:
        return self.verb if self.arg < 0 else f"{self.verb} {self.arg}"


def parse(text: str) -> Act:
    verb, _, arg = text.partition(" ")
    return Act(verb, int(arg) if arg else -1)


TAKE, ROB, DECLINE, BLOCK, HORN, CASH, KEEP = (Act(v) for v in ("take", "rob", "decline", "block", "horn", "cash", "keep"))


class Stage(enum.Enum):
    PLAY = 1
    CASHING = 2


class Turn(Frame):
    __slots__ = ()


@dataclasses.dataclass(frozen=True, slots=True)
class TurnFrame(Frame):
    seat: int

    def actor(self, s: Any) -> int:
        return self.seat

    def legal(self, s: Any) -> tuple[Act, ...]:
        return (TAKE, ROB)

    def prompt(self, s: Any) -> str:
        return "take a coin or rob"

    def apply(self, s: Any, action: Action) -> None:
        if action == TAKE:
            s.coins[self.seat] += 1
            s._event(f"seat {self.seat} takes a coin")
            end_turn(s, self)
        else:
            rivals = tuple(Act("target", q) for q in range(s.seats) if q != self.seat)
            push(s, PickVictim(seat=self.seat, options=rivals))

    def child_done(self, s: Any, done: Frame) -> None:
        end_turn(s, self)


def end_turn(s: Any, turn: TurnFrame) -> None:
    s.turn += 1
    if s.turn >= s.turns:
        s.stage = Stage.CASHING
        finish(s, turn)
        push(s, Cashing(order=tuple(range(s.seats))))
    else:
        replace(s, TurnFrame(seat=(turn.seat + 1) % s.seats))


@dataclasses.dataclass(frozen=True, slots=True)
class PickVictim(ChooseOne):
    def chosen(self, s: Any, action: Action) -> None:
        assert isinstance(action, Act)
        s.log_pairs.append((self.seat, action.arg))
        if not Robbery.open(s, first=(self.seat + 1) % s.seats, thief=self.seat, victim=action.arg):
            rob(s, self.seat, action.arg)


def rob(s: Any, thief: int, victim: int) -> None:
    if s.coins[victim]:
        s.coins[victim] -= 1
        s.coins[thief] += 1
    s._event(f"seat {thief} robs seat {victim}")


@dataclasses.dataclass(frozen=True, slots=True)
class Robbery(ReactionWindow):
    thief: int = -1
    victim: int = -1
    blocked: bool = False

    def may_answer(self, s: Any, seat: int) -> bool:
        return seat != self.thief and s.shields[seat] > 0 and not self.blocked

    def answers(self, s: Any, seat: int) -> tuple[Act, ...]:
        return (BLOCK,)

    def decline(self, s: Any) -> Act:
        return DECLINE

    def answer(self, s: Any, seat: int, action: Action) -> None:
        s.shields[seat] -= 1
        s._event(f"seat {seat} blocks")
        replace(s, dataclasses.replace(self, blocked=True))
        Horn.open(s, first=(seat + 1) % s.seats, blocker=seat)

    def settled(self, s: Any) -> bool:
        return self.blocked

    def close(self, s: Any) -> None:
        if not self.blocked or s.horned:
            rob(s, self.thief, self.victim)
        s.horned = False


@dataclasses.dataclass(frozen=True, slots=True)
class Horn(ReactionWindow):
    blocker: int = -1

    def may_answer(self, s: Any, seat: int) -> bool:
        return seat != self.blocker and s.horns[seat] > 0

    def answers(self, s: Any, seat: int) -> tuple[Act, ...]:
        return (HORN,)

    def decline(self, s: Any) -> Act:
        return DECLINE

    def answer(self, s: Any, seat: int, action: Action) -> None:
        s.horns[seat] -= 1
        s.horned = True
        s._event(f"seat {seat} sounds a horn")

    def settled(self, s: Any) -> bool:
        return bool(s.horned)


@dataclasses.dataclass(frozen=True, slots=True)
class Cashing(AskSeats):
    def ask_legal(self, s: Any, seat: int) -> tuple[Act, ...]:
        return (CASH, KEEP)

    def answer(self, s: Any, seat: int, action: Action) -> None:
        if action == CASH:
            s.cashed[seat] = True


class ToyState(FrameState):
    coins: PerSeat[list[int]]
    shields: PerSeat[list[int]]
    horns: PerSeat[list[int]]
    cashed: PerSeat[list[bool]]
    secret: Hidden[PerSeat[list[list[int]]]]
    log_pairs: list[tuple[int, int]]
    turn: int
    turns: int
    horned: bool
    stage: Stage

    def _setup(self) -> None:
        self._init_fields()
        self.turns = 10
        self.shields = [1] * self.seats
        self.horns = [1] * self.seats
        self.secret = [[p] for p in range(self.seats)]
        self.frames = (TurnFrame(seat=0),)

    def _view(self, seat: int | None) -> dict[str, Any]:
        return {"coins": self.coins[:]}

    def _determinize(self, seat: int, seed: int) -> None:
        return None

    def _check_consistent(self) -> None:
        return None  # a toy without a rules module: every hook ModuleHooks would read from one is here

    def _scores(self) -> list[float]:
        return [float(c + 10 * k) for c, k in zip(self.coins, self.cashed, strict=True)]


class ToyGame(Game):
    state_class = ToyState


GAME = ToyGame(GameSpec(name="toy-frames", version=1, title="Toy", min_seats=2, max_seats=4, hidden_information=True, chance=False), parse)


def play(s: ToyState, *texts: str) -> None:
    for t in texts:
        s.apply(t)


def test_fields_are_declared_once_and_derive_slots() -> None:
    names = [f.name for f in declared_fields(ToyState)]
    assert names[0] == "frames" and "coins" in names and "stage" in names
    assert set(ToyState.__slots__) == set(names) - {"frames"}
    assert hidden_fields(ToyState) == ("secret",)
    with pytest.raises(AttributeError):
        GAME.new_state(3).not_a_field = 1  # type: ignore[attr-defined]


def test_a_window_opens_inside_a_window_and_each_resumes_below() -> None:
    s = GAME.new_state(3)
    play(s, "take")  # seat 0
    play(s, "rob", "target 0")  # seat 1 robs seat 0: seats 2 and 0 may block, asked from seat 2
    assert isinstance(s.frames[-1], Robbery) and s.to_act == 2
    play(s, "decline")
    assert s.to_act == 0
    play(s, "block")  # seat 0 blocks: a Horn window opens on top of the Robbery window
    assert [type(f).__name__ for f in s.frames] == ["TurnFrame", "PickVictim", "Robbery", "Horn"]
    assert s.to_act == 1  # asked from the seat after the blocker; seat 0 (the blocker) is never asked
    play(s, "horn")  # the block is cancelled: the robbery goes through
    assert [type(f).__name__ for f in s.frames] == ["TurnFrame"] and s.to_act == 2
    assert s.coins == [0, 1, 0]
    assert "seat 2" not in " ".join(e for e in s.events if "decline" in e)
    assert not any("decline" in e for e in s.events)  # who was asked is never logged


def test_window_with_nobody_to_ask_pushes_nothing() -> None:
    s = GAME.new_state(2)
    s.shields = [0, 0]
    play(s, "take", "rob", "target 0")
    assert [type(f).__name__ for f in s.frames] == ["TurnFrame"] and s.coins == [0, 1]


def test_ask_seats_in_order_then_game_over() -> None:
    s = GAME.new_state(2)
    s.shields = [0, 0]
    for _ in range(10):
        play(s, "take")
    assert isinstance(s.frames[-1], Cashing) and s.to_act == 0
    play(s, "cash")
    assert s.to_act == 1
    play(s, "keep")
    assert s.is_over and s.scores() == [15.0, 5.0]


def test_clone_shares_nothing_mutable() -> None:
    s = GAME.new_state(3)
    play(s, "take", "rob", "target 0")
    c = s.clone()
    assert c.to_json() == s.to_json()
    play(c, "block")
    c.secret[0].append(9)
    assert s.secret[0] == [0] and isinstance(s.frames[-1], Robbery) and s.to_act == 2


def test_json_round_trip_keeps_the_stack() -> None:
    s = GAME.new_state(3)
    play(s, "take", "rob", "target 0", "decline", "block")
    d = s.to_json()
    t = GAME.state_from_json(d)
    assert t.to_json() == d and t.frames == s.frames
    play(t, "decline")
    play(s, "decline")
    assert t.to_json() == s.to_json()


@pytest.mark.parametrize(
    ("field", "value", "words"),
    [
        ("coins", [1, 2], "one per seat"),
        ("coins", [1, True, 2], "expected int"),
        ("stage", "LATER", "expected one of play, cashing"),
        ("frames", [{"frame": "nope"}], "unknown frame"),
        ("turn", "3", "expected int"),
    ],
)
def test_a_malformed_saved_state_names_its_field(field: str, value: Any, words: str) -> None:
    d = GAME.new_state(3).to_json()
    d["state"][field] = value
    with pytest.raises(BadRecord, match=words):
        GAME.state_from_json(d)


def test_a_state_saved_in_an_older_format_is_rebuilt_from_its_actions(monkeypatch: pytest.MonkeyPatch) -> None:
    s = GAME.new_state(3)
    play(s, "take", "rob", "target 0", "decline")
    old = s.to_json()
    old["state"] = {"whatever": "the old layout was"}
    monkeypatch.setattr(ToyState, "state_format", 2)
    t = GAME.state_from_json(old)
    assert t.to_json()["format"] == 2 and t.frames == s.frames and t.coins == s.coins
    old["rng"] += 1  # edited by hand: a replay no longer gives it
    with pytest.raises(BadRecord, match="cannot be migrated"):
        GAME.state_from_json(old)
    old["format"] = 3
    with pytest.raises(BadRecord, match="format 3 is not one this version reads"):
        GAME.state_from_json(old)


# == actions open at any decision of a seat (FrameState._anytime) =======================================
BUY = Act("buy")


class AnytimeState(ToyState):
    """The toy game where a seat with 2 coins may buy a shield at any decision of its own."""

    def _anytime(self, seat: int) -> tuple[Act, ...]:
        return (BUY,) if self.coins[seat] >= 2 else ()

    def _take_anytime(self, action: Action) -> None:
        seat = self.frames[-1].actor(self)
        self.coins[seat] -= 2
        self.shields[seat] += 1
        self._event(f"seat {seat} buys a shield")


class AnytimeGame(Game):
    state_class = AnytimeState


ANYTIME = AnytimeGame(GameSpec(name="toy-anytime", version=1, title="Toy", min_seats=2, max_seats=4,
                               hidden_information=True, chance=False), parse)


def test_an_anytime_action_is_offered_at_every_decision_of_its_seat_only() -> None:
    s = ANYTIME.new_state(2)
    s.shields = [0, 1]
    play(s, "take", "take", "take")  # seat 0 has 2 coins, seat 1 has 1
    assert s.to_act == 1 and "buy" not in [str(a) for a in s.legal_actions()]
    play(s, "take")
    assert s.to_act == 0 and [str(a) for a in s.legal_actions()] == ["take", "rob", "buy"]
    play(s, "rob")  # seat 0's own choice of victim offers the purchase too
    assert isinstance(s.frames[-1], PickVictim) and [str(a) for a in s.legal_actions()] == ["target 1", "buy"]
    play(s, "buy")  # the pending choice stays and is asked again
    assert isinstance(s.frames[-1], PickVictim) and s.coins == [0, 2] and s.shields == [1, 1]
    assert [str(a) for a in s.legal_actions()] == ["target 1"]  # no coins left: no longer offered
    play(s, "target 1")  # seat 1 (2 coins) is asked in the Robbery window: it may block, or buy first
    assert isinstance(s.frames[-1], Robbery) and s.to_act == 1
    assert [str(a) for a in s.legal_actions()] == ["decline", "block", "buy"]
    play(s, "buy")
    assert isinstance(s.frames[-1], Robbery) and s.to_act == 1 and s.shields == [1, 2] and s.coins == [0, 0]
    assert [str(a) for a in s.legal_actions()] == ["decline", "block"]
    t = ANYTIME.state_from_json(s.to_json())
    assert t.to_json() == s.to_json() and t.legal_actions() == s.legal_actions()
    play(s, "block")  # seat 0 (no coins) is asked in the nested Horn window: no purchase for it
    assert isinstance(s.frames[-1], Horn) and s.to_act == 0 and [str(a) for a in s.legal_actions()] == ["decline", "horn"]


def test_the_frames_own_action_wins_over_an_anytime_action_of_the_same_name() -> None:
    s = ANYTIME.new_state(2)
    s.coins = [2, 0]
    s.frames = (TurnFrame(seat=0),)
    s._legal_cache = None
    monkey = AnytimeState._anytime
    try:
        AnytimeState._anytime = lambda self, seat: (TAKE, BUY)  # type: ignore[method-assign]
        assert [str(a) for a in s.legal_actions()] == ["take", "rob", "buy"]  # listed once, the frame's first
        play(s, "take")  # the TurnFrame takes a coin; the anytime handler is not called
        assert s.coins == [3, 0] and s.shields == [1, 1]
    finally:
        AnytimeState._anytime = monkey  # type: ignore[method-assign]
