"""Contraband encoder, version 1.

Seats are counted from the observer: block ``r`` describes seat
``(me + r) % seats`` (``r = 0`` is the observer; a spectator counts from
seat 0). Blocks for seats beyond the game's are zero. ``A`` is the number
of articles in ``data/cards.toml`` (10), in file order; money is in $1000s.

Observation (``P + 24 + 17 * 8 + 4 * A`` floats = 206 with the shipped data, P = 6 phases): declared
once as named pieces in ``layout(seats, options)``; the table with offsets and bounds is generated into
``docs/reference/observations.md`` and the C header ``_contraband_layout.h`` from it.

Actions (``6 + C + A + 8`` indices = 33 with the shipped data; C claimable articles):
``declare, search, wave, accept, inform, retire`` (0-5), then ``claim <article>``
for each dutiable article and the diplomatic bag in file order, then
``discard <article>`` for every article in file order, then ``borrow 0`` ..
``borrow 7`` (absolute seat numbers); then 256 overflow indices (see ``Catalogue``).

``encode_state(state, seat)`` builds the same vector from the state's fields
(the public ones, and the luggage only for its holder once looked at) without
building the view. Where the install compiled ``_contraband_fast.c`` (it
needs a C compiler; ``ACCELERATED`` says whether it did) the whole vector is
made in C, about ten times faster; otherwise pieces are kept as float32
bytes, memoized by the values they show, and joined. Tests prove both equal
to ``encode(view)`` bit for bit and blind to what a determinization resamples.
"""

from __future__ import annotations

import struct
from collections.abc import Callable, Mapping
from operator import attrgetter, sub, truediv
from typing import TYPE_CHECKING, Any

import numpy as np

from freetrader.adapters.encoders import register_encoder, register_layout
from freetrader.adapters.encoders._build import compiled, index_of, multi_hot, one_hot, rel
from freetrader.adapters.encoders.base import Catalogue, Encoder, seat_in_range
from freetrader.adapters.encoders.layout import Block, Layout, Piece
from freetrader.adapters.limits import default_max_actions
from freetrader.core import Game, State
from freetrader.games.contraband.components import COMPONENTS as C
from freetrader.games.contraband.rules import BROKE, OVER, PHASES, SEARCH, Payments

__all__ = ["ContrabandEncoder", "NOTATIONS", "ACCELERATED", "layout", "LAYOUT"]

MAX_SEATS = 8
_ART = [a.id for a in C.articles]
_A = len(_ART)
_AIX = index_of(_ART)
_COUNT = [float(a.count) for a in C.articles]
_ICOUNT = [a.count for a in C.articles]
_PIX = index_of(PHASES)
NOTATIONS = (
    ["declare", "search", "wave", "accept", "inform", "retire"]
    + [f"claim {a.id}" for a in C.articles if a.dutiable or a.is_bag]
    + [f"discard {a}" for a in _ART]
    + [f"borrow {s}" for s in range(MAX_SEATS)]
)
_CATALOGUE = Catalogue(NOTATIONS, "contraband v1")
_P = len(PHASES)


def layout(seats: int = MAX_SEATS, options: Mapping[str, Any] | None = None) -> Layout:
    """The observation's pieces; the bounds of counters follow the options (the offsets never do).

    A counter the rules do not limit (rounds when the game ends after a number of declarations,
    say) is bounded by the game's default action bound (``adapters.limits``), since every
    action adds at most one to it: a longer ``max_actions`` can take it beyond its high.
    """
    o = {"end": "all-officers", "reshuffles": 3, "turn_limit": 60, **(options or {})}
    actions = default_max_actions("contraband", seats)
    declarations = min(actions, o["turn_limit"]) if o["end"] == "turns" else actions
    rounds = {"all-officers": seats, "reshuffles": o["reshuffles"] + 1}.get(o["end"], declarations)
    money = C.total_money / 1000

    def flag(name: str, doc: str, size: int = 1) -> Piece:
        return Piece(name, size, 0.0, 1.0, doc)

    return Layout("contraband", 1, [
        flag("phase", "phase one-hot (``rules.PHASES``)", _P),
        flag("seat_count", "number of seats one-hot (index seats-1)", MAX_SEATS),
        Piece("round", 1, 0.0, rounds / 10, "round/10 (rounds: one per officer, reshuffles+1, or the action bound)"),
        Piece("reshuffles", 1, 0.0, rounds / 10, "reshuffles/10 (at most the rounds)"),
        Piece("declarations", 1, 0.0, declarations / 100, "declarations/100 (turn_limit or the action bound)"),
        Piece("unused", 1, 0.0, (seats - 1) / 100, "unused money/100 (the remainder of $10,000 / seats)"),
        flag("pack", "cards in the pack/54"),
        flag("face_down", "face-down discards/54"),
        flag("luggage", "luggage on the table"),
        flag("luggage_cards", "luggage cards/4"),
        flag("examined", "the luggage was examined"),
        flag("bag_claimed", "a diplomatic bag is claimed"),
        flag("mine_shown", "your luggage is shown to you"),
        flag("i_officer", "I am the officer"),
        flag("i_hold", "I hold the luggage"),
        flag("i_declarer", "I am the declarer"),
        flag("i_act", "I am to act"),
        flag("over", "the game is over"),
        Block("seats", MAX_SEATS, (
            Piece("cash", 1, 0.0, money, "cash in $1000s (all the money is $10,000)"),
            flag("retired", "retired"),
            flag("been_officer", "has been the officer"),
            flag("officer", "is the officer"),
            flag("holder", "holds the luggage"),
            flag("declarer", "is the declarer"),
            flag("to_act", "is to act"),
            *(Piece(t, 1, 0.0, declarations / 10, f"{t}/10 (one a declaration at most)")
              for t in ("declared", "caught", "cleared", "searches", "waved", "informs")),
            Piece("owes", 1, 0.0, money * seats, "owes in loans, $1000s (a loan is at most the lender's cash; "
                  "one open loan per pair of seats)"),
            Piece("owed", 1, 0.0, money * seats, "is owed in loans, $1000s"),
            Piece("pay", 1, 0.0, money, "must pay now, $1000s (at most the payer's cash and loans)"),
            Piece("paid", 1, 0.0, money * seats, "will be paid now, $1000s"),
        ), "per relative seat (0 = the observer); seats beyond the game's are zero"),
        flag("revealed", "revealed (impounded) cards per article / its count", _A),
        Piece("claimed", _A, 0.0, 4.0, "articles claimed in the current declaration (at most the 4 cards)"),
        Piece("held", _A, 0.0, 4.0, "your luggage per article (zero unless you hold it and have looked)"),
        flag("unseen", "cards of each article still unseen by everyone / its count", _A),
    ], notes=f"Articles (A = {_A}) in ``data/cards.toml`` order: {', '.join(_ART)}. Bounds at {seats} seats, "
             "default options.")


LAYOUT = layout()
_PER_SEAT = LAYOUT.stride("seats")
_SEATS_AT = LAYOUT.at("seats")  # where the per-seat blocks start
# byte offsets inside a seat's row of the role columns and of the four debt columns
_OFFICER_B, _HOLDER_B, _DECLARER_B, _TO_ACT_B, _DEBTS_B = (
    4 * LAYOUT.at(f"seats.{k}") for k in ("officer", "holder", "declarer", "to_act", "owes"))
_MEMO_LIMIT = 4096
_ARTICLE_RANGE = range(_A)

if TYPE_CHECKING:
    from freetrader.games.contraband.state import ContrabandState

_compiled = compiled("_contraband_fast")
if _compiled is not None:
    _compiled.configure(_P, OVER, SEARCH, BROKE, _COUNT)
ACCELERATED = _compiled is not None


def _floats(*values: float) -> bytes:
    """float32 bytes, rounded from float64 as ``np.asarray(values, np.float32)`` rounds them."""
    return struct.pack(f"{len(values)}f", *values)


_PHASE_BYTES = [_floats(*(float(i == k) for i in range(_P))) for k in range(_P)]
_NO_CARDS = _floats(*(0.0,) * _A)
_TABLE = struct.Struct("16f").pack
_ROW_D = struct.Struct("4f").pack  # the four debts


def _debts(s: ContrabandState, pending: list[tuple[int, int, int]]) -> tuple[bytes, ...]:
    """Per seat: owes, is owed (loans), must pay, will be paid; summed in the order ``features`` sums them."""
    n = s.seats
    owes = [0.0] * n
    owed = [0.0] * n
    for b, row in enumerate(s.loans):
        for lender, amount in enumerate(row):
            if amount:
                owes[b] += amount / 1000
                owed[lender] += amount / 1000
    pay = [0.0] * n
    paid = [0.0] * n
    for payer, payee, amount in pending:
        pay[payer] += amount / 1000
        paid[payee] += amount / 1000
    return tuple(_ROW_D(owes[p], owed[p], pay[p], paid[p]) for p in range(n))


_SEAT_FIELDS = ("cash", "retired", "been_officer", "declared", "caught", "cleared", "searches", "waved", "informs")
_seat_fields = attrgetter(*_SEAT_FIELDS)
_ROW = struct.Struct(f"{_PER_SEAT}f").pack
_ARTICLE_FLOATS = struct.Struct(f"{_A}f").pack
_ONE = struct.pack("f", 1.0)


def _row(values: tuple[Any, ...]) -> bytes:
    """A seat's 17-float row from its per-seat fields (role and debt columns left zero)."""
    cash, retired, been, *tallies = values
    return _ROW(cash / 1000, retired, been, 0, 0, 0, 0, *(t / 10 for t in tallies), 0, 0, 0, 0)


class _Seats:
    """The per-seat rows for ``n`` seats, as float32 bytes, each rebuilt only when its fields change."""

    def __init__(self, n: int) -> None:
        self.n = n
        self.seats_hot = _floats(*(float(i == n - 1) for i in range(MAX_SEATS)))
        self.pad = bytes(4 * _PER_SEAT * (MAX_SEATS - n))
        # byte offset of seat p's row when me observes
        self.row_at = [[4 * (_SEATS_AT + (p - me) % n * _PER_SEAT) for p in range(n)] for me in range(n)]
        self.values: list[tuple[Any, ...]] = []  # each seat's fields, as its row below shows them
        self.by_seat: list[bytes] = []
        self.blocks: dict[int, bytes] = {}
        self.debts: dict[tuple[Any, ...], tuple[bytes, ...]] = {}
        self.no_loans = [(0,) * n] * n

    def block(self, s: ContrabandState, me: int) -> bytes:
        """Each seat's row (roles and debts left zero) from ``me`` on, then the padding."""
        values = list(zip(*_seat_fields(s), strict=True))
        if values != self.values:
            old = self.values
            if len(old) != len(values):
                self.by_seat = list(map(_row, values))
            else:
                rows = self.by_seat
                for p, v in enumerate(values):
                    if v != old[p]:  # an action changes one or two seats
                        rows[p] = _row(v)
            self.values = values
            self.blocks = {}
        got = self.blocks.get(me)
        if got is None:
            rows = self.by_seat
            got = self.blocks[me] = b"".join((*rows[me:], *rows[:me], self.pad))
        return got

    def debt_columns(self, s: ContrabandState, pending: list[tuple[int, int, int]]) -> tuple[bytes, ...]:
        """The four debt columns of each seat, by absolute seat (when a loan or a payment is open)."""
        key = (*s.loans, *pending)
        got = self.debts.get(key)
        if got is None:
            if len(self.debts) > _MEMO_LIMIT:
                self.debts.clear()
            got = self.debts[key] = _debts(s, pending)
        return got


class ContrabandEncoder(Encoder):
    name = "contraband"
    version = 1

    def __init__(self, game: Game, seats: int, options: Mapping[str, Any]) -> None:
        super().__init__(game, seats, options)
        self.actions = _CATALOGUE
        self.use_layout(layout(seats, self.options))
        # Caches for encode_state, each keyed by (or checked against) the values it summarizes.
        self._seats: dict[int, _Seats] = {}
        # the impounded cards last seen; revealed / count and unseen / count as bytes, their unseen
        # counts, and luggage -> (held, unseen / count) for the holder who looked at it
        self._shown: tuple[list[int] | None, bytes, bytes, tuple[int, ...], dict[tuple[int, ...], tuple[bytes, bytes]]]
        self._shown = (None, b"", b"", (), {})
        self._claims: dict[tuple[int, ...], bytes] = {}
        self.compiled = ACCELERATED

    def compiled_bytes(self, state: State, seat: int | None) -> bytes | bytearray | None:
        """The vector from ``_contraband_fast``, where it is used; None otherwise."""
        if self.compiled and _compiled is not None and seat_in_range(seat, state.seats):
            return _compiled.encode(state, seat)  # type: ignore[no-any-return]
        return None

    def compiled_function(self) -> Callable[[State, int | None], bytes | bytearray] | None:
        """``_compiled.encode`` itself while it is used: ``compiled_bytes`` is that one call for a seat in range."""
        return _compiled.encode if self.compiled and _compiled is not None else None

    def encode_state(self, state: State, seat: int | None) -> np.ndarray:
        """``encode(state.view(seat))`` from the state's fields, without building the view.

        It reads only what the view shows: the public table, and the luggage
        cards when ``seat`` holds the luggage and has looked at it. Pieces
        of the vector are kept as float32 bytes and rebuilt only when the
        fields they come from change.
        """
        s: ContrabandState = state  # type: ignore[assignment]
        if not seat_in_range(seat, s.seats):
            return super().encode_state(state, seat)  # seat_view raises the error
        got = self.compiled_bytes(s, seat)
        if got is not None:
            return np.frombuffer(bytearray(got), np.float32)  # a new array the caller owns
        return self._encode_state_python(s, seat)

    def _encode_state_python(self, s: ContrabandState, seat: int | None) -> np.ndarray:
        n = s.seats
        me = seat or 0
        seats = self._seats.get(n)
        if seats is None:
            seats = self._seats[n] = _Seats(n)
        frames = s.frames  # the state's phase, actor and pending, read from the top frame at once
        top = frames[-1] if frames else None
        over = top is None
        act = -1 if top is None else top.actor(s)
        phase = OVER if top is None else top.phase  # type: ignore[attr-defined]
        pending = list(top.owed) if type(top) is Payments else []
        holder = s.holder
        lug = holder >= 0
        mine = holder == seat and s.examined

        shown = s.discard_shown
        last, revealed, unseen, unseen_counts, by_luggage = self._shown
        if shown != last:
            counts = tuple(map(shown.count, _ARTICLE_RANGE))
            unseen_counts = tuple(map(sub, _ICOUNT, counts))
            revealed = _ARTICLE_FLOATS(*map(truediv, counts, _COUNT))
            unseen = _ARTICLE_FLOATS(*map(truediv, unseen_counts, _COUNT))
            by_luggage = {}
            self._shown = (shown[:], revealed, unseen, unseen_counts, by_luggage)
        held = _NO_CARDS
        if mine:
            luggage = tuple(s.luggage)
            got = by_luggage.get(luggage)
            if got is None:
                if len(by_luggage) > _MEMO_LIMIT:
                    by_luggage.clear()
                h = tuple(map(luggage.count, _ARTICLE_RANGE))
                got = by_luggage[luggage] = (
                    _ARTICLE_FLOATS(*h), _ARTICLE_FLOATS(*map(truediv, map(sub, unseen_counts, h), _COUNT))
                )
            held, unseen = got
        claim = tuple(s.claim)
        claimed = self._claims.get(claim)
        if claimed is None:
            if len(self._claims) > _MEMO_LIMIT:
                self._claims.clear()
            claimed = self._claims[claim] = _ARTICLE_FLOATS(*map(claim.count, _ARTICLE_RANGE))
        buf = bytearray().join((
            _PHASE_BYTES[phase], seats.seats_hot,
            _TABLE(
                s.round / 10, s.reshuffles / 10, s.declarations / 100, s.unused / 100, len(s.pack) / 54,
                len(s.discard_hidden) / 54, lug, len(s.luggage) / 4 if lug else 0, lug and s.examined, s.bag_claim,
                mine, s.officer == me, holder == me, s.declarer == me, act == me, over,
            ),
            seats.block(s, me), revealed, claimed, held, unseen,
        ))
        at = seats.row_at[me]
        # the role columns: officer, holds the luggage, declarer, to act
        i = at[s.officer] + _OFFICER_B
        buf[i : i + 4] = _ONE
        if holder >= 0:
            i = at[holder] + _HOLDER_B
            buf[i : i + 4] = _ONE
        if s.declarer >= 0:
            i = at[s.declarer] + _DECLARER_B
            buf[i : i + 4] = _ONE
        if act >= 0:
            i = at[act] + _TO_ACT_B
            buf[i : i + 4] = _ONE
        if pending or s.loans != seats.no_loans:
            for i, debts in zip(at, seats.debt_columns(s, pending), strict=True):
                buf[i + _DEBTS_B : i + _DEBTS_B + 16] = debts
        return np.frombuffer(buf, np.float32)

    def features(self, v: Mapping[str, Any]) -> list[float]:
        n = v["seats"]
        me = v["seat"] or 0
        out: list[float] = []
        one_hot(out, _PIX.get(v["phase"]), len(PHASES))
        one_hot(out, n - 1, MAX_SEATS)
        lug = v["luggage"]
        holder = lug["holder"] if lug else -1
        mine = v.get("your_luggage")
        claim = v["claim"]
        out += [
            v["round"] / 10, v["reshuffles"] / 10, v["declarations"] / 100, v["unused"] / 100, v["pack"] / 54,
            v["discard"]["face_down"] / 54, 1.0 if lug else 0.0, lug["cards"] / 4 if lug else 0.0,
            1.0 if lug and lug["examined"] else 0.0, 1.0 if claim["diplomatic_bag"] else 0.0,
            1.0 if mine is not None else 0.0, 1.0 if v["officer"] == me else 0.0, 1.0 if holder == me else 0.0,
            1.0 if v["declarer"] == me else 0.0, 1.0 if v["to_act"] == me else 0.0, 1.0 if v["is_over"] else 0.0,
        ]
        owes = [0.0] * n
        owed = [0.0] * n
        for loan in v["loans"]:
            owes[loan["borrower"]] += loan["amount"] / 1000
            owed[loan["lender"]] += loan["amount"] / 1000
        pay = [0.0] * n
        paid = [0.0] * n
        for o in v["owed"]:
            pay[o["payer"]] += o["amount"] / 1000
            paid[o["payee"]] += o["amount"] / 1000
        t = v["table"]
        blocks = [0.0] * (_PER_SEAT * MAX_SEATS)
        for p in range(n):
            r = rel(p, me, n)
            assert r is not None
            blocks[r * _PER_SEAT : (r + 1) * _PER_SEAT] = [
                v["cash"][p] / 1000, float(v["retired"][p]), float(v["been_officer"][p]), float(v["officer"] == p),
                float(holder == p), float(v["declarer"] == p), float(v["to_act"] == p),
                t["declared"][p] / 10, t["caught"][p] / 10, t["cleared"][p] / 10, t["searches"][p] / 10,
                t["waved"][p] / 10, t["informs"][p] / 10, owes[p], owed[p], pay[p], paid[p],
            ]
        out += blocks
        revealed = [0.0] * _A
        for a in v["discard"]["revealed"]:
            revealed[_AIX[a]] += 1
        out += [revealed[i] / _COUNT[i] for i in range(_A)]
        multi_hot(out, claim["articles"], _AIX, _A)
        held = [0.0] * _A
        for a in mine or ():
            held[_AIX[a]] += 1
        out += held
        out += [(_COUNT[i] - revealed[i] - held[i]) / _COUNT[i] for i in range(_A)]
        return out


register_encoder("contraband", ContrabandEncoder, versions=(1,))
register_layout("contraband", LAYOUT, c_prefix="CB")
