"""Merchants Cove: four merchants race to make and sell goods to the adventurers landing in the cove (1-4 players).

Registers ``merchants-cove-v1``: the base game reconstructed from public sources
(``shared/research/merchants-cove.md``) with every unknown designed. Rules as coded:
``RULES.md`` beside this file; designed numbers: ``data/DESIGNED.md``.
"""

from __future__ import annotations

from freetrader.core import Game, GameSpec, Option, register

from .actions import parse
from .merchants import MERCHANTS
from .state import CoveState

__all__ = ["GAME", "CoveState", "MERCHANTS"]

SPEC = GameSpec(
    name="merchants-cove",
    version=1,
    title="Merchants Cove",
    min_seats=1,
    max_seats=4,
    hidden_information=True,
    chance=True,
    summary=(
        "Three days in a fantasy cove. Each day adventurers arrive in six boats; on the Clock the merchant "
        "furthest behind acts, running their own production engine (the Alchemist's marble slide and cauldrons, "
        "the Blacksmith's alloy dice and furnaces, the Captain's fleet and compass, the Chronomancer's sliding "
        "time tiles), loading boats, hiring Townsfolk and sponsoring factions. The first four full boats dock; "
        "in the Market goods sell to matching customers at the piers, priced by how many there are. Corruption "
        "and Rogues cost gold at the end; most gold wins. Solo against the Peddler automaton."
    ),
    options=(
        Option("merchants", "draft",
               "draft: each seat chooses a merchant in turn (a set-up decision); random; or a comma list, one per "
               "seat (e.g. 'captain,alchemist')"),
        Option("rogue", "random", "the Rogue card: random (revealed at set-up), criminals, cultists or robbers"),
        Option("townsfolk", "locals+mercenaries",
               "Townsfolk sets shuffled into the deck: locals+mercenaries (recommended first game), locals+sailors, "
               "mercenaries+sailors, all, or random"),
        Option("peddler", True, "solo: play against the Peddler automaton (score = your gold minus the Peddler's)"),
    ),
)


class _MerchantsCove(Game):
    state_class = CoveState


GAME = register(_MerchantsCove(SPEC, parse))
