"""Every pair of Secret Stash modules switched on together passes the conformance playout; solo too."""

from __future__ import annotations

import itertools

import pytest

import freetrader
from freetrader.testing import check_playout

GAME = freetrader.game("merchants-cove")

MODULES = {
    "corruption": {"corruption": "mixed"},
    "corruption-replace": {"corruption": "replace"},
    "rogues-a": {"rogue": "kraken"},
    "rogues-b": {"rogue": "mind-controllers"},
    "multiple-rogues": {"multiple_rogues": True, "rogue": "random-all"},
    "townsfolk": {"townsfolk": "officials+artisans+underworld+legends"},
    "halls-of-plenty": {"halls_of_plenty": True},
    "lair-of-villainy": {"lair_of_villainy": True},
    "festival": {"festival": True},
    "boats": {"boats": "both"},
    "boats-variant": {"boats": "2-seater", "five_seaters_two": True},
    "boat-setup": {"boat_setup": True},
    "faction-leaders": {"faction_leaders": True},
}
ROGUES = ("pirates", "kraken", "ghost-sailors", "grey-walkers", "raiders", "charlatans", "doppelgangers",
          "assassins", "warlocks", "mind-controllers", "backers")
PAIRS = [(a, b) for a, b in itertools.combinations(MODULES, 2) if not (a.startswith("rogues") and b.startswith("rogues"))
         and {a, b} != {"corruption", "corruption-replace"} and {a, b} != {"boats", "boats-variant"}]


class WithOptions:
    """The game with these options as defaults, as ``check_playout`` builds states with none."""

    def __init__(self, options: dict) -> None:
        self.options = options
        self.spec = GAME.spec

    def new_state(self, seats, seed=0, options=None):
        return GAME.new_state(seats, seed, {**self.options, **(options or {})})

    def __getattr__(self, name):
        return getattr(GAME, name)


@pytest.mark.parametrize("pair", PAIRS, ids=["+".join(p) for p in PAIRS])
def test_mc_stash_pair_passes_conformance(pair):
    opts = {**MODULES[pair[0]], **MODULES[pair[1]]}
    check_playout(WithOptions(opts), 2, 7, every=10)


@pytest.mark.parametrize("rogue", ROGUES)
def test_mc_stash_rogue_with_every_module_passes_conformance(rogue):
    opts = {"rogue": rogue, "townsfolk": "officials+artisans+underworld+legends", "corruption": "mixed",
            "festival": True, "halls_of_plenty": True, "lair_of_villainy": True, "boats": "both",
            "faction_leaders": True}
    check_playout(WithOptions(opts), 2, 11, every=10)


@pytest.mark.parametrize("module", MODULES)
def test_mc_stash_solo_challenges_with_each_module_passes_conformance(module):
    check_playout(WithOptions({"challenges": True, **MODULES[module]}), 1, 3, every=10)


@pytest.mark.parametrize("rogue", ROGUES)
def test_mc_stash_solo_against_the_peddler_passes_conformance(rogue):
    opts = {"rogue": rogue, "townsfolk": "underworld+legends", "corruption": "replace", "festival": True,
            "halls_of_plenty": True, "lair_of_villainy": True, "multiple_rogues": rogue == "pirates",
            "challenges": True, "boat_setup": True, "faction_leaders": True}
    check_playout(WithOptions(opts), 1, 5, every=10)
