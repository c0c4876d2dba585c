"""Scenario helpers for Cornish Smuggler: a real set-up, then pieces moved, never invented."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

import freetrader
from freetrader.games.cornish_smuggler import rules as R
from freetrader.games.cornish_smuggler.components import COMPONENTS as C

GAME = freetrader.game("cornish-smuggler")


def loc(name: str) -> int:
    return C.loc_by_id[name]


def node(name: str) -> int:
    return C.sea_by_id[name]


def after_setup(seats: int = 3, seed: int = 1):
    """Play the set-up with the first legal choice each time; returns a state at the first Action."""
    s = GAME.new_state(seats, seed)
    while s.phase != R.MAIN:
        s.apply(s.legal_actions()[0])
    return s


def piece(s, size: int, exclude=()) -> int:
    """A Goods Shape piece of this size still at a Merchant."""
    for g in range(len(C.goods)):
        if g not in exclude and s.g_where[g] == R.MERCHANT and C.shapes[C.goods[g]].size == size:
            return g
    raise LookupError(f"no piece of size {size} at a merchant")


def give_hold(s, p: int, pieces: list[int]) -> None:
    for g in pieces:
        s.g_where[g] = R.SHIP
        s.g_at[g] = p
        s.g_owner[g] = p
        s.hold[p].append(g)


def put_on_land(s, p: int, g: int, where: str) -> None:
    s.g_where[g] = R.LAND
    s.g_at[g] = loc(where)
    s.g_owner[g] = p


def set_gold(s, p: int, gold: int) -> None:
    """Move Gold between the seat and the bank (the supply stays whole)."""
    s.bank += s.gold[p] - gold
    s.gold[p] = gold


def officers_at(s, *places: str) -> None:
    """Put the officers on the board at these places (others wait on the track)."""
    s.off_at = [loc(x) for x in places] + [-1] * (R.N_OFFICERS - len(places))
    s.off_bribe = [-1] * R.N_OFFICERS


def fitting_ship(sizes: list[int], shapes_by_size) -> int:
    from freetrader.games.cornish_smuggler.packing import fits

    for ship in range(len(C.ships)):
        if fits(ship, [shapes_by_size[z] for z in sizes]):
            return ship
    raise LookupError("no ship fits")


def touch(s) -> None:
    """After editing a position by hand, drop the cached legal actions."""
    s._legal_cache = None


_WINDOW_VERBS = ("decline", "play", "motivate", "choose", "done")


def decline_windows(s) -> None:
    """Decline every open reaction window (a test of the base rules is not about cards)."""
    touch(s)
    while s.phase == R.REACT and any(str(a) == "decline" for a in s.legal_actions()):
        s.apply("decline")


def decline_yew_boy(s) -> None:
    """Decline the window an officer being moved opens (Yew boy! may answer it, issue 17 item 4)."""
    touch(s)
    while s.phase == R.REACT and s.win_event == "customs-move" and "decline" in [str(a) for a in s.legal_actions()]:
        s.apply("decline")


def act(s, *texts: str) -> None:
    """Apply these actions; reaction windows the texts do not address are declined (issue 4)."""
    touch(s)
    for t in texts:
        if t.split()[0] not in _WINDOW_VERBS:
            decline_windows(s)
        s.apply(t)
    if texts and texts[-1].split()[0] not in _WINDOW_VERBS:
        decline_windows(s)


# -- cards (issue 4) ----------------------------------------------------------------------
def char_index(cid: str) -> int:
    return next(c.index for c in C.characters if c.id == cid)


def secret_index(sid: str) -> int:
    return next(x.index for x in C.secrets if x.id == sid)


def strip(s) -> None:
    """No Characters, no Secrets in hand, Reputation 0: a clean table for one card's test (cards conserved)."""
    for p in range(s.seats):
        s.char_discard.extend(s.chars[p])
        s.chars[p] = []
        s.rep[p] = 0
        s.sdeck.extend(s.secrets[p])
        s.secrets[p] = []
        s.motivated[p] = []
    touch(s)


def give_char(s, p: int, cid: str) -> int:
    """Move this Character card, wherever it is, to seat p's hired Characters (with its Reputation)."""
    c = char_index(cid)
    for stack in s.stacks:
        if c in stack:
            stack.remove(c)
    s.faceup = [-1 if x == c else x for x in s.faceup]
    if c in s.char_discard:
        s.char_discard.remove(c)
    for q in range(s.seats):
        if c in s.chars[q]:
            s.chars[q].remove(c)
    s.chars[p].append(c)
    s.rep[p] += C.characters[c].reputation
    touch(s)
    return c


def give_secret(s, p: int, sid: str) -> int:
    k = secret_index(sid)
    s.sdeck.remove(k)
    s.secrets[p].append(k)
    touch(s)
    return k


def counters(s, p: int, *places: str) -> None:
    s.counters[p] = [loc(x) for x in places]
    touch(s)


def legal(s) -> list[str]:
    touch(s)
    return [str(a) for a in s.legal_actions()]


def events_since(s, n: int) -> list[str]:
    return list(s.events[n:])


def script(name: str) -> ModuleType:
    """``scripts/<name>.py`` loaded as a module (the design scripts are not part of the package)."""
    path = Path(__file__).resolve().parents[3] / "scripts" / f"{name}.py"
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module
