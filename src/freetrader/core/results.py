"""The end of a game in the game's own terms: each seat's rank, score and its parts.

Every game folder has ``view.results(state) -> Results``; the table server
sends it with the final view and the browser draws it as the results panel.
The parts of a seat add up to its score, so a reader can check the sum.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypedDict

__all__ = ["Part", "SeatResult", "Results", "ranks", "results"]


class Part(TypedDict):
    label: str
    value: float


class SeatResult(TypedDict):
    seat: int
    rank: int       #: 1 for the winners; tied seats share a rank
    score: float
    parts: list[Part]


class Results(TypedDict):
    score: str      #: what the score counts, in the game's words ("Gold + Reputation")
    tie_break: str  #: how a tie on the score is settled
    length: str     #: how long the game was, in the game's terms ("6 turns")
    seats: list[SeatResult]


def ranks(scores: Sequence[float], winners: Sequence[int]) -> list[int]:
    """Competition ranks (1, 1, 3) by score; the engine's winners are rank 1 whatever their score says."""
    out = []
    for i, v in enumerate(scores):
        if i in winners:
            out.append(1)
            continue
        out.append(1 + sum(1 for w in scores if w > v))
    return out


def results(score: str, tie_break: str, length: str, scores: Sequence[float], winners: Sequence[int],
            parts: Sequence[Sequence[Part]]) -> Results:
    """The ``Results`` of a finished game from its scores, winners and each seat's parts."""
    r = ranks(scores, winners)
    return {"score": score, "tie_break": tie_break, "length": length,
            "seats": [{"seat": i, "rank": r[i], "score": float(scores[i]), "parts": list(parts[i])}
                      for i in range(len(scores))]}
