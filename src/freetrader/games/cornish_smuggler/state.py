"""Cornish Smuggler state: its fields, declared once; rules in ``rules.py`` and ``frames.py``, views in ``view.py``."""

from __future__ import annotations

from collections.abc import Mapping
from types import ModuleType
from typing import Any, ClassVar

from freetrader.core.fields import Hidden, PerSeat
from freetrader.core.frames import FrameState, replace

from . import abilities, rules, view
from . import frames as F
from .phases import Phase

__all__ = ["CornishState"]

_MAIN = rules.Main  # the Turn's frame: most decisions, asked for the seat to act twice an action
_ASIDE = (rules.FreeMoves, rules.AfterAction)


class CornishState(FrameState):
    """One position. The pending decision is the top of ``frames``; the rest is the table."""

    #: 2: decision frames replaced the phase codes and scratch registers (format 1 loads by replaying its record).
    #: 3: the Goods trigger counts only pieces a ship can hold (ruling 31); formats 1-2 replay with goods_end=last.
    #: 4: what cards did to the Action under way lives in its frame (``Landing.risk_mod``, ``Sale.tolls``...),
    #: not in state fields, and no frame keeps a continuation name (``Main.then``); format 3 loads by replay.
    state_format: ClassVar[int] = 4
    rules: ClassVar[ModuleType] = rules
    views: ClassVar[ModuleType] = view
    #: The card effects (``abilities``), registered for the frames by their data's effect ids (``frames.EFFECTS``).
    cards: ClassVar[ModuleType] = abilities

    # per seat
    gold: PerSeat[list[int]]
    infl: PerSeat[list[int]]
    rep: PerSeat[list[int]]
    ship_card: PerSeat[list[int]]
    ship_at: PerSeat[list[int]]  # sea node
    passed: PerSeat[list[bool]]
    hold: PerSeat[list[list[int]]]  # goods pieces aboard
    counters: PerSeat[list[list[int]]]  # one location per Network Counter on the board
    chars: PerSeat[list[list[int]]]
    stores: PerSeat[list[list[int]]]
    secrets: Hidden[PerSeat[list[list[int]]]]
    motivated: PerSeat[list[list[int]]]  # Characters turned face down this turn
    becalmed: PerSeat[list[bool]]
    lantern: PerSeat[list[int]]  # the Secret Cove a Lantern on the Cliff opened this turn, -1 none
    # goods pieces: where (phases.MERCHANT..SOLD), at (merchant, seat, location or storehouse), owner
    g_where: list[int]
    g_at: list[int]
    g_owner: list[int]
    # Customs Officers: location (-1 while waiting on the Customs Track) and who bribed them (-1 nobody)
    off_at: list[int]
    off_bribe: list[int]
    stacks: Hidden[list[list[int]]]  # the four Character stacks; the top card is the last
    faceup: list[int]  # the face-up card of each stack, -1 if none
    char_discard: list[int]
    sdeck: Hidden[list[int]]  # the Secrets deck; the top card is the last
    sdiscard: list[int]  # Secrets played (removed from play; public)
    ships_left: list[int]
    stores_left: list[int]
    drawn: Hidden[list[int]]  # set-up: the two face-down Character cards being chosen from
    drawn_decks: list[int]
    free_moved: list[int]  # goods moved by free actions since the actor's last Action
    bank: int
    track: int
    wheel: int
    first: int
    turn: int
    ending: bool

    def _scores(self) -> list[float]:
        """Object of the Game: Gold plus Reputation."""
        return [float(self.gold[p] + self.rep[p]) for p in range(self.seats)]

    def _cut_by_cap(self) -> bool:
        return rules.cut_by_cap(self)

    def _load_game_json(self, data: Mapping[str, Any]) -> None:
        super()._load_game_json(data)

    def _apply(self, action: Any) -> None:
        top = self.frames[-1]
        top.apply(self, action)
        # After a free move (or declining one) the next choice is the one already offered them.
        if type(top) not in _ASIDE and not (type(top) is _MAIN and type(action) in rules.FREE_MOVES):
            rules.offer_free_moves(self)

    # -- the pending decision, as views, bots and encoders read it --------------------------------
    @property
    def to_act(self) -> int | None:
        f = self.frames
        if not f:
            return None
        top = f[-1]
        return top.seat if type(top) is _MAIN else top.actor(self)

    @property
    def phase(self) -> Phase:
        f = self.frames
        return f[-1].phase if f else Phase.OVER  # type: ignore[attr-defined]

    @property
    def actor(self) -> int:
        """The seat deciding now (-1 when the game is over)."""
        f = self.frames
        return f[-1].actor(self) if f else -1

    @actor.setter
    def actor(self, seat: int) -> None:
        """A scenario hands the Turn to ``seat`` (only while a Turn's Action is the decision)."""
        top = self.frames[-1]
        if not isinstance(top, rules.Main):
            raise ValueError(f"the seat to act can be set only at an Action, not at {type(top).__name__}")
        replace(self, rules.Main(seat=seat))

    @property
    def active(self) -> int:
        """The seat whose Action is under way (windows ask from it)."""
        return F.active_seat(self)

    @active.setter
    def active(self, seat: int) -> None:
        self.actor = seat

    @property
    def win_event(self) -> str:
        """The innermost open reaction window's event, "" when none."""
        w = F.window(self)
        return w.event if w is not None else ""

    @property
    def win_subject(self) -> int:
        w = F.window(self)
        return w.subject if w is not None else -1

    @property
    def seize_list(self) -> list[int]:
        """The Goods about to be seized in the open seizure window."""
        w = F.window(self)
        return list(w.goods) if isinstance(w, F.SeizureWindow) else []

    @property
    def director(self) -> int:
        """The seat that played Yew boy! for the officer movement under way, -1 none."""
        for f in reversed(self.frames):
            if isinstance(f, (F.OfficerMove, F.Customs)):
                return f.director
        return -1

    @property
    def excess(self) -> int:
        """The Customs moves the landing under way causes (0 when none is)."""
        f = F.landing(self)
        return max(0, f.excess) if f is not None else 0

    @property
    def land_loc(self) -> int:
        f = F.landing(self)
        return f.loc if f is not None else -1

    @property
    def land_sel(self) -> list[int]:
        f = F.landing(self)
        return list(f.sel) if f is not None else []

    @property
    def sub_goods(self) -> int:
        """The Goods Shape being sold."""
        for f in reversed(self.frames):
            if isinstance(f, F.Sale):
                return f.goods
        return -1

    # -- what cards did to the Action under way: read from its frame -----------------------------
    @property
    def risk_mod(self) -> int:
        """What cards played on the landing under way add to its Landing Risk."""
        f = F.landing(self)
        return f.risk_mod if f is not None else 0

    @property
    def sale_size(self) -> int:
        """The town size the sale under way sells at (Dolly Pentreath), 0: the town's own."""
        f = F.innermost(self, F.Sale)
        return f.size if f is not None else 0

    @property
    def sale_bonus(self) -> int:
        f = F.innermost(self, F.Sale)
        return f.bonus if f is not None else 0

    @property
    def free_row(self) -> bool:
        f = F.innermost(self, F.Sale)
        return f.free_row if f is not None else False

    @property
    def buy_disc(self) -> int:
        """The Gold off the Goods Shape or Reputation being bought (Nicholas Le Page, Grace Trembath)."""
        f = F.innermost(self, F.Purchase)
        return f.disc if f is not None and not isinstance(f, rules.Bribing) else 0

    @property
    def bribe_disc(self) -> int:
        """The Gold off the bribe under way (A Little Something for the Officer)."""
        f = F.innermost(self, rules.Bribing)
        return f.disc if f is not None else 0

    @property
    def place_free(self) -> bool:
        """The Network Counter being placed may go anywhere (The Old Packhorse Road)."""
        f = F.innermost(self, F.PlaceCounter)
        return f.anywhere if f is not None else False

    @property
    def card_in_play(self) -> int:
        """The card being resolved (a Character index, or ``board.SECRET`` + a Secret's), -1 none."""
        for f in reversed(self.frames):
            if isinstance(f, F.CardEffect):
                return f.card
        return -1

