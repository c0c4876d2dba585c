"""N games stepped at once, for learners that act in batches: stacked NumPy observations and masks, auto-reset.

>>> from freetrader.adapters.vector import BatchedEnv
>>> env = BatchedEnv("contraband", num_envs=8, end="turns", turn_limit=12)
>>> obs, mask = env.reset(seed=0)
>>> obs.shape, mask.shape
((8, 206), (8, 289))

Each of the ``num_envs`` games seats one learner (``seat``, default 0) against
``opponents`` (bot specs as in the Gymnasium adapter; seats default to one
plus their number, and with a single spec to at least the game's fewest).
``step(actions)`` takes one action index per game for its learner, plays the
opponents until each game's learner is to act again, and returns
``(obs, mask, reward, terminated, truncated)``: ``float32[N, size]``,
``int8[N, num_actions]``, ``float32[N]`` and two ``bool[N]``. The episode
semantics are the Gymnasium adapter's (rewards at the end, ``rewards="win"``
or ``"score"``; truncation at ``max_actions`` actions of all seats with
``truncation_reward``). A game whose episode ended in that step is reset at
once (auto-reset, the "same step" mode): its row of ``obs`` and ``mask`` is
the first position of the next episode, its reward and flags those of the
episode that ended (``last_scores`` keeps that episode's final scores).
The arrays returned are the environment's own buffers, overwritten by the
next call: copy what you keep.

``"random"`` opponents pick uniformly among the legal actions of the true
state directly (what the ``random`` bot does from a determinized one; the
choice does not depend on hidden cards); other bots decide through
``freetrader.bots.decide`` as in the Gymnasium adapter. Every index is
checked before any game moves: an illegal one raises ``IllegalAction``
naming the first game it was given to, and no game changes. Each game deals
from its own seed stream, derived from ``reset``'s seed and the game's index
in the batch. ``actions_played()`` counts the actions of all seats that
``step`` played since the last reset (a throughput count); ``close()`` ends
the batch (also a context manager), after which using it raises
``EnvClosed``.

Worker processes. ``BatchedEnv(..., workers=k)`` splits the games into k
nearly equal runs of consecutive indices, each played by a worker process
(started by ``multiprocessing``'s default method, or ``start_method``) that
runs a one-process batched env over its run. Observations, masks, rewards,
flags and the learners' actions live in one ``multiprocessing.shared_memory``
segment, each worker writing its own rows in place; a step writes the
actions there, sends each worker one byte over its pipe and waits for each
answer (empty unless an episode ended, whose final scores come back for
``last_scores``). Nothing else changes: the same arguments, the same
returned buffers (here views of the shared memory), and, since each game is
seeded by its index and not its worker, the same games step for step as
with ``workers=1``, auto-resets included. The indices are checked in the
parent against the masks it holds; one the mask does not show is put to its
game's session in the worker, so that the refusal is ``workers=1``'s word
for word, before any worker steps. A worker that dies or raises is named in
a ``WorkerFailed`` (its number, pid, games and exit signal or error) instead
of a hang, and the batch closes with it. ``close()``, the env's collection
and interpreter exit end the workers and unlink the shared memory; arrays
already handed out stay readable (the memory is unmapped with the last of
them). ``sessions`` is empty: the games live in the workers. With the
``spawn`` and ``forkserver`` start methods the main script needs the usual
``if __name__ == "__main__":`` guard (as for Gymnasium's ``AsyncVectorEnv``).

Workers pay when there are idle cores and each step has enough work to
cover a round trip per worker and the picks the parent makes alone: more
cores, and bigger ``num_envs``. A step's work is split k ways, while its
fixed costs (the policy's picks, the pipe round trips, the wake-ups) are
not, so the speed-up is below k even on idle cores. On a machine whose cores
are busy with other work (the one these numbers come from), they lose; see
the README for the measurements.

Speed. Beside ``gymnasium.vector.SyncVectorEnv`` of ``FreetraderGymEnv`` it
skips, per game and step: the dicts of observations and infos and their
copies (each row is written in place, straight from the compiled encoder's
bytes, by ``Encoder.encode_into``; each mask row from the bytes
``Encoder.legal_mask`` gives), the second legality check (an index is
looked up once among the position's legal indices and applied unchecked)
and the bots' ``decide`` for random opponents. What is left is the engine
and the encoder, which no adapter can skip: ``benchmarks/bench_adapters.py``
prints the batched env beside SyncVectorEnv and beside that floor (an
engine + encoder loop) in one run. With the engines as they are, the floor
itself is only about 1.8-3.1x SyncVectorEnv (SyncVectorEnv takes 2.1-3.0x
the raw engine's time, and the learner's observations cost a large share of
an engine step), so issue 32's 5x is out of reach for Python-level batching
in one process; worker processes multiply it by less than their number of
free cores (see the README).
"""

from __future__ import annotations

import multiprocessing
import operator
import os
import pickle
import random
import signal
import weakref
from collections.abc import Iterable, Mapping, Sequence
from multiprocessing.connection import Connection
from multiprocessing.process import BaseProcess
from multiprocessing.shared_memory import SharedMemory
from typing import Any, NoReturn

from freetrader._extras import missing_extra

try:
    import numpy as np
except ImportError as _exc:
    raise missing_extra("rl", "freetrader.adapters.vector", _exc) from _exc

from freetrader.bots import Bot, decide, make_bot
from freetrader.core import Action, BadOption, FreetraderError, Game, IllegalAction, Rng, State, derive_seed
from freetrader.core import game as find_game

from ._session import Session, check_rewards, final_rewards
from .limits import check_max_actions, check_truncation_reward, truncation_rewards

__all__ = ["BatchedEnv", "EnvClosed", "WorkerFailed"]


class EnvClosed(FreetraderError, RuntimeError):
    """A batched environment used after ``close()``, or after one of its workers failed."""


class WorkerFailed(FreetraderError, RuntimeError):
    """A worker process of a batched environment died or raised; the environment is closed with it."""


def _base_seed(seed: Any) -> int:
    """The integer every game's seed is derived from (``seed`` itself, or fresh entropy for None)."""
    if seed is None:
        return int.from_bytes(os.urandom(8), "little") >> 2
    if isinstance(seed, bool):
        raise BadOption(f"seed must be a whole number or None, got {seed!r}")
    try:
        return operator.index(seed)
    except TypeError:
        raise BadOption(f"seed must be a whole number or None, got {seed!r}") from None



def _one_per_game(actions: Any, n: int) -> list[Any]:
    """The learner's actions as a list: a list of ints as it is (its items are checked one by one after);
    anything else through numpy. One per game, or ``IllegalAction``."""
    acts: list[Any] = actions if type(actions) is list else np.asarray(actions).reshape(-1).tolist()
    if len(acts) != n:
        raise IllegalAction(f"step needs one action per game ({n}), got {len(acts)}")
    return acts

class BatchedEnv:
    """``num_envs`` games of one learner seat against opponents, stepped together (see the module docstring)."""

    def __new__(cls, *args: Any, workers: int = 1, **kwargs: Any) -> BatchedEnv:
        # Worker processes are a subclass, so that the one-process env's methods carry no test for them.
        return object.__new__(_WorkerEnv if cls is BatchedEnv and workers != 1 else cls)

    def __init__(
        self,
        game: Game | str,
        num_envs: int,
        opponents: Sequence[str] = ("random",),
        *,
        workers: int = 1,
        start_method: str | None = None,
        seats: int | None = None,
        seat: int = 0,
        encoder: Any = "auto",
        rewards: str = "win",
        max_actions: int | None = None,
        truncation_reward: str | float = "rank",
        options: Mapping[str, Any] | None = None,
        **game_options: Any,
    ) -> None:
        self._closed: str | None = "this BatchedEnv was not made: its constructor failed"  # until it is
        if isinstance(num_envs, bool) or not isinstance(num_envs, int) or num_envs < 1:
            raise BadOption(f"num_envs must be a whole number of at least 1, got {num_envs!r}")
        if isinstance(workers, bool) or not isinstance(workers, int) or not 1 <= workers <= num_envs:
            raise BadOption(f"workers must be a whole number from 1 to num_envs ({num_envs}), got {workers!r}")
        if workers == 1 and start_method is not None:
            raise BadOption(f"start_method is for worker processes (workers > 1), got {start_method!r} with one")
        if isinstance(opponents, str):
            opponents = [opponents]
        if not opponents:
            raise BadOption("opponents needs at least one bot spec, e.g. ['random']")
        given = list(opponents)  # as given: a one-seat game's list is empty once fitted to the seats
        g = find_game(game) if isinstance(game, str) else game
        if seats is None:
            seats = max(1 + len(opponents), g.spec.min_seats) if len(opponents) == 1 else 1 + len(opponents)
        opts = dict(options or {}, **game_options)
        first = Session(g, seats, opts, encoder)
        n = first.seats
        if len(opponents) == 1:
            opponents = list(opponents) * (n - 1)
        if len(opponents) != n - 1:
            raise BadOption(f"{n} seats need {n - 1} opponents (or one spec for all), got {len(opponents)}")
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < n:
            raise BadOption(f"seat must be 0..{n - 1}, got {seat!r}")
        for spec in opponents:  # fail now, not at the first reset
            make_bot(spec, g)
        self.game = g
        self.num_envs = num_envs
        self.workers = workers
        self.seats = n
        self.seat = seat
        self.opponent_specs = list(opponents)
        self.rewards_scheme = check_rewards(rewards)
        self.max_actions = check_max_actions(max_actions, g, n, first.options)
        self.truncation_reward = check_truncation_reward(truncation_reward)
        self.encoder = first.encoder
        self.observation_size = first.observation_size
        self.num_actions = first.num_actions
        self.last_scores: list[list[float] | None] = [None] * num_envs
        self._setup(first, encoder, start_method, given)
        self._closed = None

    def _setup(self, first: Session, encoder: Any, start_method: str | None, opponents: list[str]) -> None:
        """The games, in this process, and the buffers they are shown in."""
        g, num_envs = self.game, self.num_envs
        # one encoder for every game: its memos serve them all, and one call encodes the batch
        self.sessions = [first] + [Session(g, self.seats, first.options, first.encoder) for _ in range(num_envs - 1)]
        self.obs = np.zeros((num_envs, self.observation_size), np.float32)
        self.mask = np.zeros((num_envs, self.num_actions), np.int8)
        self.reward = np.zeros(num_envs, np.float32)
        self.terminated = np.zeros(num_envs, bool)
        self.truncated = np.zeros(num_envs, bool)
        # The masks are written in place through a byte view, each row from the bytes of its mask,
        # with no array made per game and step.
        self._mask_bytes = self.mask.data.cast("B")
        self._mask_of = self.encoder.mask_function()  # legal_mask's C call itself (None from it: ask legal_mask)
        # the learner's legal actions in each game and their indices, as its row of ``mask`` shows them
        self._legal: list[list[Action]] = [[] for _ in range(num_envs)]
        self._idx: list[list[int]] = [[] for _ in range(num_envs)]
        self._random = [spec == "random" for spec in self.opponent_specs]
        self._bots: list[dict[int, Bot]] = [{} for _ in range(num_envs)]
        self._pick: list[random.Random] = [random.Random(0) for _ in range(num_envs)]
        self._rng: list[Rng] = [Rng(0) for _ in range(num_envs)]
        # Each game draws its deals from its own stream, seeded by its index in the whole batch (``_first``
        # is where a worker's games start): the same games whichever process plays them.
        self._first = 0
        self._seeds = [random.Random(derive_seed(0, i)) for i in range(num_envs)]
        self._ended: list[int] = []  # the games whose episode ended in the last step
        self._played = 0  # actions_played() less the games' action counts now

    def _place(self, first: int, obs: np.ndarray, mask: np.ndarray, reward: np.ndarray,
               terminated: np.ndarray, truncated: np.ndarray) -> None:
        """Make these games the whole batch's games ``first``.. and their buffers these rows (a worker's)."""
        self._first = first
        self._seeds = [random.Random(derive_seed(0, first + i)) for i in range(self.num_envs)]
        self.obs, self.mask, self.reward, self.terminated, self.truncated = obs, mask, reward, terminated, truncated
        self._mask_bytes = mask.data.cast("B")

    def reset(self, seed: int | None = None) -> tuple[np.ndarray, np.ndarray]:
        """Start a new game in every slot (seeded from ``seed``); returns ``(obs, mask)``."""
        if self._closed is not None:
            raise EnvClosed(self._closed)
        base = _base_seed(seed)
        self._seeds = [random.Random(derive_seed(base, self._first + i)) for i in range(self.num_envs)]
        for i in range(self.num_envs):
            self._new_game(i)
        self._show(range(self.num_envs))
        self.reward[:] = 0.0
        self.terminated[:] = False
        self.truncated[:] = False
        self._ended = []
        self._played = -sum(s.state.action_count for s in self.sessions)
        return self.obs, self.mask

    def _new_game(self, i: int) -> None:
        """Deal game ``i`` again and play its opponents up to the learner's first decision (not shown yet)."""
        while True:
            base = self._seeds[i].getrandbits(62)
            others = [p for p in range(self.seats) if p != self.seat]
            self._bots[i] = {p: make_bot(spec, self.game, seed=derive_seed(base, p + 1))
                             for p, spec, rnd in zip(others, self.opponent_specs, self._random, strict=True)
                             if not rnd}
            self._pick[i] = random.Random(derive_seed(base, 0))
            self._rng[i] = Rng(derive_seed(base, 0))
            state = self.sessions[i].new_game(derive_seed(base, 99))
            if self._run_opponents(i, state) == self.seat and state.action_count < self.max_actions:
                return
            # the opponents ended it before the learner's first turn: deal again

    def _run_opponents(self, i: int, state: State) -> int | None:
        """Play game ``i``'s opponents until the learner is to act, the game ends or reaches the bound;
        returns the seat to act (None once over)."""
        limit, seat, bots = self.max_actions, self.seat, self._bots[i]
        choice = self._pick[i].choice
        while True:
            who = state.to_act
            if who == seat or who is None or state.action_count >= limit:
                return who
            bot = bots.get(who) if bots else None
            if bot is None:
                state.apply_unchecked(choice(state.legal_actions()))  # from the legal actions of this very state
            else:
                state.apply(decide(bot, state, who, self._rng[i]), seat=who)

    def _show(self, rows: Iterable[int]) -> None:
        """Write the learner's observation and mask of each game in ``rows`` into the stacked arrays."""
        rows = list(rows)
        sessions, seat = self.sessions, self.seat
        states = [sessions[i].state for i in rows]
        self.encoder.encode_into(states, seat, self.obs, rows)
        width, view, legal_mask, mask_of = self.num_actions, self._mask_bytes, self.encoder.legal_mask, self._mask_of
        for i, state in zip(rows, states, strict=True):
            legal = state.legal_actions()
            # the indices and the row's bytes in one call (C where built)
            got = None if mask_of is None else mask_of(legal)
            idx, ones = legal_mask(legal) if got is None else got
            self._legal[i] = legal
            self._idx[i] = idx
            at = i * width
            view[at:at + width] = ones

    def step(self, actions: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """One learner action per game; returns ``(obs, mask, reward, terminated, truncated)``."""
        if self._closed is not None:
            raise EnvClosed(self._closed)
        n = self.num_envs
        acts = _one_per_game(actions, n)
        sessions, legals, indices, limit, seat = self.sessions, self._legal, self._idx, self.max_actions, self.seat
        # Every index is checked before any is played, so that an illegal one leaves every game as it was.
        picked: list[Action] = []
        for i, a in enumerate(acts):
            try:
                k = indices[i].index(a) if type(a) is int else -1
            except ValueError:
                k = -1
            if k < 0:  # not an index the mask shows: the session says why (or finds it, for an int-like index)
                try:
                    picked.append(sessions[i].action_of(a))
                except IllegalAction as exc:
                    raise IllegalAction(f"game {i}: {exc}") from None
            else:
                picked.append(legals[i][k])
        ended: list[int] = []  # the games whose episode ended: their reward and flags are set below
        reward = [0.0] * n
        terminated = [False] * n
        truncated = [False] * n
        show: list[int] = []
        for i, action in enumerate(picked):
            state = sessions[i].state
            state.apply_unchecked(action)  # one of this very position's legal actions
            who = self._run_opponents(i, state)
            if who is None:
                reward[i] = final_rewards(state, self.rewards_scheme)[seat]
                terminated[i] = True
            elif state.action_count >= limit:
                reward[i] = truncation_rewards(state, self.rewards_scheme, self.truncation_reward)[seat]
                truncated[i] = True
            else:
                show.append(i)
                continue
            self.last_scores[i] = state.scores()
            self._played += state.action_count
            self._new_game(i)
            show.append(i)
            ended.append(i)
        self._show(show)
        self._ended = ended
        if ended:
            self.reward[:] = reward
            self.terminated[:] = terminated
            self.truncated[:] = truncated
        else:  # the common step: nothing ended, and filling is cheaper than converting three lists
            self.reward.fill(0.0)
            self.terminated.fill(False)
            self.truncated.fill(False)
        return self.obs, self.mask, self.reward, self.terminated, self.truncated

    def actions_played(self) -> int:
        """The actions of all seats played by ``step`` since the last ``reset`` in every game, the ended ones
        included (the opponents' opening moves of the games dealt by ``reset`` are not): a throughput count."""
        if self._closed is not None:
            raise EnvClosed(self._closed)
        return self._played + sum(s.state.action_count for s in self.sessions)

    def close(self) -> None:
        """End the batch: with workers, stop them and free the shared memory. Using it afterwards is an error;
        the buffers it returned keep their last contents."""
        if self._closed is None:
            self._closed = "this BatchedEnv is closed: make a new one"

    def __enter__(self) -> BatchedEnv:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


# The shared buffers, in this order, each starting on a 64-byte boundary: obs, mask, reward, terminated,
# truncated, and the learners' actions (written by the parent, read by the workers).
_DTYPES = (np.float32, np.int8, np.float32, np.bool_, np.bool_, np.int64)


def _layout(n: int, size: int, width: int) -> tuple[list[tuple[int, tuple[int, ...], Any]], int]:
    shapes: list[tuple[int, ...]] = [(n, size), (n, width), (n,), (n,), (n,), (n,)]
    at, out = 0, []
    for shape, dtype in zip(shapes, _DTYPES, strict=True):
        out.append((at, shape, dtype))
        nbytes = int(np.prod(shape)) * np.dtype(dtype).itemsize
        at += -(-nbytes // 64) * 64
    return out, at


def _views(buf: Any, n: int, size: int, width: int) -> list[np.ndarray]:
    layout, _ = _layout(n, size, width)
    return [np.ndarray(shape, dtype, buffer=buf, offset=at) for at, shape, dtype in layout]


class _Segment(SharedMemory):
    """The parent's shared memory, never unmapped by hand: NumPy arrays over a buffer do not hold it
    exported, so ``SharedMemory.close()`` would unmap memory that arrays handed to the caller still point
    into (a crash at their next read). The mapping goes with the last reference to it, arrays included;
    ``release`` removes the name at once, so that no other process can map it again."""

    _fd: int

    def release(self) -> None:
        try:
            self.unlink()
        except FileNotFoundError:
            pass
        self._close_descriptor()

    def _close_descriptor(self) -> None:
        # SharedMemory's own descriptor, which only close() would close; the mapping does not need it
        if self._fd >= 0:
            os.close(self._fd)
            self._fd = -1

    def __del__(self) -> None:
        self._close_descriptor()


def _shut_down(owner: int, procs: list[BaseProcess], conns: list[Connection], segment: _Segment) -> None:
    """End the workers (asked, then killed) and free the shared memory: ``close()``, collection or exit."""
    if os.getpid() != owner:  # a forked copy of the parent exiting: the batch is not its to end
        return
    for c in conns:
        try:
            c.send_bytes(b"q")
        except OSError:
            pass
    for p in procs:
        p.join(2.0)
        if p.exitcode is None:
            p.kill()
            p.join(2.0)
    for c in conns:
        c.close()
    segment.release()


def _why(exc: BaseException) -> str:
    return f"{type(exc).__name__}: {exc}".splitlines()[0]


def _serve(conn: Connection, segment: str, n: int, size: int, width: int, lo: int, hi: int,
           config: dict[str, Any]) -> None:
    """A worker: games ``lo``..``hi - 1`` of the batch, their rows in the shared memory named ``segment``.

    Requests are one byte (and a payload): ``s`` step with the actions in shared memory, ``r`` reset, ``c``
    check one action, ``n`` actions played, ``q`` quit. Answers: empty (done), ``=`` and a pickled value,
    or ``!`` and the one-line error that stopped this worker."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's, which then ends its workers
    try:
        shm = SharedMemory(name=segment)
        env = BatchedEnv(num_envs=hi - lo, **config)
        obs, mask, reward, terminated, truncated, acts = (v[lo:hi] for v in _views(shm.buf, n, size, width))
        env._place(lo, obs, mask, reward, terminated, truncated)
    except BaseException as exc:
        conn.send_bytes(b"!" + _why(exc).encode())
        return
    conn.send_bytes(b"")
    step, last_scores = env.step, env.last_scores
    while True:
        try:
            msg = conn.recv_bytes()
        except (EOFError, OSError):
            return  # the parent is gone
        op = msg[:1]
        try:
            if op == b"s":
                step(acts.tolist())
                ended = env._ended
                conn.send_bytes(b"=" + pickle.dumps({lo + i: last_scores[i] for i in ended}) if ended else b"")
            elif op == b"r":
                env.reset(int(msg[1:]))
                conn.send_bytes(b"")
            elif op == b"c":
                i, a = pickle.loads(msg[1:])
                try:
                    env.sessions[i].action_of(a)
                    answer: tuple[bool, Any] = (True, int(a))
                except IllegalAction as exc:
                    answer = (False, str(exc))
                conn.send_bytes(b"=" + pickle.dumps(answer))
            elif op == b"n":
                conn.send_bytes(b"=" + pickle.dumps(env.actions_played()))
            else:
                return
        except BaseException as exc:
            conn.send_bytes(b"!" + _why(exc).encode())
            return


class _WorkerEnv(BatchedEnv):
    """``BatchedEnv(workers=k)``, k > 1: the games in k processes, the buffers in shared memory."""

    def _setup(self, first: Session, encoder: Any, start_method: str | None, opponents: list[str]) -> None:
        n, k, size, width = self.num_envs, self.workers, self.observation_size, self.num_actions
        try:
            ctx: Any = multiprocessing.get_context(start_method)  # typeshed's BaseContext lacks Process
        except ValueError:
            methods = ", ".join(multiprocessing.get_all_start_methods())
            raise BadOption(f"start_method must be one of {methods} or None, got {start_method!r}") from None
        self.sessions: list[Session] = []  # the games live in the workers
        _, nbytes = _layout(n, size, width)
        segment = _Segment(create=True, size=nbytes)
        self._segment = segment
        self.obs, self.mask, self.reward, self.terminated, self.truncated, self._acts = _views(segment.buf, n, size, width)
        self._rows = np.arange(n)
        self._spans = [(w * n // k, (w + 1) * n // k) for w in range(k)]
        self._owner = [w for w, (lo, hi) in enumerate(self._spans) for _ in range(lo, hi)]
        self._procs: list[BaseProcess] = []
        self._conns: list[Connection] = []
        # Made before the first worker, over lists filled below: a failure half way still ends what started.
        self._finalizer = weakref.finalize(self, _shut_down, os.getpid(), self._procs, self._conns, segment)
        g = self.game
        config = {
            "game": g.spec.name if find_game(g.spec.name) is g else g,  # by name: nothing to pickle for spawn
            "opponents": opponents, "seats": self.seats, "seat": self.seat, "encoder": encoder,
            "rewards": self.rewards_scheme, "max_actions": self.max_actions,
            "truncation_reward": self.truncation_reward, "options": first.options,
        }
        for w, (lo, hi) in enumerate(self._spans):
            mine, theirs = ctx.Pipe()
            p = ctx.Process(target=_serve, args=(theirs, segment.name, n, size, width, lo, hi, config),
                            name=f"freetrader-batched-worker-{w}", daemon=True)
            self._procs.append(p)
            self._conns.append(mine)
            p.start()
            theirs.close()  # the worker's end only in the worker: its death is then our end's EOF
        for w in range(k):
            self._answer(w)  # each says it is ready, or why not

    def _fail(self, w: int, why: str | None) -> NoReturn:
        """Close the batch over worker ``w``'s failure and raise it."""
        p, (lo, hi) = self._procs[w], self._spans[w]
        if why is None:
            p.join(2.0)
            code = p.exitcode
            if code is None:
                why = "closed its pipe"
            elif code < 0:
                try:
                    why = f"was killed by {signal.Signals(-code).name}"
                except ValueError:
                    why = f"was killed by signal {-code}"
            else:
                why = f"exited with code {code}"
        else:
            why = f"raised {why}"
        what = f"batched env worker {w} (pid {p.pid}, games {lo}-{hi - 1}) {why}"
        self._closed = f"this BatchedEnv is closed: {what}"
        self._finalizer()
        raise WorkerFailed(f"{what}; the batch is closed")

    def _send(self, w: int, msg: bytes) -> None:
        try:
            self._conns[w].send_bytes(msg)
        except OSError:
            self._fail(w, None)

    def _answer(self, w: int) -> bytes:
        try:
            got = self._conns[w].recv_bytes()
        except (EOFError, OSError):
            self._fail(w, None)
        if got[:1] == b"!":
            self._fail(w, got[1:].decode())
        return got

    def _ask(self, workers: Sequence[int], msg: bytes) -> list[bytes]:
        """Send ``msg`` to these workers and wait for all their answers. An exchange cut short (Ctrl-C)
        leaves answers unread and games in unknown states, so it closes the batch."""
        try:
            for w in workers:
                self._send(w, msg)
            return [self._answer(w) for w in workers]
        except WorkerFailed:
            raise
        except BaseException as exc:
            self._closed = f"this BatchedEnv is closed: a request to its workers was interrupted ({_why(exc)})"
            self._finalizer()
            raise

    def _everyone(self, msg: bytes) -> list[bytes]:
        return self._ask(range(self.workers), msg)

    def _checked(self, acts: list[Any]) -> np.ndarray:
        """The actions as indices, every one checked against its game's mask before any is sent; an index
        the mask does not show is asked of its worker, which refuses it as ``workers=1`` would."""
        try:
            arr = np.asarray(acts)
        except (ValueError, TypeError):  # ragged or odd items: each asked of its worker below
            arr = np.zeros(0)
        if arr.ndim == 1 and arr.dtype.kind in "iu":
            ok = (arr >= 0) & (arr < self.num_actions)
            if ok.all():
                ok = self.mask[self._rows, arr] != 0
                if ok.all():
                    return arr
            else:
                ok[ok] = self.mask[self._rows[ok], arr[ok]] != 0
            out = arr.astype(np.int64)
        else:
            ok = np.zeros(self.num_envs, bool)
            out = np.zeros(self.num_envs, np.int64)
        for i in np.flatnonzero(~ok).tolist():  # in order: the first illegal game is the one named, as with one
            w = self._owner[i]
            got = self._ask([w], b"c" + pickle.dumps((i - self._spans[w][0], acts[i])))[0]
            legal, value = pickle.loads(got[1:])
            if not legal:
                raise IllegalAction(f"game {i}: {value}")
            out[i] = value
        return out

    def reset(self, seed: int | None = None) -> tuple[np.ndarray, np.ndarray]:
        if self._closed is not None:
            raise EnvClosed(self._closed)
        self._everyone(b"r%d" % _base_seed(seed))
        return self.obs, self.mask

    def step(self, actions: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        if self._closed is not None:
            raise EnvClosed(self._closed)
        self._acts[:] = self._checked(_one_per_game(actions, self.num_envs))
        for got in self._everyone(b"s"):
            if got:
                for i, scores in pickle.loads(got[1:]).items():
                    self.last_scores[i] = scores
        return self.obs, self.mask, self.reward, self.terminated, self.truncated

    def actions_played(self) -> int:
        if self._closed is not None:
            raise EnvClosed(self._closed)
        return sum(pickle.loads(got[1:]) for got in self._everyone(b"n"))

    def close(self) -> None:
        if self._closed is None:
            self._closed = "this BatchedEnv is closed: make a new one"
        self._finalizer()
