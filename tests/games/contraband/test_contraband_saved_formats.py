"""States saved in every earlier format still load, into the same position, and play on as the old code did.

Format 4 keeps the pending decision as frames (``rules.py``); formats 1-3 kept it in ``phase``, ``actor``,
``after``, ``after_seat``, ``pending`` and ``officer_out``, and load by replaying their record. The fixtures
were written by the code of each format (1: 49feb93^, 2: b7112ab^, 3: 90d3309), and what follows their last
action below is what that code did next.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import freetrader
from freetrader.core import BadRecord

GAME = freetrader.game("contraband")
FIXTURES = Path(__file__).parent / "fixtures"
TABLE = ("cash", "retired", "been_officer", "pack", "discard_hidden", "discard_shown", "luggage", "claim",
         "declared", "caught", "cleared", "searches", "waved", "informs", "unused", "officer", "holder", "declarer",
         "examined", "bag_claim", "round", "reshuffles", "declarations")
# fixture, its format, then the action played on and the events the old code wrote for it, and who acts next
CASES = [
    ("format1-4p-seed2.json", None, "retire",
     ["Seat 2 pays its last $60 to seat 1 and retires from the game", "Seat 3 draws new luggage"], 3),
    ("format2-4p-seed2.json", 2, "retire",
     ["Seat 2 pays its last $60 to seat 1 and retires from the game", "Seat 3 draws new luggage"], 3),
    ("format3-4p-seed2-broke-after-search.json", 3, "retire",
     ["Seat 2 pays its last $0 to seat 1 and retires from the game", "Seat 3 draws new luggage"], 3),
    ("format3-4p-seed1-receive.json", 3, "inform",
     ["Seat 0 becomes an Informer against seat 3",
      "Told by Informer seat 0, seat 2 searches seat 3's luggage: 3 Personal effects, Brandy",
      "Contraband! Seat 3 is fined $15", "Seat 0 draws new luggage"], 0),
]


def _old(name: str) -> dict:
    return json.loads((FIXTURES / name).read_text())


@pytest.mark.parametrize(("name", "fmt", "action", "events", "next_seat"), CASES, ids=[c[0] for c in CASES])
def test_an_old_save_loads_into_the_same_position_and_plays_on_as_before(name, fmt, action, events, next_seat):
    old = _old(name)
    assert old.get("format") == fmt
    s = GAME.state_from_json(old)
    assert s.to_json()["format"] == 4 and s.action_count == len(old["actions"])
    assert s.events == old["events"] and s.rng.state == old["rng"]
    for field in TABLE:
        assert getattr(s, field) == old["state"][field], field
    assert [x for row in s.loans for x in row] == old["state"]["loans"]  # one flat list before, borrower * seats + lender
    view = s.view(None)
    assert view["phase"] == old["state"]["phase"] and s.to_act == old["state"]["actor"]
    assert [[o["payer"], o["payee"], o["amount"]] for o in view["owed"]] == old["state"]["pending"]
    assert GAME.state_from_json(s.to_json()).to_json() == s.to_json()
    n = len(s.events)
    s.apply(action)
    assert s.events[n:] == events and s.to_act == next_seat


def test_a_format_4_save_keeps_the_payments_in_the_frame_and_no_scratch_fields():
    s = GAME.state_from_json(_old("format3-4p-seed2-broke-after-search.json"))
    saved = s.to_json()["state"]
    assert not {"phase", "actor", "after", "after_seat", "pending", "officer_out"} & set(saved)
    assert [f["frame"].rsplit(".", 1)[1] for f in saved["frames"]] == ["DrawAfterSearch", "Payments"]
    assert saved["frames"][0]["seat"] == 3 and saved["frames"][1]["owed"] == [[2, 1, 30], [1, 3, 50]]


def test_an_old_save_edited_by_hand_is_refused():
    old = _old("format2-4p-seed2.json")
    old["events"] = old["events"][:-1]
    with pytest.raises(BadRecord, match="cannot be migrated"):
        GAME.state_from_json(old)


def test_a_save_whose_payments_name_a_seat_out_of_range_is_refused():
    data = GAME.state_from_json(_old("format3-4p-seed2-broke-after-search.json")).to_json()
    data["state"]["frames"][1]["owed"] = [[2, 9, 30]]
    with pytest.raises(BadRecord, match="must name seats 0-3"):
        GAME.state_from_json(data)


def test_a_save_with_no_decision_on_top_or_another_games_frame_is_refused():
    data = GAME.state_from_json(_old("format3-4p-seed2-broke-after-search.json")).to_json()
    data["state"]["frames"] = data["state"]["frames"][:1]  # the search's pending draw, its payments gone
    with pytest.raises(BadRecord, match="no decision on top"):
        GAME.state_from_json(data)
    freetrader.game("cornish-smuggler")  # its frames are known once it is loaded
    data["state"]["frames"] = [{"frame": "freetrader.games.cornish_smuggler.rules.SetupShip", "seat": 0, "i": 0}]
    with pytest.raises(BadRecord, match="another game"):
        GAME.state_from_json(data)
