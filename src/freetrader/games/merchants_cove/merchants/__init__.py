"""The merchant interface and registry.

A merchant is one module in this package that subclasses ``Merchant`` and calls
``register``; its numbers live in ``data/merchants.toml`` under its id. The
rules know nothing else about it: a new merchant is a module and a data entry.

A merchant's board (``state.mb[seat]``) is a ``Board``: its fields declared
once, by name and type, as a state's are (``core.fields``), from which its copy,
its JSON and the checks on load derive. Its shop-board actions are started with
``begin``; an action with small decisions of its own returns the first of them,
a ``Step`` frame, which the rules push (each step frame is the merchant's:
``legal``, ``apply``, ``prompt``, and it replaces itself with the next step or
finishes). Its actions are the typed ones of ``..actions`` (the grammar is
complete there).
"""

from __future__ import annotations

import importlib
import operator
import pkgutil
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any, ClassVar, Generic, TypeVar

from freetrader.core import BadRecord
from freetrader.core.fields import DeclaredMeta, compile_copy, declared_fields, fields_from_json, fields_to_json

from ..components import COMPONENTS as C
from ..components import GOOD_IDS, MerchantData
from ..flow import Decision
from ..phases import Phase

if TYPE_CHECKING:
    from ..state import CoveState as S

__all__ = ["Board", "Merchant", "Step", "register", "MERCHANTS", "merchant_of", "produce", "draw_corruption", "gain",
           "pay", "load_all", "board_from_json"]

MERCHANTS: dict[str, Merchant[Any]] = {}


# per board class: its generated copy (``core.fields.compile_copy``) and the getter of all its values
_COPY: dict[type, Callable[[Any, Any], None]] = {}
_VALUES: dict[type, Callable[[Any], Any]] = {}


class Board(metaclass=DeclaredMeta):
    """A merchant's board: a subclass declares its fields as annotations (``list[int]``, ``int``, ...) and nothing
    else; copy, JSON, load checks and equality come from that declaration."""

    __slots__ = ()
    seats: ClassVar[int] = 0  # no per-seat fields on a board (``core.fields`` asks)

    def __init_subclass__(cls, **kw: Any) -> None:
        super().__init_subclass__(**kw)
        _COPY[cls] = compile_copy(cls)
        _VALUES[cls] = operator.attrgetter(*(f.name for f in declared_fields(cls)))

    def __init__(self, **values: Any) -> None:
        for name, v in values.items():
            setattr(self, name, v)

    def copy(self) -> Board:
        cls = type(self)
        other = object.__new__(cls)
        _COPY[cls](self, other)
        return other

    def __eq__(self, other: object) -> bool:
        cls = type(self)
        return type(other) is cls and _VALUES[cls](self) == _VALUES[cls](other)

    __hash__ = None  # type: ignore[assignment]  # mutable

    def to_json(self) -> dict[str, Any]:
        return fields_to_json(self)

    @classmethod
    def from_json(cls, data: Any, where: str) -> Board:
        if not isinstance(data, Mapping):
            raise BadRecord(f"{where} must be an object of the board's fields, got {data!r}")
        board = object.__new__(cls)
        fields_from_json(board, data)
        return board


def board_from_json(merchant: str, data: Any, where: str) -> Board | None:
    """The board ``Board.to_json`` wrote for ``merchant`` (none before the merchant is chosen)."""
    if not merchant:
        if data is not None:
            raise BadRecord(f"{where}: a seat without a merchant has no board, got {data!r}")
        return None
    m = MERCHANTS.get(merchant)
    if m is None:
        raise BadRecord(f"{where}: no merchant {merchant!r}; expected one of {', '.join(sorted(MERCHANTS))}")
    board: Board = m.board_class.from_json(data, where)
    return board


B = TypeVar("B", bound=Board)


class Step(Decision):
    """A small decision of a merchant's own action (phase ``MERCH``); it replaces itself or finishes."""

    __slots__ = ()
    phase = Phase.MERCH


class Merchant(ABC, Generic[B]):
    """Base of every merchant: data access and the hooks the rules call."""

    id = ""
    board_class: type[B]

    def __init__(self) -> None:
        self.data: MerchantData = C.merchants[self.id]
        self.p = self.data.params

    def board(self, s: S, seat: int) -> B:
        """The seat's board, this merchant's, to read or change (a board shared with a clone is copied first)."""
        if not s.mb_own >> seat & 1:
            board = s.mb[seat]
            s.mb[seat] = board.copy() if board is not None else None
            s.mb_own |= 1 << seat
        return s.mb[seat]  # type: ignore[return-value]  # the seat's merchant is this one: its board is of its class

    @property
    def name(self) -> str:
        return self.data.name

    def actions(self) -> tuple[str, ...]:
        return tuple(self.data.actions)

    def hours(self, action: str) -> int:
        return self.data.actions[action]

    # -- hooks ---------------------------------------------------------------
    @abstractmethod
    def setup(self, s: S, seat: int) -> B:
        ...

    def available(self, s: S, seat: int, action: str) -> bool:
        """Whether this shop-board space may be chosen now (the same-space rule is the rules' job)."""
        return True

    @abstractmethod
    def begin(self, s: S, seat: int, action: str) -> Step | None:
        """Carry out a shop-board action; its first small decision, if it has any (the rules push it)."""

    def clean_up(self, s: S, seat: int) -> None:
        """Clean-Up: the merchant's own reset between days (optional: none by default)."""
        return None

    def staff(self, s: S, seat: int, amount: int) -> None:
        """The merchant's own Staff ability ('merchant N' in the data; optional: none by default)."""
        return None

    def view(self, s: S, seat: int) -> dict[str, Any]:
        return {}

    def potential(self, s: S, seat: int) -> float:
        """Rough gold value of half-made goods on the board (for bots and reports)."""
        return 0.0



def register(m: Merchant[B]) -> Merchant[B]:
    MERCHANTS[m.id] = m
    return m


def merchant_of(s: S, seat: int) -> Merchant[Any]:
    return MERCHANTS[s.merchant[seat]]


def produce(s: S, seat: int, g: int, n: int = 1) -> int:
    """Move up to ``n`` goods ``g`` from the merchant's supply to the Sale Shelf; returns how many moved."""
    moved = 0
    for _ in range(n):
        if s.supply[seat][g] <= 0 or sum(s.shelf[seat]) >= _shelf_cap(s, seat):
            break
        s.supply[seat][g] -= 1
        s.shelf[seat][g] += 1
        moved += 1
    if moved:
        s._event(f"{_who(s, seat)} puts {moved} {GOOD_IDS[g]} on the Sale Shelf")
    elif n:
        s._event(f"{_who(s, seat)} has no room or no {GOOD_IDS[g]} left: nothing made")
    return moved


def _shelf_cap(s: S, seat: int) -> int:
    return C.peddler_shelf if seat >= s.seats else C.shelf


def _who(s: S, seat: int) -> str:
    return "The Peddler" if seat >= s.seats else f"Seat {seat}"


def gain(s: S, seat: int, n: int) -> None:
    """Gold from the bank (the total of gold is constant)."""
    n = min(n, s.bank)
    s.bank -= n
    s.gold[seat] += n


def pay(s: S, seat: int, n: int) -> int:
    """Gold to the bank, never below zero; returns what was paid."""
    n = min(n, s.gold[seat])
    s.gold[seat] -= n
    s.bank += n
    return n


def draw_corruption(s: S, seat: int, n: int = 1) -> None:
    """Draw ``n`` Corruption cards (the discards are reshuffled when the deck runs out)."""
    for _ in range(n):
        if not s.cdeck:
            if not s.cdiscard:
                return
            s.cdeck = s.cdiscard
            s.cdiscard = []
            s.rng.shuffle(s.cdeck)
        s.corr[seat].append(s.cdeck.pop())
    if n:
        s._event(f"{_who(s, seat)} draws {n} Corruption card{'s' if n > 1 else ''}")


def load_all() -> None:
    """Import every merchant module of this package (each registers itself)."""
    for info in pkgutil.iter_modules(__path__):
        importlib.import_module(f"{__name__}.{info.name}")
