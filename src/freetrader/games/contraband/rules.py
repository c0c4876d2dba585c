"""Contraband rules, one function per rule; paragraph numbers are the rulebook's.

Every decision is a frame of the state's stack (``freetrader.core.frames``):

- ``Declaration``: the holder names articles one at a time, then declares (par. 3-4).
- ``SearchOrWave``: the Customs Officer searches the declared luggage or lets it through.
- ``Receive``: the next traveller accepts the passed luggage unseen or turns Informer (par. 5-6).
- ``Discard``: who accepted discards one card and draws one (par. 5, 8).
- ``Payments``: what is still owed when a payer is short of money: it is asked to borrow
  or retire (par. 7), and the frame below goes on when all is paid (``child_done``).
- ``DrawAfterSearch``: a search's outcome, pending its payments: then ``seat`` draws (par. 4).

A frame that moves the turn on replaces itself (``replace``) with the next decision;
the game is over when no frame is left.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, ClassVar

from freetrader.core import Action, BadOption, BadRecord
from freetrader.core.frames import Frame, finish, push, replace

from . import actions as A
from .components import COMPONENTS as C
from .phases import PHASES as PHASES
from .phases import Phase

if TYPE_CHECKING:
    from .state import ContrabandState

    S = ContrabandState

DECLARE, SEARCH, RECEIVE, DISCARD, BROKE, OVER = Phase
LUGGAGE_SIZE = 4  # par. 2: "the top four cards"
_SEARCH_OR_WAVE = (A.SEARCH, A.WAVE)
_ACCEPT_OR_INFORM = (A.ACCEPT, A.INFORM)
#: How many of each article the pack holds (``pack=full``, ``pack=small``): no claim names more (par. 3).
_IN_FULL_PACK = tuple(a.count for a in C.articles)
_IN_SMALL_PACK = tuple(C.small_pack.count(k) for k in range(len(C.articles)))
#: A payment still to make: (payer, payee, amount).
Payment = tuple[int, int, int]
# ``trace``, the round's card movements: (SAW, seat, *luggage) when a seat looks at luggage,
# (DISCARDED, seat, card, drawn), (REVEALED, -1, *luggage) at a search, (DUMPED, seat) when a
# retired holder's luggage goes face down; ``view.determinize`` reads what its seat followed.
SAW, DISCARDED, REVEALED, DUMPED = range(4)


def _names(cards: list[int]) -> str:
    if not cards:
        return "nothing"
    parts = []
    for k in sorted(set(cards)):
        n = cards.count(k)
        parts.append(f"{n} {C.name(k)}" if n > 1 else C.name(k))
    return ", ".join(parts)


def _dollars(amount: int) -> str:
    return f"-${-amount}" if amount < 0 else f"${amount}"


# -- set-up (par. 1) ---------------------------------------------------------
def setup(s: S) -> None:
    n = s.seats
    s.cash = [0] * n
    s.loans = [(0,) * n] * n  # rows are tuples: a clone shares them, a loan replaces its row
    s.retired = [False] * n
    s.been_officer = [False] * n
    s.discard_hidden, s.discard_shown, s.luggage, s.claim = [], [], [], []
    s.trace = []
    s.declared, s.caught, s.cleared = [0] * n, [0] * n, [0] * n
    s.searches, s.waved, s.informs = [0] * n, [0] * n, [0] * n
    s.holder = s.declarer = -1
    s.examined = s.bag_claim = False
    s.round = s.reshuffles = s.declarations = 0
    s.officer = choose_first_officer(s)
    share_money(s)
    s.pack = list(pack_in_play(s))
    s.rng.shuffle(s.pack)
    s.frames = ()
    begin_round(s)  # its first draw puts the first decision on the empty stack


def pack_in_play(s: S) -> tuple[int, ...]:
    """The printed pack, or the designed small one (option ``pack``)."""
    if s.options["pack"] == "full":
        return C.pack
    if not C.small_pack:
        raise BadOption("pack=small needs a [small_pack] table in cards.toml, and these components have none "
                        "(a data pack made before it); use pack=full, or add the table (see the shipped cards.toml)")
    return C.small_pack


def stack_pack(s: S, order: list[int]) -> None:
    """Set-up with the pack in ``order`` (top last) instead of shuffled: a deal chosen outside (a chance node).

    Only at set-up: the first luggage is drawn again from the new order, by the same seat.
    """
    if s.action_count or sorted(order) != sorted(s.pack + s.luggage) or s.discard_hidden or s.discard_shown:
        raise ValueError("stack_pack takes a permutation of the pack, right after set-up")
    s.pack = list(order)
    s.luggage = s.pack[-LUGGAGE_SIZE:]
    del s.pack[-LUGGAGE_SIZE:]
    s.trace = [(SAW, s.holder, *s.luggage)]


def choose_first_officer(s: S) -> int:
    """Par. 1: by agreement (seat 0), or one card dealt to each; highest duty wins."""
    if s.options["first_officer"] == "agreement":
        s._event("By agreement, seat 0 is the first Customs Officer")
        return 0
    contenders = list(range(s.seats))
    while True:
        pack = list(C.pack)
        s.rng.shuffle(pack)
        dealt = {seat: pack.pop() for seat in contenders}
        s._event("Dealing for Customs Officer: " + "; ".join(f"seat {p} {C.name(k)}" for p, k in dealt.items()))
        best = max(C.duty[k] for k in dealt.values())
        tied = [p for p, k in dealt.items() if C.duty[k] == best]
        if len(tied) == 1 or s.options["officer_tie"] == "first-seat":
            s._event(f"Seat {tied[0]} is the first Customs Officer")
            return tied[0]
        s._event("Tie between seats " + ", ".join(map(str, tied)) + ": they are dealt again")
        contenders = tied


def share_money(s: S) -> None:
    """Par. 1: $10,000 split equally; the remainder stays unused."""
    each, s.unused = divmod(C.total_money, s.seats)
    s.cash = [each] * s.seats
    s._event(f"Each player receives ${each}" + (f"; ${s.unused} is left unused" if s.unused else ""))


def begin_round(s: S) -> None:
    s.round += 1
    s.been_officer[s.officer] = True
    s._event(f"Round {s.round}: seat {s.officer} is the Customs Officer")
    draw_new_luggage(s, next_traveller(s, s.officer))


def next_traveller(s: S, after: int) -> int:
    """Par. 7: play passes to the left, skipping the officer and retired players."""
    n = s.seats
    seat = after
    for _ in range(n):
        seat = (seat + 1) % n
        if seat != s.officer and not s.retired[seat]:
            return seat
    raise AssertionError("no traveller left")  # prevented: fewer than 3 players ends the game


def active_count(s: S) -> int:
    return s.retired.count(False)


# -- the decisions ------------------------------------------------------------
class _Decision(Frame["ContrabandState"]):
    """A Contraband frame; ``phase`` names its kind for views, bots and encoders."""

    __slots__ = ()
    phase: ClassVar[Phase]


@dataclasses.dataclass(frozen=True, slots=True)
class Declaration(_Decision):
    """The holder names articles one at a time, or declares (par. 3-4); the duty is paid, then the search."""

    phase: ClassVar[Phase] = DECLARE

    def actor(self, s: S) -> int:
        return s.holder

    def legal(self, s: S) -> tuple[Action, ...]:
        return legal_claims(s)

    def prompt(self, s: S) -> str:
        so_far = "Diplomatic Bag" if s.bag_claim else _names(s.claim)
        return f"declare your luggage to the Customs Officer (claimed so far: {so_far})"

    def apply(self, s: S, action: Action) -> None:
        if type(action) is A.Claim:
            claim_article(s, C.by_id[action.article])
        else:
            finish_declaration(s)

    def child_done(self, s: S, done: Frame[Any]) -> None:
        duty_paid(s)


@dataclasses.dataclass(frozen=True, slots=True)
class SearchOrWave(_Decision):
    """The Customs Officer searches the declared luggage or lets it through (par. 3-5)."""

    phase: ClassVar[Phase] = SEARCH

    def actor(self, s: S) -> int:
        return s.officer

    def legal(self, s: S) -> tuple[Action, ...]:
        return _SEARCH_OR_WAVE

    def prompt(self, s: S) -> str:
        return f"search seat {s.declarer}'s luggage or wave it through"

    def apply(self, s: S, action: Action) -> None:
        if type(action) is A.Search:
            search_luggage(s, informer=None)
        else:
            wave_through(s)


@dataclasses.dataclass(frozen=True, slots=True)
class Receive(_Decision):
    """The next traveller, before looking, accepts the passed luggage or turns Informer (par. 5-6)."""

    phase: ClassVar[Phase] = RECEIVE

    def actor(self, s: S) -> int:
        return s.holder

    def legal(self, s: S) -> tuple[Action, ...]:
        return _ACCEPT_OR_INFORM

    def prompt(self, s: S) -> str:
        return f"accept seat {s.declarer}'s luggage unseen, or become an Informer"

    def apply(self, s: S, action: Action) -> None:
        if type(action) is A.Accept:
            accept_luggage(s)
        else:
            become_informer(s)


@dataclasses.dataclass(frozen=True, slots=True)
class Discard(_Decision):
    """Who accepted the luggage discards one card face down and draws one (par. 5, 8)."""

    phase: ClassVar[Phase] = DISCARD

    def actor(self, s: S) -> int:
        return s.holder

    def legal(self, s: S) -> tuple[Action, ...]:
        return legal_discards(s)

    def prompt(self, s: S) -> str:
        return "discard one card from the luggage (you then draw one)"

    def apply(self, s: S, action: Action) -> None:
        assert isinstance(action, A.Discard)
        discard_and_repack(s, C.by_id[action.article])


@dataclasses.dataclass(frozen=True, slots=True)
class Payments(_Decision):
    """Payments still to make (par. 3-7), pushed by ``pay`` when the first of them is short of money.

    ``owed`` holds them in order, the one waiting first. When all are made the
    frame finishes and the frame below goes on; but if fewer than three players
    remain by then, the game ends instead (``close``).
    """

    phase: ClassVar[Phase] = BROKE
    owed: tuple[tuple[int, int, int], ...]

    def actor(self, s: S) -> int:
        return self.owed[0][0]

    def legal(self, s: S) -> tuple[Action, ...]:
        return legal_insolvency(s, self.owed[0])

    def prompt(self, s: S) -> str:
        _, payee, amount = self.owed[0]
        return f"find ${shortfall(s, self.owed[0])} more to pay seat {payee} ${amount}: borrow it or retire"

    def apply(self, s: S, action: Action) -> None:
        first, owed = self.owed[0], self.owed
        if type(action) is A.Borrow:
            borrow_shortfall(s, first, action.lender)
        else:
            retire(s, first)
            owed = tuple(p for p in owed if p[0] != first[0])  # a retired player pays no more
        rest = settle(s, owed)
        if rest:
            replace(s, Payments(owed=rest))
        else:
            finish(s, self)

    def close(self, s: S) -> None:
        too_few_players(s)


@dataclasses.dataclass(frozen=True, slots=True)
class DrawAfterSearch(_Decision):
    """A pending effect, never asked: once a search's payments are made, ``seat`` draws new luggage (par. 4)."""

    phase: ClassVar[Phase] = SEARCH
    seat: int

    def child_done(self, s: S, done: Frame[Any]) -> None:
        draw_after_search(s, self.seat)


_DECLARATION, _SEARCH_OR_WAVE_FRAME, _RECEIVE, _DISCARD = Declaration(), SearchOrWave(), Receive(), Discard()


def pay(s: S, owed: tuple[Payment, ...]) -> bool:
    """Make the payments ``owed`` in order; True when all are made and play goes on at once.

    Otherwise the first payer short of money is asked to borrow or retire (a ``Payments``
    frame: the frame below goes on in ``child_done`` when all is paid), or fewer than
    three players remain and the game is over.
    """
    rest = settle(s, owed)
    if rest:
        push(s, Payments(owed=rest))
        return False
    return not too_few_players(s)


# -- the turn (par. 2-6) -----------------------------------------------------
def draw_new_luggage(s: S, seat: int) -> None:
    """Par. 2 and 4: the next player draws four new cards and looks at them."""
    if turn_limit_reached(s):
        return
    if s.retired[s.officer]:
        end_round(s, "the Customs Officer has retired")
        return
    if len(s.pack) < LUGGAGE_SIZE:
        end_round(s, "the pack is exhausted")
        return
    s.holder = s.declarer = seat
    s.luggage = s.pack[-LUGGAGE_SIZE:]
    del s.pack[-LUGGAGE_SIZE:]
    s.examined = True
    s.trace.append((SAW, seat, *s.luggage))
    s.claim = []
    s.bag_claim = False
    replace(s, _DECLARATION)
    s._event(f"Seat {seat} draws new luggage")


def legal_claims(s: S) -> tuple[Action, ...]:
    """Par. 3: articles are declared one at a time, in article order, four at most."""
    claim = s.claim
    acts: list[Action] = []
    if not claim:
        acts.append(A.CLAIMS[C.bag])
    if len(claim) < LUGGAGE_SIZE:
        low = claim[-1] if claim else 0
        most = _IN_FULL_PACK if s.options["pack"] == "full" else _IN_SMALL_PACK
        claims = A.CLAIMS
        for k in C.dutiable:
            if k >= low and claim.count(k) < most[k]:
                acts.append(claims[k])
    acts.append(A.DECLARE)
    return tuple(acts)


def claim_article(s: S, k: int) -> None:
    if k == C.bag:
        s.bag_claim = True
        finish_declaration(s)
    else:
        s.claim.append(k)


def finish_declaration(s: S) -> None:
    """Par. 3 and 8: the declaration is made and its List A duty paid to the officer."""
    seat = s.holder
    s.declarations += 1
    s.declared[seat] += 1
    owed: tuple[Payment, ...] = ()
    if s.bag_claim:
        s._event(f"Seat {seat} declares a Diplomatic Bag: no duty")
    else:
        duty = sum(C.duty[k] for k in s.claim)
        if s.claim:
            s._event(f"Seat {seat} declares {_names(s.claim)} and pays ${duty} duty")
        else:
            s._event(f"Seat {seat} declares nothing")
        if duty:
            owed = ((seat, s.officer, duty),)
    if pay(s, owed):
        duty_paid(s)


def duty_paid(s: S) -> None:
    """Par. 3, 7: the officer may search now; a holder who retired paying the duty leaves the luggage face down."""
    if not s.retired[s.holder]:
        replace(s, _SEARCH_OR_WAVE_FRAME)
        return
    s.trace.append((DUMPED, s.holder))
    s.discard_hidden.extend(s.luggage)
    s.luggage = []
    s.holder = -1
    draw_new_luggage(s, next_traveller(s, s.declarer))


def contraband_fine(claim: list[int], bag_claim: bool, luggage: list[int]) -> int:
    """Par. 3, 4, 8, 9: List B fines on what was not declared.

    A false Diplomatic Bag costs $200 plus the fine on every dutiable article.
    Otherwise each dutiable article held beyond the number declared is fined.
    """
    if bag_claim:
        if C.bag in luggage:
            return 0
        return C.false_bag_fine + sum(C.fine[k] for k in luggage)
    fine = 0
    for k in set(luggage):
        if C.fine[k]:
            extra = luggage.count(k) - claim.count(k)
            if extra > 0:
                fine += extra * C.fine[k]
    return fine


def found_nothing_pays_compensation(s: S) -> bool:
    """Whether a search that found no contraband earns the $200 compensation (a ruling)."""
    if s.options["compensation"] == "no-contraband" or s.bag_claim:
        return True
    return sorted(k for k in s.luggage if C.fine[k]) == sorted(s.claim)


def search_luggage(s: S, informer: int | None) -> None:
    """Par. 4 and 6: the luggage is searched, settled and impounded; then the next luggage is drawn."""
    smuggler, officer = s.declarer, s.officer
    who = f"Seat {officer}" if informer is None else f"Told by Informer seat {informer}, seat {officer}"
    s._event(f"{who} searches seat {smuggler}'s luggage: {_names(s.luggage)}")
    if informer is None:
        s.searches[officer] += 1
    owed = search_payments(s, informer)
    s.trace.append((REVEALED, -1, *s.luggage))
    s.discard_shown.extend(s.luggage)
    s.luggage = []
    s.holder = -1
    if informer is not None and s.options["after_informer"] == "informer-draws":
        draws = informer
    else:
        draws = next_traveller(s, informer if informer is not None else smuggler)
    replace(s, DrawAfterSearch(seat=draws))
    if pay(s, owed):
        draw_after_search(s, draws)


def draw_after_search(s: S, seat: int) -> None:
    """Par. 4: after a search the next luggage is drawn (by the next traveller if ``seat`` retired or is the officer)."""
    if s.retired[seat] or seat == s.officer:
        seat = next_traveller(s, seat)
    draw_new_luggage(s, seat)


def search_payments(s: S, informer: int | None) -> tuple[Payment, ...]:
    """Par. 4, 6, 8: fines and the Informer's reward if contraband is found, else the compensation."""
    smuggler, officer = s.declarer, s.officer
    fine = contraband_fine(s.claim, s.bag_claim, s.luggage)
    if fine:
        s.caught[smuggler] += 1
        s._event(f"Contraband! Seat {smuggler} is fined ${fine}")
        if informer is None:
            return ((smuggler, officer, fine),)
        return (smuggler, officer, fine), (officer, informer, C.informer_reward)
    s.cleared[smuggler] += 1
    if not found_nothing_pays_compensation(s):
        s._event("No contraband, but the declaration was not exact: no compensation")
        return ()
    payer = officer if informer is None else informer
    amount = C.search_compensation if informer is None else C.informer_compensation
    s._event(f"No contraband: seat {payer} pays seat {smuggler} ${amount} compensation")
    return ((payer, smuggler, amount),)


def wave_through(s: S) -> None:
    s.waved[s.officer] += 1
    s._event(f"Seat {s.officer} lets seat {s.declarer}'s luggage through")
    hand_on(s)


def hand_on(s: S) -> None:
    """Par. 5: unsearched luggage passes face down to the next player."""
    if turn_limit_reached(s):
        return
    if not s.pack:
        end_round(s, "the pack is exhausted")
        return
    receiver = next_traveller(s, s.declarer)
    s.holder = receiver
    s.examined = False
    replace(s, _RECEIVE)
    s._event(f"The luggage passes face down to seat {receiver}")


def accept_luggage(s: S) -> None:
    s.examined = True
    s.trace.append((SAW, s.holder, *s.luggage))
    replace(s, _DISCARD)
    s._event(f"Seat {s.holder} accepts the luggage")


def legal_discards(s: S) -> tuple[Action, ...]:
    """Par. 5 and 8: any one card, but a passed Diplomatic Bag must be the one."""
    if C.bag in s.luggage:
        return (A.DISCARDS[C.bag],)
    return tuple(A.DISCARDS[k] for k in sorted(set(s.luggage)))


def discard_and_repack(s: S, k: int) -> None:
    s.luggage.remove(k)
    s.discard_hidden.append(k)
    s.luggage.append(s.pack.pop())
    s.trace.append((DISCARDED, s.holder, k, s.luggage[-1]))
    s.declarer = s.holder
    s.claim = []
    s.bag_claim = False
    replace(s, _DECLARATION)
    s._event(f"Seat {s.holder} discards a card and draws one")


def become_informer(s: S) -> None:
    s.informs[s.holder] += 1
    s._event(f"Seat {s.holder} becomes an Informer against seat {s.declarer}")
    search_luggage(s, informer=s.holder)


# -- money (par. 3, 4, 6, 7) ---------------------------------------------------
def settle(s: S, owed: tuple[Payment, ...]) -> tuple[Payment, ...]:
    """Pay in order, skipping retired payers; stop at the first who cannot pay (par. 7): what is left from it."""
    cash, retired = s.cash, s.retired
    for i, (payer, payee, amount) in enumerate(owed):
        if retired[payer]:
            continue
        if cash[payer] < amount:
            return owed[i:]
        cash[payer] -= amount
        cash[payee] += amount
    return ()


def too_few_players(s: S) -> bool:
    """Ruling: with fewer than three players left (par. 7 retirements) the game ends; True if it did."""
    if active_count(s) < 3:
        end_game(s, "fewer than three players remain")
        return True
    return False


def shortfall(s: S, payment: Payment) -> int:
    payer, _, amount = payment
    return amount - s.cash[payer]


def legal_insolvency(s: S, payment: Payment) -> tuple[Action, ...]:
    """Par. 7: borrow the shortfall from a player able to lend it, or retire (option ``insolvency``)."""
    payer = payment[0]
    short = shortfall(s, payment)
    acts: list[Action] = []
    if s.options["insolvency"] != "retire":
        for i in range(1, s.seats):
            lender = (payer + i) % s.seats
            if not s.retired[lender] and s.cash[lender] >= short:
                acts.append(A.borrow(lender))
    if s.options["insolvency"] != "borrow" or not acts:
        acts.append(A.RETIRE)
    return tuple(acts)


def borrow_shortfall(s: S, payment: Payment, lender: int) -> None:
    payer = payment[0]
    short = shortfall(s, payment)
    s.cash[lender] -= short
    s.cash[payer] += short
    row = list(s.loans[payer])
    row[lender] += short
    s.loans[payer] = tuple(row)
    s._event(f"Seat {payer} borrows ${short} from seat {lender}")


def retire(s: S, payment: Payment) -> None:
    """Par. 7: a player who cannot pay pays what it has and leaves the game (a retired officer ends the round)."""
    payer, payee, _ = payment
    paid = s.cash[payer]
    s.cash[payer] = 0
    s.cash[payee] += paid
    s.retired[payer] = True
    s._event(f"Seat {payer} pays its last ${paid} to seat {payee} and retires from the game")


def net_worth(s: S) -> list[int]:
    """Par. 10: money, after allowing for loans (owed to you counts, owed by you is taken off)."""
    worth = s.cash[:]
    for b, row in enumerate(s.loans):
        for lender, amt in enumerate(row):
            if amt:
                worth[b] -= amt
                worth[lender] += amt
    return worth


# -- rounds and the end (par. 1, 7, 10) ---------------------------------------
def end_round(s: S, why: str) -> None:
    """Par. 1 and 7: the cards are reshuffled and the officer changes (to the left)."""
    s.pack.extend(s.discard_hidden)
    s.pack.extend(s.discard_shown)
    s.pack.extend(s.luggage)
    s.discard_hidden, s.discard_shown, s.luggage = [], [], []
    s.trace = []
    s.holder = -1
    s.rng.shuffle(s.pack)
    s.reshuffles += 1
    s._event(f"Round {s.round} ends ({why}); the cards are reshuffled")
    end = s.options["end"]
    if end == "all-officers" and all(b or r for b, r in zip(s.been_officer, s.retired, strict=True)):
        end_game(s, "every player has been the Customs Officer")
        return
    if end == "reshuffles" and s.reshuffles >= s.options["reshuffles"]:
        end_game(s, f"the cards have been reshuffled {s.reshuffles} times")
        return
    officer = s.officer
    for _ in range(s.seats):
        officer = (officer + 1) % s.seats
        if not s.retired[officer]:
            break
    s.officer = officer
    begin_round(s)


# The most decisions one declaration can take: accept or inform, discard, four claims and declare,
# search or wave, and a borrow-or-retire choice for each of its payments (duty, fine or
# compensation, the Informer's reward).
DECISIONS_PER_DECLARATION = 1 + 1 + 5 + 1 + 3


def action_bound(seats: int, options: Mapping[str, Any]) -> int | None:
    """The most actions a game with ``options`` can take, where they bound it (``end=turns``); else None."""
    if options.get("end") == "turns":
        return DECISIONS_PER_DECLARATION * int(options["turn_limit"])
    return None


def turn_limit_reached(s: S) -> bool:
    """Par. 10, "a time fixed beforehand": a fixed number of declarations."""
    if s.options["end"] == "turns" and s.declarations >= s.options["turn_limit"]:
        end_game(s, f"{s.declarations} declarations have been made")
        return True
    return False


def end_game(s: S, why: str) -> None:
    """Par. 10: no decision is left; the money after loans is announced."""
    s.frames = ()
    worth = net_worth(s)
    s._event(f"The game ends: {why}. Final money: " + ", ".join(f"seat {i} {_dollars(w)}" for i, w in enumerate(worth)))


def check_consistent(s: S) -> None:
    """Refuse a loaded state whose cards or money do not add up."""
    cards = sorted(s.pack + s.discard_hidden + s.discard_shown + s.luggage)
    if cards != sorted(pack_in_play(s)):
        raise BadRecord(f"saved Contraband state does not hold exactly the {len(pack_in_play(s))} cards of the pack")
    if sum(s.cash) + s.unused != C.total_money:
        raise BadRecord(f"saved Contraband state's money adds up to ${sum(s.cash) + s.unused}, not ${C.total_money}")
    n = s.seats
    for name in ("cash", "retired", "been_officer", "declared", "caught", "cleared", "searches", "waved", "informs"):
        if len(getattr(s, name)) != n:
            raise BadRecord(f"saved Contraband state field {name!r} must have one entry per seat ({n})")
    if len(s.loans) != n or any(len(row) != n for row in s.loans):
        raise BadRecord(f"saved Contraband state field 'loans' must have one row of {n} lenders per seat ({n})")
    check_frames(s)


def check_frames(s: S) -> None:
    """Refuse a loaded stack no play could leave: another game's frame, a pending effect on top, bad payments."""
    n = s.seats
    for frame in s.frames:
        if not isinstance(frame, _Decision):
            raise BadRecord(f"saved Contraband state holds {type(frame).__name__}, a frame of another game")
        if isinstance(frame, Payments) and (not frame.owed or any(not (0 <= q < n) for p in frame.owed for q in p[:2])):
            raise BadRecord(f"saved Contraband payments {list(frame.owed)} must name seats 0-{n - 1}, at least one")
    if s.frames and isinstance(s.frames[-1], DrawAfterSearch):
        raise BadRecord("saved Contraband state has no decision on top: a search's payments must be asked above it")
