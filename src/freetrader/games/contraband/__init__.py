"""Contraband: the customs bluffing card game for 3 or more players.

Registers ``contraband-v1``. Rules: ``RULES.md`` beside this file.
"""

from __future__ import annotations

import re
from typing import Any

from freetrader.core import Game, GameSpec, Option, register

from .actions import parse
from .state import ContrabandState

__all__ = ["GAME", "ContrabandState", "ENDS", "ending"]

#: Par. 10's ends (and par. 7's retirements), by the words of the game's own "The game ends" event.
_ENDS = (("Customs Officer", "every player officer"), ("reshuffled", "reshuffles"),
         ("declarations", "declarations"), ("fewer than three", "retirements"))

SPEC = GameSpec(
    name="contraband",
    version=1,
    title="Contraband",
    min_seats=3,
    max_seats=8,
    hidden_information=True,
    chance=True,
    summary=(
        "Travellers draw four cards of luggage and declare it to the Customs Officer, truly or not, "
        "paying List A duty on what they declare. The officer may search: contraband is fined at List B, "
        "an honest traveller gets $200. Unsearched luggage passes face down to the next player, who "
        "accepts it (discard one, draw one, declare) or turns Informer ($50 if right, $200 to the accused if "
        "wrong). A Diplomatic Bag passes free; the Crown Jewels cost $200 or $400. The officer changes "
        "each time the pack runs out; the most money, after loans, wins."
    ),
    options=(
        Option(
            "end", "all-officers",
            "when the game ends (par. 10): after every player has been the Customs Officer, after an agreed "
            "number of reshuffles, or after a fixed number of declarations (the 'time fixed beforehand')",
            choices=("all-officers", "reshuffles", "turns"),
        ),
        Option("reshuffles", 3, "reshuffles before the end when end=reshuffles", minimum=1, maximum=50),
        Option("turn_limit", 60, "declarations before the end when end=turns", minimum=1, maximum=10000),
        Option(
            "pack", "full",
            "the printed pack of 54 cards, or a designed variant for tabular methods: 6 cards (3 duty-free, "
            "2 Brandy, 1 Crown Jewels; data/cards.toml [small_pack]), not the printed game",
            choices=("full", "small"),
        ),
        Option(
            "first_officer", "deal",
            "par. 1: the first officer by dealing one card each (highest duty), or by agreement (seat 0)",
            choices=("deal", "agreement"),
        ),
        Option(
            "officer_tie", "redeal",
            "ruling: a tie for the highest card when dealing for officer is dealt again among the tied "
            "players, or goes to the tied player with the lowest seat number",
            choices=("redeal", "first-seat"),
        ),
        Option(
            "after_informer", "informer-draws",
            "ruling: after an Informer's search, the Informer draws new luggage (as the 'second player' of "
            "par. 4), or the player to the Informer's left does",
            choices=("informer-draws", "next-player-draws"),
        ),
        Option(
            "insolvency", "borrow-or-retire",
            "par. 7: a player who cannot pay may borrow the shortfall from any player able to lend it or "
            "retire; or only borrow (retiring when nobody can lend); or only retire",
            choices=("borrow-or-retire", "borrow", "retire"),
        ),
        Option(
            "compensation", "exact-claim",
            "par. 4 and 6: the $200 compensation is earned when the statement is proved correct, so only by an "
            "exactly true declaration (over-declaring earns nothing: exact-claim); no-contraband pays it for any "
            "search that finds no undeclared article (the default before this reading)",
            choices=("no-contraband", "exact-claim"),
        ),
    ),
    ends=tuple(label for _, label in _ENDS),
    # benchmarks/game_lengths.py, 2026-12-01: the longest of 200 random, 30 heuristic and 10 first- and
    # last-legal-action games that finished, per seat count (the adapters' bound is three times it)
    short_game=(("end", "turns"), ("turn_limit", 8)),
    longest_games=((3, 404), (4, 544), (5, 664), (6, 794), (7, 949), (8, 1077)),
)


class _Contraband(Game):
    state_class = ContrabandState


GAME = register(_Contraband(SPEC, parse))


#: What can end a game (``ending``'s ``end``; ``SPEC.ends``).
ENDS = SPEC.ends
_FIRST_OFFICER = re.compile(r"^Round 1: seat (\d+) is the Customs Officer")


def ending(state: ContrabandState) -> dict[str, Any]:
    """Par. 10: which end came (the ``end`` option's, or too few players left), the length in rounds, the first officer."""
    end = None
    if state.is_over:
        why = next((e for e in reversed(state.events) if e.startswith("The game ends:")), "")
        end = next((label for words, label in _ENDS if words in why), "other")
    first = next((int(m[1]) for e in state.events if (m := _FIRST_OFFICER.match(e))), None)
    return {"end": end, "length": state.round, "unit": "rounds", "first": first}
