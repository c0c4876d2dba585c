"""The numbers the table shows beside Cornish Smuggler choices are the engine's (issue 19, items 2-4 and 6).

Each note is checked by playing the choice on a copy of the state and reading what the engine did: the
Gold and Reputation its sale event reports, the Gold or Influence a payment took. The hold packings the
components serve are checked against ``packing.fits`` and the holds' cells.
"""

from __future__ import annotations

import dataclasses
import json
import re
from itertools import combinations_with_replacement
from pathlib import Path
from typing import Any

import pytest

import freetrader
from freetrader.core.frames import change_below
from freetrader.games.cornish_smuggler import board as B
from freetrader.games.cornish_smuggler import frames as F
from freetrader.games.cornish_smuggler.components import COMPONENTS as C
from freetrader.games.cornish_smuggler.packing import arrangements, fits, hold_of_ship, hold_of_store
from freetrader.games.cornish_smuggler.web import choice_notes, components, hold_packings, sale_quote

GOLDEN = Path(__file__).parents[2] / "golden" / "cornish-smuggler-3p-seed4.txt"
SOLD = re.compile(r"sells .* \(size (\d+), (\w+) row\) for (\d+) Gold and (\d+) Reputation")


def golden_record() -> dict[str, Any]:
    line = GOLDEN.read_text().splitlines()[1]
    return dict(json.loads(line[len("record "):]))


def states_before(verb: str) -> list[tuple[Any, str]]:
    """The golden game's states just before each action of this verb, with that action."""
    rec = golden_record()
    s = freetrader.game(rec["game"]).new_state(rec["seats"], rec["seed"], rec.get("options"))
    out = []
    for a in rec["actions"]:
        if a.split(" ")[0] == verb:
            out.append((s.clone(), a))
        s.apply(a)
    return out


def sale_by_engine(s: Any, action: Any) -> tuple[int, str, int, int]:
    t = s.clone()
    n = t.event_count
    t.apply(action)
    line = next(e for e in t.events_since(n) if SOLD.search(e))
    size, row, gold, rep = SOLD.search(line).groups()  # type: ignore[union-attr]
    bonus = sum(int(m.group(1)) for e in t.events_since(n) if (m := re.search(r"gains (\d+) Gold more", e)))
    return int(size), row, int(gold) + bonus, int(rep)


def check_quote(s: Any) -> dict[str, Any]:
    quote = sale_quote(s)
    assert quote is not None
    notes = choice_notes(s, s.to_act)
    assert json.loads(notes["@sale"]) == quote
    rows = {r["row"]: r for r in quote["rows"]}
    prices = [a for a in s.legal_actions() if str(a).startswith("price ")]
    assert prices
    for a in prices:
        size, row, gold, rep = sale_by_engine(s, a)
        r = rows[row]
        assert (size, gold, rep) == (quote["town_size"], r["gold"] + r["bonus"], r["reputation"]), (str(a), quote)
        assert notes[str(a)].startswith(f"pays {r['gold']} Gold, {r['reputation']} Reputation"), notes[str(a)]
        # the Gold Wheel move is the engine's own
        t = s.clone()
        passes = B.advance_gold_wheel(t, r["gold"])
        assert (t.wheel, passes) == (r["wheel"], r["track"])
    return quote


def test_the_sale_quote_names_the_shape_on_sale_and_pays_what_the_engine_pays() -> None:
    for s, sold in states_before("sell"):
        t = s.clone()
        t.apply(sold)
        while t.frames and sale_quote(t) is None:  # a window may be asked first
            t.apply(t.legal_actions()[-1] if str(t.legal_actions()[-1]) == "decline" else t.legal_actions()[0])
        quote = check_quote(t)
        assert quote["goods"] == sold.split(" ")[1]
        g = B.GOODS_BY_ID[quote["goods"]]
        assert quote["shape"] == C.shapes[C.goods[g]].id
        assert quote["town_size"] == quote["printed_town_size"] == C.locations[t.g_at[g]].size


@pytest.mark.parametrize("size,free_row,bonus,bank", [(7, False, 0, 99), (2, True, 0, 99), (5, True, 2, 99),
                                                      (7, False, 3, 4)])
def test_cards_that_change_the_sale_change_the_quote(size: int, free_row: bool, bonus: int, bank: int) -> None:
    """What the cards set on the sale's frame: "as a size N town" (size), the Forged Cocket's free bottom row
    (free_row), Elizabeth Quick's Gold (bonus); and a bank too poor to pay the printed cell."""
    s, sold = states_before("sell")[0]
    s.apply(sold)
    while sale_quote(s) is None:
        s.apply(s.legal_actions()[-1])
    sale = F.innermost(s, F.Sale)
    assert sale is not None
    change_below(s, sale, dataclasses.replace(sale, size=size, free_row=free_row, bonus=bonus))
    s.bank = min(s.bank, bank)
    quote = check_quote(s)
    assert quote["town_size"] == size
    assert ("price bottom" in {str(a) for a in s.legal_actions()}) == free_row
    assert [r["cost"] for r in quote["rows"]] == [0, C.row_cost[1], 0 if free_row else C.row_cost[2]]


def test_payment_notes_are_what_the_engine_takes() -> None:
    rec = golden_record()
    s = freetrader.game(rec["game"]).new_state(rec["seats"], rec["seed"], rec.get("options"))
    checked: dict[str, int] = {}
    for step in rec["actions"][:400]:
        p = s.to_act
        notes = choice_notes(s, p)
        for a in s.legal_actions():
            m = re.fullmatch(r"costs (\d+) (Gold|Influence)", notes.get(str(a), ""))
            if not m:
                continue
            t = s.clone()
            before = (t.gold[p], t.infl[p])
            t.apply(a)
            if t.win_event:  # a card may still answer (a discount): the payment waits for the window
                continue
            paid = (before[0] - t.gold[p], before[1] - t.infl[p])
            assert paid == ((int(m.group(1)), 0) if m.group(2) == "Gold" else (0, int(m.group(1)))), (str(a), notes[str(a)])
            checked[a.verb] = checked.get(a.verb, 0) + 1
        s.apply(step)
    assert {"sail", "discover", "land"} <= set(checked), checked


def test_notes_are_only_for_the_seat_to_act() -> None:
    s, sold = states_before("sell")[0]
    others = [q for q in range(s.seats) if q != s.to_act]
    assert choice_notes(s, others[0]) == {}


def test_served_packings_are_the_engines() -> None:
    """Every served packing places each piece as its shape (rotated) on the hold's own cells, without overlap,
    and a set of shapes is served exactly when ``packing.fits`` (unflipped, the default rule) says it fits."""
    served = components()["packings"]
    holds = [(s.id, hold_of_ship(s.index), s.hold) for s in C.ships] + \
            [(h.id, hold_of_store(h.index), h.hold) for h in C.storehouses]
    by_id = {sh.id: sh for sh in C.shapes}
    for hid, h, hold in holds:
        table = served[hid]
        cells = sorted(hold.cells)
        for key, drawn in table.items():
            shapes = [by_id[x] for x in key.split(" ")]
            assert fits(h, [x.index for x in shapes])
            assert drawn and len(set(drawn)) == len(drawn)
            for code in drawn:
                assert len(code) == len(cells)
                for k, shape in enumerate(shapes):
                    piece = frozenset(cells[i] for i, ch in enumerate(code) if ch == "0123456789abcdefghijklmnopqrstuvwxyz"[k])
                    assert len(piece) == shape.size and any(piece == o for o in _placed(shape.cells, piece)), (hid, key, code)
        # no fitting set is missing: every pair of shapes (within the pieces there are) is served when it fits
        for a, b in combinations_with_replacement(sorted(by_id), 2):
            if a == b and sum(1 for g in C.goods if C.shapes[g].id == a) < 2:
                continue
            assert (f"{a} {b}" in table) == fits(h, [by_id[a].index, by_id[b].index]), (hid, a, b)


def _placed(shape: frozenset[tuple[int, int]], piece: frozenset[tuple[int, int]]) -> list[frozenset[tuple[int, int]]]:
    """The shape's rotations and reflections moved onto ``piece``'s first cell."""
    out = []
    r0, c0 = min(piece)
    cur = shape
    for flip in (False, True):
        cur = frozenset((r, -c) for r, c in shape) if flip else shape
        for _ in range(4):
            ar, ac = min(cur)
            out.append(frozenset((r - ar + r0, c - ac + c0) for r, c in cur))
            cur = frozenset((c, -r) for r, c in cur)
    return out


def test_arrangements_differ() -> None:
    ship = C.ships[0]
    domino = next(sh for sh in C.shapes if sh.id == "domino")
    found = arrangements(ship.hold.cells, [domino.cells, domino.cells], limit=4)
    assert len(found) == 4 and len(set(found)) == 4
    for packed in found:
        assert not (packed[0] & packed[1]) and all(x <= ship.hold.cells for x in packed)
    assert hold_packings(ship.hold) == components()["packings"][ship.id]
