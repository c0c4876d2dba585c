"""Precious Cargo: a two-player race to 25 coins on the sea routes between Koruna and Talonas.

Registers ``precious-cargo-v1``. Rules: ``RULES.md`` beside this file.
"""

from __future__ import annotations

from typing import Any

from freetrader.core import Game, GameSpec, Option, register

from .actions import parse
from .components import COMPONENTS
from .state import PreciousCargoState

__all__ = ["GAME", "SPEC", "PreciousCargoState", "ENDS", "ending"]

SPEC = GameSpec(
    name="precious-cargo",
    version=1,
    title="Precious Cargo",
    min_seats=2,
    max_seats=2,
    hidden_information=True,
    chance=True,
    summary=(
        "Two merchants, one leading Koruna and one Talonas, sail ships along dotted sea routes, one ship a dot, "
        "so a ship left on a dot is a blockade. Each turn: move every ship up to its sails, then up to two "
        "different actions: build a hull, add sails, install a Governor, take on cargo, sell cargo in the other "
        "country (in demand at the settlement's chip value, else 1; the Governor's owner earns 1 a crate), or "
        "move one ship again. The first to 25 coins wins."
    ),
    options=(
        Option(
            "countries", "choose",
            "Set Up: seat 0 chooses the country it leads (choose), or seat 0 leads Koruna (seat0-koruna), or "
            "the countries are dealt at random (random)",
            choices=("choose", "seat0-koruna", "random"),
        ),
        Option(
            "first_player", "choose",
            "Set Up, 'Choose a player to go first': seat 1 (who did not choose the country) chooses (choose); "
            "or at random; or seat 0; or whoever leads Koruna",
            choices=("choose", "random", "seat0", "koruna"),
        ),
        Option(
            "chip_refresh", "in-demand",
            "ruling, Sell Cargo: a settlement draws a new chip after a sale that included the commodity in demand "
            "there ('the chip for the commodity you just sold'), or after every sale there (any-sale)",
            choices=("in-demand", "any-sale"),
        ),
        Option(
            "dock_ends_move", False,
            "ruling: a ship entering a settlement's dock stops there for the turn (true), or may sail on through "
            "it while a dock space is free (false, the default: a dock is a space like a dot)",
        ),
        Option("target", COMPONENTS.target, "coins that win the game (Winning the Game: 25)", minimum=5, maximum=200),
        Option(
            "turn_limit", 0,
            "safety cap for simulations, not in the rulebook (the game ends only when a player has 25 coins): "
            "0, the default, plays on to the target; N stops a game stalled by blockades after N turns in all "
            "(both players), and a game so stopped is cut, with no winner",
            minimum=0, maximum=100000,
        ),
    ),
    ends=("target reached", "safety cap"),
    # benchmarks/game_lengths.py, 2026-12-01: the longest of 200 random, 30 heuristic and 10 first- and
    # last-legal-action games that finished, per seat count (the adapters' bound is three times it)
    short_game=(("target", 5), ("turn_limit", 30)),
    longest_games=((2, 3014),),
    safety_cap="turn_limit",
)


class _PreciousCargo(Game):
    state_class = PreciousCargoState


GAME = register(_PreciousCargo(SPEC, parse))


#: What can end a game (``ending``'s ``end``): Winning the Game, and the simulations' safety cap.
ENDS = SPEC.ends


def ending(state: PreciousCargoState) -> dict[str, Any]:
    """Winning the Game: a player reached the target (or the safety cap cut it); the length in rounds.

    A round is one turn of each player (``turn`` counts single turns), the last one perhaps half played.
    """
    end = ("safety cap" if state.cut else "target reached") if state.is_over else None
    return {"end": end, "length": (state.turn + 1) // 2, "unit": "rounds",
            "first": state.first if state.first >= 0 else None}
