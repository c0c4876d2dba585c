"""The conformance suite on every registered game, every seat count.

Nothing here names a game: what the suite needs to know of one comes from its spec and its
declared state (a game random play cannot end is stopped by its ``safety_cap``; a list its
state does not mark ``Hidden`` is public), so a new game is checked as it registers.
"""

import pytest

import freetrader
from freetrader.testing import check_playout


def _cases():
    for name in freetrader.games():
        spec = freetrader.game(name).spec
        for seats in range(spec.min_seats, spec.max_seats + 1):
            yield pytest.param(name, seats, id=f"{name}-{seats}")


@pytest.mark.parametrize("name,seats", list(_cases()))
@pytest.mark.parametrize("seed", [1, 2])
def test_conformance(name, seats, seed):
    check_playout(freetrader.game(name), seats, seed, every=3)

