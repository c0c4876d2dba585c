"""Information-set Monte Carlo tree search, generic over the game protocol.

    ismcts:ms=200                      200 ms per decision (the default budget)
    ismcts:iters=500;seed=3            500 iterations: the same choice for the same seed
    ismcts:playout=heuristic;depth=30  the game's heuristic plays the rollouts, cut after 30 actions

Parameters: ``ms`` (time per decision, default 200) or ``iters`` (iterations;
wins over ``ms`` when both are given), ``c`` (UCT exploration; default 0.1
with the ``margin`` reward, else 0.7), ``playout`` (``auto``: the game's
heuristic when it has one, else ``random``; or either by name), ``depth``
(rollout actions before the evaluation, default 20 or the game's own, 0 =
play to the end),
``opponents`` (``auto``: ``policy`` with a heuristic playout, else ``tree``),
``reward`` (``margin`` (default), ``minmax`` or ``rank``), ``belief`` (1:
use the game's sampler when it has one, 0: uniform worlds), ``prior``
(default 0.25 with a heuristic playout, else 0: see below), ``seed``.

**Which move.** The most visited root action, where the playout policy's own
choice (asked once, in the first sampled world) counts ``prior`` times the
iterations (at least one) on top of its visits, and wins ties. With a small budget and many legal actions
(Cornish Smuggler offers dozens) each action gets a few noisy rollouts and
the plain most-visited action is often worse than the heuristic's; the
credit makes the search a policy-improvement step that departs from the
heuristic only when another action has out-collected it clearly.

**Which tree.** One open-loop tree, single observer (SO-ISMCTS, Cowling,
Powley and Whitehouse 2012), whose nodes are the action sequences from the
decision being made. Every iteration samples a fresh world with
``state.determinize(seat, rng)`` from the deciding seat's information and walks
the tree in it; the children a world allows are the actions legal in it, and
UCT counts a child's *availability* (how often it could have been chosen), not
its parent's visits. Multiple-observer trees (MO-ISMCTS) differ only when
moves are partly hidden from some seats, keyed by what each seat observes of
them; the protocol has no per-seat observation of actions (an action is one
notation for everybody), so MO trees would each be this very tree, k times
over. One tree costs one update per iteration instead of k.

**Other seats** decide inside the tree: every node belongs to the seat to
act there and carries that seat's reward, so each seat maximizes its own
(max-n). With ``opponents=policy`` (the default when the game has a
heuristic) the other seats instead play the playout policy inside the tree
(their moves still branch it): an opponent model that does not credit them
with the deciding seat's private cards, which the shared tree otherwise does
(a world always holds the decider's own hand, so in the tree an officer
"knows" whether the decider lies; measured on Contraband, that made the
all-tree bot bluff with Diplomatic Bags that real officers search). Reaction
windows are ordinary decisions of the seat asked, so they need nothing here.

**Rewards** lie in [0, 1] per seat. ``margin`` (default): ``0.5 + (s - mean
of the others) / (2 * mean |score|)``, clipped: linear in the score, so that
a small gain reads as a small gain. ``minmax``: ``(s - min) / (max - min)``
(0.5 each when all are equal): the leader gets 1, but small gaps are blown
up when all scores are close, as early in a money game, and the search then
chases noise. ``rank``: the share of other seats a seat beats (ties
count half). At the depth cut the game's evaluator (``register_evaluator``:
an estimate of the final scores, counting goods and cargo that scores do
not show yet) is normalized the same way, else the current ``scores()``.
Without one, a 20-action rollout in Merchants Cove or Precious Cargo rarely
changes any score and every move looks alike.

**Beliefs.** ``determinize`` deals the unseen cards uniformly, as if the
others' play said nothing about them; in a bluffing game it does (a
declaration is mostly true). A game may register a *sampler*
(``register_sampler``) that draws worlds from a model of the others' play
instead: Contraband's (in ``games/contraband/bot.py``) builds the pending luggage
from the declaration, true three times in four. An earlier version weighted
uniform worlds and rejected unlikely ones; with a cap on rejections it fell
back to the likeliest world seen, which for a declaration of two whiskies is
nearly always a world where the claim is impossible, so the officer searched
every honest traveller. Building the world from the model has no such bias.

**Hidden information.** The bot touches the state it is handed only through
``determinize(seat, rng)``: every read, including the root's legal actions,
is made in a sampled world.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from typing import Any

from freetrader.core import Action, BadOption, Game, Rng, State

from .base import _HEURISTICS, Bot, load_game_bots, register_bot

__all__ = ["IsmctsBot", "Sampler", "Evaluator", "register_sampler", "register_evaluator", "register_depth", "evaluator_for", "normalize"]

#: ``fn(state) -> an estimate of each seat's final score``, normalized like real scores.
Evaluator = Callable[[State], list[float]]
_EVALUATORS: dict[str, Evaluator] = {}
_DEPTHS: dict[str, int] = {}  # a game's own default rollout depth (register_depth)
#: ``fn(state, seat, rng) -> world``: a determinization of ``state`` for ``seat`` drawn from a model of play.
Sampler = Callable[[State, int, Rng], State]
_SAMPLERS: dict[str, Sampler] = {}

_PARAMS = ("ms", "iters", "c", "playout", "depth", "opponents", "reward", "belief", "prior", "seed")


def register_depth(game_name: str, depth: int) -> None:
    """A game's default rollout depth (actions before the evaluation) in place of 20.

    Where a decision's effect is settled within a few actions (a Contraband
    declaration and its search) or the heuristic is slow and the evaluator
    good (Merchants Cove), a shorter rollout buys more iterations and less noise.
    """
    _DEPTHS[game_name] = depth


def register_evaluator(game_name: str, fn: Evaluator) -> None:
    """The evaluation ISMCTS uses at its rollout cut for a game (by the game's name, any version).

    ``fn(state)`` estimates every seat's final score from a position (in the
    units of ``scores()``), counting what the scores do not yet show: goods
    held, cargo aboard, half-made wares. It may read the whole state: ISMCTS
    only ever hands it a sampled world.
    """
    _EVALUATORS[game_name] = fn


def register_sampler(game_name: str, fn: Sampler) -> None:
    """How ISMCTS samples worlds for a game: ``fn(state, seat, rng)`` instead of ``state.determinize(seat, rng)``.

    The sampler must start from ``state.determinize(seat, rng)`` and may only
    rearrange what ``seat`` cannot see (moving unseen cards between unseen
    places), so that its worlds follow what the others' play says about their
    cards rather than a uniform deal.
    """
    _SAMPLERS[game_name] = fn


def evaluator_for(game: Game) -> Evaluator | None:
    load_game_bots(game)
    return _EVALUATORS.get(game.spec.name)


def normalize(scores: list[float], how: str = "minmax") -> list[float]:
    """Scores to rewards in [0, 1]: ``minmax`` or ``rank`` (see the module docstring)."""
    n = len(scores)
    if how == "margin":
        if n < 2:
            return [0.5] * n
        total = sum(scores)
        scale = 2.0 * max(1.0, sum(abs(x) for x in scores) / n)
        return [min(1.0, max(0.0, 0.5 + (x - (total - x) / (n - 1)) / scale)) for x in scores]
    if how == "rank":
        if n < 2:
            return [1.0] * n
        return [
            (sum(1.0 for t in scores if t < s) + 0.5 * (sum(1.0 for t in scores if t == s) - 1)) / (n - 1)
            for s in scores
        ]
    lo, hi = min(scores), max(scores)
    if hi <= lo:
        return [0.5] * n
    span = hi - lo
    return [(s - lo) / span for s in scores]


class _Node:
    """Statistics of one action taken from its parent's action sequence."""

    __slots__ = ("children", "n", "w", "avail")

    def __init__(self) -> None:
        self.children: dict[Action, _Node] = {}
        self.n = 0  # visits
        self.w = 0.0  # summed reward of the seat that chose this action
        self.avail = 0  # times this action was legal when its parent was visited


def _number(params: dict[str, Any], key: str, default: float | None, low: float) -> float | None:
    value = params.get(key, default)
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int | float) or value < low:
        raise BadOption(f"ismcts parameter {key} must be a number >= {low:g}, got {value!r}")
    return float(value)


def _choice(params: dict[str, Any], key: str, default: str, allowed: tuple[str, ...]) -> str:
    value = str(params.get(key, default))
    if value not in allowed:
        raise BadOption(f"ismcts parameter {key} must be one of {', '.join(allowed)}, got {value!r}")
    return value


class IsmctsBot(Bot):
    name = "ismcts"

    def __init__(self, game: Game, seed: int = 0, /, **params: Any) -> None:
        unknown = sorted(set(params) - set(_PARAMS))
        if unknown:
            raise BadOption(f"ismcts takes {', '.join(_PARAMS)}; unknown: {', '.join(unknown)}")
        seed = int(params.pop("seed", seed))
        super().__init__(game, seed)
        load_game_bots(game)  # the game's heuristic, evaluator, sampler and depth, if it has them
        iters = _number(params, "iters", None, 1)
        self.iters = int(iters) if iters is not None else None
        ms = _number(params, "ms", None if self.iters else 200.0, 1)
        self.seconds = ms / 1000.0 if ms is not None else None
        self.depth = int(_number(params, "depth", _DEPTHS.get(game.spec.name, 20), 0) or 0)
        self.reward = _choice(params, "reward", "margin", ("margin", "minmax", "rank"))
        self.c = float(_number(params, "c", 0.1 if self.reward == "margin" else 0.7, 0) or 0.0)
        playout = _choice(params, "playout", "auto", ("auto", "random", "heuristic"))
        factory = _HEURISTICS.get(game.spec.name) if playout != "random" else None
        self._policy_bot: Bot | None = factory(game, self.rng.next64() >> 1) if factory else None
        self.playout = "heuristic" if self._policy_bot else "random"
        opponents = _choice(params, "opponents", "auto", ("auto", "tree", "policy"))
        self.opponents = opponents if opponents != "auto" else ("policy" if self._policy_bot else "tree")
        self.prior = float(_number(params, "prior", 0.25 if self._policy_bot else 0.0, 0) or 0.0)
        self._evaluate = evaluator_for(game)
        self._sampler = _SAMPLERS.get(game.spec.name) if _number(params, "belief", 1, 0) else None
        self.last_iterations = 0  # iterations of the last decision (benchmarks read it)
        self.heuristic_failures = 0

    def __repr__(self) -> str:
        budget = f"iters={self.iters}" if self.iters else f"ms={self.seconds * 1000 if self.seconds else 0:g}"
        return f"<ismcts bot {budget} playout={self.playout} depth={self.depth} opponents={self.opponents}>"

    # -- policy and evaluation -------------------------------------------------
    def _policy(self, world: State, actor: int) -> Action:
        if self._policy_bot is not None:
            # A sampled world may be one a heuristic never meets in real play (another seat's
            # hand resampled in the middle of its declaration): then it plays at random.
            try:
                return self._policy_bot.choose(world, actor)
            except (ValueError, IndexError, KeyError, ZeroDivisionError):
                self.heuristic_failures += 1
        return self.rng.choice(world.legal_actions())

    def _rewards(self, world: State) -> list[float]:
        if self._evaluate is None or world.is_over:
            return normalize(world.scores(), self.reward)
        return normalize(self._evaluate(world), self.reward)

    def _sample(self, state: State, seat: int) -> State:
        if self._sampler is not None:
            return self._sampler(state, seat, self.rng)
        return state.determinize(seat, self.rng)

    # -- search --------------------------------------------------------------------
    def choose(self, state: State, seat: int) -> Action:
        world = self._sample(state, seat)
        legal = world.legal_actions()
        if len(legal) == 1:
            self.last_iterations = 0
            return legal[0]
        root = _Node()
        favourite = self._policy(world.clone(), seat) if self.prior and self._policy_bot is not None else None
        deadline = time.perf_counter() + self.seconds if self.seconds is not None else None
        limit = self.iters
        done = 0
        while True:
            self._iterate(root, world, seat)
            done += 1
            if limit is not None and done >= limit:
                break
            if deadline is not None and time.perf_counter() >= deadline:
                break
            world = self._sample(state, seat)
        self.last_iterations = done
        # At least one visit of credit, and ties to the favourite: with fewer iterations than legal
        # actions (a loaded server's ms budget), 0.25 x 2 iterations was less than the single visit
        # of any tried move, and the search played a move it had tried once, close to random.
        credit = max(self.prior * done, 1.0) if self.prior else 0.0
        best, best_n = legal[0], -1.0
        for a in legal:  # most visited; ties go to the favourite, then to the first legal action
            child = root.children.get(a)
            n = (child.n if child is not None else 0) + (credit if a == favourite else 0.0)
            if n > best_n or (n == best_n and a == favourite):
                best, best_n = a, n
        return best

    def _iterate(self, root: _Node, world: State, seat: int) -> None:
        rng = self.rng
        c = self.c
        log = math.log
        sqrt = math.sqrt
        by_policy = self.opponents == "policy"
        node = root
        path: list[tuple[_Node, int]] = []
        while True:
            actor = world.to_act
            if actor is None:
                break
            children = node.children
            if by_policy and actor != seat:
                action = self._policy(world, actor)
                child = children.get(action)
                expand = child is None
                if child is None:
                    child = children[action] = _Node()
            else:
                fresh: list[Action] = []
                legal = world.legal_actions()
                for a in legal:
                    ch = children.get(a)
                    if ch is None:
                        fresh.append(a)
                    else:
                        ch.avail += 1
                expand = bool(fresh)
                if expand:
                    action = fresh[rng.below(len(fresh))] if len(fresh) > 1 else fresh[0]
                    child = children[action] = _Node()
                    child.avail = 1
                else:
                    action = legal[0]
                    child = children[action]
                    best = child.w / child.n + c * sqrt(log(child.avail) / child.n)
                    for a in legal:
                        ch = children[a]
                        score = ch.w / ch.n + c * sqrt(log(ch.avail) / ch.n)
                        if score > best:
                            best, action, child = score, a, ch
            world.apply_unchecked(action)
            path.append((child, actor))
            node = child
            if expand:
                break
        steps = self.depth or -1
        while steps != 0:
            actor = world.to_act
            if actor is None:
                break
            world.apply_unchecked(self._policy(world, actor))
            steps -= 1
        rewards = self._rewards(world)
        for child, actor in path:
            child.n += 1
            child.w += rewards[actor]


def _factory(game: Game, seed: int = 0, /, **params: Any) -> IsmctsBot:
    return IsmctsBot(game, seed, **params)


register_bot("ismcts", _factory)
