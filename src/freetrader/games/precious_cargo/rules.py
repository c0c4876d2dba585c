"""Precious Cargo rules, one function per rule; section names are the rulebook's.

Ships live in slots ``seat * 3 + k`` (ship number ``k + 1``); a slot's place
is -1 until that hull is built. A crate on a ship is a small integer: below 8
it is food bought at that settlement (Types of Cargo: food remembers where it
was bought), otherwise ``type << 3`` for a type only one country sells.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from freetrader.core import Action, BadRecord

from . import actions as A
from .components import COMPONENTS as C
from .components import FOOD
from .phases import PHASES as PHASES
from .phases import Phase

if TYPE_CHECKING:
    from .state import PreciousCargoState as S

#: The phases by name, as the bot and encoder read ``state.phase`` (the top frame's ``phase``).
COUNTRY, FIRST, HOME, MOVE, ACT, LOAD, SELL, OVER = Phase
# The six actions of How to Play, as bits of ``used``.
BUILD, SAILS, GOVERNOR, TAKE, SELL_BIT, AGAIN = 1, 2, 4, 8, 16, 32
ACTION_NAMES = ((BUILD, "build"), (SAILS, "sails"), (GOVERNOR, "governor"), (TAKE, "take"), (SELL_BIT, "sell"),
                (AGAIN, "again"))
ACTIONS_PER_TURN = 2
SHIPS = A.SHIPS
NS = C.n_settlements
NK = C.n_cargo
NBR = C.neighbors
CAP = C.capacity
COUNTRY_OF = C.country_of
VALUE = C.cargo_value
PLACES = C.ship_places
_END = (A.END,)


def country_name(s: S, seat: int) -> str:
    c = s.country[seat]
    return f"seat {seat}" if c < 0 else f"{C.countries[c].name} (seat {seat})"


def place_name(p: int) -> str:
    return C.places[p].name if p < NS else f"dot {C.places[p].id}"


def crate_type(code: int) -> int:
    return FOOD if code < 8 else code >> 3


def crate_name(code: int) -> str:
    if code < 8:
        return f"{C.cargo[FOOD].name} from {C.places[code].name}"
    return C.cargo[code >> 3].name


# -- Set Up --------------------------------------------------------------------
def setup(s: S) -> None:
    s.country, s.home = [-1, -1], [-1, -1]
    s.coins = [C.start_coins, C.start_coins]
    s.gov = [-1] * NS
    s.gov_left = [C.governors, C.governors]
    s.at = [-1] * (2 * SHIPS)
    s.sails = [0] * (2 * SHIPS)
    s.moves = [0] * (2 * SHIPS)
    s.holds = [()] * (2 * SHIPS)
    s.chips = [-1] * NS
    s.stock = list(C.stock)
    s.occ = [0] * len(C.places)
    s.pools = [[], []]
    s.turn = 0
    s.first = -1  # the first decisions are the state's to push (``frames.set_up``): frames build on these rules


def assign_countries(s: S, seat: int, country: int) -> None:
    """Set Up: one player leads Talonas (yellow), the other Koruna (red)."""
    s.country[seat], s.country[1 - seat] = country, 1 - country
    for p in (0, 1):
        s._event(f"Seat {p} leads {C.countries[s.country[p]].name}")


def country_index(a: Action) -> int:
    return next(c.index for c in C.countries if c.id == a.country)  # type: ignore[attr-defined]


def first_by_option(s: S) -> int | None:
    """Set Up, "Choose a player to go first": the seat the ``first_player`` option names (None: seat 1 chooses)."""
    how = s.options["first_player"]
    if how == "choose":
        return None
    if how == "random":
        return s.rng.below(2)
    if how == "koruna":
        return s.country.index(0)
    return 0


def set_first(s: S, seat: int) -> None:
    """Set Up: "Choose a player to go first"; that player also picks a home settlement first."""
    s.first = seat
    s._event(f"{country_name(s, seat)} goes first")


def legal_homes(s: S, seat: int) -> tuple[Action, ...]:
    return tuple(A.HOME[p] for p in C.settlements_of[s.country[seat]])


def choose_home(s: S, seat: int, p: int) -> None:
    """Set Up: a home settlement with one Governor and a one-sail ship docked there."""
    s.home[seat] = p
    s.gov[p] = seat
    s.gov_left[seat] -= 1
    slot = seat * SHIPS
    s.at[slot] = p
    s.sails[slot] = 1
    s.occ[p] += 1
    s._event(f"{country_name(s, seat)} makes {C.places[p].name} its home: a Governor and a one-sail ship")


def deal_chips(s: S) -> None:
    """Set Up: each country's chips are mixed; one face up at each of its settlements, four face down."""
    for c in (0, 1):
        chips = list(C.chips[c])
        s.rng.shuffle(chips)
        for p in C.settlements_of[c]:
            s.chips[p] = chips.pop()
            s._event(f"{C.places[p].name} wants {C.cargo[s.chips[p]].name}")
        s.pools[c] = chips


# -- How to Play: the turn ---------------------------------------------------------
def is_free(s: S, p: int) -> bool:
    """How to Play: one ship a dot; a settlement holds as many as it has dock spaces."""
    return s.occ[p] < CAP[p]


def can_move(s: S, seat: int) -> bool:
    occ, at, moves = s.occ, s.at, s.moves
    base = seat * SHIPS
    for slot in range(base, base + SHIPS):
        if moves[slot] and at[slot] >= 0:
            for nb in NBR[at[slot]]:
                if occ[nb] < CAP[nb]:
                    return True
    return False


def legal_moves(s: S, seat: int) -> tuple[Action, ...]:
    """Each ship moves up to its sail count, one line at a time, never into an occupied dot (blockades)."""
    occ, at, moves = s.occ, s.at, s.moves
    base = seat * SHIPS
    acts: list[Action] = []
    for k in range(SHIPS):
        slot = base + k
        if moves[slot] and at[slot] >= 0:
            row = A.MOVE[k]
            for nb in NBR[at[slot]]:
                if occ[nb] < CAP[nb]:
                    acts.append(row[nb])
    acts.append(A.STOP)
    return tuple(acts)


def sail(s: S, slot: int, to: int) -> None:
    frm = s.at[slot]
    s.occ[frm] -= 1
    s.occ[to] += 1
    s.at[slot] = to
    if to < NS and s.options["dock_ends_move"]:
        s.moves[slot] = 0
    s._event(f"{C.countries[s.country[slot // SHIPS]].name} ship {slot % SHIPS + 1}: {_PLACE_NAMES[frm]} -> {_PLACE_NAMES[to]}")


def move_ship(s: S, slot: int, to: int) -> None:
    """How to Play: a move spends one of the ship's moves this turn."""
    s.moves[slot] -= 1
    sail(s, slot, to)


# -- the six actions -----------------------------------------------------------------
def sellable(s: S, code: int, p: int) -> bool:
    """Sell Cargo: only cargo of the opposite country; food anywhere but where it was bought."""
    if code < 8:
        return code != p
    return C.cargo[code >> 3].country != COUNTRY_OF[p]


#: ``sellable`` and ``place_name`` as tables: they run for every crate of every decision of a turn.
_SELLABLE_AT = tuple(tuple(sellable(None, code, p) for code in range(8 * NK)) for p in range(NS))  # type: ignore[arg-type]
_PLACE_NAMES = tuple(place_name(p) for p in range(len(C.places)))


def can_take(s: S, slot: int, k: int, p: int) -> bool:
    """Take On Cargo: from that country's stockpile, never the last crate of a type already aboard."""
    left = s.stock[COUNTRY_OF[p] * NK + k]
    if not left:
        return False
    if left == 1:
        for code in s.holds[slot]:
            if (code < 8 and k == FOOD) or code >> 3 == k and code >= 8:
                return False
    return True


def has_room(s: S, slot: int) -> bool:
    """Ships: four places, each a sail or a crate."""
    return s.sails[slot] + len(s.holds[slot]) < PLACES


def legal_sales(s: S, seat: int, only_at: int) -> list[Action]:
    acts: list[Action] = []
    at, holds = s.at, s.holds
    base = seat * SHIPS
    for k in range(SHIPS):
        p = at[base + k]
        if 0 <= p < NS and (only_at < 0 or p == only_at):
            row = A.SELL[k]
            ok = _SELLABLE_AT[p]
            last = -1
            for code in holds[base + k]:  # holds are sorted: equal crates are neighbours
                if code != last and ok[code]:
                    acts.append(row[code])
                last = code
    return acts


def legal_takes(s: S, slot: int) -> list[Action]:
    p = s.at[slot]
    if not 0 <= p < NS or not has_room(s, slot):
        return []
    row = A.TAKE[slot % SHIPS]
    return [row[k] for k in C.buyable[COUNTRY_OF[p]] if can_take(s, slot, k, p)]


def opponent_docked(s: S, p: int, seat: int) -> bool:
    base = (1 - seat) * SHIPS
    at = s.at
    return at[base] == p or at[base + 1] == p or at[base + 2] == p


def legal_actions(s: S, seat: int, used: int) -> tuple[Action, ...]:
    """How to Play: up to two different actions of the six, then the turn ends.

    One function for the six (each rule a paragraph below): it runs at every decision of a turn.
    """
    base = seat * SHIPS
    at, sails, gov, occ = s.at, s.sails, s.gov, s.occ
    coins = s.coins[seat]
    acts: list[Action] = []
    if not used & SELL_BIT:
        acts.extend(legal_sales(s, seat, -1))
    if not used & TAKE:
        for slot in range(base, base + SHIPS):
            acts.extend(legal_takes(s, slot))
    if not used & BUILD and coins >= C.hull_cost and at[base + SHIPS - 1] < 0:
        # Build a New Hull: an empty dock at a settlement with your Governor; three ships at most.
        for p in range(NS):
            if gov[p] == seat and occ[p] < CAP[p]:
                acts.append(A.BUILD[p])
    if not used & SAILS and coins >= C.sail_cost:
        # Add Sails: a ship docked where you have a Governor; three sails at most, four places in all.
        for k in range(SHIPS):
            slot = base + k
            p = at[slot]
            if 0 <= p < NS and gov[p] == seat:
                room = min(C.max_sails - sails[slot], PLACES - sails[slot] - len(s.holds[slot]),
                           coins // C.sail_cost if C.sail_cost else C.max_sails)
                row = A.SAILS[k]
                for n in range(1, room + 1):
                    acts.append(row[n])
    if not used & GOVERNOR and s.gov_left[seat]:
        # Install a Governor: where you are docked, none there yet, the opponent not docked there.
        seen = -1
        for slot in range(base, base + SHIPS):
            p = at[slot]
            if 0 <= p < NS and p != seen and gov[p] < 0 and not opponent_docked(s, p, seat):
                if A.INSTALL[p] not in acts:
                    acts.append(A.INSTALL[p])
                seen = p
    if not used & AGAIN:
        # Move One Ship Again: one more space, even after a full move; a ship needs a sail to move.
        for k in range(SHIPS):
            slot = base + k
            p = at[slot]
            if p >= 0 and sails[slot]:
                again = A.AGAIN[k]
                for nb in NBR[p]:
                    if occ[nb] < CAP[nb]:
                        acts.append(again[nb])
    if not acts:
        return _END
    acts.append(A.END)
    return tuple(acts)


def build_hull(s: S, seat: int, p: int) -> None:
    base = seat * SHIPS
    slot = next(i for i in range(base, base + SHIPS) if s.at[i] < 0)
    pay(s, seat, C.hull_cost)
    s.at[slot] = p
    s.sails[slot] = 0
    s.holds[slot] = ()
    s.occ[p] += 1
    s._event(f"{country_name(s, seat)} builds ship {slot - base + 1} at {C.places[p].name} for {C.hull_cost}")


def add_sails(s: S, seat: int, slot: int, n: int) -> None:
    pay(s, seat, n * C.sail_cost)
    s.sails[slot] += n
    s._event(f"{country_name(s, seat)} adds {n} sail{'s' if n > 1 else ''} to ship {slot % SHIPS + 1} "
             f"(now {s.sails[slot]})")


def install_governor(s: S, seat: int, p: int) -> None:
    s.gov[p] = seat
    s.gov_left[seat] -= 1
    s._event(f"{country_name(s, seat)} installs a Governor at {C.places[p].name}")


def take_crate(s: S, seat: int, slot: int, k: int) -> None:
    """Take On Cargo: one crate of type ``k`` from the stockpile of the country where the ship is docked."""
    p = s.at[slot]
    s.stock[COUNTRY_OF[p] * NK + k] -= 1
    code = p if k == FOOD else k << 3
    s.holds[slot] = tuple(sorted((*s.holds[slot], code)))
    s._event(f"{country_name(s, seat)} loads {C.cargo[k].name} onto ship {slot % SHIPS + 1} at {C.places[p].name}")


def sell_crate(s: S, seat: int, slot: int, code: int) -> bool:
    """Sell Cargo: in demand, the chip's value; otherwise 1; the Governor's owner earns 1 a crate.

    Returns whether the crate was in demand there (its chip is then replaced when the sale ends).
    """
    p = s.at[slot]
    hold = list(s.holds[slot])
    hold.remove(code)
    s.holds[slot] = tuple(hold)
    k = crate_type(code)
    origin = COUNTRY_OF[code] if code < 8 else C.cargo[k].country
    s.stock[origin * NK + k] += 1  # the crate goes back to its side of the supply card
    demanded = s.chips[p] == k
    value = VALUE[k] if demanded else C.not_in_demand
    s._event(f"{country_name(s, seat)} sells {crate_name(code)} at {C.places[p].name} for {value}"
             + (" (in demand)" if demanded else ""))
    earn(s, seat, value)
    owner = s.gov[p]
    if owner >= 0 and s.frames:
        s._event(f"{country_name(s, owner)}'s Governor at {C.places[p].name} earns {C.governor_income}")
        earn(s, owner, C.governor_income)
    return demanded


def draw_new_chip(s: S, p: int, sold_demand: bool) -> None:
    """Sell Cargo: a new chip is drawn for the settlement; the sold one goes back face down, mixed."""
    refresh = s.options["chip_refresh"]
    if refresh == "any-sale" or (refresh == "in-demand" and sold_demand):
        pool = s.pools[COUNTRY_OF[p]]
        old = s.chips[p]
        s.chips[p] = pool.pop()
        pool.append(old)
        s.rng.shuffle(pool)
        s._event(f"{C.places[p].name} draws a new chip: it now wants {C.cargo[s.chips[p]].name}")


# -- money and the end -----------------------------------------------------------------
def pay(s: S, seat: int, amount: int) -> None:
    if amount > s.coins[seat]:
        raise AssertionError("legal actions never let a player pay more than it has")
    s.coins[seat] -= amount


def earn(s: S, seat: int, amount: int) -> None:
    """Winning the Game: the first to hold coins worth the target wins, the moment it does."""
    s.coins[seat] += amount
    if s.coins[seat] >= s.options["target"]:
        end_game(s, f"{country_name(s, seat)} has {s.coins[seat]} coins")


def cut_by_cap(s: S) -> bool:
    """Over with nobody at the target: only the safety cap (``turn_limit``) ends a game so (Winning the Game)."""
    return not s.frames and max(s.coins) < s.options["target"]


def end_game(s: S, why: str) -> None:
    """Winning the Game: no decision is left; the turn it ended in stays on show (its actions used)."""
    s.final_turn = s.frames[:1]  # type: ignore[assignment]  # the bottom frame of a turn is its Turn
    s.frames = ()
    s._event(f"The game ends: {why}. Coins: " + ", ".join(f"{country_name(s, p)} {s.coins[p]}" for p in (0, 1)))


_CODES: dict[str, int] = {A.crate_token(c): c for c in [*range(NS), *(k << 3 for k in range(1, NK))]}


def crate_code(token: str) -> int:
    return _CODES[token]


def check_consistent(s: S) -> None:
    """Refuse a loaded state whose crates, ships or chips do not add up."""
    counts = [0] * (2 * NK)
    for i, n in enumerate(s.stock):
        counts[i] += n
    occ = [0] * len(C.places)
    for slot, p in enumerate(s.at):
        if p >= 0:
            occ[p] += 1
        for code in s.holds[slot]:
            k = crate_type(code)
            origin = COUNTRY_OF[code] if code < 8 else C.cargo[k].country
            counts[origin * NK + k] += 1
    if counts != list(C.stock):
        raise BadRecord("saved Precious Cargo state does not hold exactly the 20 crates of the supply")
    if occ != s.occ:
        raise BadRecord("saved Precious Cargo state's ship positions do not match its occupancy")
    for c in (0, 1):
        chips = sorted(s.pools[c] + [s.chips[p] for p in C.settlements_of[c] if s.chips[p] >= 0])
        if s.chips[C.settlements_of[c][0]] >= 0 and chips != list(C.chips[c]):
            raise BadRecord(f"saved Precious Cargo state does not hold {C.countries[c].name}'s eight chips")
