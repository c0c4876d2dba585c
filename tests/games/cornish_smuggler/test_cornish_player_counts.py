"""Components dealt by the number of players (DESIGNED.md, "Five players"), and the data that says so.

A 5-player game adds five Irish Goods Shapes, ten Customs Track spaces and an officer waiting on the fourth
of them; a 4- or 5-player game adds a START card (Under The First and Last, at Sennen, DESIGNED.md "Four
players under search"). A 2-3 player game leaves the card in the box. A 2-player game drafts only the
three Mount's Bay homes, and only a 4- or 5-player game has the St Ives home (DESIGNED.md, "Two players:
the deal"). A 2-4 player game leaves the five pieces out ("out": never at a Merchant, never bought) and
starts the Customs Counter on space 10, so that it plays the 38 spaces of before and never meets that
officer.
"""

from __future__ import annotations

import re
from importlib import resources

import pytest

import freetrader
from freetrader.bots import decide, make_bot
from freetrader.core import DataError, Rng, derive_seed
from freetrader.games.cornish_smuggler import rules as R
from freetrader.games.cornish_smuggler.components import COMPONENTS as C
from freetrader.games.cornish_smuggler.components import PLAYER_COUNTS, load_components

GAME = freetrader.game("cornish-smuggler")
FIVE_ONLY = [g for g in range(len(C.goods)) if C.goods_players[g] == (5,)]
SHIPPED = resources.files("freetrader.games.cornish_smuggler").joinpath("data")


def _start_cards(s) -> list[str]:
    return [str(a).removeprefix("storehouse ") for a in s.legal_actions()]


def _at_storehouse_draft(seats: int):
    s = GAME.new_state(seats, 3)
    while s.phase != R.SETUP_STORE:
        s.apply(s.legal_actions()[0])
    return s


def test_the_player_counts_are_the_games_seats():
    assert PLAYER_COUNTS == tuple(range(GAME.spec.min_seats, GAME.spec.max_seats + 1))


def test_five_irish_pieces_are_dealt_only_to_five_players():
    assert [C.shapes[C.goods[g]].id for g in FIVE_ONLY] == ["l-tromino", "i-tetromino", "o-tetromino",
                                                              "l-tetromino", "t-tetromino"]
    ireland = C.merchant_names.index("Irish Merchant")
    assert {C.goods_start[g] for g in FIVE_ONLY} == {ireland}
    for seats in (2, 3, 4):
        s = GAME.new_state(seats, 1)
        assert [s.g_where[g] for g in FIVE_ONLY] == [R.OUT] * 5 and [s.g_at[g] for g in FIVE_ONLY] == [-1] * 5
        assert sum(w == R.MERCHANT for w in s.g_where) == 30
        view = {g["id"]: g for g in s.view(0)["goods"]}
        assert all(view[R.GOODS_IDS[g]]["where"] == "out" and view[R.GOODS_IDS[g]]["at"] is None for g in FIVE_ONLY)
    s = GAME.new_state(5, 1)
    assert sum(w == R.MERCHANT for w in s.g_where) == 35 and all(s.g_at[g] == ireland for g in FIVE_ONLY)


def test_the_sennen_start_card_is_offered_only_to_four_and_five_players():
    for seats in (2, 3, 4, 5):
        cards = _start_cards(_at_storehouse_draft(seats))
        assert "behind-the-turks-head" in cards
        assert ("under-the-first-and-last" in cards) == (seats >= 4)
        assert len(cards) == {2: 3, 3: 6, 4: 8, 5: 8}[seats]


def test_two_players_draft_only_the_three_mounts_bay_homes():
    cards = _start_cards(_at_storehouse_draft(2))
    assert sorted(cards) == ["behind-the-turks-head", "the-chapel-rock-cellar", "the-net-loft"]
    assert {C.locations[next(st for st in C.storehouses if st.id == c).location].id for c in cards} == {
        "penzance", "marazion", "porthleven"}


def test_the_st_ives_start_card_is_offered_only_to_four_and_five_players():
    for seats in (2, 3, 4, 5):
        assert ("the-pilchard-palace" in _start_cards(_at_storehouse_draft(seats))) == (seats >= 4)


def test_two_to_four_players_start_the_customs_counter_ten_spaces_in():
    assert len(C.discovery) == 48
    for seats in (2, 3, 4):
        s = GAME.new_state(seats, 1)
        assert s.track == 10 and C.discovery[s.track] == 8 and C.bribe[s.track] == 3
        assert len(C.discovery) - 1 - s.track == 37  # the 38 spaces of before
        assert [x - s.track for x in C.new_officer if x > s.track] == [2, 12, 20, 27, 35]  # their officers too
        assert s.view(0)["customs"]["track_start"] == 10
    s = GAME.new_state(5, 1)
    assert s.track == 0 and s.view(0)["customs"]["track_start"] == 0


def test_the_officer_only_five_players_meet_enters_at_space_4_and_never_in_a_smaller_game():
    from freetrader.games.cornish_smuggler import board
    s = GAME.new_state(5, 1)
    assert [board.advance_customs_track(s, 1) for _ in range(4)] == [0, 0, 0, 1]  # space 4: one to post
    assert 4 in C.new_officer and sum(board.advance_customs_track(s, 1) for _ in range(len(C.discovery))) == 5
    s = GAME.new_state(3, 1)
    assert sum(board.advance_customs_track(s, 1) for _ in range(len(C.discovery))) == len(C.new_officer) - 1


@pytest.mark.parametrize("seats", [3, 5])
def test_a_whole_game_never_brings_a_piece_of_another_player_count_into_play(seats):
    s = GAME.new_state(seats, 11)
    bots = [make_bot("heuristic", GAME, derive_seed(11, p)) for p in range(seats)]
    rngs = [Rng(derive_seed(11, 100 + p)) for p in range(seats)]
    while not s.is_over:
        p = s.to_act
        s.apply(decide(bots[p], s, p, rngs[p]))
        if seats == 3:
            assert all(s.g_where[g] == R.OUT for g in FIVE_ONLY)
    if seats == 5:  # the five are in play like the rest: some were bought
        assert any(s.g_where[g] != R.MERCHANT for g in FIVE_ONLY)


def _pack(tmp_path, name: str, edit) -> object:
    for f in SHIPPED.iterdir():
        if f.name.endswith(".toml"):
            (tmp_path / f.name).write_text(f.read_text())
    path = tmp_path / name
    path.write_text(edit(path.read_text()))
    return tmp_path


@pytest.mark.parametrize("name, edit, message", [
    ("storehouses.toml", lambda t: t.replace("players = [4, 5]", "players = [6]"),
     "players [6] must list player counts from 2 to 5, each once"),
    ("storehouses.toml", lambda t: t.replace("players = [4, 5]", "players = []"), "players [] must list"),
    ("goods.toml", lambda t: t.replace("{ players = [5], goods", "{ players = [5], colour = 1, goods"),
     "unknown key(s) 'colour'"),
    ("tracks.toml", lambda t: t.replace("start_space = { 2 = 10,", "start_space = { 1 = 10,"),
     "start_space 1 = 10 must map a player count (2 to 5) to a space before the track's last"),
    ("tracks.toml", lambda t: t.replace("3 = 10, 4 = 10 }", "3 = 10, 4 = 47 }"), "start_space 4 = 47 must map"),
])
def test_a_broken_player_count_is_refused_with_one_line(tmp_path, name, edit, message):
    with pytest.raises(DataError, match=message.replace("(", r"\(").replace(")", r"\)").replace("[", r"\[")
                       .replace("]", r"\]")) as exc:
        load_components(_pack(tmp_path, name, edit))
    assert "\n" not in str(exc.value)


def test_data_without_player_counts_deals_everything_to_everyone(tmp_path):
    """The fields are optional: a pack written before them (examples/cornish-before-issue-30) loads as it was."""
    def strip(t: str) -> str:
        return re.sub(r"players = \[[\d, ]*\]\n", "", t)

    c = load_components(_pack(tmp_path, "storehouses.toml", strip))
    assert all(st.players == PLAYER_COUNTS for st in c.storehouses)
