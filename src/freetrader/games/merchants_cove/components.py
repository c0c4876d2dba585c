"""Merchants Cove components, read once from ``data/*.toml``, validated and frozen.

Colours are indices: 0 red, 1 green, 2 blue, 3 yellow, 4 grey (Rogues). A good is
``colour * 2 + size`` (size 0 small, 1 large), so grey Rogue Goods (Secret Stash)
fit the same arrays.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from freetrader.core import DataError
from freetrader.core.data import Table, load_toml

__all__ = [
    "COLOURS", "GREY", "SIZES", "GOOD_IDS", "good", "Pier", "RogueCard", "Townsfolk", "CorruptionCard",
    "MerchantData", "PeddlerCard", "Components", "COMPONENTS", "load_components",
]

PKG = "freetrader.games.merchants_cove"
COLOURS = ("red", "green", "blue", "yellow", "grey")
GREY = 4
# Secret Stash Faction Leaders: adventurer 5 + colour is that colour's Leader (counts as two of it)
ADV_NAMES = COLOURS + tuple(f"{c}-leader" for c in COLOURS)
SIZES = ("small", "large")
N_GOODS = len(COLOURS) * 2
GOOD_IDS = tuple(f"{SIZES[g % 2]}-{COLOURS[g // 2]}" for g in range(N_GOODS))
ABILITIES = ("gold", "discard", "good-small", "good-large", "load", "return", "move",
             # Secret Stash sets
             "staff-one", "staff-all", "good-large-discard", "good-small-discard", "grey-good", "recruit", "corruption")
ROGUE_EFFECTS = ("dock-corruption", "buy-anything", "rob",
                 # Secret Stash Rogue cards 4-14
                 "pirates", "kraken", "ghost", "walkers", "raiders", "charlatans", "doppelgangers", "assassins",
                 "warlocks", "mind", "backers")
BOXES = ("base", "secret-stash")


def good(colour: int, size: int) -> int:
    return colour * 2 + size


@dataclass(frozen=True)
class Pier:
    index: int
    id: str
    name: str
    sizes: tuple[int, ...]
    sides: tuple[int, ...]  # 0 left, 1 right: one docking slot per entry
    corruption: int


@dataclass(frozen=True)
class RogueCard:
    index: int
    id: str
    number: int
    name: str
    bag: int
    lair: int
    on_boats: bool
    effect: str
    amount: int = 0
    box: str = "base"
    text: str = ""


@dataclass(frozen=True)
class Townsfolk:
    index: int
    id: str
    name: str
    set: str
    colour: int
    cost: int
    icons: tuple[int, ...]
    ability: str
    amount: int


@dataclass(frozen=True)
class CorruptionCard:
    index: int
    id: str
    icons: int
    faction: int  # -1 none
    count: int
    cost: tuple[str, int] = ("", 0)  # Secret Stash discard cost: ("gold" | "goods", N)
    box: str = "base"


@dataclass(frozen=True)
class MerchantData:
    id: str
    name: str
    complexity: int
    actions: dict[str, int]
    staff: tuple[tuple[str, int], ...]
    params: dict[str, int]
    lists: dict[str, tuple[str, ...]]


@dataclass(frozen=True)
class PeddlerCard:
    index: int
    id: str
    boat: int
    load: int
    goods: tuple[int, ...]
    hours: int
    arrows: bool = False  # the two-arrow icon: targets the Sailing 2-seater Boat (Secret Stash)


@dataclass(frozen=True)
class Components:
    days: int
    clock_start: int
    market: int
    mice: tuple[int, ...]
    mouse_step: int
    mouse_load: int
    adventurers: tuple[int, ...]  # count per colour
    boat_count: int
    capacity: int
    arrival: int
    boat_side: tuple[int, ...]
    piers: tuple[Pier, ...]
    slots: tuple[tuple[int, int], ...]  # docking slot -> (pier, side)
    values: tuple[int, ...]  # per good
    supply: tuple[int, ...]  # per good, each merchant
    shelf: int
    carry_over: bool
    hall_seed: int
    shield_max: int
    sponsor_rate: int
    icon_rate: int
    icon_cap: int
    corruption_base: int
    corruption_per_lair: int
    rogue_icon_cancels: int
    square: int
    sets: int
    staff_spaces: int
    start_gold: int
    bank: int
    common: dict[str, int]  # common action -> hours
    load_count: int
    rogues: tuple[RogueCard, ...]
    townsfolk: tuple[Townsfolk, ...]
    tf_sets: tuple[str, ...]
    corruption: tuple[CorruptionCard, ...]
    corruption_deck: tuple[int, ...]
    merchants: dict[str, MerchantData]
    peddler_cards: tuple[PeddlerCard, ...]
    peddler_supply: tuple[int, ...]
    peddler_shelf: int
    stash: dict[str, dict[str, Any]]  # data/stash.toml: numbers of the Secret Stash modules
    challenges: tuple[Challenge, ...]
    boat_setups: tuple[BoatSetup, ...]


def _entries(raw: dict[str, Any], key: str, file: str) -> list[Table]:
    items = Table(raw, file).get(key, list)
    return [Table(item, f"{file} {key} {i + 1}") for i, item in enumerate(items)]


def _finish(t: Table) -> None:
    t.provenance()
    t.get("source", str, "")
    t.get("note", str, "")
    t.done()


def _colour(name: str, where: str, grey: bool = True) -> int:
    if name not in COLOURS or (name == "grey" and not grey):
        raise DataError(f"{where}: colour {name!r} must be one of {', '.join(COLOURS[: 5 if grey else 4])}")
    return COLOURS.index(name)


def _good(name: str, where: str) -> int:
    if name not in GOOD_IDS:
        raise DataError(f"{where}: good {name!r} must be one of {', '.join(GOOD_IDS)}")
    return GOOD_IDS.index(name)


def _unique(ids: list[str], file: str) -> None:
    if len(set(ids)) != len(ids):
        dup = sorted({i for i in ids if ids.count(i) > 1})
        raise DataError(f"{file}: ids {dup} appear twice; ids must be unique")


def _section(raw: dict[str, Any], key: str, file: str) -> Table:
    return Table(Table(raw, file).get(key, dict), f"{file} [{key}]")


def _box(t: Table) -> str:
    box: str = t.get("box", str, "base")
    if box not in BOXES:
        raise DataError(f"{t.where}: box {box!r} must be one of {', '.join(BOXES)}")
    return box


def _cost(t: Table) -> tuple[str, int]:
    text = t.get("cost", str, "")
    if not text:
        return ("", 0)
    kind, _, n = text.partition(" ")
    if kind not in ("gold", "goods") or not n.isdigit():
        raise DataError(f"{t.where}: cost {text!r} must be 'gold N' or 'goods N'")
    return (kind, int(n))


@dataclass(frozen=True)
class Challenge:
    index: int
    id: str
    dumbbell: bool
    kind: str  # "have": the Goods on your Sale Shelf; "lose": move them to your supply
    goods: tuple[int, ...]
    gold: tuple[int, ...]  # Gold by margin 0..6


def _challenges(data_dir: str | Path | None) -> tuple[Challenge, ...]:
    out = []
    for i, c in enumerate(_entries(load_toml(PKG, "stash.toml", data_dir), "challenge", "stash.toml")):
        kind = c.get("kind", str)
        if kind not in ("have", "lose"):
            raise DataError(f"{c.where}: kind {kind!r} must be have or lose")
        out.append(Challenge(i, c.get("id", str), c.get("dumbbell", bool), kind,
                             tuple(_good(g, c.where) for g in c.get("goods", list)), tuple(c.get("gold", list))))
        _finish(c)
    return tuple(out)


@dataclass(frozen=True)
class BoatSetup:
    index: int
    id: str
    four: tuple[int, ...]  # 4-seater indices (0-5) in play
    two: bool
    five: bool


def _boat_setups(data_dir: str | Path | None) -> tuple[BoatSetup, ...]:
    out = []
    for i, c in enumerate(_entries(load_toml(PKG, "stash.toml", data_dir), "boat_setup", "stash.toml")):
        four = tuple(b - 1 for b in c.get("four", list))
        if any(not 0 <= b < 6 for b in four):
            raise DataError(f"{c.where}: four lists 4-seaters 1-6")
        out.append(BoatSetup(i, c.get("id", str), four, c.get("two", bool), c.get("five", bool)))
        _finish(c)
    return tuple(out)


def _stash(data_dir: str | Path | None) -> dict[str, dict[str, Any]]:
    out = {}
    for key, value in load_toml(PKG, "stash.toml", data_dir).items():
        if key in ("challenge", "boat_setup"):
            continue
        t = Table(value, f"stash.toml [{key}]")
        out[key] = {k: v for k, v in value.items() if k not in ("provenance", "source", "note")}
        for k, v in out[key].items():
            t.get(k, type(v))
        _finish(t)
    return out


def load_components(data_dir: str | Path | None = None) -> Components:
    """Every component from ``data/*.toml`` (or a data pack's folder), each file checked as it is read."""
    board = _board(data_dir)
    adv, boat_count = board["adventurers"], board["boat_count"]
    rogues = _rogues(data_dir, adv[GREY])
    tfs = _townsfolk(data_dir)
    cards = _corruption(data_dir)
    pcards, psupply, pshelf = _peddler(data_dir, boat_count)
    return Components(
        **board, rogues=rogues, townsfolk=tfs, tf_sets=tuple(dict.fromkeys(c.set for c in tfs)), corruption=cards,
        corruption_deck=tuple(i for c in cards if c.box == "base" for i in [c.index] * c.count),
        merchants=_merchants(data_dir), peddler_cards=pcards, peddler_supply=psupply, peddler_shelf=pshelf,
        stash=_stash(data_dir), challenges=_challenges(data_dir), boat_setups=_boat_setups(data_dir),
    )


def _board(data_dir: str | Path | None) -> dict[str, Any]:
    """``board.toml``: the Components fields it gives, by name."""
    raw = load_toml(PKG, "board.toml", data_dir)
    t = _section(raw, "rounds", "board.toml")
    days = t.get("days", int)
    _finish(t)
    t = _section(raw, "clock", "board.toml")
    clock_start, market = t.get("start", int), t.get("market", int)
    if not 0 < clock_start < market:
        raise DataError("board.toml [clock]: start must be before the market token")
    _finish(t)
    t = _section(raw, "mice", "board.toml")
    mice = tuple(t.get("start", list))
    mouse_step, mouse_load = t.get("step", int), t.get("load", int)
    if mouse_step < 1:
        raise DataError("board.toml [mice]: step must be at least 1")
    _finish(t)
    adv = [0] * 5
    for a in _entries(raw, "adventurer", "board.toml"):
        adv[_colour(a.get("id", str), a.where)] = a.get("count", int)
        a.get("name", str)
        _finish(a)
    t = _section(raw, "boats", "board.toml")
    boat_count, capacity, arrival = t.get("count", int), t.get("capacity", int), t.get("arrival", int)
    side = [-1] * boat_count
    for sd, key in enumerate(("left", "right")):
        for b in t.get(key, list):
            side[b] = sd
    if -1 in side or arrival >= capacity:
        raise DataError("board.toml [boats]: every boat needs a side, and Arrival must leave room aboard")
    _finish(t)
    piers, slots = [], []
    for i, p in enumerate(_entries(raw, "pier", "board.toml")):
        sizes = tuple(SIZES.index(x) for x in p.get("sizes", list))
        sides = tuple(("left", "right").index(x) for x in p.get("slots", list))
        piers.append(Pier(i, p.get("id", str), p.get("name", str), sizes, sides, p.get("corruption", int)))
        slots += [(i, sd) for sd in sides]
        _finish(p)
    t = _section(raw, "goods", "board.toml")
    values = [0] * N_GOODS
    for colour in range(4):
        values[good(colour, 0)] = t.get("small", list)[colour]
        values[good(colour, 1)] = t.get("large", list)[colour]
    values[good(GREY, 0)] = values[good(GREY, 1)] = 12  # Secret Stash: Grey Rogue Goods are worth 12
    supply = [0] * N_GOODS
    for colour in range(4):
        supply[good(colour, 0)] = t.get("supply_small", int)
        supply[good(colour, 1)] = t.get("supply_large", int)
    shelf, carry = t.get("shelf", int), t.get("carry_over", bool)
    _finish(t)
    t = _section(raw, "halls", "board.toml")
    hall_seed, shield_max, sponsor_rate = t.get("seed", int), t.get("shield_max", int), t.get("sponsor_rate", int)
    _finish(t)
    t = _section(raw, "scoring", "board.toml")
    sc = {k: t.get(k, int) for k in ("icon_rate", "icon_cap", "corruption_base", "corruption_per_lair", "rogue_icon_cancels")}
    _finish(t)
    t = _section(raw, "town", "board.toml")
    square, sets, staff_spaces = t.get("square", int), t.get("sets", int), t.get("staff_spaces", int)
    _finish(t)
    t = _section(raw, "start", "board.toml")
    start_gold, bank = t.get("gold", int), t.get("bank", int)
    _finish(t)
    t = _section(raw, "actions", "board.toml")
    common = {k: t.get(k, int) for k in ("load", "recruit", "sponsor")}
    load_count = t.get("load_count", int)
    _finish(t)
    return dict(
        days=days, clock_start=clock_start, market=market, mice=mice, mouse_step=mouse_step, mouse_load=mouse_load,
        adventurers=tuple(adv), boat_count=boat_count, capacity=capacity, arrival=arrival, boat_side=tuple(side),
        piers=tuple(piers), slots=tuple(slots), values=tuple(values), supply=tuple(supply), shelf=shelf,
        carry_over=carry, hall_seed=hall_seed, shield_max=shield_max, sponsor_rate=sponsor_rate, **sc,
        square=square, sets=sets, staff_spaces=staff_spaces, start_gold=start_gold, bank=bank, common=common,
        load_count=load_count,
    )


def _rogues(data_dir: str | Path | None, grey: int) -> tuple[RogueCard, ...]:
    """``rogues.toml``: the Rogue cards (at most ``grey`` Rogues each, bag and Lair)."""
    rogues = []
    for i, r in enumerate(_entries(load_toml(PKG, "rogues.toml", data_dir), "rogue", "rogues.toml")):
        eff = r.get("effect", str)
        if eff not in ROGUE_EFFECTS:
            raise DataError(f"{r.where}: effect {eff!r} must be one of {', '.join(ROGUE_EFFECTS)}")
        rc = RogueCard(i, r.get("id", str), r.get("number", int), r.get("name", str), r.get("bag", int),
                       r.get("lair", int), r.get("on_boats", bool), eff, r.get("amount", int, 0),
                       _box(r), r.get("text", str, ""))
        r.get("recommended", str, "")
        r.get("round_setup", str, "")
        r.get("peddler", str, "")
        if rc.bag + rc.lair > grey:
            raise DataError(f"{r.where}: {rc.bag} in the bag and {rc.lair} in the Lair exceed the {grey} Rogues")
        rogues.append(rc)
        _finish(r)
    _unique([r.id for r in rogues], "rogues.toml")
    return tuple(rogues)


def _townsfolk(data_dir: str | Path | None) -> tuple[Townsfolk, ...]:
    """``townsfolk.toml``: every Townsfolk card of every set."""
    tfs = []
    for i, c in enumerate(_entries(load_toml(PKG, "townsfolk.toml", data_dir), "townsfolk", "townsfolk.toml")):
        ab = c.get("ability", str)
        if ab not in ABILITIES:
            raise DataError(f"{c.where}: ability {ab!r} must be one of {', '.join(ABILITIES)}")
        icons = tuple(_colour(x, c.where) for x in c.get("icons", list))
        tfs.append(Townsfolk(i, c.get("id", str), c.get("name", str), c.get("set", str),
                             _colour(c.get("colour", str), c.where, grey=False), c.get("cost", int), icons, ab,
                             c.get("amount", int)))
        _finish(c)
    _unique([c.id for c in tfs], "townsfolk.toml")
    return tuple(tfs)


def _corruption(data_dir: str | Path | None) -> tuple[CorruptionCard, ...]:
    """``corruption.toml``: the Corruption cards (the base ones make the deck, ``count`` each)."""
    cards = []
    for i, c in enumerate(_entries(load_toml(PKG, "corruption.toml", data_dir), "corruption", "corruption.toml")):
        fac = c.get("faction", str)
        card = CorruptionCard(i, c.get("id", str), c.get("icons", int), _colour(fac, c.where) if fac else -1,
                              c.get("count", int), _cost(c), _box(c))
        cards.append(card)
        _finish(c)
    _unique([c.id for c in cards], "corruption.toml")
    return tuple(cards)


def _merchants(data_dir: str | Path | None) -> dict[str, MerchantData]:
    """``merchants.toml``: each merchant's actions, Staff abilities and (designed) numbers."""
    merchants = {}
    for m in _entries(load_toml(PKG, "merchants.toml", data_dir), "merchant", "merchants.toml"):
        mid = m.get("id", str)
        staff = []
        for text in m.get("staff", list):
            kind, _, n = text.partition(" ")
            if kind not in ("gold", "discard", "merchant") or not n.isdigit():
                raise DataError(f"{m.where}: staff ability {text!r} must be 'gold N', 'discard N' or 'merchant N'")
            staff.append((kind, int(n)))
        lists = {k: tuple(v) for k, v in m.data.items() if isinstance(v, list) and k != "staff"}
        for name in lists:
            m.get(name, list)
        merchants[mid] = MerchantData(mid, m.get("name", str), m.get("complexity", int), dict(m.get("actions", dict)),
                                      tuple(staff), dict(m.get("params", dict)), lists)
        _finish(m)
    return merchants


def _peddler(data_dir: str | Path | None, boat_count: int) -> tuple[tuple[PeddlerCard, ...], tuple[int, ...], int]:
    """``peddler.toml``: the Peddler's cards, its supply and its shelf."""
    praw = load_toml(PKG, "peddler.toml", data_dir)
    t = _section(praw, "peddler", "peddler.toml")
    psupply = [0] * N_GOODS
    for colour in range(4):
        psupply[good(colour, 0)] = t.get("supply_small", int)
        psupply[good(colour, 1)] = t.get("supply_large", int)
    pshelf = t.get("shelf", int)
    _finish(t)
    pcards = []
    for i, c in enumerate(_entries(praw, "card", "peddler.toml")):
        boat = c.get("boat", int)
        if not 1 <= boat <= boat_count:
            raise DataError(f"{c.where}: boat {boat} must be 1..{boat_count}")
        pcards.append(PeddlerCard(i, c.get("id", str), boat - 1, c.get("load", int),
                                  tuple(_good(g, c.where) for g in c.get("goods", list)), c.get("hours", int),
                                  c.get("arrows", bool, False)))
        _finish(c)
    return tuple(pcards), tuple(psupply), pshelf


COMPONENTS = load_components()
