"""What one seat may see, and determinization for that seat.

A seat sees the public table (money, loans, the officer, the declaration,
every search's revealed luggage, counts of the pack and face-down discards)
and, if it holds luggage it has looked at, those cards. Views describe what
is visible now; what a seat saw earlier in the round (the luggage it looked
at and passed on, its own face-down discards) is kept in the state's
``trace``, and determinization keeps all of it (``determinize``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from freetrader.core import Rng
from freetrader.core.results import Part, Results
from freetrader.core.results import results as make_results

from .components import COMPONENTS as C
from .phases import PHASES
from .rules import DISCARDED, DUMPED, REVEALED, SAW

if TYPE_CHECKING:
    from .state import ContrabandState as S


def _ids(cards: list[int]) -> list[str]:
    return [C.articles[k].id for k in sorted(cards)]


# The card catalogue is public and fixed: built once and shared by every view (read-only).
_ARTICLES = [{"id": a.id, "name": a.name, "duty": a.duty, "fine": a.fine, "count": a.count} for a in C.articles]


def view(s: S, seat: int | None) -> dict[str, Any]:
    d: dict[str, Any] = {
        "phase": PHASES[s.phase],
        "officer": s.officer,
        "round": s.round,
        "reshuffles": s.reshuffles,
        "declarations": s.declarations,
        "cash": s.cash[:],
        "unused": s.unused,
        "loans": [
            {"borrower": b, "lender": lender, "amount": amount}
            for b, row in enumerate(s.loans)
            for lender, amount in enumerate(row)
            if amount
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
    """Deal every card ``seat`` has not seen anew, keeping all it saw this round (``rules.trace``).

    What a seat saw pins cards: its own discards are face down in the discard,
    luggage it looked at (or saw searched) holds those cards until others
    discard from it unseen. Between two moments the seat saw the luggage, the
    cards that left it are known discards and the rest of those discards are
    unseen cards; after the last moment each unseen discard takes a random card
    of the luggage then (the Diplomatic Bag if it is known to be there: par. 8).
    Every other card is shuffled and dealt back into the pack, the discard and
    the luggage. Other seats' looks are then unknown to the sample
    (-1 in its trace), as the seat cannot know them.
    """
    rng = Rng(seed)
    placed: list[int] = []  # cards known to be in the face-down discard
    unseen_discards = 0
    known: list[int] = []  # the luggage when the seat last saw it ...
    unknown = 0  # ... or how many cards it held then, unseen (new luggage drawn by another)
    since = 0  # unseen discards (each followed by a draw) since then
    for op in s.trace:
        kind = op[0]
        mine = op[1] == seat and -1 not in op  # -1: a look a sample's seat cannot know (see the end)
        if kind == DUMPED:  # the whole luggage goes face down
            placed += known
            unseen_discards += unknown + since
            known, unknown, since = [], 0, 0
        elif kind == DISCARDED and mine:  # just after its own look: it knows the luggage still
            known = _minus(known, [op[2]]) + [op[3]]
            placed.append(op[2])
        elif kind == DISCARDED:
            since += 1
        elif kind == REVEALED or (kind == SAW and mine):
            now = list(op[2:])
            left = _minus(known, _common(known, now))  # seen before, gone now: discarded unseen
            placed += left
            unseen_discards += since - len(left)
            known, unknown, since = ([], 0, 0) if kind == REVEALED else (now, 0, 0)
        elif not known and not unknown:  # another seat draws new luggage
            unknown = len(op) - 2
    luggage: list[int | None] = [*known, *([None] * unknown)]
    for _ in range(since):  # discards after the seat last saw the luggage: any card then held
        pick = luggage.index(C.bag) if C.bag in luggage else rng.below(len(luggage))
        card = luggage.pop(pick)
        if card is None:
            unseen_discards += 1
        else:
            placed.append(card)
        luggage.append(None)
    left = [0] * len(C.articles)  # the unseen cards, by article: every hidden card but those placed
    for zone in (s.pack, s.discard_hidden, s.luggage):
        for k in zone:
            left[k] += 1
    for k in placed:
        left[k] -= 1
    for card in luggage:
        if card is not None:
            left[card] -= 1
    pool = [k for k, n in enumerate(left) for _ in range(n)]
    rng.shuffle(pool)
    s.discard_hidden = placed + [pool.pop() for _ in range(unseen_discards)]
    rng.shuffle(s.discard_hidden)
    s.luggage = [k if k is not None else pool.pop() for k in luggage]
    s.pack = pool
    s.trace = [op if op[0] == REVEALED or op[1] == seat else _UNKNOWN.get(op) or _unknown(op) for op in s.trace]


# A trace entry with its cards unknown (-1), per entry: a search rewrites the same few entries often.
_UNKNOWN: dict[tuple[int, ...], tuple[int, ...]] = {}


def _unknown(op: tuple[int, ...]) -> tuple[int, ...]:
    if len(_UNKNOWN) > 4096:
        _UNKNOWN.clear()
    got = _UNKNOWN[op] = (*op[:2], *([-1] * (len(op) - 2)))
    return got


def _minus(cards: list[int], taken: list[int]) -> list[int]:
    """``cards`` without one copy of each of ``taken`` (all of which it holds)."""
    out = cards[:]
    for k in taken:
        out.remove(k)
    return out


def _common(a: list[int], b: list[int]) -> list[int]:
    """The cards ``a`` and ``b`` share, each as often as both hold it."""
    rest = b[:]
    out = []
    for k in a:
        if k in rest:
            rest.remove(k)
            out.append(k)
    return out


def results(s: S) -> Results:
    """Par. 10: money after allowing for loans; the loans a seat made and owes are its other parts."""
    from .rules import net_worth

    n = s.seats
    parts: list[list[Part]] = []
    for p in range(n):
        owes = sum(s.loans[p])
        lent = sum(row[p] for row in s.loans)
        parts.append([{"label": "Money in hand", "value": float(s.cash[p])},
                      {"label": "Loans owed to you", "value": float(lent)},
                      {"label": "Loans you owe", "value": float(-owes)}])
    return make_results("Money after loans ($)", "none in the rules: tied players share the win",
                        f"{s.round} round{'' if s.round == 1 else 's'}", net_worth(s), s.winners(), parts)
