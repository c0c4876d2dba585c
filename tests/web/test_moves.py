"""Structured legal moves (issue 33 item 7): what the table sends beside ``legal`` for the seat to act.

Each game's ``web.moves`` describes every legal action (verb, targets by role, cost, pay) from the
engine; ``server/log.py: choice_notes_of`` sends them keyed by notation. Checked over seeded random
playouts of every game and module: they cover exactly the legal actions, and what a move says it costs
and pays is what applying it takes from (and gives to) the seat (``web.purse``).
"""

from __future__ import annotations

import importlib
import json
import random
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
from layout import TABLES

import freetrader
from freetrader.core.moves import Move
from freetrader.core.registry import game_package, load_part
from freetrader.core.state import State
from freetrader.server.log import choice_notes_of

ACTIONS = 300
#: Games whose move runs on past its payment before the next decision (Merchants Cove: a hired Townsfolk's
#: ability, the day's Sponsorship after the last sale), so the purse moves by more than the price: there
#: the engine's own line for the move must name the amount ("hires Washerwoman (locals) for 1 gold").
RUNS_ON = {"merchants-cove"}


#: longer games than the layout tests': the turn limits they set end a playout in 30-90 moves
LONGER: dict[str, dict[str, Any]] = {"contraband": {"turn_limit": 40}, "cornish-smuggler": {"turn_limit": 8},
                                     "precious-cargo": {"target": 20, "turn_limit": 30}}
SEEDS = (1, 2, 3)


def positions(game: str, options: dict[str, Any], seats: int, seed: int) -> list[State]:
    """Every position of one seeded random playout (up to ``ACTIONS`` moves), each a copy."""
    state = freetrader.game(game).new_state(seats, seed=seed, options={**options, **LONGER.get(game, {})})
    rng = random.Random(seed)
    out = []
    for _ in range(ACTIONS):
        if state.is_over:
            break
        out.append(state.clone())
        state.apply(rng.choice(state.legal_actions()))
    return out


@pytest.mark.parametrize("table", TABLES, ids=lambda t: t[0])
def test_the_moves_sent_are_exactly_the_legal_actions(table: tuple[str, str, dict[str, Any], int]) -> None:
    _, game, options, seats = table
    seen_targets = 0
    for seed in SEEDS:
        for state in positions(game, options, seats, seed):
            seat = state.to_act
            assert seat is not None
            legal = [str(a) for a in state.legal_actions()]
            sent = choice_notes_of(state, seat)
            assert [k for k in sent if not k.startswith("@")] == legal  # every one, once, in the engine's order
            for other in range(seats):
                if other != seat:
                    assert choice_notes_of(state, other) == {}  # only the seat to act learns its choices
            for text, move in sent.items():
                if text.startswith("@"):
                    continue
                assert move["verb"] and move["label"], (text, move)
                assert all(isinstance(v, str) and v for v in move["targets"].values()), (text, move)
                assert all(isinstance(v, int) and v > 0 for part in ("cost", "pays") for v in move[part].values())
                seen_targets += bool(move["targets"])
    if game != "_template":
        assert seen_targets, "no move named a target: the game's web.moves gives no targets"


def _settle(state: State, seat: int) -> bool:
    """Decline the reaction windows the move opened (a card may answer it), so its payment is made.

    False when the payment still waits on a card: the seat cannot afford the move without the discount
    it counted on (Grace Trembath's), so it must play the card before paying.
    """
    for _ in range(20):
        if state.is_over:
            return True
        legal = state.legal_actions()
        declines = [a for a in legal if str(a) == "decline"]
        if not declines:
            return not all(str(a).split(" ")[0] in ("play", "motivate") for a in legal)
        state.apply(declines[0])
    return True


@pytest.mark.parametrize("table", TABLES, ids=lambda t: t[0])
def test_costs_and_pay_are_what_applying_the_move_takes(table: tuple[str, str, dict[str, Any], int]) -> None:
    _, game, options, seats = table
    web = load_part(freetrader.game(game), "web")
    assert web is not None
    checked = 0
    bad: list[str] = []
    for seed in SEEDS:
        for state in positions(game, options, seats, seed)[::3]:
            seat = state.to_act
            assert seat is not None
            before = web.purse(state, seat)
            for move in web.moves(state, seat):
                if not (move.cost or move.pays):
                    continue
                after = state.clone()
                n = after.event_count
                after.apply(move.action)
                checked += 1
                if game in RUNS_ON:
                    first = after.events_since(n)[0]
                    for r in {*move.cost, *move.pays}:
                        amount = move.pays.get(r, 0) or move.cost.get(r, 0)
                        if not first.endswith(f" for {amount} {r}"):
                            bad.append(f"{move.action!r}: the engine says {first!r}, the move said {amount} {r}")
                    continue
                if not _settle(after, seat):
                    continue
                now = web.purse(after, seat)
                for r in {*move.cost, *move.pays}:
                    want = move.pays.get(r, 0) - move.cost.get(r, 0)
                    if now[r] - before[r] != want:
                        bad.append(f"{move.action!r}: {r} {before[r]} -> {now[r]}, the move said {want:+d}")
    assert not bad, f"{len(bad)} moves' amounts are not what the engine takes, e.g. " + "; ".join(bad[:8])
    if any(web.purse(freetrader.game(game).new_state(seats, seed=1, options=options), 0).values()):
        assert checked >= 5, f"only {checked} moves with a cost or pay were checked"


def _cornish_buy_position(discount: int) -> tuple[State, int]:
    """A Cornish position where the seat to act may buy goods, with a card's Buy discount of ``discount``.

    The engine keeps a discount on the Buy under way (a pending ``Purchase`` frame's ``disc``, set by a
    "buy-discount" card answering the Buy); one is put under the decision here, so the page's prices
    must come from the engine's, not from a fixed table."""
    from freetrader.games.cornish_smuggler import rules

    # the first of a few seeded playouts that reaches a Buy (random play seldom sails to a Merchant)
    for state in (x for seed in range(5, 25) for x in positions("cornish-smuggler", {"turn_limit": 3}, 3, seed)):
        seat = state.to_act
        assert seat is not None
        if any(str(a).startswith("buy g") for a in state.legal_actions()) and state.gold[seat] >= 4:
            if discount:
                state.frames = (rules.Buying(seat=seat, disc=discount),) + state.frames
            return state, seat
    raise AssertionError("no position offers a Buy in these playouts")


def test_cornish_buy_costs_show_a_discount_when_one_applies() -> None:
    from freetrader.games.cornish_smuggler import web

    full, seat = _cornish_buy_position(0)
    cut, _ = _cornish_buy_position(2)
    cost = {m.action: m for m in web.moves(full, seat)}
    cheaper = {m.action: m for m in web.moves(cut, seat)}
    buys = [a for a in cost if a.startswith("buy g")]
    assert buys
    for a in buys:
        assert cheaper[a].cost["gold"] == max(1, cost[a].cost["gold"] - 2), (a, cost[a], cheaper[a])
        assert cost[a].cost["influence"] == cheaper[a].cost["influence"] == 1
    if "buy-reputation" in cost:  # the button once said "4 Gold" whatever the discount
        assert cost["buy-reputation"].cost == {"gold": 4}
        assert cheaper["buy-reputation"].cost == {"gold": 2}
    # and the discounted price is what the engine takes when it carries out a Buy with that discount
    from freetrader.games.cornish_smuggler import rules

    a = buys[0]
    buy = next(x for x in full.legal_actions() if str(x) == a)
    after = cut.clone()
    rules.Buying(seat=seat, goods=buy.goods, disc=2).carry_out(after)
    assert cut.gold[seat] - after.gold[seat] == cheaper[a].cost["gold"]


def test_a_move_as_json_leaves_out_nothing_amounts() -> None:
    m = Move("buy g01", "buy", "Buy L Tetromino (4)", {"goods": "g01"}, {"influence": 1, "gold": 0}, {})
    assert m.to_json() == {"verb": "buy", "label": "Buy L Tetromino (4)", "targets": {"goods": "g01"},
                           "cost": {"influence": 1}, "pays": {}, "note": ""}


# -- no page reads notation ------------------------------------------------------------------------------
WEB = Path(freetrader.__file__).parent
#: The shapes a notation or card-text parser takes in a page: a legal move's text split, matched or sliced
#: (``String(n).trim().split(/\s+/)``, ``notation.split(" ")``), a pattern built at run time (the cost
#: regex over a card's text), a notation grammar.
PARSING = re.compile(r"(?:(?:String|str)\((?:n|notation|a)\)|\b(?:n|notation)\b)(?:\.trim\(\))?"
                     r"\.(?:split|match|replace|startsWith|slice|indexOf)\(|\ba\.split\("
                     r"|new RegExp\(|\bNOTATION\b|\.(?:cost|text|ability)\)?\.(?:match|split)\(")


def pages() -> list[Path]:
    return sorted([*WEB.glob("games/*/web.js"), *WEB.glob("web/*.js")])


def test_the_scan_finds_the_parsers_pages_had() -> None:
    for line in ('const t = String(n).trim().split(/\\s+/);', 'const m = new RegExp("(\\\\d+) " + a.pay, "i").exec(card.cost);',
                 'const [verb, rest] = [notation.split(" ")[0], notation.split(" ").slice(1).join(" ")];',
                 'const m = NOTATION.exec(String(n).trim());', 'const [verb, a, b] = str(n).trim().split(/\\s+/);',
                 'const verb = a.split(" ")[0];'):
        assert PARSING.search(line), line


@pytest.mark.parametrize("page", pages(), ids=lambda p: f"{p.parent.name}/{p.name}")
def test_no_page_parses_move_notation_or_card_text(page: Path) -> None:
    found = [f"{page.name}:{k}: {line.strip()[:100]}" for k, line in enumerate(page.read_text().splitlines(), 1)
             if not line.lstrip().startswith("//") and PARSING.search(line)]
    assert not found, "a page reads a move's notation or a card's text: " + "; ".join(found)


@pytest.mark.parametrize("table", TABLES, ids=lambda t: t[0])
def test_buttons_read_the_same_whatever_the_notation(table: tuple[str, str, dict[str, Any], int]) -> None:
    """Behaviour: each page's labels come from the moves sent, so renaming every notation to an opaque
    token ("#7") while the moves stay the same changes no button's words."""
    node = shutil.which("node")
    if node is None:
        pytest.skip("no Node (apt-get install nodejs)")
    _, game, options, seats = table
    g = freetrader.game(game)
    samples: list[dict[str, Any]] = []
    opaque: list[dict[str, Any]] = []
    for state in positions(game, options, seats, 1)[::5]:
        seat = state.to_act
        view = state.view(seat, events=False)
        notes = choice_notes_of(state, seat)
        legal = [n for n in notes if not n.startswith("@")][:40]
        samples.append({"view": view, "legal": legal, "notes": notes})
        renamed = {f"#{k}": notes[n] for k, n in enumerate(legal)}
        opaque.append({"view": {**view, "legal": list(renamed)}, "legal": list(renamed),
                       "notes": {**renamed, **{k: v for k, v in notes.items() if k.startswith("@")}}})
    script = Path(importlib.import_module(game_package(g)).__file__ or "").parent / "web.js"
    comps = load_part(g, "web").components()
    labels = [_labels(node, script, comps, s) for s in (samples, opaque)]
    differ = [(a, b) for x, y in zip(*labels, strict=True) for a, b in zip(x, y, strict=True) if a != b]
    assert not differ, f"{len(differ)} buttons read differently when only the notation changed, e.g. {differ[:5]}"
    assert sum(map(len, labels[0])) > 50


def _labels(node: str, script: Path, comps: dict[str, Any], samples: list[dict[str, Any]]) -> list[list[str]]:
    out = subprocess.run([node, str(Path(__file__).parent / "labels.js")], check=True, capture_output=True, text=True,
                         input=json.dumps({"script": str(script), "components": comps, "samples": samples}, default=str))
    return list(json.loads(out.stdout))


def test_the_cornish_coast_is_drawing_data_not_code() -> None:
    from freetrader.games.cornish_smuggler.web import components

    coast = components()["drawing"]["coast"]
    assert len(coast) >= 20 and all(len(p) == 2 and all(isinstance(v, int) for v in p) for p in coast)
    page = (WEB / "games" / "cornish_smuggler" / "web.js").read_text()
    pairs = re.findall(r"\[\s*(\d+)\s*,\s*(\d+)\s*\]", page)
    assert not {(int(x), int(y)) for x, y in pairs} & {tuple(p) for p in coast}, "web.js keeps coast points"
    assert "d.coast" in page  # drawn from the served drawing (data/drawing.toml)
