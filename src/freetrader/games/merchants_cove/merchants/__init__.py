"""The merchant interface and registry.

A merchant is one module in this package that subclasses ``Merchant`` and calls
``register``; its numbers live in ``data/merchants.toml`` under its id. The
rules know nothing else about it: a new merchant is a module and a data entry.

A merchant's board is a flat ``list[int]`` in ``state.mb[seat]`` whose layout
the module owns (cheap to clone, plain JSON). Its shop-board actions are
started with ``begin``; when that returns True the merchant has small
decisions pending, answered through ``legal`` and ``step`` until ``step``
returns False. Its actions are the typed ones of ``..actions`` (the grammar is
complete there).
"""

from __future__ import annotations

import importlib
import pkgutil
from abc import ABC, abstractmethod
from typing import TYPE_CHECKING, Any

from freetrader.core import Action

from ..components import COMPONENTS as C
from ..components import GOOD_IDS, MerchantData

if TYPE_CHECKING:
    from ..state import CoveState as S

__all__ = ["Merchant", "register", "MERCHANTS", "merchant_of", "produce", "draw_corruption", "gain", "pay", "load_all"]

MERCHANTS: dict[str, Merchant] = {}


class Merchant(ABC):
    """Base of every merchant: data access and the hooks the rules call."""

    id = ""

    def __init__(self) -> None:
        self.data: MerchantData = C.merchants[self.id]
        self.p = self.data.params

    @property
    def name(self) -> str:
        return self.data.name

    def actions(self) -> tuple[str, ...]:
        return tuple(self.data.actions)

    def hours(self, action: str) -> int:
        return self.data.actions[action]

    # -- hooks ---------------------------------------------------------------
    @abstractmethod
    def setup(self, s: S, seat: int) -> list[int]:
        ...

    def available(self, s: S, seat: int, action: str) -> bool:
        """Whether this shop-board space may be chosen now (the same-space rule is the rules' job)."""
        return True

    @abstractmethod
    def begin(self, s: S, seat: int, action: str) -> bool:
        ...

    def legal(self, s: S, seat: int) -> list[Action]:
        return []

    def step(self, s: S, seat: int, a: Action) -> bool:
        return False

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

    def prompt(self, s: S, seat: int) -> str:
        return f"continue the {self.id}'s action"


def register(m: Merchant) -> Merchant:
    MERCHANTS[m.id] = m
    return m


def merchant_of(s: S, seat: int) -> Merchant:
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
