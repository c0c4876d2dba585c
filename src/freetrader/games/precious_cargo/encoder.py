"""Precious Cargo encoder, version 1.

Two seats, counted from the observer: "me" then "the other" (a spectator
counts from seat 0). From ``data/``: S settlements and D dots (places
``S + D``, settlements first, in file order), K cargo types (food first),
two countries. A crate type is food bought at one settlement (S kinds) or
a non-food cargo (K - 1 kinds): ``T = S + K - 1``.

Observation (with the shipped data S=8, D=21, K=7: 452 floats): declared once as named pieces in
``layout(options)``; the table with offsets and bounds is generated into
``docs/reference/observations.md`` and the C header ``_precious_cargo_layout.h`` from it. Blocks:
the players (me, the other), the settlements (in file order), the ships (mine 1-3, then the
other's 1-3); ``supply`` lists per country its buyable cargo (country order, then ``buyable``
order).

Actions (``3 + 2 + 2 + 3 S + 3 (2 (S + D) + 3 + K + T)`` = 277 with the shipped data):
``stop, done, end``; ``country <c>`` per country; ``first 0, first 1``;
``home``, ``build``, ``governor`` per settlement; then for ship 1, 2, 3:
``move <ship> <place>`` per place, ``again <ship> <place>`` per place,
``sails <ship> 1..3``, ``take <ship> <cargo>`` per cargo,
``sell <ship> <crate>`` per crate type (food@<settlement> first, then cargo);
then 256 overflow indices (see ``Catalogue``).
"""

from __future__ import annotations

import struct
from collections.abc import Callable, Mapping
from typing import Any

import numpy as np

from freetrader.adapters.encoders import register_encoder, register_layout
from freetrader.adapters.encoders._build import compiled, index_of, one_hot, rel
from freetrader.adapters.encoders.base import Catalogue, Encoder, seat_in_range
from freetrader.adapters.encoders.layout import Block, Layout, Piece
from freetrader.adapters.limits import default_max_actions
from freetrader.core import Game, State
from freetrader.games.precious_cargo import actions as A
from freetrader.games.precious_cargo.components import CHIPS_PER_COUNTRY
from freetrader.games.precious_cargo.components import COMPONENTS as C
from freetrader.games.precious_cargo.components import CRATES as ALL_CRATES
from freetrader.games.precious_cargo.frames import Loading, Selling, Turn
from freetrader.games.precious_cargo.phases import Phase
from freetrader.games.precious_cargo.rules import ACTION_NAMES, ACTIONS_PER_TURN, PHASES

__all__ = ["PreciousCargoEncoder", "NOTATIONS", "ACCELERATED", "layout", "LAYOUT"]

S = C.n_settlements
PLACES = [p.id for p in C.places]
NP = len(PLACES)
K = C.n_cargo
_PLACE = index_of(PLACES)
_CARGO = index_of([c.id for c in C.cargo])
_COUNTRY = index_of([c.id for c in C.countries])
_PHASE = index_of(PHASES)
_USED = index_of([name for _, name in ACTION_NAMES])
CRATES = [A.crate_token(p) for p in range(S)] + [A.crate_token(k << 3) for k in range(1, K)]
_CRATE = index_of(CRATES)
T = len(CRATES)
SHIPS = A.SHIPS

NOTATIONS: list[str] = [str(a) for a in (A.STOP, A.DONE, A.END, *A.COUNTRY, *A.FIRST, *A.HOME, *A.BUILD, *A.INSTALL)]
for _k in range(SHIPS):
    NOTATIONS += [str(a) for a in A.MOVE[_k]]
    NOTATIONS += [str(a) for a in A.AGAIN[_k]]
    NOTATIONS += [str(a) for a in A.SAILS[_k][1:]]
    NOTATIONS += [str(a) for a in A.TAKE[_k]]
    NOTATIONS += [f"sell {_k + 1} {c}" for c in CRATES]
_CATALOGUE = Catalogue(NOTATIONS, "precious-cargo v1")


def _flag(name: str, doc: str, size: int = 1) -> Piece:
    return Piece(name, size, 0.0, 1.0, doc)


def layout(options: Mapping[str, Any] | None = None) -> Layout:
    """The observation's pieces; the turn's bound follows ``turn_limit`` (else the default action bound,
    since a turn takes at least one action; a longer ``max_actions`` can go beyond it)."""
    limit = (options or {}).get("turn_limit", 0)
    turns = limit or default_max_actions("precious-cargo", 2)
    supply = sum(len(b) for b in C.buyable)
    return Layout("precious-cargo", 1, [
        _flag("phase", "phase one-hot (``rules.PHASES``)", len(PHASES)),
        Piece("turn", 1, 0.0, turns / 100, "turn/100 (turn_limit, or the action bound)"),
        Piece("target", 1, 5 / 50, 200 / 50, "target/50 (the option's range, 5-200)"),
        Piece("bank", 1, 0.0, C.coins_total / 100, f"coins in the bank/100 (all the coins: {C.coins_total})"),
        Piece("actions_left", 1, 0.0, ACTIONS_PER_TURN / 2, f"actions left this turn/2 (of {ACTIONS_PER_TURN})"),
        _flag("first_me", "the first player is me"),
        _flag("first_other", "the first player is the other"),
        _flag("first_none", "no first player chosen yet"),
        _flag("used", "actions used this turn (build, sails, governor, take, sell, again)", len(_USED)),
        _flag("loading", "the ship being loaded (none, 1-3)", SHIPS + 1),
        _flag("selling", "the settlement being sold at (one-hot, last = none)", S + 1),
        Block("players", 2, (
            _flag("country", "country (koruna, talonas, none)", 3),
            _flag("home", "home settlement one-hot (last = none)", S + 1),
            Piece("coins", 1, 0.0, C.coins_total / 25, "coins/25 (at most all the coins)"),
            Piece("governors_left", 1, 0.0, C.governors / 5, f"governors left/5 (of {C.governors})"),
        ), "per player: me, then the other"),
        Block("settlements", S, (
            _flag("governor", "governor (me, the other, none)", 3),
            _flag("wants", "the chip wanted (cargo one-hot, last = none)", K + 1),
            Piece("my_ships", 1, 0.0, float(SHIPS), "my ships there"),
            Piece("other_ships", 1, 0.0, float(SHIPS), "the other's ships there"),
        ), "per settlement, in file order"),
        Block("ships", 2 * SHIPS, (
            _flag("built", "built"),
            _flag("place", "where (place one-hot: settlements, then dots)", NP),
            Piece("sails", 1, 0.0, C.max_sails / 3, f"sails/3 (at most {C.max_sails})"),
            Piece("moves_left", 1, 0.0, C.max_sails / 5, "moves left/5 (at most its sails)"),
            Piece("crates", T, 0.0, float(C.ship_places), f"crates per crate type (a ship has {C.ship_places} places)"),
        ), "per ship: mine 1-3, then the other's 1-3"),
        Piece("supply", supply, 0.0, ALL_CRATES / 10, f"supply per country per buyable cargo/10 (all the crates: {ALL_CRATES})"),
        Piece("face_down", 2, 0.0, CHIPS_PER_COUNTRY / 10, f"face-down chips per country/10 ({CHIPS_PER_COUNTRY} each)"),
    ], notes=f"S={S} settlements, D={NP - S} dots, K={K} cargo types, T={T} crate types; bounds at default options.")


LAYOUT = layout()
_SHIP_BLOCK = LAYOUT.stride("ships")
_USED_BITS = [(bit, _USED[name]) for bit, name in ACTION_NAMES]
_TURN_PHASES = frozenset(PHASES.index(p) for p in ("move", "actions", "loading", "selling"))
_CRATE_OF: dict[int, int] = {}  # crate code -> its crate type's index, filled as codes are met


_MEMO_LIMIT = 50_000
# ship slots in the order the observer's blocks list them: its own three, then the other's
_SLOTS = [[(r * SHIPS + k + 3 * me) % (2 * SHIPS) for r in (0, 1) for k in range(SHIPS)] for me in (0, 1)]


def _f32(values: list[float]) -> bytes:
    """float32 bytes, rounded from float64 as ``np.asarray(values, np.float32)`` rounds them."""
    return np.asarray(values, dtype=np.float32).tobytes()


def _one_hot_bytes(i: int, n: int) -> bytes:
    return _f32([float(i == k) for k in range(n)])


def _used_bytes(used: int) -> bytes:
    flags = [0.0] * len(_USED)
    for bit, i in _USED_BITS:
        if used & bit:
            flags[i] = 1.0
    return _f32(flags)


# The head's pieces: phase, seven scalars (turn, target, bank, actions left, first player is me,
# is the other, not chosen yet), actions used (by their bits), the ship loading, the selling place.
_PHASE_BYTES = [_one_hot_bytes(i, len(PHASES)) for i in range(len(PHASES))]
_HEAD = struct.Struct("7f").pack
_USED_BYTES = [_used_bytes(u) for u in range(1 << len(_USED_BITS))]
_LOADING_BYTES = {c: _one_hot_bytes(c % SHIPS + 1 if c >= 0 else 0, SHIPS + 1) for c in range(-1, 2 * SHIPS)}
_SELLING_BYTES = {p: _one_hot_bytes(p if p >= 0 else S, S + 1) for p in range(-1, S)}
_COUNT_BYTES = [[_f32([float(m), float(o)]) for o in range(2 * SHIPS + 1)] for m in range(2 * SHIPS + 1)]


def _players(s: Any, me: int) -> bytes:
    out: list[float] = []
    for r in (0, 1):
        p = (me + r) % 2
        one_hot(out, s.country[p] if s.country[p] >= 0 else 2, 3)
        one_hot(out, s.home[p] if s.home[p] >= 0 else S, S + 1)
        out += [s.coins[p] / 25, s.gov_left[p] / 5]
    return _f32(out)


def _settlements(s: Any, me: int) -> list[bytes]:
    """Per settlement: its governor (me, the other, none) and the chip it wants (without the ship counts)."""
    out = []
    for p in range(S):
        block: list[float] = []
        one_hot(block, (s.gov[p] - me) % 2 if s.gov[p] >= 0 else 2, 3)
        one_hot(block, s.chips[p] if s.chips[p] >= 0 else K, K + 1)
        out.append(_f32(block))
    return out


def _ship(place: int, sails: int, moves: int, hold: tuple[int, ...]) -> bytes:
    """One built ship's block: built, where, sails, moves left, crates per crate type."""
    block = [0.0] * _SHIP_BLOCK
    block[0] = 1.0
    block[1 + place] = 1.0
    block[1 + NP] = sails / 3
    block[2 + NP] = moves / 5
    for code in hold:
        k = _CRATE_OF.get(code)
        if k is None:
            k = _CRATE_OF[code] = _CRATE[A.crate_token(code)]
        block[3 + NP + k] += 1.0
    return _f32(block)


def _supply(s: Any) -> bytes:
    out: list[float] = []
    for country in C.countries:
        out += [s.stock[country.index * K + k] / 10 for k in C.buyable[country.index]]
    out += [len(s.pools[c.index]) / 10 for c in C.countries]
    return _f32(out)


_NO_SHIP = bytes(4 * _SHIP_BLOCK)


def _crate_table() -> list[int]:
    """Crate code -> crate type index (-1: no such code), for the compiled encoder."""
    table = []
    for code in range(8 * K):
        try:
            table.append(_CRATE[A.crate_token(code)])
        except (IndexError, KeyError):
            table.append(-1)
    return table


_compiled = compiled("_precious_cargo_fast")
_COMPILED_SIZE = None if _compiled is None else _compiled.configure(
    len(PHASES), sorted(_TURN_PHASES), S, NP, K, SHIPS, ACTIONS_PER_TURN, float(C.coins_total),
    [bit for bit, _ in _USED_BITS], [i for _, i in _USED_BITS], _crate_table(),
    list(C.buyable[C.countries[0].index]), list(C.buyable[C.countries[1].index]),
    # the state's phase, used, cur_ship and sell_at are properties over its frame stack: C reads the stack
    int(Phase.OVER), Turn, Loading, Selling,
)
ACCELERATED = _compiled is not None


class PreciousCargoEncoder(Encoder):
    name = "precious-cargo"
    version = 1

    def __init__(self, game: Game, seats: int, options: Mapping[str, Any]) -> None:
        super().__init__(game, seats, options)
        self.actions = _CATALOGUE
        self.use_layout(layout(self.options))
        self._memo: dict[tuple[Any, ...], Any] = {}  # a piece's fields -> its float32 bytes
        if _compiled is not None and _COMPILED_SIZE != self.observation_size:  # the C checks its header too
            raise RuntimeError(f"the compiled Precious Cargo encoder makes {_COMPILED_SIZE} features, "
                               f"the encoder {self.observation_size}: rebuild the package")
        self.compiled = ACCELERATED

    def compiled_bytes(self, state: State, seat: int | None) -> bytes | bytearray | None:
        """The vector from ``_precious_cargo_fast``, where it is used; None otherwise."""
        if self.compiled and _compiled is not None and seat_in_range(seat, 2):
            return _compiled.encode(state, seat)  # type: ignore[no-any-return]
        return None

    def compiled_function(self) -> Callable[[State, int | None], bytes | bytearray] | None:
        """``_compiled.encode`` itself while it is used: ``compiled_bytes`` is that one call for a seat in range."""
        return _compiled.encode if self.compiled and _compiled is not None else None

    def encode_state(self, state: State, seat: int | None) -> np.ndarray:
        """``encode(state.view(seat))`` from the state's fields: everything on the board is public.

        The only hidden thing, the order of the face-down chips, appears in
        neither (their count does). Where the install compiled
        ``_precious_cargo_fast.c`` the vector is made in C; otherwise it is
        joined from float32 pieces (the head, the players, the settlements,
        each ship, the supply), each memoized by the fields it shows.
        """
        s: Any = state
        if not seat_in_range(seat, 2):
            return super().encode_state(state, seat)  # seat_view raises the error
        got = self.compiled_bytes(s, seat)
        if got is not None:
            return np.frombuffer(bytearray(got), np.float32)  # a new array the caller owns
        me = seat or 0
        memo = self._memo
        if len(memo) > _MEMO_LIMIT:
            memo.clear()
        coins = s.coins
        at = s.at
        phase = s.phase
        first = s.first
        head = (
            _PHASE_BYTES[phase],
            _HEAD(s.turn / 100, s.options["target"] / 50, (C.coins_total - sum(coins)) / 100,
                  (ACTIONS_PER_TURN - s.n_used if phase in _TURN_PHASES else 0) / 2,
                  first == me, first >= 0 and first != me, first < 0),
            _USED_BYTES[s.used], _LOADING_BYTES[s.cur_ship], _SELLING_BYTES[s.sell_at],
        )
        key: tuple[Any, ...] = (1, me, *s.country, *s.home, *coins, *s.gov_left)
        players = memo.get(key)
        if players is None:
            players = memo[key] = _players(s, me)
        key = (2, me, *s.gov, *s.chips)
        settlements = memo.get(key)
        if settlements is None:
            settlements = memo[key] = _settlements(s, me)
        # ships at each settlement, mine then the other's, interleaved after each settlement's block
        counts = [0] * (2 * S)
        for slot in _SLOTS[me]:
            place = at[slot]
            if 0 <= place < S:
                counts[2 * place + (slot // SHIPS != me)] += 1
        pieces = [*head, players]
        for p in range(S):
            pieces.append(settlements[p])
            pieces.append(_COUNT_BYTES[counts[2 * p]][counts[2 * p + 1]])
        sails, moves, holds = s.sails, s.moves, s.holds
        ships = []
        for slot in _SLOTS[me]:
            place = at[slot]
            if place < 0:
                ships.append(_NO_SHIP)
                continue
            key = (3, place, sails[slot], moves[slot], holds[slot])
            ship = memo.get(key)
            if ship is None:
                ship = memo[key] = _ship(place, sails[slot], moves[slot], holds[slot])
            ships.append(ship)
        pools = s.pools
        key = (4, len(pools[0]), len(pools[1]), *s.stock)
        supply = memo.get(key)
        if supply is None:
            supply = memo[key] = _supply(s)
        return np.frombuffer(bytearray().join((*pieces, *ships, supply)), np.float32)

    def features(self, v: Mapping[str, Any]) -> list[float]:
        me = v["seat"] or 0
        out: list[float] = []
        one_hot(out, _PHASE.get(v["phase"]), len(PHASES))
        first = rel(v["first"], me, 2)
        out += [v["turn"] / 100, v["target"] / 50, v["bank"] / 100, v["actions_left"] / 2,
                float(first == 0), float(first == 1), float(first is None)]
        used = [0.0] * len(_USED)
        for name in v["actions_used"]:
            used[_USED[name]] = 1.0
        out += used
        one_hot(out, v["loading_ship"] or 0, SHIPS + 1)
        one_hot(out, _PLACE.get(v["selling_at"], S) if v["selling_at"] else S, S + 1)
        players = v["players"]
        for r in (0, 1):
            pl = players[(me + r) % 2]
            one_hot(out, _COUNTRY.get(pl["country"], 2) if pl["country"] else 2, 3)
            one_hot(out, _PLACE[pl["home"]] if pl["home"] else S, S + 1)
            out += [pl["coins"] / 25, pl["governors_left"] / 5]
        for st in v["settlements"]:
            one_hot(out, rel(st["governor"], me, 2) if st["governor"] is not None else 2, 3)
            one_hot(out, _CARGO[st["wants"]] if st["wants"] else K, K + 1)
            ships = st["ships"]
            mine = sum(1 for x in ships if int(x.split(":")[0]) == me)
            out += [float(mine), float(len(ships) - mine)]
        blocks = [0.0] * (2 * SHIPS * _SHIP_BLOCK)
        for sh in v["ships"]:
            r = (sh["owner"] - me) % 2
            base = (r * SHIPS + sh["number"] - 1) * _SHIP_BLOCK
            blocks[base] = 1.0
            blocks[base + 1 + _PLACE[sh["at"]]] = 1.0
            blocks[base + 1 + NP] = sh["sails"] / 3
            blocks[base + 2 + NP] = sh["moves_left"] / 5
            for c in sh["cargo"]:
                blocks[base + 3 + NP + _CRATE[c]] += 1.0
        out += blocks
        for country in C.countries:
            supply = v["supply"][country.id]
            out += [supply[C.cargo[k].id] / 10 for k in C.buyable[country.index]]
        out += [v["face_down_chips"][c.id] / 10 for c in C.countries]
        return out


register_encoder("precious-cargo", PreciousCargoEncoder, versions=(1,))
register_layout("precious-cargo", LAYOUT, c_prefix="PC")
