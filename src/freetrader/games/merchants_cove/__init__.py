"""Merchants Cove: four merchants race to make and sell goods to the adventurers landing in the cove (1-4 players).

Registers ``merchants-cove-v1``: the base game reconstructed from public sources
(``shared/research/merchants-cove.md``) with every unknown designed. Rules as coded:
``RULES.md`` beside this file; designed numbers: ``data/DESIGNED.md``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, cast

from freetrader.core import Game, GameSpec, Option, State, register

from .actions import parse
from .components import COMPONENTS as C
from .merchants import MERCHANTS
from .state import CoveState

__all__ = ["GAME", "CoveState", "MERCHANTS", "ENDS", "ending"]

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
        Option("first_player", "random",
               "who acts first on day 1 (the sources leave the round-1 order open): random (the timepieces are "
               "stacked in a random order) or seat0..seat3 (that seat's timepiece on top, the others below it in "
               "seat order after it)", choices=("random", "seat0", "seat1", "seat2", "seat3")),
        Option("rogue", "random",
               "the Rogue card: random (one of the base three, revealed at set-up), random-all (any of the 14), "
               "criminals, cultists, robbers, or a Secret Stash card: pirates, kraken, ghost-sailors, grey-walkers, "
               "raiders, charlatans, doppelgangers, assassins, warlocks, mind-controllers, backers",
               choices=("random", "random-all") + tuple(r.id for r in C.rogues)),
        Option("multiple_rogues", False,
               "Secret Stash variant Multiple Rogues: three Rogue cards in play (the chosen one on top, set-up counts "
               "from it); the top card is removed at each Clean-Up"),
        Option("townsfolk", "locals+mercenaries",
               "Townsfolk sets shuffled into the deck: locals+mercenaries (recommended first game), locals+sailors, "
               "mercenaries+sailors, all, random, or any sets joined by '+' including the Secret Stash sets "
               "officials, artisans, underworld (brings the Grey Rogue Goods) and legends"),
        Option("corruption", "base",
               "Secret Stash Corruption cards: base (none), mixed (the 12 new cards shuffled in) or replace (they "
               "replace 12 one-icon cards)", choices=("base", "mixed", "replace")),
        Option("halls_of_plenty", False, "Secret Stash: Halls of Plenty tiles at final scoring"),
        Option("lair_of_villainy", False, "Secret Stash: the Lair of Villainy tile at final scoring"),
        Option("boats", "base",
               "Secret Stash Boats: base (six 4-seaters), 2-seater (Boat 7: docks at any Pier, fills no Pier space), "
               "5-seaters (Boats 8 and 9, one a side), or both", choices=("base", "2-seater", "5-seaters", "both")),
        Option("five_seaters_two", False,
               "Secret Stash variant for larger games: fill the 5-seaters with 2 Adventurers at Arrival regardless "
               "of the 2-seater"),
        Option("boat_setup", False,
               "Secret Stash Boat Setup cards: 3 of the 8 drawn; one revealed each Arrival sets which Boats sail"),
        Option("challenges", False,
               "Secret Stash solo: the Challenge cards (1 seat; race the Challenge Timepiece, neglected cards "
               "cost Corruption icons)"),
        Option("faction_leaders", False,
               "Secret Stash Faction Leaders: one Adventurer of each colour in the bag is its Leader, counting as two "
               "for buying Goods, Sponsorship and Final Scoring"),
        Option("festival", False, "Secret Stash: Dragon Island Festival (lure guests instead of drawing)"),
        Option("stack_ties", "stack",
               "Clean-Up (designed): the player with least gold starts on top of the stack; players level on gold "
               "keep the order of the day's stack (stack), or go by seat number, lowest at the bottom (seat: the "
               "older ruling, which left seat 0 last among equals; kept so games saved before go on under it)",
               choices=("stack", "seat")),
        Option("peddler", True, "solo: play against the Peddler automaton (score = your gold minus the Peddler's)"),
    ),
    ends=("last day",),
    # benchmarks/game_lengths.py, 2026-12-01: the longest of 200 random, 30 heuristic and 10 first- and
    # last-legal-action games that finished, per seat count (the adapters' bound is three times it)
    longest_games=((1, 81), (2, 156), (3, 226), (4, 270)),
)


class _MerchantsCove(Game):
    state_class = CoveState

    def _migrate(self, data: Mapping[str, Any], fmt: int) -> State:
        """Formats 1 to 3 laid out the stack and the boards otherwise: they replay from their records. Formats 1
        and 2 were written before Clean-Up's gold ties kept the stack's order: they replay, and go on, under the
        tie by seat number they began with."""
        if fmt < 3:
            data = {**data, "options": {"stack_ties": "seat", **data.get("options", {})}}
        return super()._migrate(data, fmt)


GAME = register(_MerchantsCove(SPEC, parse))


#: What can end a game (``ending``'s ``end``): the last day.
ENDS = SPEC.ends


def ending(state: CoveState) -> dict[str, Any]:
    """The game ends after its last day's Market (``board.toml`` days); the length in days; the day-1 first seat."""
    return {"end": "last day" if state.is_over else None, "length": state.day, "unit": "days",
            "first": _first_on_the_clock(state)}


def _first_on_the_clock(state: CoveState) -> int | None:
    """The seat whose timepiece tops the day-1 stack (it acts first), found by replaying the set-up only.

    With ``first_player=random`` the stack is drawn at set-up and no event names its top; ``None`` if the
    Peddler is on top or set-up has not ended.
    """
    rec = state.record()
    replay = cast(CoveState, GAME.new_state(rec["seats"], rec["seed"], rec.get("options")))
    actions = iter(rec["actions"])
    while not any(replay.stack):  # set-up stacks every timepiece at once, before the first Clock action
        text = next(actions, None)
        if text is None:
            return None
        replay.apply(text)
    top = max(range(replay.np), key=lambda p: replay.stack[p])
    return top if top < replay.seats else None
