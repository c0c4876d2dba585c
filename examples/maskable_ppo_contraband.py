"""Train sb3-contrib's MaskablePPO on Contraband against the heuristic bot, and compare win rates.

    pip install -e '.[rl]' --group rl-examples   # torch: see examples/README.md for a CPU-only install
    python examples/maskable_ppo_contraband.py [--minutes 4] [--eval-games 200] [--seed 0]

One seat of a three-seat Contraband (whole games: everyone is Customs
Officer once) learns against two ``heuristic`` bots through the Gymnasium
adapter, registered as ``freetrader/contraband-v1``. Observations are the
flat vector (``flatten=True``); MaskablePPO reads the legal actions from the
environment's ``action_masks()``. The learner's seat is drawn at every reset.
The reward, given at the end of a game, is the learner's money margin over
the richest other player in $1000s (``MoneyMargin``): against the heuristic
a random player loses every game by about $5,800, so the adapter's plain
win reward would be -1/2 in every early game and teach nothing.

Before training and after it, the masked policy (deterministic) plays
``--eval-games`` fresh games against the heuristics, on evaluation seeds no
training game uses, and the script prints its win rate (a tie counts as a
share of a win) with a 95% interval, and its mean money margin. Chance
level is 1/3.
"""

from __future__ import annotations

import argparse
import math
import time

import gymnasium as gym
import torch
from sb3_contrib import MaskablePPO
from sb3_contrib.common.wrappers import ActionMasker
from stable_baselines3.common.callbacks import BaseCallback
from stable_baselines3.common.vec_env import DummyVecEnv

import freetrader.adapters.gymnasium  # noqa: F401  (registers the freetrader/<game>-v1 ids)

SEATS = 3
EVAL_SEED = 10_000_000  # evaluation seeds start here; training resets draw from the trainer's seed


class MoneyMargin(gym.Wrapper):  # type: ignore[type-arg]
    """At the end of a game: the learner's money minus the richest other player's, in $1000s."""

    def step(self, action: int):  # type: ignore[no-untyped-def]
        obs, reward, term, trunc, info = self.env.step(action)
        if term or trunc:
            reward = margin(info, self.env.unwrapped.seat)
        return obs, reward, term, trunc, info


def margin(info: dict, seat: int) -> float:  # type: ignore[type-arg]
    scores = info["scores"]
    return (scores[seat] - max(v for k, v in enumerate(scores) if k != seat)) / 1000.0


def make(seed: int) -> gym.Env:  # type: ignore[type-arg]
    env = gym.make("freetrader/contraband-v1", opponents=["heuristic"], seats=SEATS, seat="random", flatten=True)
    env.reset(seed=seed)
    # The masks come from the adapter itself (the order-enforcing wrappers of gym.make hide the method).
    return ActionMasker(MoneyMargin(env), lambda e: e.unwrapped.action_masks())


def evaluate(model: MaskablePPO, games: int) -> tuple[float, float, float]:
    """Over ``games`` evaluation games: the learner's win share, the half-width of its 95% interval,
    and its mean money margin ($1000s)."""
    env = make(EVAL_SEED)
    wins = margins = 0.0
    for i in range(games):
        obs, info = env.reset(seed=EVAL_SEED + i)
        done = False
        while not done:
            action, _ = model.predict(obs, action_masks=env.unwrapped.action_masks(), deterministic=True)
            obs, _reward, term, trunc, info = env.step(int(action))
            done = term or trunc
        seat = env.unwrapped.seat
        won = info.get("winners", [])
        if seat in won:
            wins += 1.0 / len(won)
        margins += margin(info, seat)
    p = wins / games
    return p, 1.96 * math.sqrt(max(p * (1 - p), 1e-9) / games), margins / games


def report(when: str, figures: tuple[float, float, float], games: int) -> None:
    p, half, m = figures
    print(f"{when}: win rate {p:.3f} +- {half:.3f} over {games} games (chance 0.333); "
          f"mean margin {m:+.2f} ($1000s)", flush=True)


class StopAfter(BaseCallback):
    """Stops training after a wall-clock budget."""

    def __init__(self, seconds: float) -> None:
        super().__init__()
        self.deadline = time.monotonic() + seconds

    def _on_step(self) -> bool:
        return time.monotonic() < self.deadline


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--minutes", type=float, default=4.0)
    ap.add_argument("--eval-games", type=int, default=200)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--envs", type=int, default=4)
    args = ap.parse_args()
    torch.set_num_threads(1)  # a small MLP: more threads only contend (measured slower on 2 cores)

    venv = DummyVecEnv([lambda k=k: make(args.seed * 1000 + k) for k in range(args.envs)])
    model = MaskablePPO("MlpPolicy", venv, n_steps=512, batch_size=256, learning_rate=3e-4, gamma=1.0,
                        ent_coef=0.01, seed=args.seed, device="cpu", verbose=0)
    before = evaluate(model, args.eval_games)
    report("before training", before, args.eval_games)
    start = time.monotonic()
    model.learn(total_timesteps=10**9, callback=StopAfter(60 * args.minutes))
    took = time.monotonic() - start
    print(f"trained {model.num_timesteps:,} learner steps in {took / 60:.1f} min "
          f"({model.num_timesteps / took:,.0f} steps/s)")
    after = evaluate(model, args.eval_games)
    report("after training", after, args.eval_games)
    print(f"change: win rate {after[0] - before[0]:+.3f}, mean margin {after[2] - before[2]:+.2f}")


if __name__ == "__main__":
    main()
