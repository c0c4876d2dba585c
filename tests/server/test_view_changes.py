"""Which fields of a view changed: decided as JSON would write them, in C and by the marshal fallback."""

from __future__ import annotations

import copy
import json
import os
import random
from typing import Any

import pytest

import freetrader
from freetrader.server import deltas
from freetrader.server.deltas import SentView, view_from

# pairs Python's == calls equal that JSON writes apart, and pairs written alike
APART = [(True, 1), (1, 1.0), (False, 0), (0.0, -0.0), ({"a": 1, "b": 2}, {"b": 2, "a": 1}),
         (["x", {"k": [True]}], ["x", {"k": [1]}]), ({"n": [1, 2, 3]}, {"n": [1, 2, 3.0]}), ([[]], [[], []]),
         ({"a": None}, {"a": 0}), ("é", "e"), (10**20, 10**20 + 1)]
ALIKE = [(1, 1), ("seat", "seat"), (None, None), ([1, [2.5, {"a": [True, None]}]], [1, [2.5, {"a": [True, None]}]]),
         ({"k": {"x": -0.0}}, {"k": {"x": -0.0}}), (float("nan"), float("nan")), ([], [])]


def _comparers() -> list[Any]:
    found = [deltas._same_by_marshal]
    if deltas._same_json is not None:
        found.append(deltas._same_json)
    elif os.environ.get("FREETRADER_REQUIRE_COMPILED") == "1":
        pytest.fail("server/_same_json.c was not compiled, though FREETRADER_REQUIRE_COMPILED=1")
    return found


@pytest.mark.parametrize("a, b", APART)
def test_values_json_writes_apart_are_different(a: Any, b: Any) -> None:
    assert json.dumps(a) != json.dumps(b)
    for same in _comparers():
        assert not same(a, b) and not same(b, a), same


@pytest.mark.parametrize("a, b", ALIKE)
def test_values_json_writes_alike_are_the_same(a: Any, b: Any) -> None:
    for same in _comparers():
        assert same(a, copy.deepcopy(b)), same


def test_a_list_and_a_tuple_count_as_changed_and_other_objects_too() -> None:
    # JSON writes both as an array; calling them different only sends a field again
    assert not deltas.same_json([1, 2], (1, 2))
    if deltas._same_json is not None:
        assert not deltas._same_json({1, 2}, {1, 2}) and not deltas._same_json(bytes([120, 121]), bytes([120, 121]))


def test_a_deep_value_is_compared_without_a_crash() -> None:
    deep: list[Any] = []
    for _ in range(100_000):
        deep = [deep]
    for same in _comparers():
        try:
            assert same(deep, copy.copy(deep))
        except (RecursionError, ValueError):  # too deep to compare (no view is): an error, never a crash
            pass


@pytest.mark.parametrize("path", ["compiled", "fallback"])
@pytest.mark.parametrize("game, seats", [("contraband", 4), ("cornish-smuggler", 3), ("precious-cargo", 2),
                                         ("merchants-cove", 3)])
def test_the_changes_of_random_games_views_rebuild_each_view(game: str, seats: int, path: str,
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    """Every seat's and the spectator's view, move by move: the changes over the last rebuild the new one."""
    if path == "fallback":  # as without a C compiler: marshal bytes decide
        monkeypatch.setattr(deltas, "_same_json", None)
        monkeypatch.setattr(deltas, "_changes", None)
        monkeypatch.setattr(deltas, "same_json", deltas._same_by_marshal)
    elif deltas._changes is None:
        if os.environ.get("FREETRADER_REQUIRE_COMPILED") == "1":
            pytest.fail("server/_same_json.c was not compiled, though FREETRADER_REQUIRE_COMPILED=1")
        pytest.skip("server/_same_json.c is not compiled here")
    rng = random.Random(7)
    state = freetrader.game(game).new_state(seats, seed=3)
    readers: list[int | None] = [*range(seats), None]
    held = {r: SentView.of(0, state.view(r, events=False)) for r in readers}
    changed = total = came_or_went = 0
    for step in range(1, 250):
        if state.is_over:
            break
        state.apply(rng.choice(state.legal_actions()))
        for r in readers:
            now = SentView.of(step, state.view(r, events=False))
            changes, keys = held[r].changes(now)
            message = {"view_base": step - 1, "view_changes": changes, **({} if keys is None else {"view_keys": keys})}
            rebuilt = view_from(json.loads(json.dumps(message)), (step - 1, held[r].view))
            assert json.dumps(rebuilt) == json.dumps(now.view), (game, step, r)
            old = held[r].view
            if keys is None:
                assert list(old) == list(now.view)
            else:
                assert keys == list(now.view) != list(old)
                came_or_went += 1
            # the fallback agrees field by field with the compiled comparison
            assert set(changes) == {k for k, v in now.view.items()
                                    if k not in old or not deltas._same_by_marshal(old[k], v)}
            changed += len(changes)
            total += len(now.view)
            held[r] = now
    assert total and changed < total / 2  # a delta is the smaller part of the view
    assert came_or_went  # a field came or went (``legal``, each turn) and the delta carried it


def test_a_field_that_comes_and_goes_travels_as_a_change_with_the_keys() -> None:
    """``legal`` comes with the turn and goes after it: a delta with the keys in order, not the whole view."""
    held = SentView.of(4, {"phase": "a", "cash": 3, "legal": ["x", "y"], "round": 1})
    now = SentView.of(5, {"phase": "a", "cash": 3, "round": 2, "scores": [1, 2]})
    changes, keys = held.changes(now)
    assert changes == {"round": 2, "scores": [1, 2]} and keys == ["phase", "cash", "round", "scores"]
    message = {"view_base": 4, "view_changes": changes, "view_keys": keys}
    assert json.dumps(view_from(message, (4, held.view))) == json.dumps(now.view)
    assert view_from(message, (3, held.view)) is None  # not the view it changes: ask for the whole view
    # a key that is neither new nor held (a message that does not fit what is held): ask again
    assert view_from({**message, "view_keys": [*keys, "ghost"]}, (4, held.view)) is None


def test_changes_in_c_refuse_what_is_not_two_dicts() -> None:
    if deltas._changes is None:
        pytest.skip("server/_same_json.c is not compiled here")
    with pytest.raises(TypeError, match="two dicts"):
        deltas._changes({"a": 1}, [("a", 1)])  # type: ignore[arg-type]
    assert deltas._changes({"a": 1, "b": [1]}, {"b": [1], "a": 1}) == ({}, False)  # same items, keys reordered
    assert deltas._changes({"a": 1}, {"a": True, "c": None}) == ({"a": True, "c": None}, False)
