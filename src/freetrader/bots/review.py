"""A review of a finished game, and hints: each decision judged from the decider's information only.

For each decision of a record (a position where the seat to act had more than
one legal action) the worker that judges it is handed
``state.determinize(seat, rng)``, never the true state, and draws its worlds
from that (the game's sampler, else ``determinize``). So a move is judged by
what its player could know, not by the cards that turned up later.

**How a decision is judged** (:func:`judge`, the review's default). Up to
``DEFAULT_WIDTH`` (5) candidate moves: the move played, the game heuristic's
choice, then other legal moves in a seeded order. Each candidate is played in
the *same* ``DEFAULT_WORLDS`` (16) worlds, followed by ``DEFAULT_DEPTH`` (4,
at most half the game's own search depth) actions of the game's heuristic,
and the game's evaluator then estimates every seat's final score. Sharing the
worlds makes a difference between two moves a difference of the moves, not of
their worlds (common random numbers). An earlier review ran 60 IS-MCTS
iterations per decision: each move got a few rollouts, two reviews of one
game disagreed, and a 200-decision game took 42 s.

**What is estimated.** Per candidate, the deciding seat's *win chance* and
*expected score* (its own estimate), averaged over the worlds. The win chance
at a depth cut is a softmax of the estimated final scores over a temperature
of ``SOFTNESS`` (0.15) times their mean size plus 1 (a designed figure: a
one-point lead in an estimate is a small edge, not a sure win); in a world
that is over, the real winners. *Before* the decision is the heuristic's
move's estimate (the position as a sound player would play it on); *best* is
the candidate with the highest win chance (expected score breaks ties).

**Flagged** are the decisions whose played move's win chance is below the
best candidate's by more than ``threshold`` (default 0.10) *and* by more than
``NOISE_Z`` (2) standard errors of the difference, paired over the shared
worlds: a loss the estimate cannot tell from noise is not called a mistake.
Only candidates are compared, so a move better than every candidate tried is
possible and unreported.

For the review, ``iters`` is the number of worlds per decision. With ``ms``
instead, each decision is searched by IS-MCTS (:func:`evaluate`, which the
hints use): the search's win chance is the share of iterations ending with
the seat in the lead.

Deterministic for a budget: each decision has its own seed (the review's
``seed`` and the action's index), so the result does not depend on the
number of worker processes. ``benchmarks/bench_review.py`` measures speed and
the agreement of two review seeds.
"""

from __future__ import annotations

import math
import os
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import asdict, dataclass, field, replace
from typing import Any

import freetrader
from freetrader.core import Action, BadOption, Game, Rng, State
from freetrader.core.procs import leave_signals_to_parent

from .ismcts import IsmctsBot, normalize

__all__ = [
    "DEFAULT_THRESHOLD", "Estimate", "Evaluation", "Decision", "Review", "Hint", "evaluate", "review_record",
    "hint", "decision_points", "judge", "Judgement", "beyond_noise", "DEFAULT_WORLDS", "DEFAULT_DEPTH",
    "DEFAULT_WIDTH", "NOISE_Z",
]

#: A played move whose win chance is this much below the best move's is flagged.
DEFAULT_THRESHOLD = 0.10


@dataclass(frozen=True)
class Estimate:
    """The deciding seat's average win chance and expected final score over ``n`` search iterations."""

    win: float
    score: float
    n: int


@dataclass
class _Tally:
    n: int = 0
    win: float = 0.0
    score: float = 0.0

    def add(self, win: float, score: float) -> None:
        self.n += 1
        self.win += win
        self.score += score

    def estimate(self) -> Estimate:
        if self.n == 0:
            return Estimate(0.0, 0.0, 0)
        return Estimate(self.win / self.n, self.score / self.n, self.n)


def _win_share(est: Sequence[float], seat: int) -> float:
    top = max(est)
    if est[seat] < top:
        return 0.0
    return 1.0 / sum(1 for x in est if x == top)


def _roll_out(bot: IsmctsBot, world: State, depth: int) -> None:
    """``depth`` actions of ``bot``'s playout policy on ``world`` (0: to the end of the game)."""
    steps = depth or -1
    while steps != 0 and world.to_act is not None:
        world.apply_unchecked(bot._policy(world, world.to_act))
        steps -= 1


def _outcome(bot: IsmctsBot, world: State, seat: int,
             win_at_cut: Callable[[Sequence[float], int], float]) -> tuple[list[float], float]:
    """Every seat's estimated final score in ``world`` and ``seat``'s win chance: the real winners when the
    game is over, else the game's evaluator (or the scores so far) read by ``win_at_cut``."""
    if world.is_over:
        winners = world.winners()
        return list(world.scores()), 1.0 / len(winners) if seat in winners else 0.0
    est = list(bot._evaluate(world) if bot._evaluate is not None else world.scores())
    return est, win_at_cut(est, seat)


class _ReviewSearch(IsmctsBot):
    """IS-MCTS that also tallies, per root move, the decider's win chance and score at each rollout's end."""

    def __init__(self, game: Game, seed: int, **params: Any) -> None:
        super().__init__(game, seed, **params)
        self.tallies: dict[Action, _Tally] = {}
        self.total = _Tally()
        self._seen: dict[Action, int] = {}
        self._end: tuple[list[float], float] | None = None
        self._seat = 0

    def _rewards(self, world: State) -> list[float]:
        self._end = _outcome(self, world, self._seat, _win_share)
        return normalize(self._end[0], self.reward)

    def _record(self, action: Action) -> None:
        assert self._end is not None
        est, win = self._end
        self.tallies.setdefault(action, _Tally()).add(win, est[self._seat])
        self.total.add(win, est[self._seat])

    def _iterate(self, root: Any, world: State, seat: int) -> None:
        self._end = None
        super()._iterate(root, world, seat)
        # the root move this iteration took: the one root child whose visit count grew
        for action, child in root.children.items():
            if child.n != self._seen.get(action, 0):
                self._seen[action] = child.n
                self._record(action)
                return

    def search(self, state: State, seat: int) -> Action:
        self._seat = seat
        return self.choose(state, seat)

    def top_up(self, state: State, seat: int, action: Action, visits: int, tries: int) -> None:
        """Iterations that start with ``action`` until it has ``visits`` of them (``tries`` worlds at most)."""
        text = str(action)
        tally = self.tallies.setdefault(action, _Tally())
        while tally.n < visits and tries > 0:
            tries -= 1
            world = self._sample(state, seat)
            move = next((a for a in world.legal_actions() if str(a) == text), None)
            if move is None:  # not legal in this world (a seat's moves should not depend on hidden cards)
                continue
            world.apply_unchecked(move)
            _roll_out(self, world, self.depth)
            est, win = _outcome(self, world, seat, _win_share)
            tally.add(win, est[seat])


@dataclass(frozen=True)
class Evaluation:
    """One decision searched: the best move, the estimates before it and after each move tried."""

    seat: int
    best: str
    before: Estimate
    after: dict[str, Estimate]
    iterations: int

    def gain(self, played: str) -> tuple[float, float]:
        """How much more win chance and expected score the best move has than ``played``."""
        a, b = self.after[self.best], self.after[played]
        return a.win - b.win, a.score - b.score


def _budget(iters: int | None, ms: float | None) -> str:
    if iters is not None:
        if iters < 1:
            raise BadOption(f"the review needs at least 1 iteration per decision, got {iters}")
        return f"iters={iters}"
    if ms is None or ms <= 0:
        raise BadOption(f"the review needs a time budget above 0 ms per decision, got {ms}")
    return f"ms={ms:g}"


def evaluate(state: State, seat: int, *, played: str | None = None, iters: int | None = 200, ms: float | None = None,
             seed: int = 0, min_visits: int | None = None, params: Mapping[str, Any] | None = None) -> Evaluation:
    """Search ``seat``'s decision in ``state``, read only through ``state.determinize(seat, ...)``.

    ``played``: also estimate that move (with at least ``min_visits`` iterations, default a tenth of the
    iterations and at least 8). ``params``: other IS-MCTS parameters (``depth``, ``playout``, ...).
    """
    budget = _budget(iters, ms)
    extra = dict(params or {})
    extra.pop("seed", None)
    probe = state.determinize(seat, Rng(seed ^ 0x5EED))  # the game, and the legal moves, from the seat's view
    bot = _ReviewSearch(probe.game, seed, **dict(_parse(budget), **extra))
    best = bot.search(state, seat)
    done = max(1, bot.last_iterations)
    need = min_visits if min_visits is not None else max(8, done // 10)
    moves = [best] if played is None else [best] + [a for a in bot.tallies if str(a) == played]
    if played is not None and all(str(a) != played for a in moves):
        move = next((a for a in probe.legal_actions() if str(a) == played), None)
        if move is None:
            raise BadOption(f"{played!r} is not a legal move of seat {seat} here")
        moves.append(move)
    for move in moves:
        bot.top_up(state, seat, move, need, tries=4 * need)
    after = {str(a): t.estimate() for a, t in bot.tallies.items() if t.n}
    for move in moves:  # a move with no legal world keeps an empty estimate rather than vanishing
        after.setdefault(str(move), Estimate(0.0, 0.0, 0))
    return Evaluation(seat=seat, best=str(best), before=bot.total.estimate(), after=after, iterations=done)


def _parse(budget: str) -> dict[str, Any]:
    key, _, value = budget.partition("=")
    return {key: float(value) if key == "ms" else int(value)}


# -- the review's evaluator: the same worlds for every candidate move, heuristic rollouts cut short -------
#: Worlds (determinizations for the deciding seat) per decision, at the server's default.
DEFAULT_WORLDS = 16
#: Rollout actions after the move before the game's evaluator estimates the final scores.
DEFAULT_DEPTH = 4
#: Candidate moves judged per decision at most: the played move, the heuristic's, then others in a seeded order.
DEFAULT_WIDTH = 5
#: A loss is flagged only when it is this many standard errors of the paired difference above zero.
NOISE_Z = 2.0


@dataclass(frozen=True)
class Judgement:
    """One decision judged by :func:`judge`: each candidate's estimate over the same worlds."""

    seat: int
    best: str
    policy: str
    after: dict[str, Estimate]
    loss_se: float  # standard error of (best's win - played's win), paired over the worlds
    worlds: int


def judge(state: State, seat: int, played: str, *, worlds: int = DEFAULT_WORLDS, depth: int = DEFAULT_DEPTH,
          width: int = DEFAULT_WIDTH, seed: int = 0) -> Judgement:
    """Judge ``played`` against the other candidates for ``seat``, reading ``state`` only through determinize.

    Every candidate is played in the same ``worlds`` worlds drawn for ``seat`` (the game's sampler, else
    ``determinize``), followed by ``depth`` actions of the game's heuristic (random without one), then scored
    by the game's evaluator: a difference between two moves is not a difference between their worlds.
    ``depth`` is capped at half the game's own search depth (``register_depth``); 0 plays to the end.
    """
    if worlds < 1:
        raise BadOption(f"the review needs at least 1 world per decision, got {worlds}")
    probe = state.determinize(seat, Rng(seed ^ 0x5EED))
    bot = IsmctsBot(probe.game, seed, iters=1)
    # a game whose heuristic is slow declares a short search depth (Merchants Cove: 4); half of it keeps
    # the review of such a game as fast as the others'
    depth = min(depth, max(1, bot.depth // 2)) if depth else 0
    legal = [str(a) for a in probe.legal_actions()]
    if played not in legal:
        raise BadOption(f"{played!r} is not a legal move of seat {seat} here")
    policy = str(bot._policy(probe.clone(), seat))
    rest = [a for a in legal if a not in (played, policy)]
    Rng(seed ^ 0xC0FFEE).shuffle(rest)  # which other moves are tried is not biased to the first legal ones
    candidates = list(dict.fromkeys([played, policy] + rest))[:max(2, width)]
    wins: dict[str, list[float]] = {c: [] for c in candidates}
    scores: dict[str, list[float]] = {c: [] for c in candidates}
    tries = 4 * worlds
    while len(wins[played]) < worlds and tries > 0:
        tries -= 1
        world = bot._sample(state, seat)
        moves = {str(a): a for a in world.legal_actions()}
        if any(c not in moves for c in candidates):
            continue  # a world where a candidate is not legal (a seat's moves should not hang on hidden cards)
        for c in candidates:
            w = world.clone()
            w.apply_unchecked(moves[c])
            _roll_out(bot, w, depth)
            est, win = _outcome(bot, w, seat, _win_chance)
            wins[c].append(win)
            scores[c].append(float(est[seat]))
    after = {c: Estimate(sum(wins[c]) / len(wins[c]) if wins[c] else 0.0,
                         sum(scores[c]) / len(scores[c]) if scores[c] else 0.0, len(wins[c])) for c in candidates}
    best = max(candidates, key=lambda c: (after[c].win, after[c].score, c == played))
    return Judgement(seat=seat, best=best, policy=policy, after=after,
                     loss_se=_paired_se(wins[best], wins[played]), worlds=worlds)


#: The softness of :func:`_win_chance`: a lead of this share of the mean estimated score is e to 1.
SOFTNESS = 0.15


def _win_chance(est: Sequence[float], seat: int) -> float:
    """The chance that ``seat`` wins from the estimated final scores ``est`` of an unfinished game.

    A softmax of the estimates over a temperature of ``SOFTNESS`` times their mean size (plus 1): the
    evaluator's estimate is not the final score, so a one-point lead at a depth cut is not a win. The
    plain "leads the estimate" share turned every cut into 0 or 1 and the win-chance line jumped
    between 0% and 100%.
    """
    temp = SOFTNESS * sum(abs(x) for x in est) / len(est) + 1.0
    top = max(est)
    weights = [math.exp((x - top) / temp) for x in est]
    return weights[seat] / sum(weights)


def beyond_noise(loss: float, se: float, threshold: float) -> bool:
    """Whether a win-chance ``loss`` with standard error ``se`` is a mistake: above the threshold and the noise."""
    return loss > threshold and loss > NOISE_Z * se


def _paired_se(a: Sequence[float], b: Sequence[float]) -> float:
    """The standard error of mean(a - b) over paired samples (0 when they are the same list; 1, no
    evidence, under two samples)."""
    diffs = [x - y for x, y in zip(a, b, strict=True)]
    n = len(diffs)
    if n < 2:
        return 1.0
    mean = sum(diffs) / n
    var = sum((d - mean) ** 2 for d in diffs) / (n - 1)
    return math.sqrt(var / n)


# -- reviewing a record ------------------------------------------------------------------------
@dataclass(frozen=True)
class Decision:
    """One reviewed decision: action ``index`` of the record (0-based), played by ``seat``."""

    index: int
    seat: int
    played: str
    best: str
    choices: int
    before: Estimate
    after_played: Estimate
    after_best: Estimate
    flagged: bool
    played_label: str = ""  # the moves in players' words (the game's ``web.moves`` labels), else the notation
    best_label: str = ""

    @property
    def win_loss(self) -> float:
        return self.after_best.win - self.after_played.win

    @property
    def score_loss(self) -> float:
        return self.after_best.score - self.after_played.score

    def to_json(self) -> dict[str, Any]:
        out = asdict(self)
        out["win_loss"] = round(self.win_loss, 4)
        out["score_loss"] = round(self.score_loss, 4)
        for key in ("before", "after_played", "after_best"):
            out[key] = {"win": round(out[key]["win"], 4), "score": round(out[key]["score"], 3), "n": out[key]["n"]}
        return out


@dataclass
class Review:
    game: str
    seats: int
    budget: str
    threshold: float
    seed: int
    decisions: list[Decision]
    actions: int
    winners: list[int]
    scores: list[float]
    reviewed_seats: list[int] = field(default_factory=list)

    def flagged(self) -> list[Decision]:
        return [d for d in self.decisions if d.flagged]

    def to_json(self) -> dict[str, Any]:
        return {
            "format": 1,
            "game": self.game, "seats": self.seats, "actions": self.actions,
            "budget": self.budget, "threshold": self.threshold, "seed": self.seed,
            "reviewed_seats": self.reviewed_seats,
            "winners": self.winners, "scores": self.scores,
            "decisions": [d.to_json() for d in self.decisions],
        }


def decision_points(record: Mapping[str, Any], seats: Sequence[int] | None = None, game: Game | None = None
                    ) -> tuple[State, list[tuple[int, int, State]]]:
    """The final state, and ``(index, seat, state before the action)`` for each decision with a choice.

    ``BadRecord`` (one line) for a record that does not replay.
    """
    freetrader.replay(record, game=game)  # refuses a bad record with the first problem named
    state = freetrader.replay(record, upto=0, game=game)
    points: list[tuple[int, int, State]] = []
    for i, text in enumerate(record["actions"]):
        seat = state.to_act
        if seat is not None and (seats is None or seat in seats) and len(state.legal_actions()) > 1:
            points.append((i, seat, state.clone()))
        state.apply(text)
    return state, points


def _review_one(job: tuple[int, int, str, State, str, float, int, dict[str, Any]]) -> Decision:
    index, seat, played, world, budget, threshold, seed, params = job
    iters_ms = _parse(budget)
    if "iters" in iters_ms:
        j = judge(world, seat, played, worlds=iters_ms["iters"], seed=seed,
                  depth=int(params.get("depth", DEFAULT_DEPTH)), width=int(params.get("width", DEFAULT_WIDTH)))
        loss = j.after[j.best].win - j.after[played].win
        return Decision(index=index, seat=seat, played=played, best=j.best, choices=len(world.legal_actions()),
                        before=j.after[j.policy], after_played=j.after[played], after_best=j.after[j.best],
                        flagged=j.best != played and beyond_noise(loss, j.loss_se, threshold))
    ev = evaluate(world, seat, played=played, iters=iters_ms.get("iters"), ms=iters_ms.get("ms"),
                  seed=seed, params=params)
    win_loss, _ = ev.gain(played)
    return Decision(index=index, seat=seat, played=played, best=ev.best, choices=len(world.legal_actions()),
                    before=ev.before, after_played=ev.after[played], after_best=ev.after[ev.best],
                    flagged=ev.best != played and win_loss > threshold)


def _named(decisions: list[Decision], points: Sequence[tuple[int, int, State]], game: Game) -> list[Decision]:
    """The decisions with their played and best moves in the words the table shows (the game's ``web.moves``).

    The game is over and its record given out, so the replayed states may name the moves.
    """
    from freetrader.core.registry import load_part

    part = load_part(game, "web")
    moves = getattr(part, "moves", None)
    if moves is None:
        return [replace(d, played_label=d.played, best_label=d.best) for d in decisions]
    states = {index: (seat, state) for index, seat, state in points}
    out = []
    for d in decisions:
        seat, state = states[d.index]
        try:
            labels = {str(m.action): str(m.label) for m in moves(state, seat)}
        except (ValueError, KeyError, IndexError, AttributeError):  # a game module that cannot name a position
            labels = {}
        out.append(replace(d, played_label=labels.get(d.played, d.played), best_label=labels.get(d.best, d.best)))
    return out


def _decision_seed(seed: int, index: int) -> int:
    return (seed * 1_000_003 + index * 7919 + 1) % (2**62)


def review_record(record: Mapping[str, Any], *, seats: Sequence[int] | None = None, iters: int | None = DEFAULT_WORLDS,
                  ms: float | None = None, threshold: float = DEFAULT_THRESHOLD, seed: int = 0, workers: int = 1,
                  params: Mapping[str, Any] | None = None, game: Game | None = None,
                  progress: Callable[[int, int], None] | None = None) -> Review:
    """Review every decision of a finished game (of ``seats`` only, if given) in ``workers`` processes.

    Each decision's worker is handed the determinization for the deciding seat drawn with that decision's
    seed, and the move played; never the true state. ``progress(done, total)`` is called as decisions finish.
    ``game``: review with that game object instead of the registered game of the record's slug.
    """
    budget = _budget(iters, ms)
    if not 0 <= threshold <= 1:
        raise BadOption(f"the flagging threshold is a win chance between 0 and 1, got {threshold}")
    if workers < 1:
        raise BadOption(f"--workers must be at least 1, got {workers}")
    final, points = decision_points(record, seats, game)
    if not final.is_over:
        raise BadOption(f"the record's game is not over after its {final.action_count} actions; "
                        "only a finished game can be reviewed")
    n_seats = final.seats
    if seats is not None:
        bad = [s for s in seats if not 0 <= s < n_seats]
        if bad:
            raise BadOption(f"seat {bad[0]} is not in this {n_seats}-seat game (seats are 0..{n_seats - 1})")
    actions = record["actions"]
    jobs = []
    for index, seat, state in points:
        s = _decision_seed(seed, index)
        jobs.append((index, seat, actions[index], state.determinize(seat, Rng(s)), budget, threshold, s,
                     dict(params or {})))
    total = len(jobs)
    results: list[Decision] = []
    if progress is not None:
        progress(0, total)
    if workers == 1 or total <= 1:
        for job in jobs:
            results.append(_review_one(job))
            if progress is not None:
                progress(len(results), total)
    else:
        import multiprocessing

        pool = ProcessPoolExecutor(min(workers, total), mp_context=multiprocessing.get_context("fork"),
                                   initializer=leave_signals_to_parent)
        try:
            for decision in pool.map(_review_one, jobs, chunksize=1):
                results.append(decision)
                if progress is not None:
                    progress(len(results), total)
        finally:  # stopped (Ctrl-C): the decisions not begun are dropped, not all judged first
            pool.shutdown(wait=True, cancel_futures=True)
    results.sort(key=lambda d: d.index)
    results = _named(results, points, final.game if game is None else game)
    return Review(game=str(record["game"]), seats=n_seats, budget=budget, threshold=threshold, seed=seed,
                  decisions=results, actions=len(actions), winners=final.winners(),
                  scores=[float(x) for x in final.scores()],
                  reviewed_seats=sorted(set(seats)) if seats is not None else list(range(n_seats)))


def default_workers() -> int:
    return os.cpu_count() or 1


# -- hints -----------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Hint:
    seat: int
    action: str
    win: float
    score: float
    gain_win: float
    gain_score: float
    runner_up: str | None
    sentence: str

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


def hint(state: State, seat: int, *, iters: int | None = 300, ms: float | None = None, seed: int = 0,
         params: Mapping[str, Any] | None = None) -> Hint:
    """The move the search prefers for ``seat`` now, and why in one sentence (its expected gain).

    ``state`` is read only through ``state.determinize(seat, ...)``; hand it a determinization for ``seat``.
    """
    ev = evaluate(state, seat, iters=iters, ms=ms, seed=seed, params=params)
    best = ev.after[ev.best]
    others = sorted(((e.n, a) for a, e in ev.after.items() if a != ev.best), reverse=True)
    runner = others[0][1] if others else None
    if runner is None:
        return Hint(seat, ev.best, best.win, best.score, 0.0, 0.0, None,
                    f"{ev.best}: the only move worth searching here "
                    f"(win chance about {best.win:.0%}, expected score {best.score:.1f}).")
    second = ev.after[runner]
    gw, gs = best.win - second.win, best.score - second.score
    sentence = (f"{ev.best}: the search's win chance after it is about {best.win:.0%} "
                f"({gw:+.0%} against the next best, {runner}), expected final score {best.score:.1f} "
                f"({gs:+.1f}).")
    return Hint(seat, ev.best, best.win, best.score, gw, gs, runner, sentence)
