"""Checks every game must pass, whatever its rules (DESIGN.md, "Tests").

Plain functions that raise ``AssertionError`` with a message naming the game,
seed and action count, so they run under pytest or anywhere else. A new game
gets all of them by being registered: ``tests/test_conformance.py`` runs
``check_game`` on each registered game.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterable, Mapping
from typing import Any

from freetrader.core import Action, Game, IllegalAction, InvalidNotation, Rng, State, replay
from freetrader.core.fields import declared_fields

__all__ = [
    "RANDOM_PLAY_CAP",
    "check_game",
    "check_playout",
    "check_state",
    "check_clone_independent",
    "check_every_legal_action_applies",
    "check_views",
    "check_notation_round_trip",
    "check_json_round_trip",
    "check_illegal_rejected",
    "check_record_replays",
    "check_hidden_zones_resampled",
    "hidden_zones",
    "ZoneTally",
    "declared_public_lists",
    "random_play_options",
    "random_playout",
]

_SECRET_KEYS = {"seed", "rng"}


def _where(state: State) -> str:
    return f"{state.game.slug} seats={state.seats} seed={state.seed} after {state.action_count} actions"


def _dump(state: State) -> str:
    return json.dumps(state.to_json(), sort_keys=True)


#: The safety cap, in the game's turns, that ends random playouts of a game random play cannot end.
RANDOM_PLAY_CAP = 40


def random_play_options(game: Game) -> dict[str, Any]:
    """Options under which uniformly random play of ``game`` ends: none, or its safety cap at ``RANDOM_PLAY_CAP``.

    Read from the spec (``random_play_ends``, ``safety_cap``); a game so capped is ``cut``, with no winner.
    """
    spec = game.spec
    return {} if spec.random_play_ends or spec.safety_cap is None else {spec.safety_cap: RANDOM_PLAY_CAP}


def declared_public_lists(game: Game) -> tuple[str, ...]:
    """The declared fields of ``game``'s state not marked ``Hidden``: public, though a view may show only their size.

    A face-up discard pile named card by card in the log is one; the hidden-zone check does not ask
    ``determinize`` to reorder them. A game whose state declares no fields has none.
    """
    return tuple(f.name for f in declared_fields(game.state_class) if not f.hidden)


def random_playout(game: Game, seats: int, seed: int, max_actions: int = 100_000) -> State:
    """A uniformly random game to the end; fails if it does not end in ``max_actions``.

    Played under ``random_play_options``: a game random play cannot end stops at its safety cap.
    """
    state = game.new_state(seats, seed, random_play_options(game))
    rng = Rng(seed)
    while not state.is_over:
        assert state.action_count < max_actions, f"{_where(state)}: no end after {max_actions} actions"
        state.apply(rng.choice(state.legal_actions()))
    return state


def check_every_legal_action_applies(state: State) -> None:
    legal = state.legal_actions()
    assert legal, f"{_where(state)}: seat {state.to_act} to act but no legal action"
    assert len(set(legal)) == len(legal), f"{_where(state)}: duplicate legal actions {legal}"
    for a in legal:
        c = state.clone()
        c.apply(a)


def check_clone_independent(state: State) -> None:
    before = _dump(state)
    c = state.clone()
    assert _dump(c) == before, f"{_where(state)}: clone differs from the original"
    c.apply(state.legal_actions()[0])
    assert _dump(state) == before, f"{_where(state)}: acting on a clone changed the original"


def check_notation_round_trip(state: State) -> None:
    for a in state.legal_actions():
        text = str(a)
        back = state.game.parse_action(text)
        assert back == a and hash(back) == hash(a), f"{_where(state)}: parse({text!r}) gave {back!r}, not {a!r}"


def _keys(obj: Any) -> Iterable[str]:
    if isinstance(obj, dict):
        for k, v in obj.items():
            yield k
            yield from _keys(v)
    elif isinstance(obj, list):
        for v in obj:
            yield from _keys(v)


def check_views(state: State, rng: random.Random) -> bool:
    """Views are JSON, hold no seed or RNG, and cannot tell a state from its determinizations.

    For each seat, two determinizations must give that seat the same view as
    the true state (else the view shows something the determinization
    resampled: a leak) and the seat to act the same legal actions; the
    spectator's view must survive every seat's determinization. Returns
    whether some determinization changed a hidden zone, so that a suite can
    also fail a determinize() that resamples nothing.
    """
    changed = False
    original = _dump(state)
    spectator = state.view(None)
    for seat in list(range(state.seats)) + [None]:
        v = state.view(seat)
        assert json.loads(json.dumps(v)) == v, f"{_where(state)}: view({seat}) is not plain JSON"
        bad = _SECRET_KEYS.intersection(_keys(v))
        assert not bad, f"{_where(state)}: view({seat}) exposes {sorted(bad)}"
        if seat is None:
            continue
        for _ in range(2):
            d = state.determinize(seat, rng)
            assert d.view(seat) == v, f"{_where(state)}: seat {seat}'s view differs in its own determinization (leak)"
            assert d.view(None) == spectator, f"{_where(state)}: spectator view leaks what seat {seat}'s determinization resampled"
            if seat == state.to_act:
                assert [str(a) for a in d.legal_actions()] == [str(a) for a in state.legal_actions()], (
                    f"{_where(state)}: legal actions depend on cards seat {seat} cannot see"
                )
            if d.to_json()["state"] != state.to_json()["state"]:
                changed = True
    assert _dump(state) == original, f"{_where(state)}: view() or determinize() changed the state"
    return changed


def check_json_round_trip(state: State) -> None:
    data = json.loads(json.dumps(state.to_json()))
    back = state.game.state_from_json(data)
    assert _dump(back) == _dump(state), f"{_where(state)}: to_json/state_from_json does not round-trip"
    if not state.is_over:
        a = state.legal_actions()[0]
        s2 = state.clone()
        s2.apply(a)
        back.apply(str(a))
        assert _dump(back) == _dump(s2), f"{_where(state)}: a state loaded from JSON plays on differently"


def check_illegal_rejected(state: State, seen: set[str]) -> None:
    """An illegal action and an unknown notation raise and change nothing."""
    before = _dump(state)
    legal = {str(a) for a in state.legal_actions()}
    for text in sorted(seen - legal)[:3]:
        try:
            state.apply(text)
        except IllegalAction as exc:
            assert str(exc), f"{_where(state)}: IllegalAction without a message"
        else:
            raise AssertionError(f"{_where(state)}: {text!r} was applied though not legal")
        assert _dump(state) == before, f"{_where(state)}: a rejected {text!r} changed the state"
    try:
        state.apply("no such action 42")
    except InvalidNotation:
        pass
    else:
        raise AssertionError(f"{_where(state)}: nonsense notation was not rejected with InvalidNotation")
    assert _dump(state) == before, f"{_where(state)}: rejected nonsense changed the state"


def check_record_replays(state: State) -> None:
    rec = json.loads(json.dumps(state.record()))
    again = replay(rec, game=state.game)
    assert _dump(again) == _dump(state), f"{_where(state)}: replaying its record gives a different state"


# -- hidden zones -------------------------------------------------------------------------
_Spot = tuple[str, int | None]  # a list field of the state, or one inner list of a list-of-lists field


def _get(state: State, spot: _Spot) -> Any:
    value = getattr(state, spot[0])
    return value if spot[1] is None else value[spot[1]]


def _view_with(state: State, seat: int | None, spot: _Spot, new: list[Any]) -> Any:
    c = state.clone()
    name, i = spot
    if i is None:
        setattr(c, name, new)
    else:
        outer = list(getattr(c, name))
        outer[i] = new
        setattr(c, name, outer)
    try:
        return c.view(seat, events=False)
    except Exception:  # noqa: BLE001 - a view that cannot draw the changed list shows it
        return None


def hidden_zones(state: State, seat: int | None) -> list[_Spot]:
    """The lists of the full state whose order and contents ``seat``'s view does not show.

    A list counts when it holds two or more different values and neither
    reversing it nor putting one of its values in place of another changes
    what ``seat`` sees: a face-down deck, another seat's hand (also when only
    a card at one end is in view, such as the active card of a deck). A hand
    shown sorted, a discard pile shown as a set or a count that is shown does not.
    Only fields that the state keeps under their JSON name are looked at.
    """
    base = state.view(seat, events=False)
    spots: list[_Spot] = []
    for name, value in state.to_json()["state"].items():
        if not isinstance(value, list) or getattr(state, name, None) != value:
            continue
        nested = bool(value) and all(isinstance(x, list) for x in value)
        for spot in ([(name, i) for i in range(len(value))] if nested else [(name, None)]):
            items = list(_get(state, spot))
            # the whole list, or all but a face-up card at either end (an active card, a top card in view)
            for lo, hi in ((0, len(items)), (1, len(items)), (0, len(items) - 1)):
                part = items[lo:hi]
                other = next((x for x in part if x != part[0]), None) if part else None
                if len(part) < 2 or other is None:
                    continue
                if _view_with(state, seat, spot, items[:lo] + part[::-1] + items[hi:]) != base:
                    continue
                if _view_with(state, seat, spot, items[:lo] + [other] + part[1:] + items[hi:]) != base:
                    continue
                spots.append(spot)
                break
    return spots


class ZoneTally:
    """What ``check_playout`` saw of the hidden zones over one game."""

    def __init__(self) -> None:
        self.seen: dict[str, int] = {}  # field -> hidden-zone samples taken
        self.changed: dict[str, int] = {}  # field -> samples in which determinize() changed it
        self.shapes: dict[str, set[Any]] = {}  # field -> lengths seen (a table keeps one length)
        self.private: set[str] = set()  # fields the seat to act saw but a spectator could not (hands)

    def add(self, state: State, rng: random.Random, samples: int = 3) -> None:
        seat = state.to_act
        if seat is None:
            return
        spots = hidden_zones(state, seat)
        self.private |= {name for name, _ in hidden_zones(state, None)} - {name for name, _ in spots}
        for name, value in state.to_json()["state"].items():
            if isinstance(value, list):
                shape = tuple(len(x) if isinstance(x, list) else -1 for x in value)
                self.shapes.setdefault(name, set()).add(shape)
        for _ in range(samples if spots else 0):
            d = state.determinize(seat, rng)
            for spot in spots:
                name = spot[0]
                self.seen[name] = self.seen.get(name, 0) + 1
                self.changed[name] = self.changed.get(name, 0) + (_get(d, spot) != _get(state, spot))

    def kept(self, least: int = 8, public: Iterable[str] = ()) -> list[str]:
        """Hidden zones that ``least`` or more determinizations all left as they were.

        A list whose length never changed over the game is taken for a table
        indexed by seat, place or colour (stack heights, per-place counts) that
        the view does not draw, not a pile cards move through, unless it is a
        hand (the seat to act saw it where a spectator could not): a hand or
        luggage is always checked. ``public`` names piles that are public though the view shows
        only their size (a face-up discard pile named in the log).
        """
        skip = set(public)
        return sorted(n for n, k in self.seen.items()
                      if k >= least and not self.changed[n] and n not in skip
                      and (n in self.private or len(self.shapes.get(n, ())) > 1))


def check_hidden_zones_resampled(game: Game, tally: ZoneTally, public: Iterable[str] = ()) -> None:
    """Fail for a hidden zone that every determinization left in its true order."""
    kept = tally.kept(public=public)
    assert not kept, (
        f"{game.slug}: determinize() kept the true order of the hidden zone(s) {kept} in every sample "
        f"({', '.join(f'{k}: {tally.seen[k]}' for k in kept)}): a bot could read what comes next"
    )


def check_state(state: State, rng: random.Random, seen: set[str]) -> bool:
    """Every per-position check; returns whether a determinization changed a hidden zone."""
    check_notation_round_trip(state)
    check_every_legal_action_applies(state)
    check_clone_independent(state)
    check_illegal_rejected(state, seen)
    check_json_round_trip(state)
    return check_views(state, rng)


def check_playout(game: Game, seats: int, seed: int, every: int = 1, max_actions: int = 100_000,
                  options: Mapping[str, Any] | None = None, public_lists: Iterable[str] = ()) -> State:
    """Play one random game, running ``check_state`` at every ``every``-th position.

    Every ``4 * every``-th position also looks for hidden zones of the seat to
    act (``hidden_zones``) and determinizes; at the end, a hidden zone that no
    determinization ever reordered fails the game (``public_lists``: fields
    that are public though the view shows only their size, besides the declared
    fields the state does not mark ``Hidden``). ``options`` default to
    ``random_play_options``.
    """
    if options is None:
        options = random_play_options(game)
    public_lists = (*public_lists, *declared_public_lists(game))
    state = game.new_state(seats, seed, options)
    assert _dump(game.new_state(seats, seed, options)) == _dump(state), f"{_where(state)}: set-up is not deterministic"
    rng = random.Random(seed)
    pick = Rng(seed)
    seen: set[str] = set()
    hidden_changed = False
    zones = ZoneTally()
    while not state.is_over:
        assert state.action_count < max_actions, f"{_where(state)}: no end after {max_actions} actions"
        assert state.to_act is not None and 0 <= state.to_act < seats, f"{_where(state)}: bad to_act {state.to_act}"
        legal: list[Action] = state.legal_actions()
        seen.update(str(a) for a in legal)
        if state.action_count % every == 0:
            hidden_changed |= check_state(state, rng, seen)
        if game.spec.hidden_information and state.action_count % (4 * every) == 0:
            zones.add(state, rng)
        state.apply(pick.choice(legal))
    assert state.legal_actions() == [], f"{_where(state)}: legal actions after the end"
    scores = state.scores()
    assert len(scores) == seats, f"{_where(state)}: {len(scores)} scores for {seats} seats"
    winners = state.winners()
    if state.cut:  # a safety cap, not a rule, stopped it: by design it has no winner
        assert winners == [], f"{_where(state)}: a game cut by a safety cap has winners {winners}"
    else:
        assert winners and all(scores[w] == max(scores) for w in winners), f"{_where(state)}: winners {winners} vs {scores}"
    check_record_replays(state)
    check_json_round_trip(state)
    check_views(state, rng)
    if game.spec.hidden_information:
        assert hidden_changed, f"{_where(state)}: determinize() never resampled anything in a hidden-information game"
        check_hidden_zones_resampled(game, zones, public_lists)
    return state


def check_game(game: Game, seeds: Iterable[int] = (1, 2), seat_counts: Iterable[int] | None = None, every: int = 1) -> None:
    """The whole suite on one game: every seat count (or those given) times every seed."""
    counts = list(seat_counts) if seat_counts is not None else list(range(game.spec.min_seats, game.spec.max_seats + 1))
    for seats in counts:
        for seed in seeds:
            check_playout(game, seats, seed, every=every)
