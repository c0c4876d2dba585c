"""benchmarks/ismcts_vs_openspiel.py: its fast rollouts are OpenSpiel's RandomRolloutEvaluator, rollout for rollout."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("pyspiel")
from open_spiel.python.algorithms import ismcts as os_ismcts  # noqa: E402
from open_spiel.python.algorithms import mcts as os_mcts  # noqa: E402

from freetrader.adapters import openspiel as fos  # noqa: E402

from .conftest import short_options  # noqa: E402

_SCRIPT = Path(__file__).resolve().parents[2] / "benchmarks" / "ismcts_vs_openspiel.py"


def _script():
    spec = importlib.util.spec_from_file_location("ismcts_vs_openspiel", _SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("name", ["contraband", "precious-cargo"])
def test_the_scripts_rollouts_give_the_searches_openspiels_evaluator_gives(name: str) -> None:
    rollouts = _script()._rollouts
    game = fos.load_game(name, players=2 if name == "precious-cargo" else 3, seed=3, **short_options(name))
    state = game.new_initial_state()
    searched = 0
    while searched < 2 and not state.is_terminal():
        if len(state.legal_actions()) > 1:
            worlds = game.rng_state()
            found = []
            for make in (lambda rs: os_mcts.RandomRolloutEvaluator(1, rs), rollouts):
                game.set_rng_state(worlds)
                rs = np.random.RandomState(searched)
                bot = os_ismcts.ISMCTSBot(game, make(rs), uct_c=2.0, max_simulations=6, random_state=rs)
                policy = bot.run_search(state)
                found.append((policy, {a: (c.visits, c.return_sum) for a, c in bot._root_node.child_info.items()},
                              rs.randint(1 << 30)))
            assert found[0] == found[1]  # same policy, same root statistics, same random numbers drawn
            assert sum(v for v, _ in found[0][1].values()) == 5  # the first simulation only expands the root
            searched += 1
        state.apply_action(state.legal_actions()[-1])
    assert searched == 2
