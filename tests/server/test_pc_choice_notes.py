"""Precious Cargo's choice notes (games/precious_cargo/web.py): what each button costs and pays, checked
against what playing it does to the coins."""

from __future__ import annotations

import random
import re

import pytest

import freetrader
from freetrader.games.precious_cargo.web import choice_notes


def _coins(note: str, verb: str) -> int:
    m = re.search(verb + r" (\d+) coins?", note)
    assert m is not None, note
    return int(m.group(1))


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_every_note_says_what_the_move_does_to_the_coins(seed: int) -> None:
    s = freetrader.game("precious-cargo").new_state(2, seed, {"target": 25, "turn_limit": 60})
    rng = random.Random(seed)
    checked = {"build": 0, "sails": 0, "sell": 0, "governor": 0}
    while not s.is_over:
        seat = s.to_act
        assert seat is not None
        notes = choice_notes(s, seat)
        assert choice_notes(s, 1 - seat) == {}  # only the seat to act gets notes
        legal = [str(a) for a in s.legal_actions()]
        assert set(notes) <= set(legal)
        for text, note in notes.items():
            verb = text.split()[0]
            after = s.clone()
            after.apply(text)
            mine = after.coins[seat] - s.coins[seat]
            theirs = after.coins[1 - seat] - s.coins[1 - seat]
            if verb in ("build", "sails"):
                assert mine == -_coins(note, "costs") and theirs == 0, (text, note)
            elif verb == "sell" and not after.is_over:
                pays = _coins(note, "pays")
                extra = int(re.search(r"Governor there (\d+) more", note).group(1)) if "your Governor" in note else 0
                gov = int(re.search(r"earns (\d+)$", note).group(1)) if "other player's Governor" in note else 0
                assert (mine, theirs) == (pays + extra, gov), (text, note, mine, theirs)
            elif verb in ("take", "governor"):
                assert mine == 0 and note.startswith("free"), (text, note)
            if verb in checked:
                checked[verb] += 1
        for text in legal:  # every button of a costed kind has its note
            if text.split()[0] in ("build", "sails", "sell", "take", "governor"):
                assert text in notes, text
        s.apply(rng.choice(legal))
    assert checked["sell"] and checked["build"] + checked["sails"], checked
