"""Cornish Smuggler components, read once from ``data/*.toml`` and frozen.

The board is two graphs over one set of ids: land locations joined by roads
(network counters, goods and Customs Officers move here) and sea nodes (sea
spaces, the three Merchant spaces, and every port, cove and the Isles of
Scilly, which act as sea spaces for ships).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from freetrader.core import DataError
from freetrader.core.data import Table, load_toml

__all__ = ["Location", "Character", "Secret", "Hold", "Storehouse", "Shape", "Components", "COMPONENTS", "EFFECTS",
           "load_components"]

PKG = "freetrader.games.cornish_smuggler"
DECKS = ("religious", "trade", "unskilled", "official")
KINDS = ("town", "village", "port", "cove", "island")
ROWS = ("top", "middle", "bottom")
INF = 10**6
#: the box's player counts (the game's seats); a component may be dealt at some of them only
PLAYER_COUNTS = (2, 3, 4, 5)
RESOURCES = ("gold", "influence", "reputation")
WHO = ("self", "other", "any")
# Every coded effect and the timings it may carry ("passive" effects are read where their rule applies).
EFFECTS: dict[str, frozenset[str]] = {
    k: frozenset(v.split()) for k, v in {
        "": "",
        "influence-per-turn": "passive", "gold-per-turn": "passive", "bribe-discount": "passive bribe",
        "hire-discount": "passive", "escort-cost": "passive", "honest-work-bonus": "passive",
        "raid-mobs": "passive", "mob-count": "passive", "influence-per-seizure": "passive",
        "top-price-reputation": "passive",
        "move-officer": "action", "move-officers": "action", "lose-reputation": "action", "draw-secrets": "action",
        "remove-bribe": "action", "carry-free": "action", "carry-hidden": "action", "seize-from-ship": "action",
        "take-from-ship": "action", "discard-unskilled": "action", "steal-secret": "action",
        "village-sale": "action", "backhander": "action", "inform": "action", "sail-free": "action",
        "take-goods": "action",
        "gain-influence": "free", "becalm": "free", "cove-access": "free",
        "remove-character": "seized", "repel-officer": "seizure", "escape-one": "seizure",
        "landing-risk": "land", "shift-landing-risk": "land", "no-customs": "land",
        "toll": "sale", "sale-bonus": "sale", "free-bottom-row": "sale",
        "extra-sail": "sail", "witch-toll": "ship-enters", "buy-discount": "buy",
        "buy-reputation-discount": "buy-reputation", "keep-character": "protect",
        "direct-customs": "customs-move", "place-anywhere": "place",
    }.items()
}
EVENTS = frozenset(e for v in EFFECTS.values() for e in v) - {"passive", "action", "free"}


@dataclass(frozen=True)
class Location:
    index: int
    id: str
    name: str
    kind: str
    size: int
    risk: int
    land: tuple[int, ...]
    sea_node: int  # its index in the sea graph, -1 if inland

    @property
    def landing(self) -> bool:
        return self.sea_node >= 0


@dataclass(frozen=True)
class Hold:
    """A grid of usable cells (row, col); void cells are simply absent."""

    cells: frozenset[tuple[int, int]]
    rows: tuple[str, ...]


@dataclass(frozen=True)
class Shape:
    index: int
    id: str
    size: int
    cells: frozenset[tuple[int, int]]
    rows: tuple[str, ...]


@dataclass(frozen=True)
class Storehouse:
    index: int
    id: str
    name: str
    location: int
    start: bool
    hold: Hold
    #: the player counts whose games deal this card at set-up (``players`` in storehouses.toml; all by default)
    players: tuple[int, ...] = PLAYER_COUNTS


@dataclass(frozen=True)
class Ship:
    index: int
    id: str
    name: str
    hold: Hold


@dataclass(frozen=True)
class Character:
    index: int
    id: str
    name: str
    occupation: str
    deck: int
    gold: int
    reputation: int
    mob: bool
    ability: str
    storehouse: int  # -1 if none
    coves: tuple[int, ...]
    must_place: int  # -1 if none
    effect: str  # the coded ability beyond the structural fields ("" if none)
    event: str  # "action", "passive", or the event it answers ("land", "seizure", ...)
    who: str  # whose event it answers: "self", "other" or "any"
    cost: tuple[tuple[str, int], ...]  # alternatives: (resource, amount); () is free
    amount: int
    places: tuple[int, ...]  # locations (or, for ship events, sea nodes) where it applies; () anywhere


@dataclass(frozen=True)
class Secret:
    index: int
    id: str
    name: str
    timing: str  # the printed heading: "action", "any-time" or "out-of-turn"
    ability: str
    effect: str
    event: str  # "action", "free" (any time on your own turn) or the event it answers
    who: str
    cost: tuple[tuple[str, int], ...]  # the Cost box
    amount: int
    places: tuple[int, ...]

    @property
    def cost_text(self) -> str:
        return " / ".join(f"{n} {r.capitalize()}" for r, n in self.cost)


@dataclass(frozen=True)
class Components:
    locations: tuple[Location, ...]
    loc_by_id: dict[str, int]
    sea_ids: tuple[str, ...]  # sea node ids: sea spaces, merchants, then landing places
    sea_by_id: dict[str, int]
    sea_adj: tuple[tuple[int, ...], ...]
    sea_location: tuple[int, ...]  # sea node -> land location, -1 for open sea and merchants
    merchant_nodes: tuple[int, ...]  # sea node of merchant 0, 1, 2
    merchant_names: tuple[str, ...]
    open_sea: tuple[int, ...]  # sea spaces proper (ships may start here or at a merchant)
    dist: tuple[tuple[int, ...], ...]  # land distance, INF if unreachable
    steps: tuple[tuple[tuple[int, ...], ...], ...]  # steps[a][b]: neighbours of a on a shortest path to b
    scilly: int
    penzance: int
    ships: tuple[Ship, ...]
    storehouses: tuple[Storehouse, ...]
    shapes: tuple[Shape, ...]
    goods: tuple[int, ...]  # one entry per Goods Shape piece: its shape index
    goods_start: tuple[int, ...]  # the merchant each piece starts on
    goods_players: tuple[tuple[int, ...], ...]  # the player counts whose games use each piece
    characters: tuple[Character, ...]
    secrets: tuple[Secret, ...]
    secret_deck: tuple[int, ...]  # one entry per card: its secret index
    start_gold: int
    start_influence: int
    start_officers: tuple[int, ...]
    counters: int
    bank_gold: int
    wheel: int
    discovery: tuple[int, ...]
    bribe: tuple[int, ...]
    new_officer: tuple[int, ...]
    track_start: dict[int, int]  # player count -> the Customs Track space the Customs Counter starts on
    # prices[town size][row] -> tuple over goods size 0..5 of (gold, reputation), (0, 0) where absent
    prices: dict[int, tuple[tuple[tuple[int, int], ...], ...]]
    row_cost: tuple[int, ...]

    def price(self, town_size: int, goods_size: int, row: int) -> tuple[int, int]:
        """Price List: goods bigger than the town use the town's column (Selling Goods)."""
        column = min(goods_size, town_size)
        return self.prices[town_size][row][column]


def _players(t: Table, key: str = "players") -> tuple[int, ...]:
    """An optional list of player counts (``players = [5]``): the game's own counts, each at most once."""
    counts = t.get(key, list, list(PLAYER_COUNTS))
    if not counts or any(isinstance(c, bool) or c not in PLAYER_COUNTS for c in counts) or len(set(counts)) != len(counts):
        raise DataError(f"{t.where}: {key} {counts!r} must list player counts from {PLAYER_COUNTS[0]} to "
                        f"{PLAYER_COUNTS[-1]}, each once")
    return tuple(sorted(counts))


def _grid(rows: Any, where: str) -> tuple[frozenset[tuple[int, int]], tuple[str, ...]]:
    if not isinstance(rows, list) or not rows or not all(isinstance(r, str) and r for r in rows):
        raise DataError(f"{where}: a grid is a list of strings of '#' (cell) and '.' (void)")
    if len({len(r) for r in rows}) != 1:
        raise DataError(f"{where}: every row of the grid must have the same length")
    cells = set()
    for r, row in enumerate(rows):
        for c, ch in enumerate(row):
            if ch == "#":
                cells.add((r, c))
            elif ch != ".":
                raise DataError(f"{where}: grid character {ch!r} must be '#' or '.'")
    if not cells:
        raise DataError(f"{where}: the grid has no cells")
    return frozenset(cells), tuple(rows)


def _entries(raw: dict[str, Any], key: str, file: str) -> list[Table]:
    top = Table(raw, file)
    items = top.get(key, list)
    tables = []
    for i, item in enumerate(items):
        t = Table(item, f"{file} {key} {i + 1}")
        tables.append(t)
    return tables


def _cost(t: Table) -> tuple[tuple[str, int], ...]:
    raw = t.get("cost", dict, {})
    out = []
    for r, n in raw.items():
        if r not in RESOURCES or not isinstance(n, int) or isinstance(n, bool) or n < 0:
            raise DataError(f"{t.where}: cost {{{r} = {n!r}}} must map gold, influence or reputation to a whole "
                            f"number (alternatives when there are several)")
        out.append((r, n))
    return tuple(out)


def _ability(t: Table, event: str, places_in: dict[str, int]) -> tuple[str, str, int, tuple[int, ...]]:
    """The structured ability fields: effect, who, amount, places; checked against the effect's timings."""
    effect = t.get("effect", str, "")
    if effect not in EFFECTS:
        raise DataError(f"{t.where}: effect {effect!r} is not coded; known effects: {', '.join(sorted(EFFECTS))}")
    if effect and event not in EFFECTS[effect]:
        raise DataError(f"{t.where}: effect {effect!r} works with timing {' or '.join(sorted(EFFECTS[effect]))}, "
                        f"not {event!r}")
    if not effect and event:
        raise DataError(f"{t.where}: a timing ({event!r}) needs an effect")
    who = t.get("who", str, "self")
    if who not in WHO:
        raise DataError(f"{t.where}: who {who!r} must be one of {', '.join(WHO)}")
    places = []
    for x in t.get("places", list, []):
        if x not in places_in:
            raise DataError(f"{t.where}: place {x!r} is not on the map")
        places.append(places_in[x])
    return effect, who, t.get("amount", int, 0), tuple(places)


def _ident(t: Table) -> str:
    ident: str = t.get("id", str)
    t.where = f"{t.where.rsplit(' ', 2)[0]} {ident!r}"
    return ident


def _unique(ids: list[str], file: str) -> None:
    seen = set()
    for i in ids:
        if i in seen:
            raise DataError(f"{file}: id {i!r} appears twice; ids must be unique")
        seen.add(i)


def _distances(adj: list[tuple[int, ...]]) -> tuple[tuple[tuple[int, ...], ...], tuple[tuple[tuple[int, ...], ...], ...]]:
    n = len(adj)
    dist = []
    for a in range(n):
        d = [INF] * n
        d[a] = 0
        q = deque([a])
        while q:
            x = q.popleft()
            for y in adj[x]:
                if d[y] == INF:
                    d[y] = d[x] + 1
                    q.append(y)
        dist.append(tuple(d))
    steps = tuple(
        tuple(tuple(y for y in adj[a] if dist[y][b] == dist[a][b] - 1) if a != b and dist[a][b] < INF else ()
              for b in range(n))
        for a in range(n)
    )
    return tuple(dist), steps


def load_components(data_dir: str | Path | None = None) -> Components:
    """The components from ``data/*.toml`` (or a data pack's ``data_dir``); ``DataError`` naming what is wrong."""
    board = _load_map(data_dir)
    loc_by_id = board["loc_by_id"]
    merchant_ids = board.pop("merchant_ids")
    tracks = _load_tracks(data_dir, loc_by_id)
    ships, stores = _load_ships_and_storehouses(data_dir, loc_by_id)
    goods = _load_goods(data_dir, merchant_ids)
    store_by_id = {s.id: s.index for s in stores}
    chars = _load_characters(data_dir, board, store_by_id)
    secrets, deck_cards = _load_secrets(data_dir, loc_by_id)
    return Components(**board, **tracks, **goods, ships=tuple(ships), storehouses=tuple(stores),
                      characters=tuple(chars), secrets=tuple(secrets), secret_deck=tuple(deck_cards))


def _load_map(data_dir: str | Path | None) -> dict[str, Any]:
    """map.toml: locations, roads, sea spaces, Merchants; the fields of ``Components`` they give."""
    raw = load_toml(PKG, "map.toml", data_dir)
    locs = _entries(raw, "location", "map.toml")
    seas = _entries(raw, "sea", "map.toml")
    merchants = _entries(raw, "merchant", "map.toml")
    Table(raw, "map.toml").get("location", list)
    loc_ids = [_ident(t) for t in locs]
    _unique(loc_ids, "map.toml locations")
    loc_by_id = {x: i for i, x in enumerate(loc_ids)}
    sea_ids = [_ident(t) for t in seas] + [_ident(t) for t in merchants]
    landing = [t for t in locs if t.get("sea", list)]
    sea_ids += [t.data["id"] for t in landing]
    _unique(sea_ids, "map.toml sea spaces and merchants")
    sea_by_id = {x: i for i, x in enumerate(sea_ids)}
    adj: list[set[int]] = [set() for _ in sea_ids]

    def link(a: str, b: str, where: str) -> None:
        if b not in sea_by_id:
            raise DataError(f"{where}: sea neighbour {b!r} is not a sea space, merchant or port")
        adj[sea_by_id[a]].add(sea_by_id[b])
        adj[sea_by_id[b]].add(sea_by_id[a])

    for t in seas + merchants:
        for b in t.get("adjacent", list):
            link(t.data["id"], b, t.where)
        t.get("name", str)
        t.provenance()
        t.get("note", str, "")
        t.done()
    locations, land_adj = _locations(locs, loc_ids, loc_by_id, sea_by_id, link)
    for a, nbrs in enumerate(land_adj):
        for b in nbrs:
            if a not in land_adj[b]:
                raise DataError(f"map.toml: the road {loc_ids[a]} -> {loc_ids[b]} must be listed both ways")
    dist, steps = _distances(land_adj)
    sea_location = tuple(loc_by_id.get(x, -1) for x in sea_ids)
    if "scilly" not in loc_by_id or "penzance" not in loc_by_id:
        raise DataError("map.toml: the board needs the Isles of Scilly ('scilly') and Penzance ('penzance')")
    if len(merchants) != 3:
        raise DataError(f"map.toml: the board has three Merchant spaces, found {len(merchants)}")
    merchant_ids = [t.data["id"] for t in merchants]

    merchant_nodes = tuple(sea_by_id[m] for m in merchant_ids)
    open_sea = tuple(sea_by_id[t.data["id"]] for t in seas)
    return dict(
        locations=tuple(locations), loc_by_id=loc_by_id, sea_ids=tuple(sea_ids), sea_by_id=sea_by_id,
        sea_adj=tuple(tuple(sorted(a)) for a in adj), sea_location=sea_location, merchant_nodes=merchant_nodes,
        open_sea=open_sea, dist=dist, steps=steps, scilly=loc_by_id["scilly"], penzance=loc_by_id["penzance"],
        merchant_ids=merchant_ids,
    )


def _locations(locs: list[Table], loc_ids: list[str], loc_by_id: dict[str, int], sea_by_id: dict[str, int],
               link: Callable[[str, str, str], None]) -> tuple[list[Location], list[tuple[int, ...]]]:
    """Each location of map.toml and its roads (a sea neighbour is linked through ``link``)."""
    locations = []
    land_adj: list[tuple[int, ...]] = []
    for i, t in enumerate(locs):
        kind = t.get("kind", str)
        if kind not in KINDS:
            raise DataError(f"{t.where}: kind {kind!r} must be one of {', '.join(KINDS)}")
        size = t.get("size", int)
        if size not in (0, 2, 3, 5, 7):
            raise DataError(f"{t.where}: size {size} must be 0 (a village) or a town size 2, 3, 5 or 7")
        land = []
        for b in t.get("land", list):
            if b not in loc_by_id:
                raise DataError(f"{t.where}: road to unknown location {b!r}")
            land.append(loc_by_id[b])
        for b in t.get("sea", list):
            link(t.data["id"], b, t.where)
        if kind in ("port", "cove", "island") and not t.data.get("sea"):
            raise DataError(f"{t.where}: a {kind} must open onto at least one sea space")
        locations.append(
            Location(i, loc_ids[i], t.get("name", str), kind, size, t.get("risk", int), tuple(sorted(land)),
                     sea_by_id.get(loc_ids[i], -1))
        )
        land_adj.append(tuple(sorted(land)))
        t.provenance()
        t.get("note", str, "")
        t.done()
    return locations, land_adj


def _load_tracks(data_dir: str | Path | None, loc_by_id: dict[str, int]) -> dict[str, Any]:
    """tracks.toml: the start, the Gold Wheel, the Customs Track and the prices."""
    tr = load_toml(PKG, "tracks.toml", data_dir)
    start = Table(tr.get("start", {}), "tracks.toml [start]")
    officers = []
    for x in start.get("officers", list):
        if x not in loc_by_id:
            raise DataError(f"tracks.toml [start]: officer location {x!r} is not on the map")
        officers.append(loc_by_id[x])
    start_gold, start_inf = start.get("gold", int), start.get("influence", int)
    n_counters, bank = start.get("network_counters", int), start.get("bank_gold", int)
    start.provenance()
    start.get("note", str, "")
    start.done()
    wheel_t = Table(tr.get("gold_wheel", {}), "tracks.toml [gold_wheel]")
    wheel = wheel_t.get("size", int)
    wheel_t.provenance()
    wheel_t.get("note", str, "")
    wheel_t.done()
    track = Table(tr.get("customs_track", {}), "tracks.toml [customs_track]")
    discovery = tuple(track.get("discovery", list))
    bribe = tuple(track.get("bribe", list))
    new_officer = tuple(track.get("new_officer", list))
    starts = track.get("start_space", dict, {})
    track_start = {n: 0 for n in PLAYER_COUNTS}
    for key, space in starts.items():
        if key not in {str(n) for n in PLAYER_COUNTS} or isinstance(space, bool) or not isinstance(space, int) \
                or not 0 <= space < len(discovery) - 1:
            raise DataError(f"tracks.toml [customs_track]: start_space {key} = {space!r} must map a player count "
                            f"({PLAYER_COUNTS[0]} to {PLAYER_COUNTS[-1]}) to a space before the track's last")
        track_start[int(key)] = space
    track.provenance()
    track.get("note", str, "")
    track.done()
    if len(discovery) != len(bribe) or len(discovery) < 2:
        raise DataError("tracks.toml [customs_track]: discovery and bribe need one value per space (at least 2)")
    if any(not 0 < s < len(discovery) for s in new_officer):
        raise DataError("tracks.toml [customs_track]: new_officer spaces must lie on the track after the start")
    prices, row_cost = _prices(Table(tr.get("prices", {}), "tracks.toml [prices]"))
    return dict(start_gold=start_gold, start_influence=start_inf, start_officers=tuple(officers),
                counters=n_counters, bank_gold=bank, wheel=wheel, discovery=discovery, bribe=bribe,
                new_officer=new_officer, track_start=track_start, prices=prices, row_cost=row_cost)


def _prices(pr: Table) -> tuple[dict[int, tuple[tuple[tuple[int, int], ...], ...]], tuple[int, ...]]:
    """The Price List: by town size, per row, (gold, reputation) by goods size; and each row's cost."""
    pr.provenance()
    pr.get("source", str, "")
    row_cost = tuple(pr.get("row_cost", list))
    prices: dict[int, tuple[tuple[tuple[int, int], ...], ...]] = {}
    for size in (2, 3, 5, 7):
        t = Table(pr.get(f"size{size}", dict), f"tracks.toml [prices.size{size}]")
        cols = t.get("goods", list)
        rows = []
        for row in ROWS:
            cells = t.get(row, list)
            if len(cells) != len(cols):
                raise DataError(f"{t.where}: row {row} needs one [gold, reputation] per goods size {cols}")
            line = [(0, 0)] * 6
            for col, cell in zip(cols, cells, strict=True):
                line[col] = (int(cell[0]), int(cell[1]))
            rows.append(tuple(line))
        t.done()
        prices[size] = tuple(rows)
    pr.done()

    return prices, row_cost


def _load_ships_and_storehouses(data_dir: str | Path | None,
                                loc_by_id: dict[str, int]) -> tuple[list[Ship], list[Storehouse]]:
    ships = []
    sh_raw = _entries(load_toml(PKG, "ships.toml", data_dir), "ship", "ships.toml")
    for i, t in enumerate(sh_raw):
        sid = _ident(t)
        cells, picture = _grid(t.get("hold", list), t.where)
        ships.append(Ship(i, sid, t.get("name", str), Hold(cells, picture)))
        t.provenance()
        t.get("note", str, "")
        t.done()
    _unique([s.id for s in ships], "ships.toml")
    if len(ships) != 10:
        raise DataError(f"ships.toml: the game has ten Ship cards, found {len(ships)}")
    stores = []
    st_raw = _entries(load_toml(PKG, "storehouses.toml", data_dir), "storehouse", "storehouses.toml")
    for i, t in enumerate(st_raw):
        sid = _ident(t)
        where = t.get("location", str)
        if where not in loc_by_id:
            raise DataError(f"{t.where}: location {where!r} is not on the map")
        cells, picture = _grid(t.get("hold", list), t.where)
        stores.append(Storehouse(i, sid, t.get("name", str), loc_by_id[where], t.get("start", bool),
                                 Hold(cells, picture), _players(t)))
        t.provenance()
        t.get("source", str, "")
        t.get("note", str, "")
        t.done()
    _unique([s.id for s in stores], "storehouses.toml")
    return ships, stores


def _load_goods(data_dir: str | Path | None, merchant_ids: list[str]) -> dict[str, Any]:
    """goods.toml: the Goods Shapes and which Merchant holds each piece at the start."""
    g_raw = load_toml(PKG, "goods.toml", data_dir)
    shapes = []
    counts = {}
    for i, t in enumerate(_entries(g_raw, "shape", "goods.toml")):
        gid = _ident(t)
        cells, picture = _grid(t.get("cells", list), t.where)
        if not 2 <= len(cells) <= 5:
            raise DataError(f"{t.where}: a Goods Shape has 2 to 5 squares (the Price List), this one has {len(cells)}")
        shapes.append(Shape(i, gid, len(cells), cells, picture))
        counts[gid] = t.get("count", int)
        t.provenance()
        t.get("note", str, "")
        t.done()
    _unique([s.id for s in shapes], "goods.toml shapes")
    shape_by_id = {s.id: s.index for s in shapes}
    goods: list[int] = []
    goods_start: list[int] = []
    goods_players: list[tuple[int, ...]] = []
    placed = {k: 0 for k in counts}
    m_tables = _entries(g_raw, "merchant", "goods.toml")
    if [t.data.get("id") for t in m_tables] != merchant_ids:
        raise DataError(f"goods.toml: merchants must be {merchant_ids} in that order (map.toml's Merchant spaces)")
    m_names = []
    for m, t in enumerate(m_tables):
        _ident(t)
        m_names.append(t.get("name", str))
        lots: list[tuple[list[Any], tuple[int, ...]]] = [(t.get("goods", list), PLAYER_COUNTS)]
        for j, extra in enumerate(t.get("extra", list, [])):  # pieces dealt only at some player counts
            e = Table(extra, f"{t.where} extra {j + 1}")
            lots.append((e.get("goods", list), _players(e)))
            e.done()
        for listed, players in lots:
            for gid in listed:
                if gid not in shape_by_id:
                    raise DataError(f"{t.where}: unknown shape {gid!r}")
                goods.append(shape_by_id[gid])
                goods_start.append(m)
                goods_players.append(players)
                placed[gid] += 1
        t.provenance()
        t.get("note", str, "")
        t.done()
    for gid, c in counts.items():
        if placed[gid] != c:
            raise DataError(f"goods.toml: shape {gid!r} has count {c} but the merchants hold {placed[gid]}")

    return dict(shapes=tuple(shapes), goods=tuple(goods), goods_start=tuple(goods_start),
                goods_players=tuple(goods_players),
                merchant_names=tuple(m_names))


def _load_characters(data_dir: str | Path | None, board: dict[str, Any],
                     store_by_id: dict[str, int]) -> list[Character]:
    loc_by_id, sea_by_id, locations = board["loc_by_id"], board["sea_by_id"], board["locations"]
    chars = []
    for i, t in enumerate(_entries(load_toml(PKG, "characters.toml", data_dir), "character", "characters.toml")):
        cid = _ident(t)
        deck = t.get("deck", str)
        if deck not in DECKS:
            raise DataError(f"{t.where}: deck {deck!r} must be one of {', '.join(DECKS)}")
        st = t.get("storehouse", str, "")
        if st and st not in store_by_id:
            raise DataError(f"{t.where}: storehouse {st!r} is not in storehouses.toml")
        coves = []
        for c in t.get("coves", list, []):
            if c not in loc_by_id or locations[loc_by_id[c]].kind != "cove":
                raise DataError(f"{t.where}: {c!r} is not a Secret Cove of the map")
            coves.append(loc_by_id[c])
        mp = t.get("must_place", str, "")
        if mp and mp not in loc_by_id:
            raise DataError(f"{t.where}: must_place {mp!r} is not on the map")
        timing = t.get("timing", str, "")
        if timing and timing not in ("action", "passive") and not timing.startswith("on-"):
            raise DataError(f"{t.where}: timing {timing!r} must be 'action', 'passive' or 'on-<event>' "
                            f"(events: {', '.join(sorted(EVENTS))})")
        event = timing[3:] if timing.startswith("on-") else timing
        places_in = sea_by_id if event == "ship-enters" else loc_by_id
        effect, who, amount, places = _ability(t, event, places_in)
        chars.append(Character(i, cid, t.get("name", str), t.get("occupation", str), DECKS.index(deck),
                               t.get("gold", int), t.get("reputation", int), t.get("mob", bool),
                               t.get("ability", str, ""), store_by_id.get(st, -1), tuple(coves),
                               loc_by_id.get(mp, -1), effect, event, who, _cost(t), amount, places))
        t.provenance()
        t.get("source", str, "")
        t.get("note", str, "")
        t.done()
    _unique([c.id for c in chars], "characters.toml")
    return chars


def _load_secrets(data_dir: str | Path | None, loc_by_id: dict[str, int]) -> tuple[list[Secret], list[int]]:
    secrets = []
    deck_cards: list[int] = []
    for i, t in enumerate(_entries(load_toml(PKG, "secrets.toml", data_dir), "secret", "secrets.toml")):
        sid = _ident(t)
        timing = t.get("timing", str)
        if timing not in ("action", "any-time", "out-of-turn"):
            raise DataError(f"{t.where}: timing {timing!r} must be 'action', 'any-time' or 'out-of-turn'")
        on = t.get("on", str, "")
        if (timing == "action") != (on == ""):
            raise DataError(f"{t.where}: 'on' (the event it is played on, or 'free') is needed exactly when the "
                            f"timing is not 'action'")
        event = on or "action"
        effect, who, amount, places = _ability(t, event, loc_by_id)
        if not effect:
            raise DataError(f"{t.where}: every Secret needs an effect")
        secrets.append(Secret(i, sid, t.get("name", str), timing, t.get("ability", str), effect, event, who,
                              _cost(t), amount, places))
        deck_cards += [i] * t.get("count", int)
        t.provenance()
        t.get("source", str, "")
        t.get("note", str, "")
        t.done()
    _unique([s.id for s in secrets], "secrets.toml")
    return secrets, deck_cards

COMPONENTS = load_components()
