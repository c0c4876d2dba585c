"""The design sweep's data packs (``scripts/cornish_sweep.py``) say what their knobs say, and load.

A knob that silently failed to rewrite its value would make a sweep compare the shipped design
with itself; these tests load each pack the way a sweep's worker does, in a child process.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[3]


def _script() -> ModuleType:
    from cornish_scenario import script

    return script("cornish_sweep")


PROBE = """
import json
from freetrader.games.cornish_smuggler.components import COMPONENTS as C
pz = C.locations[C.loc_by_id["penzance"]]
east = C.sea_by_id["mounts-bay-east"]
print(json.dumps({
    "penzance_on_east": east in C.sea_adj[pz.sea_node],
    "roscoff_on_west": C.sea_by_id["mounts-bay-west"] in C.sea_adj[C.merchant_nodes[0]],
    "roscoff_on_east": east in C.sea_adj[C.merchant_nodes[0]],
    "size_madron": C.locations[C.loc_by_id["madron"]].size,
    "homes": sorted(C.locations[st.location].id for st in C.storehouses if st.start),
}))
"""


def _load(pack: Path) -> dict[str, object]:
    env = {**os.environ, "FREETRADER_DATA": str(pack)}
    out = subprocess.run([sys.executable, "-c", PROBE], env=env, capture_output=True, text=True, check=True)
    return dict(json.loads(out.stdout))


@pytest.mark.parametrize("knobs, expect", [
    ({}, {"penzance_on_east": False, "size_madron": 2}),
    ({"sea-penzance": "mounts-bay-west+mounts-bay-east"}, {"penzance_on_east": True, "size_madron": 2}),
    ({"size-madron": 5}, {"penzance_on_east": False, "size_madron": 5}),
    ({}, {"roscoff_on_west": False, "roscoff_on_east": True}),
    ({"sea-roscoff": "mounts-bay-east+mounts-bay-west"}, {"roscoff_on_west": True, "penzance_on_east": False}),
    ({"sea-roscoff": "mounts-bay-west"}, {"roscoff_on_west": True, "roscoff_on_east": False}),
])
def test_a_place_knob_rewrites_that_place_only(tmp_path: Path, knobs: dict[str, object],
                                               expect: dict[str, object]) -> None:
    got = _load(_script().write_pack(tmp_path, knobs))
    assert {k: got[k] for k in expect} == expect


def test_the_sixth_home_layout_moves_the_glebe_barn_to_st_just(tmp_path: Path) -> None:
    shipped = _load(_script().write_pack(tmp_path / "a", {}))["homes"]
    moved = _load(_script().write_pack(tmp_path / "b", {"homes": 6}))["homes"]
    assert isinstance(shipped, list) and isinstance(moved, list)
    assert "ludgvan" in shipped and "st-just" not in shipped
    assert moved == sorted([h for h in shipped if h != "ludgvan"] + ["st-just"])


GOODS_PROBE = """
import json
from freetrader.games.cornish_smuggler.components import COMPONENTS as C
names = ["roscoff", "guernsey", "ireland"]  # goods.toml lists them in map.toml's order
# the list every game deals (a Merchant's pieces of some player counts only, its ``extra``, stay as shipped)
print(json.dumps({n: sorted(C.shapes[g].id for g, m, players in zip(C.goods, C.goods_start, C.goods_players)
                            if m == i and len(players) == 4) for i, n in enumerate(names)}))
"""


def test_a_merchant_goods_knob_gives_that_merchant_its_list_and_the_counts_follow(tmp_path: Path) -> None:
    def merchants(pack: Path) -> dict[str, list[str]]:
        out = subprocess.run([sys.executable, "-c", GOODS_PROBE], env={**os.environ, "FREETRADER_DATA": str(pack)},
                             capture_output=True, text=True, check=True)
        return dict(json.loads(out.stdout))

    shipped = merchants(_script().write_pack(tmp_path / "a", {}))
    swapped = merchants(_script().write_pack(tmp_path / "b", {"goods-ireland": "p-pentomino+domino"}))
    assert swapped["ireland"] == ["domino", "p-pentomino"] != shipped["ireland"]
    assert swapped["roscoff"] == shipped["roscoff"] and swapped["guernsey"] == shipped["guernsey"]


def test_a_hold_knob_rewrites_that_storehouse_only(tmp_path: Path) -> None:
    probe = ("import json\nfrom freetrader.games.cornish_smuggler.components import COMPONENTS as C\n"
             "print(json.dumps({st.id: len(st.hold.cells) for st in C.storehouses}))")

    def cells(pack: Path) -> dict[str, int]:
        out = subprocess.run([sys.executable, "-c", probe], env={**os.environ, "FREETRADER_DATA": str(pack)},
                             capture_output=True, text=True, check=True)
        return dict(json.loads(out.stdout))

    shipped = cells(_script().write_pack(tmp_path / "a", {}))
    smaller = cells(_script().write_pack(tmp_path / "b", {"hold-the-net-loft": "###/#.."}))
    assert shipped["the-net-loft"] == 7 and smaller["the-net-loft"] == 4
    assert {k: v for k, v in smaller.items() if k != "the-net-loft"} == \
        {k: v for k, v in shipped.items() if k != "the-net-loft"}


def test_a_home_knob_moves_that_storehouse_only(tmp_path: Path) -> None:
    shipped = _load(_script().write_pack(tmp_path / "a", {}))["homes"]
    moved = _load(_script().write_pack(tmp_path / "b", {"home-the-glebe-barn": "porthleven"}))["homes"]
    assert isinstance(shipped, list) and isinstance(moved, list)
    assert moved == sorted([h for h in shipped if h != "ludgvan"] + ["porthleven"])


def test_a_players_knob_sets_the_counts_that_deal_that_card_only(tmp_path: Path) -> None:
    probe = ("import json\nfrom freetrader.games.cornish_smuggler.components import COMPONENTS as C\n"
             "print(json.dumps({st.id: list(st.players) for st in C.storehouses if st.start}))")

    def dealt(pack: Path) -> dict[str, list[int]]:
        out = subprocess.run([sys.executable, "-c", probe], env={**os.environ, "FREETRADER_DATA": str(pack)},
                             capture_output=True, text=True, check=True)
        return dict(json.loads(out.stdout))

    shipped = dealt(_script().write_pack(tmp_path / "a", {}))
    knobs = {"players-behind-the-turks-head": "2+3+4", "players-under-the-first-and-last": "5"}
    changed = dealt(_script().write_pack(tmp_path / "b", knobs))
    assert shipped["behind-the-turks-head"] == [2, 3, 4, 5] and shipped["under-the-first-and-last"] == [4, 5]
    assert changed["behind-the-turks-head"] == [2, 3, 4] and changed["under-the-first-and-last"] == [5]
    assert {k: v for k, v in changed.items() if k not in {"behind-the-turks-head", "under-the-first-and-last"}} == \
        {k: v for k, v in shipped.items() if k not in {"behind-the-turks-head", "under-the-first-and-last"}}


def test_the_lead_knob_sets_the_spaces_only_five_players_play(tmp_path: Path) -> None:
    probe = ("import json\nfrom freetrader.games.cornish_smuggler.components import COMPONENTS as C\n"
             "print(json.dumps([C.discovery, C.new_officer, C.track_start]))")

    def track(pack: Path) -> list[object]:
        out = subprocess.run([sys.executable, "-c", probe], env={**os.environ, "FREETRADER_DATA": str(pack)},
                             capture_output=True, text=True, check=True)
        return list(json.loads(out.stdout))

    shipped = track(_script().write_pack(tmp_path / "a", {}))
    longer = track(_script().write_pack(tmp_path / "b", {"lead": 14}))
    assert longer[0] == [8] * 4 + shipped[0] and longer[1] == [x if x < 10 else x + 4 for x in shipped[1]]
    assert longer[2] == {"2": 14, "3": 14, "4": 14, "5": 0} and shipped[2]["4"] == 10


def test_a_played_game_records_each_positions_ship_and_the_summary_counts_them() -> None:
    from freetrader.games.cornish_smuggler.components import COMPONENTS as C

    sweep = _script()
    games = [sweep.play((31, i, 2, ("heuristic",))) for i in range(2)]
    ids = {ship.id for ship in C.ships}
    for g in games:
        assert len(g["ships"]) == 2 and len(set(g["ships"])) == 2 and set(g["ships"]) <= ids
    by_ship = sweep.summarize(games)["by_ship"]
    assert sum(c["games"] for c in by_ship.values()) == 4
    assert sum(c["wins"] for c in by_ship.values()) == pytest.approx(2)
    assert all(key.split()[0] in {"0", "1"} for key in by_ship)
