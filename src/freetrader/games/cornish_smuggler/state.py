"""Cornish Smuggler state: plain data; rules in ``rules.py``, views in ``view.py``."""

from __future__ import annotations

from typing import Any

from freetrader.core import RulesState

from . import rules, view

__all__ = ["CornishState"]

_FLAT = (  # lists of ints or bools
    "gold", "infl", "rep", "ship_card", "ship_at", "passed", "g_where", "g_at", "g_owner", "off_at", "off_bribe",
    "faceup", "char_discard", "sdeck", "ships_left", "stores_left", "drawn", "drawn_decks", "land_sel", "free_moved",
    "becalmed", "lantern", "sdiscard", "win_ask", "seize_list", "tolls", "eff", "resume",
)
_NESTED = ("hold", "counters", "chars", "stores", "secrets", "stacks", "motivated")  # lists of lists
_SCALARS = (
    "bank", "track", "wheel", "first", "turn", "ending", "setup_i", "phase", "actor", "sub_goods", "land_loc",
    "excess", "cust_target", "cust_points", "cust_mover", "cust_after", "to_post", "land_owner", "seller",
    "sale_gold", "active", "win_event", "win_subject", "win_loc", "seize_loc", "seized_owner", "risk_mod",
    "no_customs", "free_row", "sale_bonus", "sale_size", "bribe_off", "bribe_disc", "place_free", "buy_g", "buy_disc",
    "director", "witch_due",
)


class CornishState(RulesState):
    rules = rules
    views = view
    flat_fields = _FLAT
    nested_fields = _NESTED
    scalar_fields = _SCALARS
    __slots__ = _FLAT + _NESTED + _SCALARS

    # per seat
    gold: list[int]
    infl: list[int]
    rep: list[int]
    ship_card: list[int]
    ship_at: list[int]  # sea node
    passed: list[bool]
    hold: list[list[int]]  # goods pieces aboard
    counters: list[list[int]]  # one location per Network Counter on the board
    chars: list[list[int]]
    stores: list[list[int]]
    secrets: list[list[int]]
    # goods pieces: where (rules.MERCHANT..SOLD), at (merchant, seat, location or storehouse), owner
    g_where: list[int]
    g_at: list[int]
    g_owner: list[int]
    # Customs Officers: location (-1 while waiting on the Customs Track) and who bribed them (-1 nobody)
    off_at: list[int]
    off_bribe: list[int]
    stacks: list[list[int]]  # the four Character stacks; the top card is the last
    faceup: list[int]  # the face-up card of each stack, -1 if none
    char_discard: list[int]
    sdeck: list[int]  # the Secrets deck; the top card is the last
    ships_left: list[int]
    stores_left: list[int]
    drawn: list[int]  # set-up: the two face-down Character cards being chosen from
    drawn_decks: list[int]
    land_sel: list[int]
    free_moved: list[int]  # goods moved by free actions since the actor's last Action
    bank: int
    track: int
    wheel: int
    first: int
    turn: int
    ending: bool
    setup_i: int
    phase: int
    actor: int
    sub_goods: int
    land_loc: int
    excess: int
    cust_target: int
    cust_points: int
    cust_mover: int
    cust_after: int
    to_post: int
    land_owner: int
    seller: int
    sale_gold: int
    # card abilities (abilities.py)
    motivated: list[list[int]]  # Characters turned face down this turn
    sdiscard: list[int]  # Secrets played (removed from play; public)
    becalmed: list[bool]
    lantern: list[int]  # the Secret Cove a Lantern on the Cliff opened this turn, -1 none
    win_event: str  # the open reaction window's event, "" when none
    win_ask: list[int]  # seats still to ask, the one asked now first
    win_subject: int
    win_loc: int
    resume: list[int]  # what carries on when the window closes: [code, phase, actor, *eff]
    eff: list[int]  # the card being resolved: [context, card, seat, steps, a, b, c]
    seize_list: list[int]  # Goods about to be seized
    seize_loc: int
    seized_owner: int
    tolls: list[int]  # (card, seat) pairs owed after this sale
    active: int  # the seat whose Action is under way
    risk_mod: int
    no_customs: bool
    free_row: bool
    sale_bonus: int
    sale_size: int
    bribe_off: int
    bribe_disc: int
    place_free: bool
    buy_g: int
    buy_disc: int
    director: int  # the seat that played Yew boy! for this Customs movement
    witch_due: int

    def _setup(self) -> None:
        self.land_owner = self.seller = -1
        self.sale_gold = 0
        rules.setup(self)





    def _scores(self) -> list[float]:
        """Object of the Game: Gold plus Reputation."""
        return [float(self.gold[p] + self.rep[p]) for p in range(self.seats)]



    def _copy_into(self, other: Any) -> None:
        other.gold = self.gold[:]
        other.infl = self.infl[:]
        other.rep = self.rep[:]
        other.ship_card = self.ship_card[:]
        other.ship_at = self.ship_at[:]
        other.passed = self.passed[:]
        other.g_where = self.g_where[:]
        other.g_at = self.g_at[:]
        other.g_owner = self.g_owner[:]
        other.off_at = self.off_at[:]
        other.off_bribe = self.off_bribe[:]
        other.faceup = self.faceup[:]
        other.char_discard = self.char_discard[:]
        other.sdeck = self.sdeck[:]
        other.ships_left = self.ships_left[:]
        other.stores_left = self.stores_left[:]
        other.drawn = self.drawn[:]
        other.drawn_decks = self.drawn_decks[:]
        other.land_sel = self.land_sel[:]
        other.free_moved = self.free_moved[:]
        other.becalmed = self.becalmed[:]
        other.lantern = self.lantern[:]
        other.sdiscard = self.sdiscard[:]
        other.win_ask = self.win_ask[:]
        other.seize_list = self.seize_list[:]
        other.tolls = self.tolls[:]
        other.eff = self.eff[:]
        other.resume = self.resume[:]
        other.motivated = [x[:] for x in self.motivated]
        other.hold = [x[:] for x in self.hold]
        other.counters = [x[:] for x in self.counters]
        other.chars = [x[:] for x in self.chars]
        other.stores = [x[:] for x in self.stores]
        other.secrets = [x[:] for x in self.secrets]
        other.stacks = [x[:] for x in self.stacks]
        for name in _SCALARS:
            setattr(other, name, getattr(self, name))

