"""Solo Challenge cards (Secret Stash): economic goals raced against the Challenge Timepiece.

Printed rules (``shared/rulebooks/merchants-cove-secret-stash.txt``, numbers in ``data/stash.toml``):
the deck is 4 of the 8 plain cards on top of 2 of the 4 dumbbell cards; the top card is the active one;
before your move you may complete it; the margin between your Timepiece and the Challenge Timepiece
pays the card's Gold (0-6 Hours), sets it aside (exactly 7) or sends it under the deck (8+); the Mouse
pushes the Challenge Timepiece; reaching it costs 1 Corruption card and sends the card under the deck;
at the end each card left in the deck is 2 Corruption icons, each set aside 1.

The Clock is a circle: the Challenge Timepiece sits a lap (``lap`` Hours) ahead of the moment it was
placed. Hours are counted across days, ``(day - 1) * lap + hour`` (designed).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from freetrader.core import Action, BadOption

from .actions import CHALLENGE
from .components import COMPONENTS as C
from .merchants import draw_corruption, gain

if TYPE_CHECKING:
    from .state import CoveState as S

RULES: dict[str, int] = {k: v for k, v in C.stash["challenge_rules"].items() if type(v) is int}  # the numbers


def setup(s: S) -> None:
    """Separate the piles; 4 random plain cards on top of 2 random dumbbell cards; the rest to the box."""
    s.chal_deck, s.chal_aside, s.chal_at = [], [], 0
    if not s.options["challenges"]:
        return
    if s.seats != 1:
        raise BadOption("option challenges: the Challenge cards are solo content (1 seat)")
    plain = [c.index for c in C.challenges if not c.dumbbell]
    heavy = [c.index for c in C.challenges if c.dumbbell]
    s.rng.shuffle(plain)
    s.rng.shuffle(heavy)
    s.chal_deck = plain[: RULES["deck_small"]] + heavy[: RULES["deck_dumbbell"]]
    s.chal_at = hour(s)


def hour(s: S) -> int:
    return (s.day - 1) * RULES["lap"] + s.time[0]


def can_complete(s: S) -> bool:
    if not s.chal_deck:
        return False
    card = C.challenges[s.chal_deck[0]]
    need = [0] * len(s.shelf[0])
    for g in card.goods:
        need[g] += 1
    return all(s.shelf[0][g] >= n for g, n in enumerate(need))


def options(s: S, p: int) -> list[Action]:
    """Before moving your Merchant figure: complete the active Challenge card."""
    return [CHALLENGE] if p == 0 and can_complete(s) else []


def complete(s: S) -> None:
    card = C.challenges[s.chal_deck.pop(0)]
    if card.kind == "lose":
        for g in card.goods:
            s.shelf[0][g] -= 1
            s.supply[0][g] += 1
    margin = hour(s) - s.chal_at
    if margin <= RULES["reward_max"]:
        gold = card.gold[max(0, margin)]
        gain(s, 0, gold)
        s._event(f"Challenge {card.id} complete, margin {margin}: +{gold} Gold")
    elif margin == RULES["aside"]:
        s.chal_aside.append(card.index)
        s._event(f"Challenge {card.id} complete, margin {margin}: set aside")
    else:
        s.chal_deck.append(card.index)
        s._event(f"Challenge {card.id} complete, margin {margin}: back under the deck")
    s.chal_at = hour(s)  # the Challenge Timepiece moves below your Timepiece


def timepiece_moved(s: S) -> None:
    """Your Timepiece reaches the Challenge Timepiece: 1 Corruption card, the card under the deck."""
    if s.chal_deck and hour(s) >= s.chal_at + RULES["lap"]:
        draw_corruption(s, 0, RULES["reach_corruption"])
        s.chal_deck.append(s.chal_deck.pop(0))
        s.chal_at = hour(s)
        s._event("The Challenge Timepiece is reached: the Challenge card goes under the deck")


def mouse_moved(s: S, space: int) -> None:
    """The Mouse moving onto the Challenge Timepiece's space pushes it 1 Hour forward."""
    if s.chal_deck and (s.chal_at - 1) % RULES["lap"] + 1 == (space - 1) % RULES["lap"] + 1:
        s.chal_at += 1


def corruption_icons(s: S) -> int:
    return RULES["deck_icons"] * len(s.chal_deck) + RULES["aside_icons"] * len(s.chal_aside)
