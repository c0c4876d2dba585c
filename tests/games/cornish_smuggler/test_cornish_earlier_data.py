"""Records of earlier Cornish data still replay, with that data; today's data names the difference.

Each pack below holds the data files of Cornish Smuggler as they were before a designed change, and its
fixtures are golden playthroughs made with that data. With the pack they replay to the end, to the same
scores and winners (the views may have gained fields since). With today's data a record says which data
it was made with and which is loaded now; where the new board no longer allows one of its actions, it is
refused at that action, naming both hashes.

- ``cornish-before-five-seats``: before Sennen became a market, Under The First and Last a 5-player START
  card, Ireland's five 5-player pieces and the 44-space Customs Track (DESIGNED.md, "Five players");
- ``cornish-before-four-seats``: before Under The First and Last became a START card of 4-player games
  too (DESIGNED.md, "Four players under search"). A 4-player record of before replays with today's data
  as well (the card is offered and left), so only the mismatch is named;
- ``cornish-before-two-seats``: before a 2-player game drafted only the three Mount's Bay homes (DESIGNED.md,
  "Two players: the deal"). A 2-player record of before whose players chose two of them (as the heuristic
  does) replays with today's data as well; one with another home (the St Ives home, 2p-seed9) is refused there.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

import freetrader
from freetrader.core import BadRecord, data
from freetrader.core.record import pack_mismatch
from freetrader.testing.golden import read_record

ROOT = Path(__file__).resolve().parents[3]
FIXTURES = Path(__file__).parent / "fixtures"
# pack folder -> (its fixtures' prefix, their data hash, the fixture today's data refuses, if one is)
PACKS = {
    "cornish-before-five-seats": ("before-five-seats", "2cd93ea0a25821df", "5p-seed6"),
    "cornish-before-four-seats": ("before-four-seats", "c8d9af6aad59f4f7", None),
    "cornish-before-two-seats": ("before-two-seats", "28c74c72b5f7c2cb", "2p-seed9"),
}
CHECK = """
import json, sys
from pathlib import Path
import freetrader
from freetrader.testing.golden import read_record
for name in sys.argv[1:]:
    end = Path(name).read_text().splitlines()[-1].split(" | ")
    s = freetrader.replay(read_record(Path(name)))
    assert s.is_over and end[1] == "scores " + json.dumps(s.scores()) and end[2] == "winners " + json.dumps(s.winners()), name
print("replayed", len(sys.argv) - 1)
"""
with_todays_data = pytest.mark.skipif(data.pack_root() is not None, reason="runs with the shipped components")


def _fixtures(pack: str) -> list[Path]:
    return sorted(FIXTURES.glob(f"{PACKS[pack][0]}-*.txt"))


@pytest.mark.parametrize("pack", sorted(PACKS))
def test_the_earlier_records_replay_to_the_same_end_with_their_pack(pack: str) -> None:
    fixtures = _fixtures(pack)
    assert fixtures
    env = {**os.environ, data.ENV: str(ROOT / "examples" / pack)}
    proc = subprocess.run([sys.executable, "-c", CHECK, *map(str, fixtures)], capture_output=True, text=True,
                          timeout=300, env=env, cwd=ROOT)
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert proc.stdout.strip() == f"replayed {len(fixtures)}"


@with_todays_data
@pytest.mark.parametrize("pack", sorted(PACKS))
def test_todays_data_names_both_hashes(pack: str) -> None:
    made = PACKS[pack][1]
    for path in _fixtures(pack):
        record = read_record(path)
        assert record["data"] == f"sha256:{made}"
        assert f"made with data sha256:{made}, but cornish-smuggler-v1 now has data sha256:" in str(pack_mismatch(record))


@with_todays_data
@pytest.mark.parametrize("pack", sorted(p for p in PACKS if PACKS[p][2]))
def test_an_earlier_record_the_board_no_longer_allows_is_refused_naming_both_hashes(pack: str) -> None:
    prefix, made, which = PACKS[pack]
    record = read_record(FIXTURES / f"{prefix}-{which}.txt")
    with pytest.raises(BadRecord, match=rf"made with data sha256:{made}, but cornish-smuggler-v1 now has data sha256:"):
        freetrader.replay(record)
