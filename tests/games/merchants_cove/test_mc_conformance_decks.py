"""The conformance suite on the Secret Stash decks the default options leave out (moved from
``tests/test_conformance.py``, which names no game)."""

import pytest

import freetrader
from freetrader.testing import check_playout


@pytest.mark.parametrize("seats,options", [
    (3, {"boat_setup": True}),
    (1, {"boat_setup": True, "challenges": True}),
], ids=["boat-setup-3", "solo-challenges"])
def test_conformance_merchants_cove_secret_stash_decks(seats, options):
    """The Boat Setup and Challenge decks are face down: determinize must reorder them too."""
    check_playout(freetrader.game("merchants-cove"), seats, 1, every=3, options=options)
