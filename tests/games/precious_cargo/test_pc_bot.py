"""The Precious Cargo heuristic plays legal moves and beats random play."""

from __future__ import annotations

from pc_scenario import GAME

from freetrader.bots import decide, make_bot
from freetrader.core import Rng


def _play(seats: list[str], seed: int):
    s = GAME.new_state(2, seed)
    bots = [make_bot(b, GAME, seed * 10 + i) for i, b in enumerate(seats)]
    rngs = [Rng(seed * 10 + 5 + i) for i in range(2)]
    while not s.is_over:
        p = s.to_act
        s.apply(decide(bots[p], s, p, rngs[p]))
    return s


def test_heuristic_beats_random_from_either_seat():
    wins = 0
    for seed in range(6):
        wins += _play(["heuristic", "random"], seed).winners() == [0]
        wins += _play(["random", "heuristic"], seed).winners() == [1]
    assert wins >= 10


def test_heuristic_against_itself_finishes_a_race_to_25():
    s = _play(["heuristic", "heuristic"], 3)
    assert max(s.coins) >= 25 and s.turn < 200
