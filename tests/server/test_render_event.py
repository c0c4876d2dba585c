"""``render_event`` skips the word-by-word lookup when no id can be in the text: the same text as without."""

from __future__ import annotations

import random
import re

import pytest

import freetrader
from freetrader.server import log as readable


def _plain(text: str, names: list[str], ids: dict[str, str]) -> str:
    """Every seat and every word looked up, as the log did before the filter."""
    def seat(m: re.Match[str]) -> str:
        k = int(m.group(1))
        return names[k] if 0 <= k < len(names) else m.group(0)

    text = readable._SEAT.sub(seat, text)
    return readable._TOKEN.sub(lambda m: ids.get(m.group(0), m.group(0)), text)


@pytest.mark.parametrize("game, seats", [("contraband", 4), ("cornish-smuggler", 3), ("precious-cargo", 2),
                                         ("merchants-cove", 3)])
def test_random_games_events_render_as_with_every_word_looked_up(game: str, seats: int) -> None:
    ids, _items = readable._names_of(freetrader.game(game).spec.name)
    names = ["Ann", "Bo-2", "Seat 7", "Dee"][:seats]
    rng = random.Random(4)
    state = freetrader.game(game).new_state(seats, seed=8)
    for _ in range(400):
        if state.is_over or not state.legal_actions():
            break
        state.apply(rng.choice(state.legal_actions()))
    events = state.events
    assert events
    for text in events:
        assert readable.render_event(text, names, ids) == _plain(text, names, ids), text


def test_ids_inside_other_words_are_left_and_whole_ones_named() -> None:
    ids = {"gin-barrel": "Gin barrel", "rum": "Rum"}
    for text in ["seat 1 lands gin-barrel and rum", "rumour of a gin-barrels cache", "drum", "seat 9 waits",
                 "Seat 0's rum", "nothing here"]:
        assert readable.render_event(text, ["A", "B"], ids) == _plain(text, ["A", "B"], ids), text
    assert readable.render_event("seat 1 lands gin-barrel and rum", ["A", "B"], ids) == "B lands Gin barrel and Rum"
