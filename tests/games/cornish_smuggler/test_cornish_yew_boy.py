"""Yew boy! answers a Customs Officer being moved, whatever moves it (issue 17 item 4; ruling 21 retired).

Secrets card: "Play when a Customs Officer is being moved: You decide where the Customs Officer moves."
"""

from __future__ import annotations

from cornish_scenario import after_setup, counters, give_char, give_secret, loc, officers_at, piece, put_on_land, touch

from freetrader.games.cornish_smuggler import frames as F
from freetrader.games.cornish_smuggler import rules as R
from freetrader.games.cornish_smuggler.components import COMPONENTS as C

GID = R.GOODS_IDS


def table(seats: int = 2):
    s = after_setup(seats, 1)
    for p in range(seats):
        s.chars[p], s.secrets[p], s.counters[p], s.motivated[p] = [], [], [], []
        s.infl[p] = 10
    s.actor = 0
    touch(s)
    return s


def legal(s) -> list[str]:
    return [str(a) for a in s.legal_actions()]


def test_yew_boy_when_a_character_card_moves_an_officer_you_decide_where_it_moves():
    """Thomas Rowe's effect moves the Penzance officer towards Madron; seat 1 plays Yew boy! and sends it to Newlyn."""
    s = table()
    give_char(s, 0, "thomas-rowe")
    give_secret(s, 1, "yew-boy")
    officers_at(s, "penzance", "st-ives")
    s.apply("motivate thomas-rowe")
    s.apply("choose 0 to madron")
    assert s.phase == R.REACT and s.win_event == "customs-move" and s.actor == 1
    assert isinstance(s.frames[-2], F.OfficerMove)  # the move waits on the window
    assert "play yew-boy" in legal(s)
    s.apply("play yew-boy")
    assert s.actor == 1 and s.director == 1  # the Yew boy! player now decides
    here = C.locations[loc("penzance")].land
    assert set(legal(s)) == {f"step {R.LOC_IDS[x]}" for x in here}
    s.apply("step newlyn")
    assert s.off_at[0] == loc("newlyn")
    assert any("moves Customs Officer 0 from Penzance to Newlyn (Thomas Rowe)" in e for e in s.events)
    assert s.actor == 0 and s.phase == R.EFFECT  # Thomas Rowe may move it a second space


def test_yew_boy_declined_the_card_moves_the_officer_as_chosen_and_the_decline_is_silent():
    s = table()
    give_char(s, 0, "thomas-rowe")
    give_secret(s, 1, "yew-boy")
    officers_at(s, "penzance", "st-ives")
    s.apply("motivate thomas-rowe")
    s.apply("choose 0 to madron")
    n = s.event_count
    s.apply("decline")
    assert s.off_at[0] == loc("madron") and not any("decline" in e for e in s.events_since(n))


def test_yew_boy_answers_the_paid_move_customs_officer_action():
    s = table()
    give_secret(s, 1, "yew-boy")
    officers_at(s, "penzance", "st-ives")
    s.apply("officer 0 to madron with influence")
    assert s.win_event == "customs-move" and s.actor == 1
    s.apply("play yew-boy")
    s.apply("step newlyn")
    assert s.off_at[0] == loc("newlyn") and s.infl[0] == 10 - 4 and s.infl[1] == 10 - 2
    assert s.phase == R.MAIN and s.actor == 1  # seat 0's Action is over


def test_yew_boy_window_nests_inside_a_seizure_window():
    """The Newlyn Fishwives lead the officer away inside the seizure window: that move opens a Yew boy! window too."""
    s = table(3)
    g1 = piece(s, 2)
    put_on_land(s, 1, g1, "newlyn")
    counters(s, 1, "newlyn", "penzance")
    officers_at(s, "penzance", "st-ives")
    give_char(s, 1, "the-newlyn-fishwives")
    give_secret(s, 2, "yew-boy")
    s.apply("officer 0 to newlyn with influence")
    while s.win_event == "customs-move":
        s.apply("decline")
    assert s.win_event == "seizure" and s.actor == 1
    s.apply("motivate the-newlyn-fishwives")
    s.apply(f"choose {legal(s)[0].split()[1]}")
    kinds = [type(f).__name__ for f in s.frames]
    assert kinds[-4:] == ["SeizureWindow", "RepelOfficer", "OfficerMove", "CardWindow"]
    assert s.win_event == "customs-move" and s.actor == 2
    s.apply("play yew-boy")
    s.apply("step penzance")
    assert s.off_at[0] == loc("penzance") and s.g_where[g1] == R.LAND  # led away: not seized
