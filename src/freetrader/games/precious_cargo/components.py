"""The board, the cargo, the chips and the pieces, read once from ``data/*.toml``.

Places (settlements and dots) are numbered with the eight settlements first,
so a place index below ``n_settlements`` is a settlement. Cargo types are
numbered as in ``cargo.toml``; food is type 0.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from freetrader.core import DataError
from freetrader.core.data import Table, load_toml

__all__ = ["Country", "Place", "Cargo", "Route", "Components", "load_components", "COMPONENTS", "FOOD"]

FOOD = 0
SETTLEMENTS_PER_COUNTRY = 4  # The Gameboard
CHIPS_PER_COUNTRY = 8  # Game Components: 8 red, 8 yellow
CRATES = 20  # Game Components


@dataclass(frozen=True)
class Country:
    index: int
    id: str
    name: str
    color: str
    emblem: str


@dataclass(frozen=True)
class Place:
    index: int
    id: str
    name: str
    country: int  # -1 for a dot
    x: int
    y: int
    capacity: int  # ships it holds: the dock spaces of a settlement, 1 for a dot
    provenance: str

    @property
    def is_settlement(self) -> bool:
        return self.country >= 0


@dataclass(frozen=True)
class Cargo:
    index: int
    id: str
    name: str
    color: str
    country: int  # -1: food, bought in either country
    value: int


@dataclass(frozen=True)
class Route:
    name: str
    path: tuple[int, ...]


@dataclass(frozen=True)
class Components:
    countries: tuple[Country, ...]
    places: tuple[Place, ...]
    n_settlements: int
    by_id: dict[str, int]
    neighbors: tuple[tuple[int, ...], ...]
    capacity: tuple[int, ...]
    edges: tuple[tuple[int, int], ...]
    routes: tuple[Route, ...]
    settlements_of: tuple[tuple[int, ...], ...]  # per country
    country_of: tuple[int, ...]  # per place, -1 for dots
    dist: tuple[tuple[int, ...], ...]  # moves between places on an empty board
    cargo: tuple[Cargo, ...]
    cargo_by_id: dict[str, int]
    cargo_value: tuple[int, ...]
    buyable: tuple[tuple[int, ...], ...]  # per country: cargo types its stockpile holds
    stock: tuple[int, ...]  # starting stockpile, index country * n_cargo + type
    chips: tuple[tuple[int, ...], ...]  # per country: one entry per chip, its cargo type
    hulls: int
    sails: int
    ship_places: int
    max_sails: int
    governors: int
    start_coins: int
    coins_total: int
    hull_cost: int
    sail_cost: int
    governor_income: int
    not_in_demand: int
    target: int

    @property
    def n_cargo(self) -> int:
        return len(self.cargo)

    def place_id(self, p: int) -> str:
        return self.places[p].id


def _read_board(raw: dict[str, Any], fname: str) -> tuple[Any, ...]:
    top = Table(raw, fname)
    countries: list[Country] = []
    for i, entry in enumerate(top.get("country", list)):
        t = Table(entry, f"{fname} country {i + 1}")
        countries.append(Country(i, t.get("id", str), t.get("name", str), t.get("color", str), t.get("emblem", str)))
        t.provenance()
        t.get("note", str, "")
        t.done()
    if len(countries) != 2:
        raise DataError(f"{fname}: Precious Cargo has exactly two countries (The Gameboard), found {len(countries)}")
    cid = {c.id: c.index for c in countries}
    places: list[Place] = []
    for kind in ("settlement", "dot"):
        for i, entry in enumerate(top.get(kind, list)):
            t = Table(entry, f"{fname} {kind} {i + 1}")
            pid = t.get("id", str)
            t.where = f"{fname} {kind} {pid!r}"
            if kind == "settlement":
                country = t.get("country", str)
                if country not in cid:
                    raise DataError(f"{t.where}: country {country!r} is not one of {', '.join(cid)}")
                name, c, cap = t.get("name", str), cid[country], t.get("docks", int)
                if cap < 1:
                    raise DataError(f"{t.where}: docks must be at least 1, got {cap}")
            else:
                name, c, cap = pid, -1, 1
            places.append(Place(len(places), pid, name, c, t.get("x", int), t.get("y", int), cap, t.provenance()))
            t.get("note", str, "")
            t.done()
    by_id: dict[str, int] = {}
    seen_xy: dict[tuple[int, int], str] = {}
    for p in places:
        if p.id in by_id or not p.id.replace("-", "").isalnum() or p.id != p.id.lower():
            raise DataError(f"{fname}: place id {p.id!r} must be unique, lower case, letters, digits and '-'")
        by_id[p.id] = p.index
        if (p.x, p.y) in seen_xy:
            raise DataError(f"{fname}: {p.id!r} and {seen_xy[(p.x, p.y)]!r} are both at x={p.x}, y={p.y}")
        seen_xy[(p.x, p.y)] = p.id
    for land in countries:
        n = sum(1 for p in places if p.country == land.index)
        if n != SETTLEMENTS_PER_COUNTRY:
            raise DataError(f"{fname}: {land.name} must have {SETTLEMENTS_PER_COUNTRY} settlements (The Gameboard), has {n}")
    edges: set[tuple[int, int]] = set()
    routes: list[Route] = []
    for i, entry in enumerate(top.get("route", list)):
        t = Table(entry, f"{fname} route {i + 1}")
        name = t.get("name", str)
        t.where = f"{fname} route {name!r}"
        path_ids = t.get("path", list)
        t.provenance()
        t.get("note", str, "")
        t.done()
        path: list[int] = []
        for pid in path_ids:
            if pid not in by_id:
                raise DataError(f"{t.where}: unknown place {pid!r}; places are the settlement and dot ids")
            path.append(by_id[pid])
        if len(path) < 2:
            raise DataError(f"{t.where}: a route joins at least two places")
        for a, b in zip(path, path[1:], strict=False):
            pa, pb = places[a], places[b]
            if max(abs(pa.x - pb.x), abs(pa.y - pb.y)) != 1:
                raise DataError(f"{t.where}: {pa.id!r} and {pb.id!r} are not grid neighbours; put a dot between them")
            edges.add((min(a, b), max(a, b)))
        routes.append(Route(name, tuple(path)))
    # Two diagonals crossing between four grid points would cross without a dot.
    diag = {(places[a].x, places[a].y, places[b].x, places[b].y) for a, b in edges}
    for a, b in edges:
        pa, pb = places[a], places[b]
        if pa.x != pb.x and pa.y != pb.y:
            other = (pa.x, pb.y, pb.x, pa.y)
            if other in diag or (other[2], other[3], other[0], other[1]) in diag:
                raise DataError(f"{fname}: the line {pa.id}-{pb.id} crosses another line where there is no dot")
    return countries, places, by_id, sorted(edges), routes


def _distances(neighbors: tuple[tuple[int, ...], ...]) -> tuple[tuple[int, ...], ...]:
    n = len(neighbors)
    out = []
    for src in range(n):
        d = [-1] * n
        d[src] = 0
        q = deque([src])
        while q:
            u = q.popleft()
            for v in neighbors[u]:
                if d[v] < 0:
                    d[v] = d[u] + 1
                    q.append(v)
        out.append(tuple(d))
    return tuple(out)


def _read_pieces(top: Table) -> dict[str, int]:
    """cargo.toml ``[pieces]``: the counts and costs of Game Components and the six actions."""
    pieces = Table(top.get("pieces", dict), "cargo.toml [pieces]")
    keys = ("hulls", "sails", "ship_places", "max_sails", "governors", "start_coins", "coins_total",
            "hull_cost", "sail_cost", "governor_income", "not_in_demand", "target")
    amounts = {k: pieces.get(k, int) for k in keys}
    pieces.provenance()
    pieces.get("note", str, "")
    pieces.done()
    for k, v in amounts.items():
        if v < (0 if k in ("hull_cost", "sail_cost", "governor_income") else 1):
            raise DataError(f"cargo.toml [pieces]: {k} = {v} is too small")
    if amounts["max_sails"] >= amounts["ship_places"]:
        raise DataError("cargo.toml [pieces]: max_sails must leave at least one place for cargo")
    return amounts


def _read_cargo(top: Table, cid: dict[str, int]) -> list[Cargo]:
    """cargo.toml ``[[cargo]]``: Types of Cargo, food first (the only one from both countries)."""
    cargo: list[Cargo] = []
    for i, entry in enumerate(top.get("cargo", list)):
        t = Table(entry, f"cargo.toml cargo {i + 1}")
        kid = t.get("id", str)
        t.where = f"cargo.toml cargo {kid!r}"
        country = t.get("country", str)
        if country != "both" and country not in cid:
            raise DataError(f"{t.where}: country {country!r} must be 'both' or one of {', '.join(cid)}")
        cargo.append(Cargo(i, kid, t.get("name", str), t.get("color", str), -1 if country == "both" else cid[country],
                           t.get("value", int)))
        t.provenance()
        t.get("note", str, "")
        t.done()
    if not cargo or cargo[0].country != -1 or any(k.country == -1 for k in cargo[1:]):
        raise DataError("cargo.toml: the first cargo must be food (country = 'both') and the only one from both countries")
    ids = {k.id for k in cargo}
    if len(ids) != len(cargo) or any("@" in k for k in ids):
        raise DataError("cargo.toml: cargo ids must be unique and must not contain '@'")
    return cargo


def _counted_rows(top: Table, key: str, cid: dict[str, int],
                  cargo_by_id: dict[str, int]) -> list[tuple[Table, str, int, int]]:
    """cargo.toml ``[[stock]]`` or ``[[chip]]`` rows: (the row, its country, its cargo index, its count)."""
    rows = []
    for i, entry in enumerate(top.get(key, list)):
        t = Table(entry, f"cargo.toml {key} {i + 1}")
        country, kind, count = t.get("country", str), t.get("cargo", str), t.get("count", int)
        t.provenance()
        t.get("note", str, "")
        t.done()
        if country not in cid or kind not in cargo_by_id:
            raise DataError(f"{t.where}: unknown country {country!r} or cargo {kind!r}")
        rows.append((t, country, cargo_by_id[kind], count))
    return rows


def load_components(data_dir: str | Path | None = None) -> Components:
    pkg = __package__ or "freetrader.games.precious_cargo"
    countries, places, by_id, edges, routes = _read_board(load_toml(pkg, "board.toml", data_dir), "board.toml")
    # Settlements first: a place index below n_settlements is a settlement.
    order = [p for p in places if p.is_settlement] + [p for p in places if not p.is_settlement]
    remap = {p.index: i for i, p in enumerate(order)}
    places = [Place(remap[p.index], p.id, p.name, p.country, p.x, p.y, p.capacity, p.provenance) for p in order]
    by_id = {p.id: p.index for p in places}
    edges = sorted((min(remap[a], remap[b]), max(remap[a], remap[b])) for a, b in edges)
    routes = [Route(r.name, tuple(remap[i] for i in r.path)) for r in routes]
    nbr: list[list[int]] = [[] for _ in places]
    for a, b in edges:
        nbr[a].append(b)
        nbr[b].append(a)
    neighbors = tuple(tuple(sorted(n)) for n in nbr)
    dist = _distances(neighbors)
    if any(d < 0 for d in dist[0]):
        lost = [places[i].id for i, d in enumerate(dist[0]) if d < 0]
        raise DataError(f"board.toml: places {', '.join(lost)} cannot be reached by any route")

    top = Table(load_toml(pkg, "cargo.toml", data_dir), "cargo.toml")
    amounts = _read_pieces(top)
    cid = {c.id: c.index for c in countries}
    cargo = _read_cargo(top, cid)
    cargo_by_id = {k.id: k.index for k in cargo}
    nk = len(cargo)
    stock = [0] * (2 * nk)
    for t, country, ki, count in _counted_rows(top, "stock", cid, cargo_by_id):
        if cargo[ki].country not in (-1, cid[country]):
            raise DataError(f"{t.where}: {cargo[ki].id} cannot be bought in {country} (Types of Cargo)")
        if count < 1:
            raise DataError(f"{t.where}: count must be at least 1, got {count}")
        stock[cid[country] * nk + ki] += count
    if sum(stock) != CRATES:
        raise DataError(f"cargo.toml: the supply card holds {CRATES} crates (Game Components), the stock adds up to {sum(stock)}")
    chips: list[list[int]] = [[], []]
    for t, country, ki, count in _counted_rows(top, "chip", cid, cargo_by_id):
        if cargo[ki].country == cid[country]:
            raise DataError(f"{t.where}: a {country} chip shows what it wants from the other country, not {cargo[ki].id}")
        chips[cid[country]].extend([ki] * count)
    for c in countries:
        if len(chips[c.index]) != CHIPS_PER_COUNTRY:
            raise DataError(f"cargo.toml: {c.name} needs {CHIPS_PER_COUNTRY} chips (Game Components), has {len(chips[c.index])}")
    top.done()
    buyable = tuple(tuple(k for k in range(nk) if stock[c * nk + k] and cargo[k].country in (-1, c)) for c in range(2))
    return Components(
        countries=tuple(countries),
        places=tuple(places),
        n_settlements=2 * SETTLEMENTS_PER_COUNTRY,
        by_id=by_id,
        neighbors=neighbors,
        capacity=tuple(p.capacity for p in places),
        edges=tuple(edges),
        routes=tuple(routes),
        settlements_of=tuple(tuple(p.index for p in places if p.country == c) for c in range(2)),
        country_of=tuple(p.country for p in places),
        dist=dist,
        cargo=tuple(cargo),
        cargo_by_id=cargo_by_id,
        cargo_value=tuple(k.value for k in cargo),
        buyable=buyable,
        stock=tuple(stock),
        chips=tuple(tuple(sorted(c)) for c in chips),
        **amounts,
    )


COMPONENTS = load_components()
