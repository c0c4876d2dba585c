"""Records of the data before the five-player components still replay, with that data.

The fixtures are the golden playthroughs of the commit before Sennen became a market, The Under The First
and Last a 5-player START card, Ireland's five 5-player pieces and the 44-space Customs Track (DESIGNED.md,
"Five players"). With the pack of those four files (``examples/cornish-before-five-seats``) they replay
to the end, to the same scores and winners (the views have gained a field since: ``customs.track_start``);
with today's data the 5-player game is refused, naming both data
hashes, at the first action the new board does not allow.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

import freetrader
from freetrader.core import BadRecord, data
from freetrader.testing.golden import read_record

ROOT = Path(__file__).resolve().parents[3]
PACK = ROOT / "examples" / "cornish-before-five-seats"
FIXTURES = sorted((Path(__file__).parent / "fixtures").glob("before-five-seats-*.txt"))
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


def test_the_earlier_records_replay_to_the_same_end_with_their_pack():
    assert len(FIXTURES) == 2
    env = {**os.environ, data.ENV: str(PACK)}
    proc = subprocess.run([sys.executable, "-c", CHECK, *map(str, FIXTURES)], capture_output=True, text=True,
                          timeout=300, env=env, cwd=ROOT)
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert proc.stdout.strip() == "replayed 2"


def test_the_earlier_five_player_record_is_refused_with_todays_data_naming_both_hashes():
    if data.pack_root() is not None:
        pytest.skip("runs with the shipped components")
    record = read_record(next(p for p in FIXTURES if "5p" in p.name))
    with pytest.raises(BadRecord, match=r"made with data sha256:2cd93ea0a25821df, but cornish-smuggler-v1 now "
                                        r"has data sha256:"):
        freetrader.replay(record)
