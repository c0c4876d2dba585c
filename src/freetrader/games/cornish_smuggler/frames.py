"""Cornish Smuggler's decision frames below the Turn: windows, cards, Customs, landing, selling.

Each pending sub-decision is a frame on the state's stack (``core.frames``):
the top frame decides; a frame that finishes pops and the one below goes on
(``child_done``). What a frame must remember is its own typed fields.

Reaction windows (DESIGN.md, "Out-of-turn play") are ``CardWindow`` frames:
when an event fires, every seat that could react, judged only on public facts
(a non-empty hand, a usable face-up Character), is asked in seat order from
the active player. A window for a Customs Officer being moved (Yew boy!)
opens whatever moves the officer, inside any other window; other events do
not open a second window while one is open (ruling 17).

What each card does is a ``CardEffect`` class in ``abilities.py``, found
through ``EFFECTS`` by the effect id of the card's data (``state.py`` imports
``abilities``, which registers them), so imports go one way.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, ClassVar, TypeVar

from freetrader.core import Action
from freetrader.core.frames import Frame, ReactionWindow, change_below, finish, push, replace

from . import board as B
from .actions import (
    Choose,
    Discard,
    Hide,
    Motivate,
    Move,
    Place,
    Play,
    Post,
    Price,
    Remove,
    Step,
    Store,
    Unload,
    act,
)
from .components import COMPONENTS as C
from .phases import LAND, SOLD, STORE, Phase

if TYPE_CHECKING:
    from .state import CornishState as S

__all__ = [
    "EFFECTS", "CardEffect", "CardWindow", "Customs", "Landing", "LoseCounter", "OfficerMove",
    "PlaceCounter", "Protect", "Raid", "Sale", "SeizureWindow", "busy_goods", "card_effect", "card_usable", "check_seizure", "landing", "open_window",
    "start_customs", "window",
]

DECLINE = act("decline")
DONE = act("done")
_N_GOODS = len(C.goods)
_TRIGGERED = frozenset(c.index for c in C.characters if c.event not in ("", "passive", "action"))
# For each event, whose event the Secrets answering it may be played on (static data: asking leaks nothing).
SECRET_WHO: dict[str, frozenset[str]] = {}
for _x in C.secrets:
    SECRET_WHO[_x.event] = SECRET_WHO.get(_x.event, frozenset()) | {_x.who}
CUSTOMS_MOVE = "customs-move"
_F = TypeVar("_F", bound=Frame[Any])


# == the stack ========================================================================================
class CornishFrame(Frame["S"]):
    """A decision of Cornish Smuggler. A frame that only ``steps aside`` (the free moves a player may make
    before their next choice) does not move the frame below on when it finishes: that choice is still to
    make. Every other finished frame resumes the one below (``resumed``)."""

    __slots__ = ()
    #: True for a frame whose finishing leaves the frame below to decide again, untouched.
    aside: ClassVar[bool] = False

    def child_done(self, s: S, done: Frame[Any]) -> None:
        if not getattr(done, "aside", False):
            self.resumed(s, done)

    def resumed(self, s: S, done: Frame[Any]) -> None:
        """A frame pushed above this one has finished; by default this one decides again."""
        return None


def window(s: S) -> CardWindow | None:
    """The innermost open reaction window, if any."""
    for f in reversed(s.frames):
        if isinstance(f, CardWindow):
            return f
    return None


def landing(s: S) -> Landing | None:
    for f in reversed(s.frames):
        if isinstance(f, Landing):
            return f
    return None


def busy_goods(s: S) -> frozenset[int]:
    """The Goods Shapes a frame under way is working on: the one being sold, those being landed or about to
    be seized, a card's chosen shape, a raid's. A free move must leave them where they are."""
    out: set[int] = set()
    for f in s.frames:
        if isinstance(f, (Sale, Raid)):
            out.add(f.goods)
        elif isinstance(f, CardEffect) and f.working_on() >= 0:
            out.add(f.working_on())
        elif isinstance(f, Landing):
            out.update(f.sel)
        elif isinstance(f, SeizureWindow):
            out.update(f.goods)
    return frozenset(out)


def active_seat(s: S) -> int:
    """The seat whose Action is under way (the Turn's frame at the bottom of the stack)."""
    return int(getattr(s.frames[0], "seat", -1)) if s.frames else -1


# == reaction windows ==================================================================================
@dataclasses.dataclass(frozen=True, slots=True)
class CardWindow(ReactionWindow["S"]):
    """An event cards may answer: ``subject`` is whose event it is, ``loc`` where, ``arg`` what (an officer, goods)."""

    event: str = ""
    subject: int = -1
    loc: int = -1
    arg: int = -1
    phase = Phase.REACT

    def may_answer(self, s: S, seat: int) -> bool:
        return could_react(s, self, seat)

    def is_subject(self, s: S, q: int) -> bool:
        return q == self.subject

    def answers(self, s: S, seat: int) -> Sequence[Action]:
        acts: list[Action] = []
        seen: set[int] = set()
        for k in s.secrets[seat]:
            x = C.secrets[k]
            if k not in seen and x.event == self.event:
                seen.add(k)
                if B.pay_options(s, seat, x.cost) and card_usable(s, seat, B.SECRET + k, self):
                    acts.append(act("play", x.id))
        for c in s.chars[seat]:
            ch = C.characters[c]
            if ch.event == self.event and c not in s.motivated[seat] and card_usable(s, seat, c, self):
                acts.extend(act("motivate", ch.id, "", how) for how in B.pay_options(s, seat, ch.cost))
        return acts

    def decline(self, s: S) -> Action:
        return DECLINE

    def may_decline(self, s: S, seat: int) -> bool:
        """Declining must leave the triggering Action affordable (a discount the player counted on)."""
        if seat != self.subject:
            return True
        ev = self.event
        if ev == "buy":
            return bool(s.gold[seat] >= B.buy_price(s, self.arg))
        if ev == "bribe":
            return bool(s.gold[seat] >= B.bribe_cost(s, seat, self.arg))
        if ev == "buy-reputation":
            return bool(s.gold[seat] >= 4 - s.buy_disc)
        return True

    def child_done(self, s: S, done: Frame[Any]) -> None:
        if not getattr(done, "aside", False):
            ReactionWindow.child_done(self, s, done)

    def answer(self, s: S, seat: int, action: Action) -> None:
        assert isinstance(action, (Play, Motivate))
        card = play_card(s, seat, action)
        EFFECTS[B.card_of(card).effect].start(s, seat, card, self)

    def prompt(self, s: S) -> str:
        return f"play a card on this event ({self.event}) or decline"


def play_card(s: S, q: int, a: Play | Motivate) -> int:
    """Pay for ``play <secret>`` or ``motivate <character>``; the card (as ``board.SECRET`` + index for a Secret)."""
    if isinstance(a, Play):
        k = a.secret
        x = C.secrets[k]
        s.secrets[q].remove(k)
        s.sdiscard.append(k)
        B.pay_card(s, q, x.cost, "")
        s._event(f"Seat {q} plays the Secret {x.name}")
        return B.SECRET + k
    c = a.card
    ch = C.characters[c]
    B.pay_card(s, q, ch.cost, a.pay)
    s.motivated[q].append(c)
    s._event(f"Seat {q} Motivates {ch.name}")
    return c


_CHAR_ID = {c.id: c.index for c in C.characters}
_SECRET_ID = {x.id: x.index for x in C.secrets}


@dataclasses.dataclass(frozen=True, slots=True)
class SeizureWindow(CardWindow):
    """Goods about to be seized at ``loc`` (Drunken Distraction, Under the Floorboards, the Fishwives...)."""

    goods: tuple[int, ...] = ()

    def is_subject(self, s: S, q: int) -> bool:
        return any(s.g_owner[g] == q for g in self.goods)

    def settled(self, s: S) -> bool:
        return not self.goods

    def close(self, s: S) -> None:
        """Settle the seizure: what the cards left of it is seized; then John Thomas may answer."""
        goods = [g for g in self.goods if g in B.seizable(s, self.loc)]
        owner = B.seize(s, goods, self.loc)
        if goods:
            open_window(s, "seized", owner)


def could_react(s: S, w: CardWindow, q: int) -> bool:
    """Judged on public facts only: a non-empty hand (if some Secret answers this event for q), or a usable card."""
    event = w.event
    if s.secrets[q]:
        whos = SECRET_WHO.get(event)
        if whos:
            mine = w.is_subject(s, q)
            if "any" in whos or ("self" in whos) == mine or "other" in whos and not mine:
                return True
    for c in s.chars[q]:
        if c in _TRIGGERED and C.characters[c].event == event and B.char_ready(s, q, c) and card_usable(s, q, c, w):
            return True
    return False


def open_window(s: S, event: str, subject: int, loc: int = -1, arg: int = -1,
                kind: type[CardWindow] = CardWindow, **more: Any) -> bool:
    """Ask the seats that could react, in seat order from the active player; False (nothing pushed) if none.

    Ruling 17: no second window opens while one is open, except for an officer being moved (Yew boy!).
    """
    if event != CUSTOMS_MOVE and window(s) is not None:
        return False
    return kind.open(s, first=active_seat(s), event=event, subject=subject, loc=loc, arg=arg, **more)


# == an Action its event's window holds up ==============================================================
@dataclasses.dataclass(frozen=True, slots=True)
class Pending(CornishFrame):
    """An Action held up by the window its event opens (cards may answer it): it is carried out
    (``carry_out``) once the window closes, with what the cards changed in its own fields; it finishes
    when what carrying it out opened (a seizure, the Witch) is over. It never decides itself."""

    seat: int
    carried: bool = False
    phase = Phase.MAIN

    def actor(self, s: S) -> int:
        return self.seat

    def legal(self, s: S) -> Sequence[Action]:
        return ()

    def carry_out(self, s: S) -> None:
        raise NotImplementedError(f"{type(self).__name__} must define carry_out()")

    def start(self, s: S, event: str, loc: int = -1, arg: int = -1) -> None:
        """Push this Action and open its event's window; with nobody to answer it is carried out at once."""
        push(s, self)
        if not open_window(s, event, self.seat, loc, arg):
            self.resumed(s, self)

    def resumed(self, s: S, done: Frame[Any]) -> None:
        if self.carried:
            finish(s, self)
            return
        now = dataclasses.replace(self, carried=True)
        replace(s, now)
        now.carry_out(s)
        if s.frames and s.frames[-1] is now:
            finish(s, now)


@dataclasses.dataclass(frozen=True, slots=True)
class Purchase(Pending):
    """A payment cards may make cheaper (``disc``, in Gold)."""

    disc: int = 0


#: The sea spaces off St Levan: a ship entering one during a move meets the Witch when the move is over.
WITCH_NODES = frozenset(n for c in C.characters if c.event == "ship-enters" for n in c.places)
WITCH_LOC = min(WITCH_NODES, default=-1)


@dataclasses.dataclass(frozen=True, slots=True)
class Sailing(Pending):
    """Move Ship: a ship card (William Bodinar) may answer with an extra space; when the move is over the
    Witch of St Levan may answer a ship that entered her sea space during it (``witch``: that seat)."""

    witch: int = -1

    def carry_out(self, s: S) -> None:
        witch_window(s, self.witch)


def witch_window(s: S, seat: int) -> bool:
    """Seat ``seat``'s ship entered the sea off St Levan during its move (-1: it did not): the Witch may answer."""
    return seat >= 0 and open_window(s, "ship-enters", seat, WITCH_LOC)


def innermost(s: S, kind: type[_F]) -> _F | None:
    """The innermost frame of ``kind`` on the stack, if any (the Action a window's card answers)."""
    for f in reversed(s.frames):
        if isinstance(f, kind):
            return f
    return None


def amend(s: S, kind: type[Frame[Any]], **changes: Any) -> None:
    """A card answering an event changes the Action below the window (a discount, the Landing Risk...)."""
    for f in reversed(s.frames):
        if isinstance(f, kind):
            change_below(s, f, dataclasses.replace(f, **changes))  # type: ignore[type-var]
            return


# == seizure =============================================================================================
def check_seizure(s: S, loc: int) -> bool:
    """Goods about to be seized open a reaction window; True if play now waits on a window (then the caller's
    frame goes on from ``child_done``)."""
    goods = B.seizable(s, loc)
    if not goods:
        return False
    if open_window(s, "seizure", s.g_owner[goods[0]], loc, kind=SeizureWindow, goods=tuple(goods)):
        return True
    owner = B.seize(s, goods, loc)
    return open_window(s, "seized", owner)


# == card effects ========================================================================================
#: Each effect id of the card data (``effect = "..."`` in ``data/*.toml``) to the class that carries it out.
EFFECTS: dict[str, type[CardEffect]] = {}


def card_effect(*ids: str) -> Callable[[type[_E]], type[_E]]:
    """Register a ``CardEffect`` class as what the cards with these effect ids do."""
    def register(cls: type[_E]) -> type[_E]:
        for x in ids:
            if x in EFFECTS:
                raise ValueError(f"effect {x!r} is carried out by {EFFECTS[x].__name__} already")
            EFFECTS[x] = cls
        return cls
    return register


def card_usable(s: S, q: int, card: int, w: CardWindow | None) -> bool:
    """Whether seat ``q`` may play ``card`` on window ``w``'s event: whose event it is, where, and whether the card
    can do anything now."""
    x = B.card_of(card)
    if w is not None and x.event not in ("action", "free", "passive") and x.who != "any":
        mine = w.is_subject(s, q)
        if mine != (x.who == "self"):
            return False
    if x.places and (w is None or w.loc not in x.places):
        return False
    return EFFECTS[x.effect].usable(s, q, card, w)


@dataclasses.dataclass(frozen=True, slots=True)
class CardEffect(CornishFrame):
    """What a card does (TAG's card-as-object): one class per effect, registered by its effect ids
    (``card_effect``), with its own typed fields.

    ``usable`` says whether the card can do anything now (``w``: the window it would answer, None when played
    as an Action or free); ``start`` is what playing it does at once: a card with choices pushes itself as a
    frame (``card`` the card played, ``seat`` its player), whose decisions are ``choices`` and ``choose``
    (``legal``/``apply``; ``done`` when none is left or its player stops early).
    """

    card: int
    seat: int
    phase = Phase.EFFECT

    @classmethod
    def usable(cls, s: S, q: int, card: int, w: CardWindow | None) -> bool:
        return True

    @classmethod
    def start(cls, s: S, q: int, card: int, w: CardWindow | None) -> None:
        push(s, cls(card=card, seat=q))

    @property
    def amount(self) -> int:
        """The number printed on the card."""
        return int(B.card_of(self.card).amount)

    def working_on(self) -> int:
        """The Goods Shape this effect is moving (a free move must leave it be), -1 none."""
        return -1

    def actor(self, s: S) -> int:
        return self.seat

    def choices(self, s: S) -> list[Action]:
        return []

    def choose(self, s: S, item: str, to: str) -> None:
        raise NotImplementedError(f"{type(self).__name__} has no choices")

    def done(self, s: S) -> None:
        finish(s, self)

    def moved(self, s: S, move: OfficerMove) -> None:
        """An officer this card moves is moved (Yew boy! may have decided where)."""
        raise NotImplementedError(f"{type(self).__name__} moves no officer")

    def go_on(self, s: S) -> None:
        """What the card set off is over: the card is done (unless it has steps left)."""
        finish(s, self)

    def legal(self, s: S) -> Sequence[Action]:
        opts = self.choices(s)
        return tuple(opts) if opts else (DONE,)

    def apply(self, s: S, action: Action) -> None:
        if isinstance(action, Choose):
            self.choose(s, action.item, action.to)
        else:
            self.done(s)

    def prompt(self, s: S) -> str:
        return f"choose for {B.card_name(self.card)}"

    def resumed(self, s: S, done: Frame[Any]) -> None:
        if isinstance(done, OfficerMove):
            self.moved(s, done)
        else:
            self.go_on(s)


_E = TypeVar("_E", bound=CardEffect)


@dataclasses.dataclass(frozen=True, slots=True)
class Protect(CornishFrame):
    """Squire Polglase may keep ``card``, which a rival's card would take from ``seat``."""

    seat: int
    card: int
    phase = Phase.PROTECT

    def actor(self, s: S) -> int:
        return self.seat

    def legal(self, s: S) -> Sequence[Action]:
        k = self.seat
        acts: list[Action] = [DECLINE]
        for x in s.chars[k]:
            if C.characters[x].effect == "keep-character" and B.char_ready(s, k, x):
                acts.append(act("motivate", C.characters[x].id))
        return tuple(acts)

    def apply(self, s: S, action: Action) -> None:
        k, c = self.seat, self.card
        if not isinstance(action, Motivate):
            lose_now(s, k, c)
            if s.frames[-1] is self:
                finish(s, self)
            return
        x = action.card
        B.pay_card(s, k, C.characters[x].cost, "")
        s.motivated[k].append(x)
        s._event(f"Seat {k} Motivates {C.characters[x].name} and keeps {C.characters[c].name}")
        finish(s, self)

    def prompt(self, s: S) -> str:
        return "Motivate Squire Polglase to keep your Character, or decline"

    def resumed(self, s: S, done: Frame[Any]) -> None:
        finish(s, self)


def lose_to_rival(s: S, k: int, c: int) -> None:
    """A rival's card takes a Character: Squire Polglase may keep it."""
    if any(C.characters[x].effect == "keep-character" and B.char_ready(s, k, x) for x in s.chars[k]):
        push(s, Protect(seat=k, card=c))
        return
    lose_now(s, k, c)


def lose_now(s: S, p: int, c: int) -> None:
    """Lost Characters: Reputation and linked Storehouses go with the card, then one Network Counter (p chooses)."""
    s._event(f"Seat {p} loses {C.characters[c].name}")
    B.lose_character(s, p, c)
    if s.counters[p]:
        push(s, LoseCounter(seat=p))


@dataclasses.dataclass(frozen=True, slots=True)
class LoseCounter(CornishFrame):
    seat: int
    phase = Phase.LOSE_COUNTER

    def actor(self, s: S) -> int:
        return self.seat

    def legal(self, s: S) -> Sequence[Action]:
        return tuple(act("remove", B.LOC_IDS[x]) for x in sorted(set(s.counters[self.seat])))

    def apply(self, s: S, action: Action) -> None:
        assert isinstance(action, Remove)
        p, loc = self.seat, action.loc
        s.counters[p].remove(loc)
        s._event(f"Seat {p} removes a Network Counter from {C.locations[loc].name}")
        B.seize_now(s, loc)
        finish(s, self)

    def prompt(self, s: S) -> str:
        return "remove one of your Network Counters (a lost Character)"


# == an officer being moved (Yew boy!) ====================================================================
@dataclasses.dataclass(frozen=True, slots=True)
class OfficerMove(CornishFrame):
    """Customs Officer ``officer`` is being moved to ``to`` (one of ``options``): a window asks first whether
    someone plays Yew boy!; its player (``director``) then decides where the officer moves. The frame below
    makes the move when this one finishes (``to`` is the place decided)."""

    officer: int
    to: int
    options: tuple[int, ...]
    director: int = -1
    phase = Phase.CUSTOMS_STEP

    def actor(self, s: S) -> int:
        return self.director

    def legal(self, s: S) -> Sequence[Action]:
        return tuple(act("step", B.LOC_IDS[x]) for x in self.options)

    def apply(self, s: S, action: Action) -> None:
        assert isinstance(action, Step)
        to = action.loc
        s._event(f"Seat {self.director} decides that Customs Officer {self.officer} moves to "
                 f"{C.locations[to].name} (Yew boy!)")
        done = dataclasses.replace(self, to=to)
        replace(s, done)
        finish(s, done)

    def prompt(self, s: S) -> str:
        return "decide where the Customs Officer moves (Yew boy!)"

    def resumed(self, s: S, done: Frame[Any]) -> None:
        if self.director < 0 or len(self.options) < 2:
            finish(s, self)


def move_officer(s: S, o: int, to: int, options: Sequence[int]) -> None:
    """Officer ``o`` is being moved to ``to``: Yew boy! may answer. Return right after: the frame that moves
    it goes on from ``child_done`` with the finished ``OfficerMove``."""
    frame = OfficerMove(officer=o, to=to, options=tuple(options))
    push(s, frame)
    if s.options["yew_boy"] != "any-move" or not open_window(s, CUSTOMS_MOVE, active_seat(s), s.off_at[o], o):
        finish(s, frame)


def direct(s: S, q: int) -> bool:
    """Yew boy!: seat ``q`` decides where the officer being moved goes."""
    for f in reversed(s.frames):
        if isinstance(f, (OfficerMove, Customs)):
            change_below(s, f, dataclasses.replace(f, director=q))
            return True
    return False


def directed(s: S) -> bool:
    for f in reversed(s.frames):
        if isinstance(f, (OfficerMove, Customs)):
            return f.director >= 0
    return False


# == Customs movement ======================================================================================
@dataclasses.dataclass(frozen=True, slots=True)
class Customs(CornishFrame):
    """Customs Movement towards ``target``: ``points`` steps left; ``mover`` the officer walking (-1: choose
    one); ``director`` the seat that played Yew boy! (-1: the player with least Gold chooses)."""

    target: int
    points: int
    mover: int = -1
    director: int = -1

    @property
    def phase(self) -> Phase:
        return Phase.CUSTOMS_OFFICER if self.mover < 0 else Phase.CUSTOMS_STEP

    def actor(self, s: S) -> int:
        """The player with least Gold, or whoever played Yew boy!"""
        return self.director if self.director >= 0 else B.chooser(s)

    def legal(self, s: S) -> Sequence[Action]:
        if self.mover < 0:
            return tuple(act("move", str(o)) for o in B.nearest_officers(s, self.target))
        return tuple(act("step", B.LOC_IDS[x]) for x in self.steps(s))

    def prompt(self, s: S) -> str:
        if self.mover < 0:
            return "as the player with least Gold, choose which Customs Officer moves"
        return "as the player with least Gold, choose where the Customs Officer steps"

    def steps(self, s: S) -> tuple[int, ...]:
        """Towards the target on a shortest path; with Yew boy! anywhere the player decides (any adjacent space)."""
        at = s.off_at[self.mover]
        if self.director >= 0:
            return C.locations[at].land
        return C.steps[at][self.target]

    def apply(self, s: S, action: Action) -> None:
        a = action
        if isinstance(a, Move):
            o = a.officer
            s._event(f"Seat {self.actor(s)}, with least Gold, chooses Customs Officer {o} to move")
            chosen = dataclasses.replace(self, mover=o)
            replace(s, chosen)
            chosen.run(s)
        elif isinstance(a, Step) and not self.step(s, a.loc):
            now = s.frames[-1]
            assert isinstance(now, Customs)
            now.run(s)

    def resumed(self, s: S, done: Frame[Any]) -> None:
        self.run(s)

    def run(self, s: S) -> None:
        """Move officers until the points are spent; ask the player with least Gold when there is a choice."""
        f = self
        while f.points > 0:
            if f.mover >= 0 and s.off_at[f.mover] == f.target:
                f = _arrived(s, f)
            if f.mover < 0:
                cands = B.nearest_officers(s, f.target)
                if not cands:
                    break
                if len(cands) > 1:
                    return
                f = dataclasses.replace(f, mover=cands[0])
                replace(s, f)
            steps = f.steps(s)
            if len(steps) > 1:
                return
            if f.step(s, steps[0]):
                return
            top = s.frames[-1]
            assert isinstance(top, Customs)
            f = top
        finish(s, f)

    def step(self, s: S, to: int) -> bool:
        """One step; True if a seizure window now holds up the movement."""
        o = self.mover
        s._event(f"Customs Officer {o} moves from {C.locations[s.off_at[o]].name} to {C.locations[to].name}")
        s.off_at[o] = to
        replace(s, dataclasses.replace(self, points=self.points - 1, mover=-1 if to == self.target else o))
        return check_seizure(s, to)


def _arrived(s: S, f: Customs) -> Customs:
    """Ruling 32: a card led the walking officer onto the target (the Newlyn Fishwives in a seizure window on
    its way): it has arrived, and with movement left the next nearest officer walks on, as Customs
    Movement says of an officer "arriving at the location where Customs is moving to"."""
    f = dataclasses.replace(f, mover=-1)
    replace(s, f)
    return f


def start_customs(s: S, target: int, points: int) -> None:
    """Customs are about to move: Yew boy! may answer before the first step. Return right after."""
    if target == C.scilly:
        points = 0  # The Isles of Scilly: Customs do not move
    frame = Customs(target=target, points=points)
    push(s, frame)
    if points > 0 and B.nearest_officers(s, target) and open_window(s, CUSTOMS_MOVE, active_seat(s), target):
        return
    frame.run(s)


# == an Action's own steps ==================================================================================
# -- Land Goods ------------------------------------------------------------------------
@dataclasses.dataclass(frozen=True, slots=True)
class Landing(CornishFrame):
    """Landing Goods at ``loc``: the shapes ``sel`` chosen so far (in piece order, however picked);
    ``excess`` the Customs moves it causes; ``risk_mod`` what cards played on the landing add to its Landing Risk, ``no_customs`` Dark of the Moon."""

    seat: int
    loc: int
    sel: tuple[int, ...] = ()
    excess: int = -1
    stage: Phase = Phase.LAND_SELECT  # LAND_SELECT, LAND_HIDE, LAND_STORE; or OVER while Customs move
    risk_mod: int = 0
    no_customs: bool = False

    @property
    def phase(self) -> Phase:
        return self.stage

    def actor(self, s: S) -> int:
        return self.seat

    def legal(self, s: S) -> Sequence[Action]:
        p = self.seat
        if self.stage == Phase.LAND_SELECT:
            # "as many Goods Shapes as they want": a set, so every piece aboard stays on offer whatever was
            # picked first (offering only pieces numbered after the last pick hid some sets: issue 34)
            acts: list[Action] = [act("unload", B.GOODS_IDS[g]) for g in sorted(s.hold[p]) if g not in self.sel]
            if self.sel:
                acts.append(act("done"))
            return tuple(acts)
        if self.stage == Phase.LAND_HIDE:
            return tuple(act("hide", str(k)) for k in range(0, min(s.infl[p], self.excess) + 1))
        return self.storable(s) + (act("done"),)

    def prompt(self, s: S) -> str:
        if self.stage == Phase.LAND_SELECT:
            return "choose the Goods Shapes to unload, then done"
        if self.stage == Phase.LAND_HIDE:
            return f"spend Influence to hide the landing ({self.excess} Customs moves otherwise)"
        return "store landed goods straight into your storehouse, or done"

    def apply(self, s: S, action: Action) -> None:
        a = action
        if self.stage == Phase.LAND_SELECT:
            if isinstance(a, Unload):
                replace(s, dataclasses.replace(self, sel=tuple(sorted(self.sel + (a.goods,)))))
            else:
                self.unloaded(s)
        elif isinstance(a, Hide):
            self.ashore(s, a.influence)
        elif isinstance(a, Store):
            store_goods(s, a.goods, a.store)
            if not self.storable(s):
                self.customs(s)
        else:
            self.customs(s)

    def unloaded(self, s: S) -> None:
        p = self.seat
        excess = landing_excess(s, self)
        s._event(f"Seat {p} lands {', '.join(B.goods_name(g) for g in self.sel)} at {C.locations[self.loc].name}: "
                 f"Landing Risk {excess + C.discovery[s.track]} against Discovery Level {C.discovery[s.track]}")
        now = dataclasses.replace(self, stage=Phase.OVER)
        replace(s, now)
        if not open_window(s, "land", p, self.loc):
            now.risk(s)

    def resumed(self, s: S, done: Frame[Any]) -> None:
        if isinstance(done, Customs):
            finish(s, self)
        elif self.excess < 0:
            self.risk(s)
        else:
            self.ashore_tail(s)

    def risk(self, s: S) -> None:
        """The Landing Risk after the cards played on the landing (Holly & Olivia, Sea Fret, Dark of the Moon...)."""
        p = self.seat
        excess = landing_excess(s, self) + self.risk_mod
        if self.risk_mod:
            s._event(f"The Landing Risk is now {excess + C.discovery[s.track]}")
        excess = max(0, excess) if self.loc != C.scilly and not self.no_customs else 0
        if excess > 0 and s.infl[p] > 0:
            replace(s, dataclasses.replace(self, excess=excess, stage=Phase.LAND_HIDE))
        else:
            now = dataclasses.replace(self, excess=excess)
            replace(s, now)
            now.ashore(s, 0)

    def ashore(self, s: S, hidden: int) -> None:
        """Reducing Landing Risk: each extra Influence cancels one Customs move; then the goods are ashore."""
        p = self.seat
        if hidden:
            s.infl[p] -= hidden
            s._event(f"Seat {p} spends {hidden} Influence to hide the landing")
        now = dataclasses.replace(self, excess=self.excess - hidden, stage=Phase.OVER)
        replace(s, now)
        for g in self.sel:
            s.hold[p].remove(g)
            s.g_where[g] = LAND
            s.g_at[g] = self.loc
        if not check_seizure(s, self.loc):
            now.ashore_tail(s)

    def ashore_tail(self, s: S) -> None:
        if self.storable(s):
            replace(s, dataclasses.replace(self, stage=Phase.LAND_STORE))
        else:
            self.customs(s)

    def storable(self, s: S) -> tuple[Action, ...]:
        """Storing Landed Goods: straight into a storehouse there, unless an unbribed officer is already there."""
        p = self.seat
        loc = self.loc
        if B.unbribed_officer_at(s, p, loc):
            return ()
        acts: list[Action] = []
        for g in self.sel:
            if s.g_where[g] == LAND and s.g_at[g] == loc:
                for st in s.stores[p]:
                    if C.storehouses[st].location == loc and B.store_fits(s, st, g):
                        acts.append(act("store", B.GOODS_IDS[g], C.storehouses[st].id))
        return tuple(acts)

    def customs(self, s: S) -> None:
        """Customs Movement: the nearest officers move one space per point above the Discovery Level."""
        now = s.frames[-1]
        assert isinstance(now, Landing)
        replace(s, dataclasses.replace(now, stage=Phase.OVER))
        start_customs(s, self.loc, now.excess)


def landing_excess(s: S, f: Landing) -> int:
    """Landing Risk (port number + squares) above the Discovery Level."""
    squares = sum(C.shapes[C.goods[g]].size for g in f.sel)
    return C.locations[f.loc].risk + squares - C.discovery[s.track]


_STORE_BY_ID = {st.id: st.index for st in C.storehouses}


def store_goods(s: S, g: int, store: int) -> None:
    """Storehouse Locations: moving goods in is free, at any time on your turn."""
    s.g_where[g] = STORE
    s.g_at[g] = store
    s.free_moved.append(g)
    s._event(f"Seat {s.g_owner[g]} hides {B.goods_name(g)} in {C.storehouses[store].name}")


# -- Sell Goods -----------------------------------------------------------------------------
@dataclasses.dataclass(frozen=True, slots=True)
class Sale(CornishFrame):
    """Selling ``goods``: the price row (``PRICE``), then Customs, the tracks and new officers (``POST``)."""

    seat: int
    goods: int
    stage: Phase = Phase.PRICE  # PRICE, POST; OVER while Customs move or a window is open
    gold: int = 0
    to_post: int = 0
    #: what cards did to the sale: sold as a size ``size`` town (Dolly Pentreath), ``bonus`` Gold more
    #: (Elizabeth Quick), the bottom row free (Forged Cocket), tolls owed after it (card, seat; Peter Curnow)
    size: int = 0
    bonus: int = 0
    free_row: bool = False
    tolls: tuple[int, ...] = ()

    @property
    def phase(self) -> Phase:
        return self.stage

    def actor(self, s: S) -> int:
        return self.seat if self.stage == Phase.PRICE else B.chooser(s)

    def legal(self, s: S) -> Sequence[Action]:
        if self.stage == Phase.POST:
            return tuple(act("post", B.LOC_IDS[x]) for x in B.empty_land(s))
        p = self.seat
        acts: list[Action] = [act("price", "top")]
        if self.free_row:
            acts.append(act("price", "bottom"))  # Forged Cocket: the bottom row without its cost
        for row in (1, 2):
            cost = C.row_cost[row]
            if s.infl[p] >= cost:
                acts.append(act("price", B.ROW_NAMES[row], "", "influence"))
            if s.rep[p] >= cost:
                acts.append(act("price", B.ROW_NAMES[row], "", "reputation"))
        return tuple(acts)

    def prompt(self, s: S) -> str:
        if self.stage == Phase.POST:
            return "as the player with least Gold, place the new Customs Officer on an empty land space"
        return "choose the price row for the sale"

    def apply(self, s: S, action: Action) -> None:
        a = action
        if isinstance(a, Post):
            self.post(s, a.loc)
        elif isinstance(a, Price):
            self.sell(s, a.row, a.pay)

    def sell(self, s: S, row: int, pay: str) -> None:
        """Selling Goods, steps 1-3: price, cost, then the nearest officer moves one space."""
        p = self.seat
        g = self.goods
        loc = s.g_at[g]
        town = C.locations[loc]
        size = B.town_size(s, loc)
        if row and pay:
            B.spend(s, p, pay, C.row_cost[row], 0, C.row_cost[row])
        gold, rep = C.price(size, C.shapes[C.goods[g]].size, row)
        got = B.gain_gold(s, p, gold)
        if row == 0:
            rep += B.passive(s, p, "top-price-reputation")
        s.rep[p] += rep
        s.g_where[g] = SOLD
        s.g_at[g] = loc
        s.g_owner[g] = -1
        s._event(f"Seat {p} sells {B.goods_name(g)} in {town.name} (size {size}, {B.ROW_NAMES[row]} row) "
                 f"for {got} Gold and {rep} Reputation")
        if self.bonus:  # Elizabeth Quick: this Gold does not move the Customs Gold Counter
            s._event(f"Seat {p} gains {B.gain_gold(s, p, self.bonus)} Gold more")
        replace(s, dataclasses.replace(self, stage=Phase.OVER, gold=got))
        start_customs(s, loc, 1)

    def resumed(self, s: S, done: Frame[Any]) -> None:
        if isinstance(done, Customs):
            self.after_customs(s)
        elif self.stage == Phase.POST:
            self.post_next(s)

    def after_customs(self, s: S) -> None:
        """Selling Goods, steps 4-5: the Gold Wheel and Customs Track, new officers, Secrets for the others."""
        passes = B.advance_gold_wheel(s, self.gold)
        to_post = B.advance_customs_track(s, passes) if passes else 0
        if to_post:
            now = dataclasses.replace(self, to_post=to_post)
            replace(s, now)
            now.begin_posting(s)
        else:
            self.finish_sale(s)

    def begin_posting(self, s: S) -> None:
        if not B.empty_land(s) or self.to_post == 0:
            self.finish_sale(s)
            return
        replace(s, dataclasses.replace(self, stage=Phase.POST))

    def post(self, s: S, loc: int) -> None:
        o = s.off_at.index(-1)
        s.off_at[o] = loc
        s._event(f"Seat {self.actor(s)}, with least Gold, places new Customs Officer {o} in {C.locations[loc].name}")
        now = dataclasses.replace(self, to_post=self.to_post - 1)
        replace(s, now)
        if not check_seizure(s, loc):
            now.post_next(s)

    def post_next(self, s: S) -> None:
        if self.to_post and -1 in s.off_at:
            self.begin_posting(s)
        else:
            self.finish_sale(s)

    def finish_sale(self, s: S) -> None:
        """Receive Secrets Cards: every other player draws one (while the deck lasts)."""
        now = s.frames[-1]
        assert isinstance(now, Sale)
        p = self.seat
        n = s.seats
        now.collect_tolls(s)
        drew, missed = [], []
        for i in range(1, n):
            q = (p + i) % n
            if s.sdeck:
                s.secrets[q].append(s.sdeck.pop())
                drew.append(q)
            else:
                missed.append(q)
        # who drew, never what: each drawer's own log names its card (the view's your_secrets)
        if drew:
            s._event(f"{_seats_text(drew)} {'each draw' if len(drew) > 1 else 'draws'} a Secrets card after the sale")
        if missed:
            s._event(f"The Secrets deck is empty: {_seats_text(missed).lower()} {'draw' if len(missed) > 1 else 'draws'} none")
        finish(s, now)

    def collect_tolls(self, s: S) -> None:
        """Peter Curnow: after the sale the seller pays the toll (or all their Gold, if less)."""
        p = self.seat
        for i in range(0, len(self.tolls), 2):
            card, q = self.tolls[i], self.tolls[i + 1]
            due = min(s.gold[p], C.characters[card].amount)
            s.gold[p] -= due
            s.gold[q] += due
            s._event(f"Seat {p} pays seat {q} a toll of {due} Gold ({C.characters[card].name})")


def _seats_text(seats: list[int]) -> str:
    """ "Seat 1", "Seat 1 and seat 2", "Seat 0, seat 1 and seat 3": the log puts each seat's name in."""
    words = [f"seat {q}" for q in seats]
    text = words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]
    return text[:1].upper() + text[1:]


def begin_sale(s: S, p: int, g: int, size: int = 0, instead: Frame[Any] | None = None) -> None:
    """Sell Goods: the seller's sale cards (Forged Cocket, Elizabeth Quick) and rivals' tolls answer first.

    ``size``: sold as a town of that size; ``instead``: the sale takes the place of that frame (the top),
    the card that began it."""
    sale = Sale(seat=p, goods=g, size=size)
    if instead is not None and s.frames[-1] is instead:
        replace(s, sale)
    else:
        push(s, sale)
    open_window(s, "sale", p, s.g_at[g])


# -- Hire Character: the new counter ---------------------------------------------------------
@dataclasses.dataclass(frozen=True, slots=True)
class PlaceCounter(CornishFrame):
    """Hire Character: where the new Network Counter goes (``anywhere``: The Old Packhorse Road)."""

    seat: int
    anywhere: bool = False
    phase = Phase.PLACE

    def actor(self, s: S) -> int:
        return self.seat

    def legal(self, s: S) -> Sequence[Action]:
        return tuple(act("place", B.LOC_IDS[x]) for x in B.legal_placements(s, self.seat))

    def prompt(self, s: S) -> str:
        return "place the new Network Counter"

    def apply(self, s: S, action: Action) -> None:
        assert isinstance(action, Place)
        p, loc = self.seat, action.loc
        s.counters[p].append(loc)
        s._event(f"Seat {p} places a Network Counter in {C.locations[loc].name}")
        finish(s, self)


# -- Raid the Customs House --------------------------------------------------------------------
@dataclasses.dataclass(frozen=True, slots=True)
class Raid(CornishFrame):
    seat: int
    goods: int
    stage: Phase = Phase.RAID_DISCARD

    @property
    def phase(self) -> Phase:
        return self.stage

    def actor(self, s: S) -> int:
        return self.seat

    def legal(self, s: S) -> Sequence[Action]:
        p = self.seat
        if self.stage == Phase.RAID_DISCARD:
            return tuple(act("discard", C.characters[c].id) for c in s.chars[p] if C.characters[c].mob)
        return tuple(act("remove", B.LOC_IDS[x]) for x in sorted(set(s.counters[p])))

    def prompt(self, s: S) -> str:
        if self.stage == Phase.RAID_DISCARD:
            return "discard a Mob character for the raid"
        return "remove one of your Network Counters for the raid"

    def apply(self, s: S, action: Action) -> None:
        a = action
        p = self.seat
        if isinstance(a, Discard):
            card = a.card
            B.lose_character(s, p, card)
            s._event(f"Seat {p} sends {C.characters[card].name} to storm the Customs House")
            replace(s, dataclasses.replace(self, stage=Phase.RAID_REMOVE))
            return
        assert isinstance(a, Remove)
        loc = a.loc
        s.counters[p].remove(loc)
        g = self.goods
        s.g_where[g] = LAND
        s.g_at[g] = C.penzance
        s.g_owner[g] = p
        s._event(f"Seat {p} removes a Network Counter from {C.locations[loc].name} and liberates {B.goods_name(g)}")
        B.seize_now(s, loc)
        now = dataclasses.replace(self, stage=Phase.OVER)
        replace(s, now)
        if not check_seizure(s, C.penzance):
            finish(s, now)

    def resumed(self, s: S, done: Frame[Any]) -> None:
        finish(s, self)
