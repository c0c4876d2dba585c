"""The log says what the board shows (issue 34 item 11): who drew Secrets after a sale, and what a Buy cost.

"Whenever a player sells one Goods Shape, every other player draws one Secrets Card. The seller does NOT
draw a card" (Secrets Cards). The public line names the drawing seats, never the cards; each drawer's
own log names its card (the table's private lines, from the view's ``your_secrets``).
"""

from __future__ import annotations

import json

from cornish_scenario import act, after_setup, loc, officers_at, piece, put_on_land

from freetrader.core.registry import load_part
from freetrader.games.cornish_smuggler import rules as R
from freetrader.games.cornish_smuggler.components import COMPONENTS as C
from freetrader.server.log import display_names, item_names, private_lines, render_event

GID = R.GOODS_IDS
PART = load_part(after_setup(3).game, "web")
IDS, ITEMS = display_names(PART.components()), item_names(PART.components())
NAMES = ["Ann", "Bob", "Cat", "Dan"]
#: every word a Secrets card is known by: its id and its name
SECRET_WORDS = {w for x in C.secrets for w in (x.id, x.name)}


def _private(s, seat: int) -> dict:
    return {k: v for k, v in s.view(seat, events=False).items() if k.startswith("your_")}


def _gained(now: list[int], was: list[int]) -> list[int]:
    """The cards in ``now`` beyond those in ``was`` (a hand may hold two of one card)."""
    left, out = list(was), []
    for c in now:
        if c in left:
            left.remove(c)
        else:
            out.append(c)
    return out


def _sell_top(seats: int, deck_left: int | None = None):
    """Seat to act sells a Domino at Penzance at the top row; each seat's private fields before and after."""
    s = after_setup(seats)
    p = s.actor
    officers_at(s, "st-just")
    g = piece(s, 2)
    put_on_land(s, p, g, "penzance")
    s.counters[p].append(loc("penzance"))
    if deck_left is not None:
        s.sdiscard.extend(s.sdeck[: len(s.sdeck) - deck_left])
        del s.sdeck[: len(s.sdeck) - deck_left]
    before = [_private(s, q) for q in range(seats)]
    hands = [list(x) for x in s.secrets]
    seen = len(s.events)
    act(s, f"sell {GID[g]}", "price top")
    drawn = {q: _gained(s.secrets[q], hands[q]) for q in range(seats)}
    return s, p, before, [render_event(e, NAMES[:seats], IDS) for e in s.events[seen:]], drawn


def test_after_a_sale_the_log_says_which_seats_drew_a_secret_and_not_which_card():
    s, p, _, lines, drawn = _sell_top(4)
    others = [(p + i) % 4 for i in range(1, 4)]
    assert {q for q in range(4) if drawn[q]} == set(others) and all(len(drawn[q]) == 1 for q in others)
    want = f"{NAMES[others[0]]}, {NAMES[others[1]]} and {NAMES[others[2]]} each draw a Secrets card after the sale"
    assert want in lines, lines
    text = " ".join(lines)
    assert not any(w in text for w in SECRET_WORDS), text


def test_each_drawer_s_own_log_names_its_card_and_no_other_seat_s():
    s, p, before, lines, drawn = _sell_top(3)
    for q in range(3):
        mine = private_lines(before[q], _private(s, q), ITEMS)
        assert mine == ([f"You draw {C.secrets[drawn[q][0]].name}"] if q != p else []), (q, mine)
        # what seat q reads and is sent about the others: no card of theirs by id or name
        shown = json.dumps(s.view(q, events=False)) + " ".join(lines) + " ".join(mine)
        for r in range(3):
            if r != q and drawn[r] and drawn[r][0] not in s.secrets[q]:
                card = C.secrets[drawn[r][0]]
                assert card.id not in shown and card.name not in shown, (q, r, card.id)
    spectator = json.dumps(s.view(None, events=False))
    assert not any(C.secrets[c].id in spectator for q in range(3) for c in drawn[q])


def test_when_the_secrets_deck_runs_out_the_log_says_who_drew_none():
    s, p, _, lines, drawn = _sell_top(3, deck_left=1)
    first, second = (p + 1) % 3, (p + 2) % 3
    assert drawn[first] and not drawn[second]
    assert f"{NAMES[first]} draws a Secrets card after the sale" in lines
    assert f"The Secrets deck is empty: {NAMES[second]} draws none" in lines


def test_the_buy_line_names_the_influence_paid():
    """Buy One Goods Shape: "1 Influence plus 1 Gold for each square" (Actions & Costs)."""
    s = after_setup(3)
    p = s.actor
    s.ship_at[p] = C.merchant_nodes[0]
    buy = next(a for a in s.legal_actions() if str(a).startswith("buy "))
    g = R.GOODS_BY_ID[buy.item]
    gold, infl = s.gold[p], s.infl[p]
    act(s, str(buy))
    size = C.shapes[C.goods[g]].size
    assert (gold - s.gold[p], infl - s.infl[p]) == (size, 1)
    assert any(e.endswith(f"for {size} Gold and 1 Influence") and e.startswith(f"Seat {p} buys") for e in s.events)
