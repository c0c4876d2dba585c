"""The batched environment: stacked observations and masks, auto-reset, the Gymnasium adapter's episode semantics."""

from __future__ import annotations

import gc
import os
import signal
import subprocess
import sys
from multiprocessing.shared_memory import SharedMemory
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import freetrader

pytest.importorskip("gymnasium")
from freetrader.adapters.encoders import encoder_for  # noqa: E402
from freetrader.adapters.vector import BatchedEnv, EnvClosed, WorkerFailed  # noqa: E402
from freetrader.core import BadOption, IllegalAction  # noqa: E402

from .conftest import short_options, small_seats  # noqa: E402


def _play(env: BatchedEnv, steps: int, seed: int) -> tuple[list[float], int, int]:
    rng = np.random.default_rng(seed)
    obs, mask = env.reset(seed=seed)
    rewards: list[float] = []
    ends = truncs = 0
    for _ in range(steps):
        assert obs.shape == (env.num_envs, env.observation_size) and mask.shape == (env.num_envs, env.num_actions)
        assert (mask.sum(axis=1) > 0).all()  # every game's learner is to act: auto-reset keeps it so
        actions = [int(rng.choice(np.flatnonzero(m))) for m in mask]
        obs, mask, reward, terminated, truncated = env.step(actions)
        assert not (terminated & truncated).any()
        assert (reward[~(terminated | truncated)] == 0).all()
        rewards += reward[terminated | truncated].tolist()
        ends += int(terminated.sum())
        truncs += int(truncated.sum())
    return rewards, ends, truncs


def test_batched_games_end_reset_and_pay_as_the_gymnasium_adapter(game_name):
    env = BatchedEnv(game_name, 3, seats=small_seats(game_name), **short_options(game_name))
    rewards, ends, truncs = _play(env, 150, seed=1)
    assert ends + truncs > 0 and len(rewards) == ends + truncs
    lo, hi = (-1.0 / (env.seats - 1), 1.0) if env.seats > 1 else (0.0, 1.0)
    assert all(lo - 1e-6 <= r <= hi + 1e-6 for r in rewards)
    assert any(s is not None and len(s) == env.seats for s in env.last_scores)


def test_the_same_seed_gives_the_same_batch():
    a = BatchedEnv("contraband", 4, end="turns", turn_limit=6)
    b = BatchedEnv("contraband", 4, end="turns", turn_limit=6)
    assert _play(a, 60, seed=7) == _play(b, 60, seed=7)
    assert np.array_equal(a.obs, b.obs) and np.array_equal(a.mask, b.mask)


def test_observations_are_the_learners_and_truncation_follows_the_bound():
    env = BatchedEnv("contraband", 2, max_actions=30)
    obs, mask = env.reset(seed=3)
    for i, s in enumerate(env.sessions):
        assert s.state.to_act == env.seat
        assert np.array_equal(obs[i], s.encoder.encode_state(s.state, env.seat))
        assert np.array_equal(mask[i], s.mask())
    _, ends, truncs = _play(env, 40, seed=3)
    assert truncs > 0


def test_bad_arguments_and_illegal_actions_are_refused_with_a_reason():
    with pytest.raises(BadOption, match="num_envs"):
        BatchedEnv("contraband", 0)
    env = BatchedEnv("contraband", 2)
    obs, mask = env.reset(seed=0)
    with pytest.raises(IllegalAction, match="one action per game"):
        env.step([0])
    bad = [int(np.flatnonzero(m == 0)[0]) for m in mask]
    with pytest.raises(IllegalAction, match="game 0"):
        env.step(bad)


def test_other_bots_play_through_decide():
    env = BatchedEnv("contraband", 2, ["heuristic"], end="turns", turn_limit=4)
    _, ends, truncs = _play(env, 40, seed=2)
    assert ends > 0


def test_every_row_is_the_learners_encoding_and_mask_after_steps(game_name):
    """Rows are written in place (compiled bytes copied, masks set through a byte view): after every step
    each row must still be exactly ``encode_state`` and the session's mask of that game's position."""
    env = BatchedEnv(game_name, 3, seats=small_seats(game_name), **short_options(game_name))
    rng = np.random.default_rng(5)
    obs, mask = env.reset(seed=5)
    for _ in range(40):
        for i, s in enumerate(env.sessions):
            assert s.state.to_act == env.seat
            assert np.array_equal(obs[i], s.encoder.encode_state(s.state, env.seat))
            assert np.array_equal(mask[i], s.mask())
        obs, mask, *_ = env.step([int(rng.choice(np.flatnonzero(m))) for m in mask])


@pytest.mark.parametrize("compiled", [True, False])
def test_encode_into_writes_each_state_into_its_row(game_name, compiled):
    seats = small_seats(game_name)
    enc = encoder_for(game_name, seats)
    enc.compiled = compiled and enc.compiled  # the Python path (blocks or encode_state) as well as the C twin
    g = freetrader.game(game_name)
    rng = np.random.default_rng(1)
    states = []
    for seed in range(3):
        state = g.new_state(seats, seed)
        for _ in range(int(rng.integers(0, 30))):
            if state.is_over:
                break
            legal = state.legal_actions()
            state.apply(legal[int(rng.integers(len(legal)))])
        states.append(state)
    out = np.full((5, enc.observation_size), -7.0, np.float32)
    enc.encode_into(states, 0, out, [4, 0, 2])
    for row, state in zip([4, 0, 2], states, strict=True):
        assert np.array_equal(out[row], enc.encode_state(state, 0))
    assert (out[[1, 3]] == -7.0).all()  # rows not named are left alone
    with pytest.raises(ValueError, match="float32"):
        enc.encode_into(states, 0, np.zeros((3, enc.observation_size)), [0, 1, 2])


def test_actions_as_a_list_or_an_array_play_alike_and_every_step_rewrites_its_buffers():
    """A list of ints is read as it is, anything else through numpy: the same play. Rewards and flags are
    rewritten at every step, whether or not a game ended in it, whatever the caller wrote into them."""
    a = BatchedEnv("contraband", 3, end="turns", turn_limit=4)
    b = BatchedEnv("contraband", 3, end="turns", turn_limit=4)
    a.reset(seed=5)
    b.reset(seed=5)
    ended = quiet = 0
    for _ in range(60):
        acts = [int(np.flatnonzero(m)[-1]) for m in a.mask]
        a.reward[:] = 9.0  # the caller's own scribbles on the buffers it was handed
        a.terminated[:] = a.truncated[:] = True
        got = a.step(acts)
        want = b.step(np.array(acts))
        assert all(np.array_equal(x, y) for x, y in zip(got, want, strict=True))
        if (got[3] | got[4]).any():
            ended += 1
        else:
            quiet += 1
            assert not got[2].any() and not got[3].any() and not got[4].any()
    assert ended > 0 and quiet > 0


# --- worker processes (workers=k): the same games as one process, over shared memory ---------------------


@pytest.fixture
def bounded():
    """Fail a test that would hang (a worker waited for forever) instead of hanging the suite."""
    def expire(signum, frame):
        raise TimeoutError("the test took over 60 s: a wait that never ended")

    old = signal.signal(signal.SIGALRM, expire)
    signal.alarm(60)
    yield
    signal.alarm(0)
    signal.signal(signal.SIGALRM, old)


def _trace(env: BatchedEnv, steps: int, seed: int) -> tuple[list[np.ndarray], list[Any], int]:
    """Every array the env returns, copied, over ``steps`` random legal steps; then its scores and count."""
    rng = np.random.default_rng(seed)
    obs, mask = env.reset(seed=seed)
    seen = [obs.copy(), mask.copy()]
    for _ in range(steps):
        acts = [int(rng.choice(np.flatnonzero(m))) for m in mask]
        obs, mask, reward, terminated, truncated = env.step(acts)
        seen += [obs.copy(), mask.copy(), reward.copy(), terminated.copy(), truncated.copy()]
    return seen, list(env.last_scores), env.actions_played()


def _same(a: list[np.ndarray], b: list[np.ndarray]) -> bool:
    return len(a) == len(b) and all(x.dtype == y.dtype and np.array_equal(x, y) for x, y in zip(a, b, strict=True))


@pytest.mark.parametrize(("opponents", "steps"), [(["random"], 300), (["heuristic"], 60)])
def test_workers_play_the_same_games_as_one_process(bounded, opponents, steps):
    """Each game is seeded by its index in the batch, not by its worker: observations, masks, rewards,
    flags and auto-resets are the same step for step, with random opponents and with bots in the workers."""
    kw = dict(end="turns", turn_limit=4)
    one = BatchedEnv("contraband", 5, opponents, **kw)
    with BatchedEnv("contraband", 5, opponents, workers=2, **kw) as two:
        a, b = _trace(one, steps, seed=11), _trace(two, steps, seed=11)
    assert _same(a[0], b[0])
    ends = sum(int((t | u).sum()) for t, u in zip(a[0][5::5], a[0][6::5], strict=True))
    assert ends >= 5  # auto-resets happened, in every game's worker
    assert a[1] == b[1] and a[2] == b[2] > 0


def test_workers_play_every_game_alike(bounded, game_name):
    seats = small_seats(game_name)
    one = BatchedEnv(game_name, 3, seats=seats, **short_options(game_name))
    with BatchedEnv(game_name, 3, seats=seats, workers=3, **short_options(game_name)) as three:
        a, b = _trace(one, 40, seed=4), _trace(three, 40, seed=4)
    assert _same(a[0], b[0]) and a[1:] == b[1:]


def test_workers_play_a_one_seat_game_alike(bounded):
    one = BatchedEnv("merchants-cove", 4, seats=1, **short_options("merchants-cove"))
    with BatchedEnv("merchants-cove", 4, seats=1, workers=2, **short_options("merchants-cove")) as two:
        a, b = _trace(one, 40, seed=4), _trace(two, 40, seed=4)
    assert _same(a[0], b[0]) and a[1:] == b[1:]


def test_workers_started_by_spawn_play_alike(bounded):
    one = BatchedEnv("contraband", 4, end="turns", turn_limit=4)
    with BatchedEnv("contraband", 4, workers=2, start_method="spawn", end="turns", turn_limit=4) as two:
        a, b = _trace(one, 50, seed=2), _trace(two, 50, seed=2)
    assert _same(a[0], b[0]) and a[1:] == b[1:]


def test_an_illegal_index_is_refused_alike_before_any_game_moves(bounded):
    """The first illegal game is named in the same one line with and without workers, and no game moved:
    the steps that follow are those of a batch that never saw the bad step."""
    kw = dict(end="turns", turn_limit=4)
    one, ref = BatchedEnv("contraband", 4, **kw), BatchedEnv("contraband", 4, **kw)
    with BatchedEnv("contraband", 4, workers=2, **kw) as two:
        envs = (one, two, ref)
        for env in envs:
            env.reset(seed=6)
        mask = one.mask.copy()
        assert np.array_equal(mask, two.mask)
        legal = [int(np.flatnonzero(m)[0]) for m in mask]
        bad = list(legal)
        bad[2] = int(np.flatnonzero(mask[2] == 0)[0])  # game 2 (worker 1's first) and 3 are illegal
        bad[3] = one.num_actions + 5
        said = []
        for env in (one, two):
            before = [env.obs.copy(), env.mask.copy()]
            with pytest.raises(IllegalAction) as got:
                env.step(bad)
            said.append(str(got.value))
            assert _same(before, [env.obs, env.mask])
            with pytest.raises(IllegalAction, match="one action per game"):
                env.step(legal[:3])
            with pytest.raises(IllegalAction, match="game 0: an action index must be a whole number"):
                env.step([None] + legal[1:])
        assert said[0] == said[1] and said[0].startswith("game 2: action index") and "\n" not in said[0]
        # int-like indices (numpy integers, an array) are taken alike
        for env in envs:
            env.step([np.int64(a) for a in legal])
        rng = np.random.default_rng(0)
        for _ in range(30):
            acts = np.array([rng.choice(np.flatnonzero(m)) for m in one.mask])
            got = [[x.copy() for x in env.step(acts)] for env in envs]
            assert _same(got[0], got[1]) and _same(got[0], got[2])


def test_a_killed_worker_is_named_not_waited_for(bounded):
    env = BatchedEnv("contraband", 4, workers=2)
    obs, mask = env.reset(seed=1)
    victim = env._procs[1]
    os.kill(victim.pid, signal.SIGKILL)
    victim.join(10)
    acts = [int(np.flatnonzero(m)[0]) for m in mask]
    with pytest.raises(WorkerFailed, match=rf"worker 1 \(pid {victim.pid}, games 2-3\) was killed by SIGKILL"):
        env.step(acts)
    assert not any(p.is_alive() for p in env._procs)  # the other worker is ended with it
    with pytest.raises(EnvClosed, match="worker 1"):
        env.step(acts)
    with pytest.raises(EnvClosed):
        env.reset(seed=1)


def test_a_worker_that_raises_is_named_with_its_error(bounded, monkeypatch):
    """Forked workers inherit this patch: the first game to end raises in its worker."""
    import freetrader.adapters.vector as vector

    def broken(state, scheme):
        raise RuntimeError("no rewards today")

    monkeypatch.setattr(vector, "final_rewards", broken)
    env = BatchedEnv("contraband", 4, workers=2, start_method="fork", end="turns", turn_limit=2)
    obs, mask = env.reset(seed=1)
    with pytest.raises(WorkerFailed, match=r"worker \d \(pid \d+, games \d-\d\) raised RuntimeError: no rewards today"):
        for _ in range(200):
            obs, mask, *_ = env.step([int(np.flatnonzero(m)[0]) for m in mask])
    with pytest.raises(EnvClosed, match="no rewards today"):
        env.step([0] * 4)


def test_an_interrupted_step_closes_the_batch(bounded, monkeypatch):
    """Ctrl-C while waiting for the workers leaves answers unread: the batch must not go on out of step."""
    env = BatchedEnv("contraband", 4, workers=2)
    _, mask = env.reset(seed=1)
    procs = list(env._procs)
    acts = [int(np.flatnonzero(m)[0]) for m in mask]

    def interrupted(w):
        raise KeyboardInterrupt

    monkeypatch.setattr(env, "_answer", interrupted)
    with pytest.raises(KeyboardInterrupt):
        env.step(acts)
    with pytest.raises(EnvClosed, match="interrupted"):
        env.step(acts)
    assert not any(p.is_alive() for p in procs)


def _gone(name: str) -> bool:
    try:
        SharedMemory(name=name).close()
    except FileNotFoundError:
        return True
    return False


def test_close_and_collection_end_the_workers_and_free_the_memory(bounded):
    env = BatchedEnv("contraband", 4, workers=2)
    obs, _ = env.reset(seed=1)
    kept = obs.copy()
    procs, name = list(env._procs), env._segment.name
    env.close()
    assert not any(p.is_alive() for p in procs) and _gone(name)
    assert np.array_equal(obs, kept)  # the buffers handed out stay readable after close
    for use in (lambda: env.reset(seed=1), lambda: env.step([0] * 4), env.actions_played):
        with pytest.raises(EnvClosed, match="closed: make a new one"):
            use()
    env.close()  # twice is fine

    dropped = BatchedEnv("contraband", 4, workers=2)
    dropped.reset(seed=1)
    procs, name = list(dropped._procs), dropped._segment.name
    del dropped
    gc.collect()
    for p in procs:
        p.join(10)
    assert not any(p.is_alive() for p in procs) and _gone(name)


def test_interpreter_exit_ends_the_workers_and_frees_the_memory(tmp_path):
    script = tmp_path / "leave.py"
    script.write_text(
        "from freetrader.adapters.vector import BatchedEnv\n"
        "env = BatchedEnv('contraband', 4, workers=2)\n"
        "env.reset(seed=0)\n"
        "print(env._segment.name, *(p.pid for p in env._procs))\n"
    )
    src = str(Path(freetrader.__file__).parents[1])
    done = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=60,
                          env={**os.environ, "PYTHONPATH": src})
    assert done.returncode == 0 and done.stderr == ""
    name, *pids = done.stdout.split()
    assert len(pids) == 2 and _gone(name)
    for pid in map(int, pids):
        with pytest.raises(ProcessLookupError):
            os.kill(pid, 0)


def test_bad_worker_arguments_are_refused_with_a_reason():
    for workers in (0, 5, True, 1.5):
        with pytest.raises(BadOption, match="workers must be a whole number from 1 to num_envs"):
            BatchedEnv("contraband", 4, workers=workers)
    with pytest.raises(BadOption, match="start_method is for worker processes"):
        BatchedEnv("contraband", 4, start_method="spawn")
    with pytest.raises(BadOption, match="start_method must be one of"):
        BatchedEnv("contraband", 4, workers=2, start_method="teleport")
    with pytest.raises(BadOption, match="seed must be a whole number"):
        BatchedEnv("contraband", 2).reset(seed="x")
