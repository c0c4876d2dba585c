"""The pack and the money, read once from ``data/cards.toml``."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from freetrader.core import DataError
from freetrader.core.data import Table, load_toml

__all__ = ["Article", "Components", "load_components", "COMPONENTS"]

PACK_SIZE = 54  # rulebook, "The Game"


@dataclass(frozen=True)
class Article:
    index: int
    id: str
    name: str
    count: int
    dutiable: bool
    duty: int
    fine: int
    is_bag: bool
    provenance: str


@dataclass(frozen=True)
class Components:
    articles: tuple[Article, ...]
    total_money: int
    search_compensation: int
    informer_reward: int
    informer_compensation: int
    false_bag_fine: int
    by_id: dict[str, int]
    dutiable: tuple[int, ...]  # article indices that carry duty
    duty: tuple[int, ...]  # per article index
    fine: tuple[int, ...]
    bag: int  # index of the Diplomatic Bag
    pack: tuple[int, ...]  # one entry per card: its article index
    small_pack: tuple[int, ...]  # the designed variant's pack (option pack=small), likewise

    def name(self, k: int) -> str:
        return self.articles[k].name


def load_components(data_dir: str | Path | None = None) -> Components:
    raw = load_toml(__package__ or "freetrader.games.contraband", "cards.toml", data_dir)
    top = Table(raw, "cards.toml")
    amounts = _money(Table(top.get("money", dict), "cards.toml [money]"))
    articles = [_article(i, Table(entry, f"cards.toml article {i + 1}"))
                for i, entry in enumerate(top.get("article", list))]
    # optional: a data pack made before the variant has none, and plays the printed pack as before
    raw_small = top.get("small_pack", dict, None)
    top.done()
    bag = _check_pack(articles)
    by_id = {a.id: a.index for a in articles}
    return Components(
        articles=tuple(articles),
        total_money=amounts["total"],
        search_compensation=amounts["search_compensation"],
        informer_reward=amounts["informer_reward"],
        informer_compensation=amounts["informer_compensation"],
        false_bag_fine=amounts["false_bag_fine"],
        by_id=by_id,
        dutiable=tuple(a.index for a in articles if a.dutiable),
        duty=tuple(a.duty for a in articles),
        fine=tuple(a.fine for a in articles),
        bag=bag,
        pack=tuple(a.index for a in articles for _ in range(a.count)),
        small_pack=() if raw_small is None else _small_pack(Table(raw_small, "cards.toml [small_pack]"), articles),
    )


def _money(money: Table) -> dict[str, int]:
    """``[money]``: the bank's total and the fixed payments, none negative."""
    money.provenance()
    money.get("note", str, "")
    amounts = {
        k: money.get(k, int)
        for k in ("total", "search_compensation", "informer_reward", "informer_compensation", "false_bag_fine")
    }
    money.done()
    for k, v in amounts.items():
        if v < 0:
            raise DataError(f"cards.toml [money]: {k} must not be negative, got {v}")
    return amounts


def _article(i: int, t: Table) -> Article:
    """One ``[[article]]``: its duty and fine only if dutiable; the one special is the Diplomatic Bag."""
    aid = t.get("id", str)
    t.where = f"cards.toml article {aid!r}"
    dutiable = t.get("dutiable", bool, True)
    special = t.get("special", str, "")
    if special not in ("", "diplomatic-bag"):
        raise DataError(f"{t.where}: special {special!r} is unknown; the only one is 'diplomatic-bag'")
    art = Article(
        index=i,
        id=aid,
        name=t.get("name", str),
        count=t.get("count", int),
        dutiable=dutiable,
        duty=t.get("duty", int) if dutiable else 0,
        fine=t.get("fine", int) if dutiable else 0,
        is_bag=special == "diplomatic-bag",
        provenance=t.provenance(),
    )
    t.get("note", str, "")
    t.done()
    if art.count < 1:
        raise DataError(f"{t.where}: count must be at least 1, got {art.count}")
    return art


def _check_pack(articles: list[Article]) -> int:
    """Unique ids, exactly one Diplomatic Bag (its index is returned), and the printed pack size."""
    ids = [a.id for a in articles]
    if len(set(ids)) != len(ids):
        raise DataError("cards.toml: article ids must be unique")
    bags = [a.index for a in articles if a.is_bag]
    if len(bags) != 1:
        raise DataError(f"cards.toml: exactly one article must be special = 'diplomatic-bag', found {len(bags)}")
    total = sum(a.count for a in articles)
    if total != PACK_SIZE:
        raise DataError(f"cards.toml: the pack must hold {PACK_SIZE} cards (rulebook), the counts add up to {total}")
    return bags[0]


def _small_pack(small: Table, articles: list[Article]) -> tuple[int, ...]:
    """``[small_pack]`` (the designed variant): a count of each article, at most the pack's, four cards at least."""
    small.provenance()
    small.get("note", str, "")
    counts: dict[str, Any] = small.get("cards", dict)
    small.done()
    by_id = {a.id: a.index for a in articles}
    for aid, n in counts.items():
        if aid not in by_id or not isinstance(n, int) or not 1 <= n <= articles[by_id[aid]].count:
            raise DataError(f"cards.toml [small_pack]: {aid!r} = {n!r}; expected an article id and a count "
                            "from 1 to its count in the pack")
    pack = tuple(a.index for a in articles for _ in range(counts.get(a.id, 0)))
    if len(pack) < 4:
        raise DataError(f"cards.toml [small_pack]: {len(pack)} cards cannot deal a luggage of four")
    return pack


COMPONENTS = load_components()
