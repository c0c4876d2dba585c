"""A saved state with a key its format does not have, or without one it needs, is refused in one line.

An edited or mistyped save must never load as a different position. Older formats keep loading
through their game's migration (each game's saved-format tests); these are today's format.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

import freetrader
from freetrader.core import BadRecord, Rng

GAMES = freetrader.games()


def _mid_game(name: str) -> dict[str, Any]:
    """A save of a game some way in: a random playout of 12 actions, or to its end if shorter."""
    g = freetrader.game(name)
    s = g.new_state(g.spec.min_seats if g.spec.min_seats > 1 else 2, 3)
    rng = Rng(3)
    while not s.is_over and s.action_count < 12:
        s.apply(rng.choice(s.legal_actions()))
    return json.loads(json.dumps(s.to_json()))


def _refused(name: str, data: dict[str, Any], key: str) -> str:
    with pytest.raises(BadRecord) as err:
        freetrader.game(name).state_from_json(data)
    text = str(err.value)
    assert "\n" not in text and repr(key) in text, text
    return text


@pytest.mark.parametrize("name", GAMES)
def test_an_unknown_top_level_key_is_refused(name: str) -> None:
    data = _mid_game(name)
    freetrader.game(name).state_from_json(data)  # the save itself loads
    assert "unknown field" in _refused(name, {**data, "sed": 4}, "sed")


@pytest.mark.parametrize("name", GAMES)
def test_an_unknown_state_field_is_refused(name: str) -> None:
    data = _mid_game(name)
    data["state"]["not_a_field"] = 0
    assert "unknown field" in _refused(name, data, "not_a_field")


@pytest.mark.parametrize("name", GAMES)
def test_a_missing_state_field_is_refused(name: str) -> None:
    data = _mid_game(name)
    first = next(iter(data["state"]))
    del data["state"][first]
    assert "lacks the field" in _refused(name, data, first)


@pytest.mark.parametrize("name", GAMES)
def test_a_missing_top_level_key_is_refused(name: str) -> None:
    data = _mid_game(name)
    del data["rng"]
    assert "lacks the field" in _refused(name, data, "rng")


def _frames(name: str) -> tuple[dict[str, Any], list[dict[str, Any]]] | None:
    """A save whose state holds a frame stack, and that stack; None for a game without frames."""
    data = _mid_game(name)
    stack = data["state"].get("frames")
    return (data, stack) if isinstance(stack, list) and stack else None


@pytest.mark.parametrize("name", GAMES)
def test_an_unknown_key_in_a_saved_frame_is_refused(name: str) -> None:
    found = _frames(name)
    if found is None:
        pytest.skip(f"{name} keeps no frame stack in its saved state")
    data, stack = found
    stack[-1]["whom"] = 1
    assert "unknown field" in _refused(name, data, "whom")


def test_the_template_game_refuses_them_too() -> None:
    from freetrader.games._template import GAME

    s = GAME.new_state(2, 1)
    data = json.loads(json.dumps(s.to_json()))
    GAME.state_from_json(data)
    for where, key in ((data, "extra"), (data["state"], "chips_"), (data["state"]["frames"][-1], "seat_")):
        where[key] = 1
        with pytest.raises(BadRecord, match=repr(key)):
            GAME.state_from_json(data)
        del where[key]
