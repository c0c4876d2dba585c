"""Train a small masked softmax policy on Contraband against ``random``, with numpy only.

    python examples/train_contraband.py [--minutes 3] [--seats 3] [--seed 0]

The learner is one seat of a Gymnasium environment
(``freetrader.adapters.gymnasium``) whose other seats are the ``random`` bot.
The policy is linear: logits = W @ observation + b over Contraband's action
indices (33 catalogued + 256 overflow), illegal ones masked out, trained with REINFORCE (a running
baseline, Adam) on the final money margin over the other seats. It prints
the learner's win rate over fresh evaluation games before and after
training. A run takes a few minutes of one CPU.
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from freetrader.adapters.gymnasium import FreetraderGymEnv


class MaskedLinearPolicy:
    def __init__(self, n_obs: int, n_actions: int, rng: np.random.Generator) -> None:
        self.w = np.zeros((n_actions, n_obs))
        self.b = np.zeros(n_actions)
        self.rng = rng
        self._m = [np.zeros_like(self.w), np.zeros_like(self.b)]
        self._v = [np.zeros_like(self.w), np.zeros_like(self.b)]
        self._t = 0

    def probs(self, obs: np.ndarray, mask: np.ndarray) -> np.ndarray:
        logits = self.w @ obs + self.b
        logits = np.where(mask > 0, logits, -np.inf)
        p = np.exp(logits - logits.max())
        return p / p.sum()

    def act(self, obs: np.ndarray, mask: np.ndarray, greedy: bool = False) -> tuple[int, np.ndarray]:
        p = self.probs(obs, mask)
        a = int(p.argmax()) if greedy else int(self.rng.choice(len(p), p=p))
        return a, p

    def update(self, grads: tuple[np.ndarray, np.ndarray], lr: float) -> None:
        """One Adam step of gradient *ascent*."""
        self._t += 1
        for k, (param, g) in enumerate(zip((self.w, self.b), grads, strict=True)):
            self._m[k] = 0.9 * self._m[k] + 0.1 * g
            self._v[k] = 0.999 * self._v[k] + 0.001 * g * g
            m_hat = self._m[k] / (1 - 0.9**self._t)
            v_hat = self._v[k] / (1 - 0.999**self._t)
            param += lr * m_hat / (np.sqrt(v_hat) + 1e-8)


def make_env(seats: int) -> FreetraderGymEnv:
    # The whole game (every player is the Customs Officer once): with a short turn limit the
    # first officer keeps the post throughout and the deal, not the play, decides the winner.
    return FreetraderGymEnv("contraband", ["random"], seats=seats, seat="random")


def win_rate(policy: MaskedLinearPolicy, seats: int, games: int, seed: int, greedy: bool = True) -> float:
    env = make_env(seats)
    wins = 0.0
    for i in range(games):
        obs, info = env.reset(seed=seed + i)
        done = False
        while not done:
            a, _ = policy.act(obs["observation"], obs["action_mask"], greedy=greedy)
            obs, reward, term, trunc, info = env.step(a)
            done = term or trunc
        won = info.get("winners", [])
        if env.seat in won:
            wins += 1.0 / len(won)
    return wins / games


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--minutes", type=float, default=3.0)
    ap.add_argument("--seats", type=int, default=3)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--eval-games", type=int, default=300)
    ap.add_argument("--batch", type=int, default=16)
    ap.add_argument("--lr", type=float, default=0.03)
    args = ap.parse_args()

    env = make_env(args.seats)
    rng = np.random.default_rng(args.seed)
    policy = MaskedLinearPolicy(env.observation_space["observation"].shape[0], int(env.action_space.n), rng)
    print(f"Contraband, {args.seats} seats, learner against {args.seats - 1} random bots; encoder {env.encoder}")
    print(f"chance level (a fair share of wins): {1 / args.seats:.3f}")
    # Untrained, the policy is uniform over the legal actions: the random bot.
    before = win_rate(policy, args.seats, args.eval_games, seed=10**6, greedy=False)
    print(f"win rate before training (untrained = uniform random): {before:.3f}")

    baseline = 0.0
    episodes = 0
    deadline = time.time() + 60 * args.minutes
    next_report = time.time() + 30
    recent: list[float] = []
    while time.time() < deadline:
        gw = np.zeros_like(policy.w)
        gb = np.zeros_like(policy.b)
        for _ in range(args.batch):
            obs, _info = env.reset(seed=int(rng.integers(2**31)))
            trajectory = []
            done = False
            reward = 0.0
            info: dict = {}
            while not done:
                o, m = obs["observation"], obs["action_mask"]
                a, p = policy.act(o, m)
                trajectory.append((o, a, p))
                obs, reward, term, trunc, info = env.step(a)
                done = term or trunc
            if "scores" in info:  # the money margin over the others: a denser signal than win/lose
                scores = info["scores"]
                others = [x for k, x in enumerate(scores) if k != env.seat]
                reward = (scores[env.seat] - sum(others) / len(others)) / 1000
            advantage = reward - baseline
            baseline += 0.01 * (reward - baseline)
            recent.append(reward)
            for o, a, p in trajectory:
                d = -p
                d[a] += 1.0  # gradient of log softmax at the taken action
                gw += advantage * np.outer(d, o)
                gb += advantage * d
            episodes += 1
        policy.update((gw / args.batch, gb / args.batch), args.lr)
        if time.time() >= next_report:
            print(f"  {episodes} episodes, mean reward of the last {len(recent)}: {np.mean(recent):+.3f}")
            recent = []
            next_report = time.time() + 30

    after = win_rate(policy, args.seats, args.eval_games, seed=10**6)
    sampled = win_rate(policy, args.seats, args.eval_games, seed=10**6, greedy=False)
    print(f"trained on {episodes} episodes in {args.minutes:g} min")
    print(f"win rate after training: greedy {after:.3f}, sampled {sampled:.3f} "
          f"(before: {before:.3f}, chance: {1 / args.seats:.3f})")


if __name__ == "__main__":
    main()
