"""Replaying records: the only way back from a list of actions to a state."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .errors import BadOption, BadRecord, IllegalAction, UnknownGame
from .registry import game as _game
from .state import Game, State

__all__ = ["replay", "pack_mismatch"]

_FIELDS = ("game", "seats", "seed", "actions")


def replay(record: Mapping[str, Any], upto: int | None = None, game: Game | None = None) -> State:
    """The state a record describes (after ``upto`` actions if given).

    The record's ``seed`` names the generator: a whole number for SplitMix64
    (every record written before the keyed generator), ``'blake2b:<hex key>'``
    for a game the table server hosted.

    ``game`` replays with that game object (say, an unregistered one being
    developed) instead of looking the record's slug up in the registry.

    Raises ``BadRecord`` with one line naming the first problem: a missing
    field, an unknown game, a bad option, or the first illegal action.
    """
    if not isinstance(record, Mapping):
        raise BadRecord(f"a record must be a JSON object, got {type(record).__name__}")
    for f in _FIELDS:
        if f not in record:
            raise BadRecord(f"record lacks the field {f!r} (needs {', '.join(_FIELDS)}, and optionally 'options')")
    actions = record["actions"]
    if not isinstance(actions, list) or not all(isinstance(a, str) for a in actions):
        raise BadRecord("record field 'actions' must be a list of action notations (strings)")
    options = record.get("options") or {}
    try:
        g = game if game is not None else _game(record["game"])
        if g.slug != record["game"]:
            raise BadRecord(f"record is for game {record['game']!r}, not {g.slug!r}")
        state = g.new_state(record["seats"], record["seed"], options)
    except (UnknownGame, BadOption, IllegalAction) as exc:
        raise BadRecord(f"record cannot start: {exc}") from None
    mismatch = _pack_mismatch(record, g)
    stop = len(actions) if upto is None else upto
    if not 0 <= stop <= len(actions):
        raise BadRecord(f"record has {len(actions)} actions; cannot stop after {upto}")
    for i, text in enumerate(actions[:stop]):
        try:
            state.apply(text)
        except IllegalAction as exc:
            raise BadRecord(f"action {i + 1} of {len(actions)} ({text!r}) does not replay: {exc}"
                            + (f"; {mismatch}" if mismatch else ""), action=i + 1) from None
    return state


def pack_mismatch(record: Mapping[str, Any], game: Game | None = None) -> str | None:
    """Why a record's components differ from the ones loaded now, or None (same, or the record does not say)."""
    try:
        g = game if game is not None else _game(record["game"])
    except (UnknownGame, KeyError, TypeError):
        return None
    return _pack_mismatch(record, g)


def _pack_mismatch(record: Mapping[str, Any], g: Game) -> str | None:
    made, now = record.get("data"), g.data_hash
    if made is None or now is None or made == now:
        return None
    return (f"the record was made with data {made}, but {g.slug} now has data {now} "
            f"(another data pack, or none: pass the record's pack with --data; "
            f"`freetrader rules {g.spec.name} --json --data FOLDER` shows a pack's hash)")
