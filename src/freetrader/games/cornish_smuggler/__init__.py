"""Cornish Smuggler: smuggling networks, landing risk and Customs in West Cornwall (2-5 players).

Registers ``cornish-smuggler-v1``. Rules as coded: ``RULES.md`` beside this file.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from freetrader.core import Game, GameSpec, Option, State, register

from . import packing
from .actions import parse
from .state import CornishState

__all__ = ["GAME", "CornishState", "ENDS", "ending"]

SPEC = GameSpec(
    name="cornish-smuggler",
    version=1,
    title="Cornish Smuggler",
    min_seats=2,
    max_seats=5,
    hidden_information=True,
    chance=True,
    summary=(
        "Buy Goods Shapes from the Merchants and fit them in your ship's hold, land them where your network has a "
        "Counter (the Landing Risk against the Discovery Level draws the Customs Officers), move them along your "
        "network and sell them in towns at one of three prices. Hire Characters to grow the network and gain "
        "Reputation, which brings Influence each turn; bribe officers, store goods, raid the Customs House. "
        "One Action at a time until all pass; Gold plus Reputation wins when the Customs Track ends or the last "
        "Goods Shape is bought."
    ),
    options=(
        Option("first_player", 0, "the seat with the First Player marker at the start (the last to smuggle)",
               minimum=0, maximum=4),
        Option("hire_reputation", 2,
               "ruling: Hire Character costs 1 Influence or 2 Reputation (Action/Cost table and Hiring "
               "Characters); the Actions text says 1 Reputation", minimum=1, maximum=2),
        Option("flip_goods", False,
               "ruling: Goods Shapes may be rotated but not flipped, since they are placed face up with their "
               "number showing; true allows mirror images"),
        Option("mob_start", "home",
               "a Mob card kept at set-up (\"If you have no Network Counter in X, you must place this Network "
               "Counter in X\") places the first Network Counter in X (home); anywhere is the older reading, kept "
               "so that games saved before the fix go on under the rules they began with",
               choices=("home", "anywhere")),
        Option("yew_boy", "any-move",
               "Yew boy! (\"Play when a Customs Officer is being moved\") answers every officer move: the paid "
               "action, a card, a landing or a sale (any-move); customs-movement is the older ruling 21 (only the "
               "movement after a landing, a sale or an Anonymous Letter), kept so that games saved before the fix "
               "go on under the rules they began with", choices=("any-move", "customs-movement")),
        Option("goods_end", "takeable",
               "ruling 31: the Goods trigger fires when the last Goods Shape any player's ship can hold is bought, "
               "and at the end of a Turn after which no player can take a piece that is left: none owned, none "
               "seized that a raid or a Secrets card still to draw could bring back, none that fits a player's "
               "empty hold and that it can pay for; the next Turn is then the last (takeable); fits only at the "
               "buy, and last waits for the very last piece (older readings, under which a game could stall "
               "for good), kept so that games saved before go on under them",
               choices=("takeable", "fits", "last")),
        Option("turn_limit", 0,
               "safety cap for simulations, not in the rulebook (End of the Game has only its two triggers): "
               "0, the default, plays to a trigger; N stops the game after N Turns, and a game so stopped is "
               "cut, with no winner", minimum=0, maximum=1000),
    ),
    ends=("Customs Track", "last Goods Shape", "safety cap"),
    # benchmarks/game_lengths.py, 2026-12-01: the longest of 200 random, 30 heuristic and 10 first- and
    # last-legal-action games that finished, per seat count; random
    # play never finishes it (Honest Work and a counter moved back and forth), so these are the heuristic's: (the adapters' bound is three times it)
    short_game=(("turn_limit", 3),),
    longest_games=((2, 1432), (3, 1771), (4, 1637), (5, 1704)),
    safety_cap="turn_limit",
    random_play_ends=False,
    warm=packing.warm,
)


class _CornishSmuggler(Game):
    state_class = CornishState

    def _migrate(self, data: Mapping[str, Any], fmt: int) -> State:
        """Format 1 was written before Yew boy! answered every officer move and before a Mob card kept at set-up
        placed the first counter at home, formats 1 and 2 before the Goods trigger counted only pieces a ship can
        hold (ruling 31): they replay, and go on, under the rules they began with."""
        older: dict[str, str] = {"goods_end": "last"} if fmt < 3 else {}
        if fmt == 1:
            older |= {"yew_boy": "customs-movement", "mob_start": "anywhere"}
        data = {**data, "options": {**older, **data.get("options", {})}}
        # saved before the log said who drew Secrets after a sale and what a Buy cost in Influence (issue 34):
        # the replay's log is today's, and it is checked against the saved one as that code wrote it
        from freetrader.core.record import replay

        today = replay(data, game=self).events
        if _as_logged_before_issue_34(today) == list(data.get("events", ())):
            data = {**data, "events": today}
        return super()._migrate(data, fmt)


_SECRETS_DRAWN = re.compile(r"(Seat \d+(, seat \d+)*( and seat \d+)? (each draw|draws) a Secrets card after the sale"
                            r"|The Secrets deck is empty: seat \d+(, seat \d+)*( and seat \d+)? draws? none)")
_BUY_LINE = re.compile(r"(Seat \d+ buys .* for \d+ Gold) and 1 Influence")


def _as_logged_before_issue_34(events: list[str]) -> list[str]:
    """A log as the code before issue 34 wrote it: no Secrets-drawn lines, Buy lines without the Influence."""
    out = []
    for e in events:
        if not _SECRETS_DRAWN.fullmatch(e):
            buy = _BUY_LINE.fullmatch(e)
            out.append(buy[1] if buy else e)
    return out


GAME = register(_CornishSmuggler(SPEC, parse))


#: What can end a game (``ending``'s ``end``): End of the Game's two triggers, and the simulations' safety cap.
ENDS = SPEC.ends


def ending(state: CornishState) -> dict[str, Any]:
    """End of the Game: which trigger fired (or the safety cap), the length in Turns, the first First Player.

    The Turn count is the game's own measure of length (the First Player marker moves each Turn); the
    simulator writes it on every result line (``freetrader.sim.endings``).
    """
    triggered = next((e for e in state.events if e.startswith("The end of the game is triggered")), "")
    end = None
    if state.is_over:
        end = ("safety cap" if state.cut else "Customs Track" if "Customs Track" in triggered
               else "last Goods Shape" if "Goods Shape" in triggered else "other")
    return {"end": end, "length": state.turn, "unit": "Turns", "first": state.options["first_player"]}
