"""Adapter speed beside the raw engine: PettingZoo AEC, Gymnasium, the batched env and OpenSpiel steps/s.

    python benchmarks/bench_adapters.py [--seconds S] [--repeats R] [--games contraband,...] [--seats N]
                                        [--whole-lists] [--loops raw,gymnasium,...] [--clock wall|cpu]
                                        [--num-envs N] [--workers K]
    python benchmarks/bench_adapters.py --lists-only STEPS [--repeats R] [--games cornish-smuggler]

For each game, one run of each loop in turn (raw engine, the two engine +
encoder floors, PettingZoo with the game's encoder and with the generic
encoder, Gymnasium, the batched env, Gymnasium's SyncVectorEnv, OpenSpiel
without and with observations), R times,
interleaved so that machine noise hits all alike. Figures are medians of the
runs; ``x raw`` is the median, over runs, of raw actions/s ÷ adapter steps/s
(lower is better; issue 32's goal for PettingZoo is 2x or less); ``x floor``
the same over the loop's floor (below): what the adapter itself adds. A
closing table per game gives the batched env ÷ SyncVectorEnv (issue 32's goal:
5x) beside its ceiling, the batched floor ÷ SyncVectorEnv, PettingZoo's
``x raw`` beside its floor's, and the batched env with K workers ÷
SyncVectorEnv and ÷ the one-process batched env, and AsyncVectorEnv ÷
SyncVectorEnv. The load average is printed before and after: parallel
loops on a shared machine read as much the other work as themselves.

- raw: ``state.apply(rng.choice(state.legal_actions()))`` until the game ends
  or reaches the adapters' default bound (``limits.default_max_actions``; random
  Cornish Smuggler games at 2 seats may never end);
- pettingzoo: ``agent_iter()`` / ``last()`` / ``step()``, a random index
  among the mask's ones (observation, mask and rewards all computed);
  the final "dead" steps are not counted. The pick is
  ``rng.choice(mask.view(BOOL).nonzero()[0].tolist())``, the cheapest numpy
  idiom we know, so that the policy's own cost weighs about as little as the
  raw loop's ``rng.choice``: numpy's ``nonzero`` has a fast path for bool
  arrays only, and on the int8 mask itself it calls a function per entry
  (4.0 us against 1.5 us on Precious Cargo's 533 entries, measured on this
  machine; until issue 32's third round the loops picked that way, which
  made the policy about a quarter of a raw engine step); ``np.flatnonzero(mask)``
  costs more still. That is the policy's cost, not the adapter's;
- gymnasium: ``FreetraderGymEnv`` with ``random`` bots in the other seats,
  the learner picking as in the PettingZoo loop; steps are all the game's
  actions (the learner's and the bots'), as in the raw loop;
- engine + encoder (the floors): the raw loop with ``apply_unchecked``,
  which also encodes the observation (the compiled function where the encoder
  has one, else ``encode_state``) and finds the mask's indices and bytes
  (``legal_mask``, as the adapters) and picks from the mask as the adapter
  loops do, at every position (PettingZoo's floor: it observes each step) or
  at seat 0's only (the batched env's floor: its learner's positions; the
  other seats pick ``rng.choice(legal)``). No adapter can do less, so an
  adapter's ratio over raw cannot beat its floor's;
- batched env (N): ``BatchedEnv`` of N games against ``random`` opponents,
  one ``step`` with a pick per row of the stacked mask as in the PettingZoo
  loop; steps are all the games' actions (``actions_played``);
- batched env (N, K workers): the same with ``workers=K`` (``--workers``,
  default 2; 1 leaves out this loop and the next): the games in K processes,
  the buffers in shared memory. Its time is the wall clock's (``--clock cpu``
  would miss the workers' time, and is refused with K > 1); on a machine
  with fewer free cores than K it can only lose;
- gymnasium SyncVectorEnv (N): ``gymnasium.vector.SyncVectorEnv`` of N
  ``FreetraderGymEnv`` (random bots), picking the same way: the generic way
  to batch the Gymnasium adapter, which the batched env is measured against;
- gymnasium AsyncVectorEnv (N, K at once): ``gymnasium.vector.AsyncVectorEnv``
  of the same N games, one process each (Gymnasium has no fewer), at most K
  stepping at a time (``max_concurrency=K``, its nearest to K workers); each
  game's actions are counted in its process by a thin wrapper;
- openspiel: ``apply_action(rng.choice(state.legal_actions()))`` on the
  registered Python game, no observation requested;
- openspiel + observation: the same, with ``observation_tensor(player)`` of
  the player to act before every action (the goal: within 2x of the loop
  without observations; ``x os`` is that ratio, taken run by run; ``split``
  is the median over runs of the loop's time over its time outside the
  ``observation_tensor`` calls, both timed in the same run);
- with ``--whole-lists``, also ``openspiel + observation_tensor (whole lists)``:
  the same with each tensor list made afresh from its nonzero entries, as
  before the adapter made lists in C, from the encoder's blocks or by patching
  the previous list (for a side-by-side figure);
- ``--loops`` keeps only the loops whose label starts with one of the given
  words (the raw engine always runs: every ratio is over it);
- ``--clock cpu`` times with this process's CPU time instead of the wall
  clock: on a machine shared with other work the time the process waits
  for a core then counts in no loop, so ratios move less between runs
  (the OpenSpiel split reads the clock twice a step, a system call each).
``--lists-only STEPS`` runs just the OpenSpiel loops (without observations;
with lists made in C from the encoder's bytes, the default where the install
built ``_float_lists.c``; the Python fallbacks: lists from the encoder's
blocks where it gives them, the previous list patched where the vector
changed; whole lists) for STEPS steps each,
interleaved, R times: a quick side-by-side figure when whole games are too
slow on a loaded machine.

Prints numbers only; never passes or fails.
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import statistics
import time
from collections.abc import Callable

import numpy as np

import freetrader
from freetrader.adapters.encoders import encoder_for
from freetrader.adapters.gymnasium import FreetraderGymEnv
from freetrader.adapters.limits import default_max_actions
from freetrader.adapters.pettingzoo import env as pz_env
from freetrader.adapters.vector import BatchedEnv
from freetrader.core import State

Loop = Callable[[float, int], tuple[int, float]]  # (seconds, seed) -> (steps, elapsed)
FLOOR_EVERY = "engine + encoder at every position (PettingZoo's floor)"
FLOOR_LEARNER = "engine + encoder at the learner's positions (batched floor)"
DEFAULT_SEATS = {"contraband": 4}
BOOL = np.dtype(bool)  # the pick views the int8 mask as bool: numpy's nonzero is fast for bool only
CLOCKS = {"wall": time.perf_counter, "cpu": time.process_time}
clock = CLOCKS["wall"]  # what the loops time with (``--clock``)


def games_loop(name: str, seats: int, play: Callable[[State, random.Random, int], None]) -> Loop:
    """Whole games of ``name``, each played by ``play(state, rng, bound)`` until it ends or reaches the
    adapters' default bound (``limits.default_max_actions``: a random game may never end); steps are
    their actions."""
    g = freetrader.game(name)
    bound = default_max_actions(g, seats)

    def run(seconds: float, seed: int) -> tuple[int, float]:
        rng = random.Random(seed)
        steps = 0
        start = clock()
        while True:
            state = g.new_state(seats, rng.getrandbits(63))
            play(state, rng, bound)
            steps += state.action_count
            if clock() - start >= seconds:
                return steps, clock() - start

    return run


def raw_loop(name: str, seats: int) -> Loop:
    def play(state: State, rng: random.Random, bound: int) -> None:
        while not state.is_over and state.action_count < bound:
            state.apply(rng.choice(state.legal_actions()))

    return games_loop(name, seats, play)


def floor_loop(name: str, seats: int, every: bool) -> Loop:
    """The engine plus the encoder, no adapter: the raw loop (``apply_unchecked``) that also encodes the
    observation and finds the mask's indices (``encode_state``, ``legal_mask``) at every position
    (``every``: what PettingZoo must do) or at seat 0's (the learner's in the batched env), and picks
    from the mask's indices as the adapter loops do. No adapter can do less; ``x floor`` is over it."""
    enc = encoder_for(name, seats, {})
    # its C twin where it has one, called as the adapters call it
    fast = enc.compiled_function() or (enc.compiled_bytes if enc.compiled else None)
    legal_mask = enc.legal_mask

    def play(state: State, rng: random.Random, bound: int) -> None:
        while True:
            who = state.to_act
            if who is None or state.action_count >= bound:
                return
            legal = state.legal_actions()
            if every or who == 0:
                if fast is None or fast(state, who) is None:
                    enc.encode_state(state, who)
                idx, ones = legal_mask(legal)
                mask = np.frombuffer(ones, np.int8)
                state.apply_unchecked(legal[idx.index(rng.choice(mask.view(BOOL).nonzero()[0].tolist()))])
            else:
                state.apply_unchecked(rng.choice(legal))

    return games_loop(name, seats, play)


def pettingzoo_loop(name: str, seats: int, encoder: str) -> Loop:
    e = pz_env(name, seats=seats, encoder=encoder)

    def run(seconds: float, seed: int) -> tuple[int, float]:
        rng = random.Random(seed)
        steps = 0
        start = clock()
        e.reset(seed=seed)
        while True:
            for _agent in e.agent_iter():
                obs, _reward, term, trunc, _info = e.last()
                if term or trunc:
                    e.step(None)
                    continue
                e.step(rng.choice(obs["action_mask"].view(BOOL).nonzero()[0].tolist()))
                steps += 1
            if clock() - start >= seconds:
                return steps, clock() - start
            e.reset()

    return run


def gymnasium_loop(name: str, seats: int) -> Loop:
    e = FreetraderGymEnv(name, ["random"], seats=seats)

    def run(seconds: float, seed: int) -> tuple[int, float]:
        rng = random.Random(seed)
        steps = 0
        start = clock()
        obs, info = e.reset(seed=seed)
        while True:
            done = False
            while not done:
                obs, _reward, term, trunc, info = e.step(rng.choice(obs["action_mask"].view(BOOL).nonzero()[0].tolist()))
                done = term or trunc
            steps += e.session.state.action_count
            if clock() - start >= seconds:
                return steps, clock() - start
            obs, info = e.reset()

    return run


def batched_loop(name: str, seats: int, num_envs: int, workers: int = 1) -> Loop:
    """``BatchedEnv``: ``num_envs`` games, random opponents, in ``workers`` processes; steps are the games'
    actions, as in the raw loop (``actions_played``, read after the clock stops)."""
    env = BatchedEnv(name, num_envs, ["random"], seats=seats, workers=workers)

    def run(seconds: float, seed: int) -> tuple[int, float]:
        rng = random.Random(seed)
        start = clock()
        _, mask = env.reset(seed=seed)
        while True:
            for _ in range(20):
                _, mask, _, _, _ = env.step([rng.choice(m.view(BOOL).nonzero()[0].tolist()) for m in mask])
            if clock() - start >= seconds:
                elapsed = clock() - start
                return env.actions_played(), elapsed

    return run


def sync_vector_loop(name: str, seats: int, num_envs: int) -> Loop | None:
    """Gymnasium's ``SyncVectorEnv`` of ``num_envs`` ``FreetraderGymEnv``: the generic way to batch them."""
    from gymnasium.vector import SyncVectorEnv

    env = SyncVectorEnv([lambda: FreetraderGymEnv(name, ["random"], seats=seats) for _ in range(num_envs)])

    def run(seconds: float, seed: int) -> tuple[int, float]:
        rng = random.Random(seed)
        start = clock()
        obs, _ = env.reset(seed=seed)
        games = [e.unwrapped.session for e in env.envs]  # type: ignore[attr-defined]
        steps = -sum(s.state.action_count for s in games)
        while True:
            for _ in range(20):
                legal = [m.view(BOOL).nonzero()[0].tolist() for m in obs["action_mask"]]
                acts = [rng.choice(x) if x else 0 for x in legal]
                states = [s.state for s in games]
                obs, _, term, trunc, _ = env.step(acts)
                # next-step auto-reset: a slot that ended is reset on its next step (its action ignored),
                # which gives it a new state
                steps += sum(old.action_count for old, s in zip(states, games, strict=True) if s.state is not old)
            if clock() - start >= seconds:
                return steps + sum(s.state.action_count for s in games), clock() - start

    return run


def async_vector_loop(name: str, seats: int, num_envs: int, at_once: int) -> Loop | None:
    """Gymnasium's ``AsyncVectorEnv`` of ``num_envs`` ``FreetraderGymEnv``: one process per game, at most
    ``at_once`` stepping at a time (``max_concurrency``: Gymnasium's nearest to a number of workers)."""
    import gymnasium
    from gymnasium.vector import AsyncVectorEnv

    class Counting(gymnasium.Wrapper):  # type: ignore[type-arg]
        """Counts the game's actions (all seats) inside the worker, where the game is."""

        played = 0
        dealt = False

        def reset(self, **kw):  # type: ignore[no-untyped-def]
            got = self.env.reset(**kw)
            if self.dealt:  # the bots' opening moves of a game dealt by auto-reset, as the other loops count
                self.played += self.env.unwrapped.session.state.action_count
            self.dealt = True
            return got

        def step(self, action):  # type: ignore[no-untyped-def]
            state = self.env.unwrapped.session.state
            before = state.action_count
            got = self.env.step(action)
            self.played += state.action_count - before
            return got

        def restart(self) -> None:
            self.played, self.dealt = 0, False

    env = AsyncVectorEnv([lambda: Counting(FreetraderGymEnv(name, ["random"], seats=seats)) for _ in range(num_envs)],
                         max_concurrency=at_once)

    def run(seconds: float, seed: int) -> tuple[int, float]:
        rng = random.Random(seed)
        env.call("restart")
        start = clock()
        obs, _ = env.reset(seed=seed)
        while True:
            for _ in range(20):
                legal = [m.view(BOOL).nonzero()[0].tolist() for m in obs["action_mask"]]
                obs, _, _, _, _ = env.step([rng.choice(x) if x else 0 for x in legal])
            if clock() - start >= seconds:
                elapsed = clock() - start
                return sum(env.call("played")), elapsed

    return run


def whole_list(values: np.ndarray) -> list[float]:
    """The previous way: a new list of zeros, then the nonzero entries set (``tolist`` below 512)."""
    n = values.shape[0]
    if n < 512:
        return values.tolist()  # type: ignore[no-any-return]
    at = np.flatnonzero(values)
    out = [0.0] * n
    list(map(out.__setitem__, at.tolist(), values[at].tolist()))
    return out


def openspiel_loop(name: str, seats: int, observe: bool, whole_lists: bool = False) -> Loop | None:
    try:
        from freetrader.adapters import openspiel as fos
    except ImportError:
        return None
    game = fos.load_game(name, players=seats)
    if whole_lists:
        game.observer(False).fast = None
        game.observer(False).blocks = False
        game.observer(False).as_list = whole_list


    def run(seconds: float, seed: int) -> tuple[int, float]:
        rng = random.Random(seed)
        steps = 0
        observing = 0.0
        start = clock()
        while True:
            state = game.new_initial_state()
            while not state.is_terminal():
                if observe:
                    t = clock()
                    state.observation_tensor(state.current_player())
                    observing += clock() - t
                state.apply_action(rng.choice(state.legal_actions()))
                steps += 1
            if clock() - start >= seconds:
                elapsed = clock() - start
                SPLIT.append(elapsed / (elapsed - observing))
                return steps, elapsed

    return run


# per run of an OpenSpiel loop with observations: its time over its time without the observation calls,
# both from the same run, so less exposed to a loaded machine than the ratio of two runs (``split``)
SPLIT: list[float] = []


def lists_side_by_side(name: str, seats: int, steps: int, repeats: int) -> None:
    from freetrader.adapters import openspiel as fos

    kinds = ("without observations", "lists made in C", "lists from blocks", "patched lists", "whole lists")
    games = {k: fos.load_game(name, players=seats) for k in kinds}
    for k in ("lists from blocks", "patched lists", "whole lists"):
        games[k].observer(False).fast = None
    for k in ("patched lists", "whole lists"):
        games[k].observer(False).blocks = False
    games["whole lists"].observer(False).as_list = whole_list

    def run(kind: str, seed: int) -> float:
        g = games[kind]
        rng = random.Random(seed)
        done = 0
        start = clock()
        while done < steps:
            st = g.new_initial_state()
            while not st.is_terminal() and done < steps:
                if kind != "without observations":
                    st.observation_tensor(st.current_player())
                st.apply_action(rng.choice(st.legal_actions()))
                done += 1
        return done / (clock() - start)

    rates: dict[str, list[float]] = {k: [] for k in games}
    for r in range(repeats):
        for k in games:
            rates[k].append(run(k, 1000 * r + 1))
    plain = rates["without observations"]
    for k, v in rates.items():
        ratio = statistics.median(a / b for a, b in zip(plain, v, strict=True))
        print(f"| {name} | {seats} | openspiel, {k} | {statistics.median(v):,.0f} | {ratio:.2f}x |", flush=True)


def loadavg() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def kept(label: str, wanted: list[str]) -> bool:
    """Whether ``--loops`` keeps a loop: the raw engine always, each floor with the loops measured over it."""
    partners = {FLOOR_EVERY: ("pettingzoo",), FLOOR_LEARNER: ("batched", "gymnasium")}.get(label, (label,))
    return label == "raw engine" or any(p.startswith(w) or w.startswith(p) for p in partners for w in wanted)


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=2.0)
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--games", default="")
    ap.add_argument("--seats", type=int, default=0)
    ap.add_argument("--lists-only", type=int, default=0, metavar="STEPS",
                    help="only OpenSpiel without observations and with each way of making lists, STEPS steps each")
    ap.add_argument("--loops", default="", help="only these loops (label prefixes, comma-separated)")
    ap.add_argument("--whole-lists", action="store_true", help="also time OpenSpiel observations made as whole lists")
    ap.add_argument("--num-envs", type=int, default=8, help="games in the batched and vector env loops")
    ap.add_argument("--workers", type=int, default=2,
                    help="worker processes of the second batched env and AsyncVectorEnv's games stepping at once "
                         "(1: neither loop)")
    ap.add_argument("--clock", choices=sorted(CLOCKS), default="wall",
                    help="time with the wall clock (default) or this process's CPU time (steadier on a busy machine)")
    args = ap.parse_args(argv)
    global clock
    clock = CLOCKS[args.clock]
    names = [n.strip() for n in args.games.split(",") if n.strip()] or freetrader.games()
    wanted = [w.strip() for w in args.loops.split(",") if w.strip()]
    workers_label = f"batched env (N={args.num_envs}, {args.workers} workers)"
    async_label = f"gymnasium AsyncVectorEnv (N={args.num_envs}, {args.workers} at once)"
    if args.lists_only:
        print(f"Python {platform.python_version()}; {args.repeats} runs of {args.lists_only} steps each\n")
        print("| game | seats | loop | steps/s | x without observations |")
        print("|---|---:|---|---:|---:|")
        for name in names:
            spec = freetrader.game(name).spec
            lists_side_by_side(name, args.seats or DEFAULT_SEATS.get(name, spec.min_seats), args.lists_only,
                               args.repeats)
        return
    if args.clock == "cpu" and args.workers > 1:
        ap.error("--clock cpu counts this process's CPU only, not its workers': use the wall clock or --workers 1")
    print(f"Python {platform.python_version()} on {platform.platform()}; {args.repeats} runs of {args.seconds} s each "
          f"({args.clock} clock); {os.cpu_count()} cores, load average {loadavg()} at the start")
    print()
    print("| game | seats | loop | steps/s | x raw | x floor | x os |")
    print("|---|---:|---|---:|---:|---:|---:|")
    summary: list[str] = []
    for name in names:
        spec = freetrader.game(name).spec
        seats = args.seats if args.seats and spec.min_seats <= args.seats <= spec.max_seats else \
            DEFAULT_SEATS.get(name, spec.min_seats)
        loops: dict[str, Loop] = {
            "raw engine": raw_loop(name, seats),
            FLOOR_EVERY: floor_loop(name, seats, True),
            "pettingzoo (game encoder)": pettingzoo_loop(name, seats, "auto"),
            "pettingzoo (generic encoder)": pettingzoo_loop(name, seats, "generic"),
            "gymnasium (game encoder)": gymnasium_loop(name, seats),
            FLOOR_LEARNER: floor_loop(name, seats, False),
            f"batched env (N={args.num_envs})": batched_loop(name, seats, args.num_envs),
        }
        if args.workers > 1:
            loops[workers_label] = batched_loop(name, seats, args.num_envs, args.workers)
        sync = sync_vector_loop(name, seats, args.num_envs)
        if sync is not None:
            loops[f"gymnasium SyncVectorEnv (N={args.num_envs})"] = sync
        if args.workers > 1 and (not wanted or kept(async_label, wanted)):  # N processes: made only if run
            made = async_vector_loop(name, seats, args.num_envs, args.workers)
            if made is not None:
                loops[async_label] = made
        variants = [("openspiel", False, False), ("openspiel + observation_tensor", True, False)]
        if args.whole_lists:
            variants.append(("openspiel + observation_tensor (whole lists)", True, True))
        for label, observe, whole in variants:
            spiel = openspiel_loop(name, seats, observe, whole)
            if spiel is not None:
                loops[label] = spiel
        if wanted:
            loops = {k: v for k, v in loops.items() if kept(k, wanted)}
        rates: dict[str, list[float]] = {k: [] for k in loops}
        splits: dict[str, list[float]] = {k: [] for k in loops}
        for run in range(args.repeats):
            for label, loop in loops.items():  # interleaved: one run of each loop in turn
                SPLIT.clear()
                steps, elapsed = loop(args.seconds, 1000 * run + 1)
                rates[label].append(steps / elapsed)
                splits[label] += SPLIT
        raw = rates["raw engine"]
        plain = rates.get("openspiel")

        def over(a: list[float] | None, b: list[float] | None) -> float | None:
            """The median over runs of a's rate over b's, each pair from the same round of runs."""
            return None if a is None or b is None else statistics.median(x / y for x, y in zip(a, b, strict=True))

        for label, r in rates.items():
            vs_os = ""
            if plain is not None and label.startswith("openspiel +"):
                vs_os = f"{over(plain, r):.2f}x"
                if splits[label]:
                    vs_os += f" (split {statistics.median(splits[label]):.2f}x)"
            floor = rates.get(FLOOR_EVERY if label.startswith("pettingzoo") else FLOOR_LEARNER)
            x_floor = over(floor, r) if label.startswith(("pettingzoo", "gymnasium", "batched")) else None
            shown = "" if x_floor is None else f"{x_floor:.2f}x"
            print(f"| {name} | {seats} | {label} | {statistics.median(r):,.0f} | {over(raw, r):.2f}x | {shown} | {vs_os} |",
                  flush=True)
        batched = rates.get(f"batched env (N={args.num_envs})")
        synced = rates.get(f"gymnasium SyncVectorEnv (N={args.num_envs})")
        pz = rates.get("pettingzoo (game encoder)")

        def cell(x: float | None) -> str:
            return "" if x is None else f"{x:.2f}x"

        pooled = rates.get(workers_label)
        summary.append(f"| {name} | {seats} | {cell(over(batched, synced))} | {cell(over(rates.get(FLOOR_LEARNER), synced))} "
                       f"| {cell(over(raw, pz))} | {cell(over(raw, rates.get(FLOOR_EVERY)))} "
                       f"| {cell(over(pooled, synced))} | {cell(over(pooled, batched))} "
                       f"| {cell(over(rates.get(async_label), synced))} |")
    print()
    print(f"load average {loadavg()} at the end")
    print()
    k = args.workers
    print(f"| game | seats | batched env ÷ SyncVectorEnv (N={args.num_envs}) | its ceiling: learner floor ÷ SyncVectorEnv "
          f"| PettingZoo x raw | its floor: engine + encoder x raw | batched env, {k} workers ÷ SyncVectorEnv "
          f"| {k} workers ÷ one process | AsyncVectorEnv ({k} at once) ÷ SyncVectorEnv |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    for row in summary:
        print(row)


if __name__ == "__main__":
    main()
