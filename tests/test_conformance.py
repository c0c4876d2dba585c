"""The conformance suite on every registered game, every seat count."""

import pytest

import freetrader
from freetrader.testing import check_playout


def _cases():
    for name in freetrader.games():
        spec = freetrader.game(name).spec
        for seats in range(spec.min_seats, spec.max_seats + 1):
            yield pytest.param(name, seats, id=f"{name}-{seats}")


#: Lists that are public though the view shows only their size (the log names every card in them), or
#: bookkeeping that is no zone of cards; the hidden-zone check does not ask determinize() to reorder them.
PUBLIC_LISTS = {
    "cornish-smuggler": ("char_discard", "eff", "resume"),  # face-up characters discarded; the card in play
    "merchants-cove": ("pdiscard",),  # the Peddler's revealed cards
}


#: Random play never reaches Cornish Smuggler's End of the Game: the 40-turn cap that used to be its default
#: (now off) stops these playouts, as before; such games are cut, with no winner.
OPTIONS = {"cornish-smuggler": {"turn_limit": 40}}


@pytest.mark.parametrize("name,seats", list(_cases()))
@pytest.mark.parametrize("seed", [1, 2])
def test_conformance(name, seats, seed):
    check_playout(freetrader.game(name), seats, seed, every=3, options=OPTIONS.get(name),
                  public_lists=PUBLIC_LISTS.get(name, ()))


@pytest.mark.parametrize("seats,options", [
    (3, {"boat_setup": True}),
    (1, {"boat_setup": True, "challenges": True}),
], ids=["boat-setup-3", "solo-challenges"])
def test_conformance_merchants_cove_secret_stash_decks(seats, options):
    """The Boat Setup and Challenge decks are face down: determinize must reorder them too."""
    check_playout(freetrader.game("merchants-cove"), seats, 1, every=3, options=options,
                  public_lists=PUBLIC_LISTS["merchants-cove"])
