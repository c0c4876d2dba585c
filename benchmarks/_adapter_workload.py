"""The work of benchmarks/count_adapter_instructions.sh: a fixed number of actions through one adapter loop.

    python benchmarks/_adapter_workload.py GAME SEATS LOOP ACTIONS [WARM]

(ACTIONS 0: the same script and environment, no play; WARM, default 2,000: actions of other games first)

LOOP is one of ``raw`` (``apply(choice(legal_actions()))``), ``floor`` (PettingZoo's floor: the raw
loop that also encodes the observation and builds the mask at every position, as
``bench_adapters.py``, with the encoder's ``compiled_function`` and ``legal_mask`` where the tree has
them), ``pettingzoo``, ``batched`` (BatchedEnv, 8 games, random opponents) or
``sync`` (Gymnasium's SyncVectorEnv of 8 ``FreetraderGymEnv``). Every loop picks with a seeded
``random.Random`` from the mask's ones as ``bench_adapters.py`` does; it stops after ACTIONS game actions (all seats') and
prints the count, so that the script can divide by it. Seeded and untimed, so the instruction count
repeats on a busy machine.
"""

from __future__ import annotations

import random
import sys

import numpy as np

import freetrader
from freetrader.adapters.encoders import encoder_for
from freetrader.adapters.gymnasium import FreetraderGymEnv
from freetrader.adapters.limits import default_max_actions
from freetrader.adapters.pettingzoo import env as pz_env
from freetrader.adapters.vector import BatchedEnv

BOOL = np.dtype(bool)  # picks from the mask viewed as bool, as bench_adapters.py does


def raw(name: str, seats: int, actions: int, rng: random.Random, k: int) -> int:
    g = freetrader.game(name)
    bound = default_max_actions(g, seats)
    done = 0
    while done < actions:
        state = g.new_state(seats, k)
        k += 1
        while not state.is_over and state.action_count < bound and done < actions:
            state.apply(rng.choice(state.legal_actions()))
            done += 1
    return done


def floor(name: str, seats: int, actions: int, rng: random.Random, k: int) -> int:
    g = freetrader.game(name)
    bound = default_max_actions(g, seats)
    enc = encoder_for(name, seats, {})
    width = enc.num_actions
    fast = enc.compiled_bytes if enc.compiled else None
    # what the adapters call where this tree has it (a tree before them has neither)
    fast = getattr(enc, "compiled_function", lambda: None)() or fast
    legal_mask = getattr(enc, "legal_mask", None)
    done = 0
    while done < actions:
        state = g.new_state(seats, k)
        k += 1
        while not state.is_over and state.action_count < bound and done < actions:
            legal = state.legal_actions()
            who = state.to_act
            if fast is None or fast(state, who) is None:
                enc.encode_state(state, who)
            if legal_mask is not None:
                idx, got = legal_mask(legal)
                mask = np.frombuffer(got, np.int8)
            else:
                idx = enc.legal_indices(legal)
                ones = bytearray(width)
                for i in idx:
                    ones[i] = 1
                mask = np.frombuffer(ones, np.int8)
            state.apply_unchecked(legal[idx.index(rng.choice(mask.view(BOOL).nonzero()[0].tolist()))])
            done += 1
    return done


def pettingzoo(name: str, seats: int, actions: int, rng: random.Random, seed: int) -> int:
    e = pz_env(name, seats=seats)
    done = 0
    while done < actions:
        e.reset(seed=seed)
        seed += 1
        for _agent in e.agent_iter():
            obs, _reward, term, trunc, _info = e.last()
            if term or trunc:
                e.step(None)
                continue
            if done >= actions:
                break
            e.step(rng.choice(obs["action_mask"].view(BOOL).nonzero()[0].tolist()))
            done += 1
    return done


def batched(name: str, seats: int, actions: int, rng: random.Random, seed: int) -> int:
    env = BatchedEnv(name, 8, ["random"], seats=seats)
    _, mask = env.reset(seed=seed)
    before = sum(s.state.action_count for s in env.sessions)
    done = 0
    while done + sum(s.state.action_count for s in env.sessions) - before < actions:
        acts = [rng.choice(m.view(BOOL).nonzero()[0].tolist()) for m in mask]
        states = [s.state for s in env.sessions]
        _, mask, _, term, trunc = env.step(acts)
        ended = term | trunc
        if ended.any():
            done += sum(states[i].action_count for i in np.flatnonzero(ended).tolist())
    return done + sum(s.state.action_count for s in env.sessions) - before


def sync(name: str, seats: int, actions: int, rng: random.Random, seed: int) -> int:
    from gymnasium.vector import SyncVectorEnv

    env = SyncVectorEnv([lambda: FreetraderGymEnv(name, ["random"], seats=seats) for _ in range(8)])
    obs, _ = env.reset(seed=seed)
    games = [e.unwrapped.session for e in env.envs]  # type: ignore[attr-defined]
    steps = -sum(s.state.action_count for s in games)
    while steps + sum(s.state.action_count for s in games) < actions:
        legal = [m.view(BOOL).nonzero()[0].tolist() for m in obs["action_mask"]]
        acts = [rng.choice(x) if x else 0 for x in legal]
        states = [s.state for s in games]
        obs, _, _, _, _ = env.step(acts)
        steps += sum(old.action_count for old, s in zip(states, games, strict=True) if s.state is not old)
    return steps + sum(s.state.action_count for s in games)


LOOPS = {"raw": raw, "floor": floor, "pettingzoo": pettingzoo, "batched": batched, "sync": sync}


def main() -> None:
    name, seats, loop, actions = sys.argv[1], int(sys.argv[2]), sys.argv[3], int(sys.argv[4])
    warm = int(sys.argv[5]) if len(sys.argv) > 5 else 2000
    rng = random.Random(0)
    # The same start-up in the run with no actions: imports, and WARM actions of other games (seeds from
    # 10,000) so that the caches an adapter fills once (the action catalogue's ids, the encoder's
    # memos, numpy's first calls) are filled as in a long run; the difference is the loop's steady work.
    LOOPS[loop](name, seats, warm, rng, 10_000)
    # ACTIONS 0 still builds the environment (and resets the batched ones): the difference leaves it out.
    print(LOOPS[loop](name, seats, actions, rng, 0) or 1)


if __name__ == "__main__":
    main()
