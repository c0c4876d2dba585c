"""IS-MCTS: reads hidden information only through determinize, keeps its budget, is reproducible."""

from __future__ import annotations

from typing import Any

import pytest

import freetrader
import freetrader.bots.ismcts as ismcts
from freetrader.bots import decide, make_bot
from freetrader.core import BadOption, Rng, State
from freetrader.sim import cap_option, play_game


def _mid_game(name: str, seats: int, seed: int, steps: int) -> State:
    """A position after ``steps`` random actions, with a real choice to make.

    A game that ends sooner (a short game has fewer than 40 actions) gives its last real choice.
    """
    state = freetrader.game(name).new_state(seats, seed)
    rng = Rng(seed)
    last = None
    while not state.is_over and (state.action_count < steps or len(state.legal_actions()) < 2):
        if len(state.legal_actions()) >= 2:
            last = state.clone()
        state.apply(rng.choice(state.legal_actions()))
    if state.is_over:
        assert last is not None, f"{name}: random play with seed {seed} never had a choice of two actions"
        return last
    return state


def _positions() -> list[Any]:
    out = []
    for name in freetrader.games():
        seats = freetrader.game(name).spec.min_seats
        for steps in (0, 7, 40):
            out.append(pytest.param(name, seats, steps, id=f"{name}-{seats}-after{steps}"))
    return out


class HiddenRead(AssertionError):
    pass


class Guarded:
    """Stands for a state: ``determinize`` is the only door; any other read is an error."""

    def __init__(self, state: State) -> None:
        object.__setattr__(self, "_state", state)
        object.__setattr__(self, "calls", [])

    def determinize(self, seat: int, rng: Any) -> State:
        self.calls.append(seat)
        return self._state.determinize(seat, rng)

    def __getattr__(self, name: str) -> Any:
        raise HiddenRead(f"ISMCTS read {name!r} from the state it was handed")

    def __setattr__(self, name: str, value: Any) -> None:
        raise HiddenRead(f"ISMCTS wrote {name!r} on the state it was handed")


@pytest.mark.parametrize("name,seats,steps", _positions())
def test_reads_the_given_state_only_through_determinize(name, seats, steps):
    state = _mid_game(name, seats, 11, steps)
    seat = state.to_act
    bot = make_bot("ismcts:iters=60", state.game, 5)
    guarded = Guarded(state.determinize(seat, Rng(1)))
    action = bot.choose(guarded, seat)  # type: ignore[arg-type]
    assert action in state.legal_actions()
    assert guarded.calls and set(guarded.calls) == {seat}  # always from the deciding seat's view


def _poison(state: State, seat: int) -> State:
    """Contraband: every card ``seat`` cannot see becomes a Crown Jewel (a deal no real pack allows)."""
    s: Any = state.clone()
    jewels = next(i for i, a in enumerate(s.view(None)["articles"]) if "jewel" in a["id"])
    s.pack = [jewels] * len(s.pack)
    s.discard_hidden = [jewels] * len(s.discard_hidden)
    if not (s.holder == seat and s.examined):
        s.luggage = [jewels] * len(s.luggage)
    return s


class Poisoned:
    """A poisoned state whose ``determinize`` still samples from the clean one, as a real host's would."""

    def __init__(self, poisoned: State, clean: State) -> None:
        self._poisoned, self._clean = poisoned, clean

    def determinize(self, seat: int, rng: Any) -> State:
        return self._clean.determinize(seat, rng)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._poisoned, name)


@pytest.mark.parametrize("steps", [3, 25, 60])
def test_contraband_poisoned_hidden_cards_change_nothing(steps):
    state = _mid_game("contraband", 4, 8, steps)
    seat = state.to_act
    given = state.determinize(seat, Rng(2))
    poisoned = _poison(given, seat)
    assert poisoned.view(seat) == given.view(seat)  # the seat cannot tell them apart
    picks = []
    for handed in (given, Poisoned(poisoned, given)):
        bot = make_bot("ismcts:iters=80;seed=4", state.game)
        picks.append([str(bot.choose(handed, seat)) for _ in range(3)])  # type: ignore[arg-type]
    assert picks[0] == picks[1]


def test_deterministic_for_a_seed():
    seats = ["ismcts:iters=8;seed=3;playout=random", "ismcts:iters=8;playout=random;opponents=policy", "random"]
    a = play_game("contraband", seats, 21)
    b = play_game("contraband", seats, 21)
    assert a == b
    state = _mid_game("contraband", 3, 4, 30)
    seat = state.to_act
    runs = set()
    for _ in range(2):
        bot = make_bot("ismcts:iters=40", state.game, 9)
        runs.add(tuple(str(decide(bot, state, seat, Rng(7))) for _ in range(4)))
    assert len(runs) == 1


class _Clock:
    """perf_counter for the bot: 10 ms pass at each reading, whatever the machine's load."""

    def __init__(self) -> None:
        self.now = 0.0

    def perf_counter(self) -> float:
        self.now += 0.010
        return self.now


def test_time_budget_is_kept(monkeypatch):
    state = _mid_game("contraband", 5, 3, 20)
    seat = state.to_act
    bot = make_bot("ismcts:ms=40", state.game, 1)
    assert isinstance(bot, ismcts.IsmctsBot)
    clock = _Clock()
    monkeypatch.setattr(ismcts, "time", clock)
    for _ in range(3):
        clock.now = 0.0
        bot.choose(state.determinize(seat, Rng(1)), seat)
        # the deadline is read at 10 ms (50 ms), then once after each iteration (20, 30, 40, 50 ms):
        # the search stops at the first reading past its budget, not one iteration later
        assert bot.last_iterations == 4 and clock.now == pytest.approx(0.050)


def test_single_legal_action_needs_no_search():
    g = freetrader.game("contraband")
    state = g.new_state(3, 1)
    rng = Rng(0)
    while not state.is_over and len(state.legal_actions()) != 1:
        state.apply(rng.choice(state.legal_actions()))
    bot = make_bot("ismcts:iters=1000", g)
    assert bot.choose(state.determinize(state.to_act, rng), state.to_act) == state.legal_actions()[0]
    assert bot.last_iterations == 0  # type: ignore[attr-defined]


@pytest.mark.parametrize("name", freetrader.games())
@pytest.mark.parametrize("spec", ["ismcts:iters=4;depth=5", "ismcts:iters=4;playout=heuristic;opponents=policy;reward=rank"])
def test_plays_whole_games_of_every_game(name, spec):
    g = freetrader.game(name)
    # a random opponent may never reach a game's end (Cornish Smuggler's triggers): its safety cap ends it
    cap = cap_option(g, 40) if g.spec.safety_cap else None
    r = play_game(name, [spec] + ["random"] * (g.spec.min_seats - 1), 2, cap)
    assert freetrader.replay(r["record"]).is_over


def test_parameters():
    g = freetrader.game("contraband")
    bot = make_bot("ismcts:iters=10;c=1.5;depth=0;seed=8;playout=heuristic", g, 1)
    assert isinstance(bot, ismcts.IsmctsBot)
    assert (bot.iters, bot.c, bot.depth, bot.playout, bot.seconds) == (10, 1.5, 0, "heuristic", None)
    assert make_bot("ismcts", g).seconds == 0.2  # type: ignore[attr-defined]
    for bad in ("ismcts:iters=0", "ismcts:playout=smart", "ismcts:foo=1", "ismcts:ms=fast", "ismcts:opponents=x"):
        with pytest.raises(BadOption):
            make_bot(bad, g)


def test_normalize():
    assert ismcts.normalize([10.0, 20.0, 30.0]) == [0.0, 0.5, 1.0]
    assert ismcts.normalize([5.0, 5.0]) == [0.5, 0.5]
    assert ismcts.normalize([1.0, 3.0, 3.0, 0.0], "rank") == [1 / 3, 5 / 6, 5 / 6, 0.0]
    assert ismcts.normalize([100.0, 200.0, 300.0], "margin") == pytest.approx([0.5 - 150 / 400, 0.5, 0.5 + 150 / 400])


def test_registered_evaluator_is_used_at_the_cut(monkeypatch):
    g = freetrader.game("contraband")
    calls = []

    def evaluate(state: State) -> list[float]:
        calls.append(state.is_over)
        return [1.0 if seat == 0 else 0.0 for seat in range(state.seats)]

    make_bot("ismcts", g)  # the game's bot module registers its own at its first bot: before the patch, not over it
    monkeypatch.setitem(ismcts._EVALUATORS, g.spec.name, evaluate)
    state = _mid_game("contraband", 3, 1, 10)
    bot = make_bot("ismcts:iters=30;depth=2", g)
    bot.choose(state.determinize(state.to_act, Rng(0)), state.to_act)
    assert calls and not any(calls)


def test_registered_sampler_draws_every_world(monkeypatch):
    g = freetrader.game("contraband")
    state = _mid_game("contraband", 3, 2, 12)
    seat = state.to_act
    calls: list[int] = []

    def sampler(st: State, s: int, rng: Rng) -> State:
        assert st is state and s == seat
        calls.append(s)
        return st.determinize(s, rng)

    make_bot("ismcts", g)  # the game's bot module registers its own at its first bot: before the patch, not over it
    monkeypatch.setitem(ismcts._SAMPLERS, g.spec.name, sampler)
    make_bot("ismcts:iters=7", g).choose(state, seat)
    assert len(calls) == 7  # one world per iteration, the first also serves the root
    calls.clear()
    make_bot("ismcts:iters=7;belief=0", g).choose(state, seat)
    assert calls == []


def _awaiting_search(seats: int, seed: int) -> Any:
    state = _mid_game("contraband", seats, seed, 0)
    s: Any = state
    while s.phase != 1:  # a declaration waits for the officer's search
        s.apply(Rng(s.action_count).choice(s.legal_actions()))
    return s


def test_contraband_sampler_hides_nothing_and_believes_declarations():
    from freetrader.games.contraband.bot import sample_world
    from freetrader.games.contraband.components import COMPONENTS as C

    truthful = samples = 0
    for seed in range(12):
        s = _awaiting_search(4, seed)
        officer = s.to_act
        seen = s.view(officer)
        cards = sorted(s.pack + s.discard_hidden + s.luggage)
        for k in range(25):
            w: Any = sample_world(s, officer, Rng(k))
            assert w.view(officer) == seen  # the officer cannot tell the world from the truth
            assert sorted(w.pack + w.discard_hidden + w.luggage) == cards  # no card made or lost
            assert w.legal_actions() == s.legal_actions()
            if s.bag_claim:
                continue
            samples += 1
            fined = sorted(c for c in w.luggage if C.fine[c])
            truthful += fined == sorted(s.claim)
    # Declarations are built true three times in four (a uniform deal: far fewer).
    assert samples and 0.6 < truthful / samples < 0.9


def test_luggage_for_claim_follows_the_model():
    from freetrader.games.contraband.bot import UNDECLARED, luggage_for_claim
    from freetrader.games.contraband.components import COMPONENTS as C

    whisky = C.by_id["whisky"]
    pool = [a.index for a in C.articles for _ in range(a.count)]
    exact = bags = 0
    for k in range(400):
        rng = Rng(k)
        shuffled = pool[:]
        rng.shuffle(shuffled)
        picked = luggage_for_claim([whisky, whisky], False, shuffled, 4, rng)
        assert picked is not None and len(set(picked)) == 4
        lug = [shuffled[i] for i in picked]
        assert lug.count(whisky) >= 2
        extra = sum(1 for c in lug if C.fine[c]) - 2
        assert 0 <= extra <= 2  # two free places: at most two more fined articles
        exact += extra == 0
        bag = luggage_for_claim([], True, shuffled, 4, rng)
        assert bag is not None
        bags += C.bag in [shuffled[i] for i in bag]
    assert abs(exact / 400 - UNDECLARED[0] / sum(UNDECLARED[:3])) < 0.07
    assert bags >= 390  # a claimed Diplomatic Bag is believed 99 times in 100
    # A claim the unseen cards cannot hold: no model world.
    assert luggage_for_claim([whisky] * 5, False, pool, 4, Rng(1)) is None


def test_a_tiny_budget_keeps_the_heuristics_move(monkeypatch: pytest.MonkeyPatch) -> None:
    """With 2 iterations and many legal actions, the favourite's credit is at least one visit.

    The heuristic's choice is pinned to the last legal action (which two iterations rarely visit):
    with a credit of 0.25 x 2 = 0.5 the search chose a move it had tried once instead.
    """
    state = _mid_game("contraband", 3, 4, 40)
    seat = state.to_act
    legal = state.legal_actions()
    assert len(legal) >= 10
    monkeypatch.setattr(ismcts.IsmctsBot, "_policy", lambda self, world, s: world.legal_actions()[-1])
    bot = make_bot("ismcts:iters=2;playout=heuristic;seed=1", state.game, 3)
    assert bot.prior == 0.25  # type: ignore[attr-defined]
    assert str(bot.choose(state, seat)) == str(legal[-1])
