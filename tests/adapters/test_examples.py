"""The MaskablePPO example runs (where the rl-examples dependency group is installed)."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

pytest.importorskip("sb3_contrib")

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "maskable_ppo_contraband.py"


def test_maskable_ppo_example_learns_and_evaluates_through_the_registered_env():
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.vec_env import DummyVecEnv

    spec = importlib.util.spec_from_file_location("maskable_ppo_contraband", EXAMPLE)
    assert spec is not None and spec.loader is not None
    example = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(example)
    venv = DummyVecEnv([lambda: example.make(0)])
    model = MaskablePPO("MlpPolicy", venv, n_steps=64, batch_size=32, seed=0, device="cpu")
    model.learn(total_timesteps=64)  # every action it took was masked legal, or the env would have ended it
    assert model.num_timesteps >= 64
    rate, half_width, margin = example.evaluate(model, 2)
    assert 0.0 <= rate <= 1.0 and half_width >= 0.0 and margin == margin  # a number, not NaN
