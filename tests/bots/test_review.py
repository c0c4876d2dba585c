"""The review: judges each decision from the decider's information only, flags a planted blunder, reproducible."""

from __future__ import annotations

import statistics
from typing import Any

import pytest
from test_ismcts import Guarded, Poisoned, _mid_game, _poison

from freetrader.bots import review
from freetrader.bots.review import _paired_se, beyond_noise, decision_points, evaluate, hint, judge, review_record
from freetrader.core import BadOption, BadRecord, Rng, State
from freetrader.games._template import GAME as HIGH_CARD
from freetrader.sim import play_game


def _high_card_with(value: int, seats: int = 2) -> State:
    """A High Card deal in which seat 0, the first to bet, holds ``value``."""
    for seed in range(500):
        state = HIGH_CARD.new_state(seats, seed)
        if state.hands[0] == value:  # type: ignore[attr-defined]
            return state
    raise AssertionError(f"no deal gives seat 0 a {value}")


def _finish(state: State, first: str) -> dict[str, Any]:
    """The record of ``state``'s game with seat 0 playing ``first``, every later seat staking (or calling)."""
    state.apply(first)
    while not state.is_over:
        legal = [str(a) for a in state.legal_actions()]
        state.apply("stake" if "stake" in legal else "call" if "call" in legal else legal[0])
    return state.record()


def test_a_planted_blunder_is_flagged_with_the_better_move():
    # Seat 0 holds the highest card there is and folds: staking cannot lose (a tie splits the pot).
    state = _high_card_with(6)
    record = _finish(state.clone(), "fold")
    rv = review_record(record, iters=150, workers=1, game=HIGH_CARD)
    first = rv.decisions[0]
    assert (first.index, first.seat, first.played) == (0, 0, "fold")
    assert first.flagged
    assert first.best in ("stake", "raise")
    assert first.after_best.win > first.after_played.win + 0.15
    assert first.after_played.n >= 8 and first.after_best.n >= 8  # both judged on enough iterations
    # the same deal with the preferred move played: not flagged
    good = review_record(_finish(state.clone(), first.best), iters=150, workers=1, game=HIGH_CARD)
    assert not good.decisions[0].flagged
    assert good.decisions[0].win_loss < 0.1


def test_a_weak_card_folded_is_not_a_blunder():
    # With a 1 the fold loses the least; the review must not flag every fold.
    state = _high_card_with(1)
    rv = review_record(_finish(state.clone(), "fold"), iters=150, workers=1, game=HIGH_CARD)
    assert not rv.decisions[0].flagged


def _searched(state: Any, seat: int, played: str) -> Any:
    return evaluate(state, seat, played=played, iters=40, seed=3)


def _judged(state: Any, seat: int, played: str) -> Any:
    return judge(state, seat, played, worlds=6, seed=3)


@pytest.mark.parametrize("how", [_searched, _judged], ids=["search", "judge"])
@pytest.mark.parametrize("steps", [3, 40])
def test_the_review_never_reads_hidden_cards(steps, how):
    # A poisoned world (every card the seat cannot see turned into a Crown Jewel) that samples from the clean
    # one gives the very same evaluation: nothing the review reports comes from the hidden zones it was handed.
    # Both ways of judging: the review's (judge) and the hints' IS-MCTS search (evaluate).
    state = _mid_game("contraband", 3, 8, steps)
    seat = state.to_act
    given = state.determinize(seat, Rng(2))
    poisoned = _poison(given, seat)
    assert poisoned.view(seat) == given.view(seat)
    played = str(state.legal_actions()[-1])
    runs = [how(handed, seat, played) for handed in (given, Poisoned(poisoned, given))]
    assert runs[0] == runs[1]
    guarded = Guarded(given)
    ev = how(guarded, seat, played)
    assert ev == runs[0] and set(guarded.calls) == {seat}  # determinize from the seat's view is the only door


@pytest.mark.parametrize("game,seats", [("cornish-smuggler", 3), ("precious-cargo", 2), ("contraband", 3),
                                        ("merchants-cove", 3)])
def test_two_review_seeds_agree(game, seats):
    # Issue 34: two reviews of one game at the server's default settings, different seeds, read the same
    # win chances (median absolute difference at most 0.08 over the decisions).
    record = play_game(game, ["heuristic"] * seats, 3)["record"]
    a, b = (review_record(record, seats=[0], seed=s) for s in (0, 1))
    assert len(a.decisions) >= 10 and [d.index for d in a.decisions] == [d.index for d in b.decisions]
    assert statistics.median(abs(x.before.win - y.before.win) for x, y in zip(a.decisions, b.decisions, strict=True)) <= 0.08
    assert statistics.median(abs(x.after_played.win - y.after_played.win)
                             for x, y in zip(a.decisions, b.decisions, strict=True)) <= 0.08
    assert a.to_json() != b.to_json()  # the seed is really used


def test_a_loss_inside_the_noise_is_not_flagged():
    assert beyond_noise(0.30, 0.05, 0.10)
    assert not beyond_noise(0.30, 0.20, 0.10)  # 0.30 is within two standard errors (0.40)
    assert not beyond_noise(0.08, 0.0, 0.10)  # certain, but below the threshold
    assert _paired_se([1.0, 0.0, 1.0], [1.0, 0.0, 1.0]) == 0.0  # the same worlds, the same outcome: no noise
    # paired differences 1, 0, 1, 0: sd 0.577, se 0.289
    assert _paired_se([1.0, 1.0, 1.0, 0.0], [0.0, 1.0, 0.0, 0.0]) == pytest.approx(0.2887, abs=1e-4)


def test_each_decision_is_handed_a_determinization_only(monkeypatch):
    # The worker gets state.determinize(seat, ...) for the deciding seat, never the replayed true state.
    record = play_game("contraband", ["heuristic", "random", "random"], 4)["record"]
    _, points = decision_points(record)
    true_states = {id(s) for _, _, s in points}
    handed: list[tuple[int, int]] = []

    def spy(job: Any) -> Any:
        index, seat, _played, world = job[:4]
        assert id(world) not in true_states
        handed.append((index, seat))
        raise _Stop

    monkeypatch.setattr(review, "_review_one", spy)
    with pytest.raises(_Stop):
        review_record(record, iters=5, workers=1)
    assert handed == [(points[0][0], points[0][1])]


class _Stop(Exception):
    pass


def test_review_is_deterministic_with_iters_whatever_the_workers():
    short = play_game("contraband", ["heuristic", "random", "heuristic"], 2, {"end": "turns", "turn_limit": 12})["record"]
    a = review_record(short, seats=[1], iters=12, workers=1, seed=5).to_json()
    b = review_record(short, seats=[1], iters=12, workers=2, seed=5).to_json()
    assert a == b
    assert a["decisions"] and all(d["seat"] == 1 for d in a["decisions"])
    c = review_record(short, seats=[1], iters=12, workers=1, seed=6).to_json()
    assert c["decisions"] != a["decisions"]  # the seed is really used


def test_bad_requests_name_the_problem():
    record = play_game("contraband", ["random", "random", "random"], 1)["record"]
    with pytest.raises(BadOption, match="not over"):
        review_record(dict(record, actions=record["actions"][:10]), iters=5)
    with pytest.raises(BadOption, match="seat 7"):
        review_record(record, seats=[7], iters=5)
    with pytest.raises(BadOption, match="at least 1 iteration"):
        review_record(record, iters=0)
    with pytest.raises(BadRecord, match="does not replay"):
        review_record(dict(record, actions=["nonsense move"]), iters=5)


def test_a_hint_names_the_preferred_move_and_its_gain():
    state = _high_card_with(6)
    h = hint(state.determinize(0, Rng(1)), 0, iters=150, seed=2)
    assert h.action in ("stake", "raise")
    assert h.runner_up is not None and h.gain_win > 0
    assert h.action in h.sentence and "%" in h.sentence
    assert str(h.action) in [str(a) for a in state.legal_actions()]


def test_moves_are_named_in_the_tables_words():
    # Issue 34: the review names the played and preferred moves as the table's buttons do (web.moves labels).
    from freetrader.core.registry import load_part

    record = play_game("contraband", ["heuristic"] * 3, 3)["record"]
    rv = review_record(record, seats=[0], iters=2)
    web = load_part("contraband", "web")
    assert web is not None
    _, points = decision_points(record, seats=[0])
    states = {i: s for i, _, s in points}
    for d in rv.decisions:
        labels = {str(m.action): m.label for m in web.moves(states[d.index], d.seat)}
        assert (d.played_label, d.best_label) == (labels[d.played], labels[d.best])
    assert any(d.played_label != d.played for d in rv.decisions)  # "claim watch" reads "Claim Watch ($20)"
    assert all(k in rv.to_json()["decisions"][0] for k in ("played_label", "best_label"))
