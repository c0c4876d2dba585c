"""What one seat may see, and determinization for that seat.

A seat sees the public table (money, loans, the officer, the declaration,
every search's revealed luggage, counts of the pack and face-down discards)
and, if it holds luggage it has looked at, those cards. Views describe what
is visible now: cards a seat passed on or discarded earlier are not kept in
its view, so determinization may resample them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from freetrader.core import Rng
from freetrader.core.results import Part, Results
from freetrader.core.results import results as make_results

from .components import COMPONENTS as C
from .phases import PHASES

if TYPE_CHECKING:
    from .state import ContrabandState as S


def _ids(cards: list[int]) -> list[str]:
    return [C.articles[k].id for k in sorted(cards)]


# The card catalogue is public and fixed: built once and shared by every view (read-only).
_ARTICLES = [{"id": a.id, "name": a.name, "duty": a.duty, "fine": a.fine, "count": a.count} for a in C.articles]


def view(s: S, seat: int | None) -> dict[str, Any]:
    n = s.seats
    d: dict[str, Any] = {
        "phase": PHASES[s.phase],
        "officer": s.officer,
        "round": s.round,
        "reshuffles": s.reshuffles,
        "declarations": s.declarations,
        "cash": s.cash[:],
        "unused": s.unused,
        "loans": [
            {"borrower": b, "lender": lender, "amount": s.loans[b * n + lender]}
            for b in range(n)
            for lender in range(n)
            if s.loans[b * n + lender]
        ],
        "retired": s.retired[:],
        "been_officer": s.been_officer[:],
        "pack": len(s.pack),
        "discard": {"face_down": len(s.discard_hidden), "revealed": [C.articles[k].id for k in s.discard_shown]},
        "luggage": None if s.holder < 0 else {"holder": s.holder, "cards": len(s.luggage), "examined": s.examined},
        "declarer": s.declarer,
        "claim": {"diplomatic_bag": s.bag_claim, "articles": [C.articles[k].id for k in s.claim]},
        "owed": [{"payer": p, "payee": q, "amount": a} for p, q, a in s.pending],
        "table": {
            "declared": s.declared[:],
            "caught": s.caught[:],
            "cleared": s.cleared[:],
            "searches": s.searches[:],
            "waved": s.waved[:],
            "informs": s.informs[:],
        },
    }
    d["articles"] = _ARTICLES
    if seat is not None and seat == s.holder and s.examined:
        d["your_luggage"] = _ids(s.luggage)
    return d


def determinize(s: S, seat: int, seed: int) -> None:
    """Shuffle together every card ``seat`` cannot see and deal them back into the same places."""
    sees_luggage = seat == s.holder and s.examined
    pool = s.pack + s.discard_hidden
    if not sees_luggage:
        pool += s.luggage
    Rng(seed).shuffle(pool)
    n_pack, n_hidden = len(s.pack), len(s.discard_hidden)
    s.pack = pool[:n_pack]
    s.discard_hidden = pool[n_pack : n_pack + n_hidden]
    if not sees_luggage:
        s.luggage = pool[n_pack + n_hidden :]


def results(s: S) -> Results:
    """Par. 10: money after allowing for loans; the loans a seat made and owes are its other parts."""
    from .rules import net_worth

    n = s.seats
    parts: list[list[Part]] = []
    for p in range(n):
        owes = sum(s.loans[p * n + q] for q in range(n))
        lent = sum(s.loans[b * n + p] for b in range(n))
        parts.append([{"label": "Money in hand", "value": float(s.cash[p])},
                      {"label": "Loans owed to you", "value": float(lent)},
                      {"label": "Loans you owe", "value": float(-owes)}])
    return make_results("Money after loans ($)", "none in the rules: tied players share the win",
                        f"{s.round} round{'' if s.round == 1 else 's'}", net_worth(s), s.winners(), parts)
