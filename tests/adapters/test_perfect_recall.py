"""Perfect recall: a seat's information state is a function of everything it has seen, and only of that.

The collision search plays several deals with aligned choices (step ``k`` takes the same pick of
the legal actions in every deal), so that many histories share their public course and differ
in what one seat saw. For every seat at every position, the seat's observation history is
built here from the engine (its view after the deal and after every action, the public log,
its own actions), independently of the adapter; then two positions with the same information
state (string or tensor) must have the same observation history, and the same history must
give the same information state.
"""

from __future__ import annotations

import hashlib
import json
import random
from collections import Counter
from typing import Any

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")
from freetrader.adapters import openspiel as fos  # noqa: E402

from .conftest import short_options, small_seats  # noqa: E402

DEALS = 8
STEPS = 60
#: positions to check at least: a game whose deals are short (a new game's) plays more deals, up to MAX_DEALS
POSITIONS = 200
MAX_DEALS = 400


def _history_step(previous: bytes, view: dict[str, Any], events: list[str], own: str | None) -> bytes:
    text = json.dumps([view, events, own], sort_keys=True, separators=(",", ":"))
    return hashlib.blake2b(previous + text.encode(), digest_size=16).digest()


def _search(name: str, seats: int, options: dict[str, Any], deals: int = DEALS,
            pick: Any = None) -> tuple[int, int, int, int]:
    """(collisions, positions checked, distinct information states, forgetting) over aligned playouts.

    ``pick(state, legal, step)`` chooses the action (default: the same pick of the legal actions at
    step ``k`` in every deal).
    """
    game = fos.load_game(name, players=seats, seed=3, **options)
    by_key: dict[tuple[str, bytes], bytes] = {}
    by_history: dict[bytes, tuple[str, bytes]] = {}
    collisions = forgetting = checked = 0
    for deal in range(MAX_DEALS):
        if deal >= deals and checked > POSITIONS:
            break
        state = game.new_initial_state()
        s = state.ft_state
        seen_events = s.event_count
        hist = [_history_step(b"", s.view(p, events=False), s.events, None) for p in range(seats)]
        for step in range(STEPS + 1):
            if state.is_terminal():
                break
            for p in range(seats):
                key = (state.information_state_string(p),
                       np.asarray(state.information_state_tensor(p), np.float32).tobytes())
                checked += 1
                if by_key.setdefault(key, hist[p]) != hist[p]:
                    collisions += 1
                if by_history.setdefault(hist[p], key) != key:
                    forgetting += 1
            if step == STEPS:
                break
            legal = state.legal_actions()
            actor = state.current_player()
            action = pick(state, legal, step) if pick else legal[random.Random(step).randrange(1 << 30) % len(legal)]
            text = state.action_to_string(actor, action)
            state.apply_action(action)
            new = s.events_since(seen_events)
            seen_events = s.event_count
            hist = [_history_step(hist[p], s.view(p, events=False), new, text if p == actor else None)
                    for p in range(seats)]
    return collisions, checked, len(by_key), forgetting


def test_no_two_histories_a_seat_can_tell_apart_share_an_information_state(game_name: str) -> None:
    collisions, checked, distinct, forgetting = _search(game_name, small_seats(game_name), short_options(game_name))
    # a long game gives hundreds of information states in 8 deals; a short one as many as its deals allow
    assert checked > POSITIONS and distinct > 20, (checked, distinct)
    assert collisions == 0, f"{collisions} of {checked} information states stand for histories the seat tells apart"
    assert forgetting == 0, f"{forgetting} of {checked} information states are not a function of the seat's history"


def _quiet_table(state: Any, legal: list[int], step: int) -> int:
    """Accept, discard the first card, declare nothing, never search: every deal runs the same public course."""
    names = {a: state.action_to_string(state.current_player(), a) for a in legal}
    for wanted in ("wave", "accept", "declare"):
        for a, text in names.items():
            if text == wanted:
                return a
    return legal[0]


def test_contraband_seats_that_look_discard_and_are_waved_through_keep_what_they_saw() -> None:
    """The case once broken: with the same public course in every deal, each seat's looks tell deals apart."""
    collisions, checked, distinct, forgetting = _search(
        "contraband", 3, {"end": "turns", "turn_limit": 6}, deals=30, pick=_quiet_table)
    assert checked > 1000 and distinct > 300
    assert collisions == 0 and forgetting == 0


# -- determinization keeps what the seat saw (Contraband, whose seats see cards that then move unseen) --

def _facts(state: Any, seat: int) -> dict[str, Any]:
    """What ``seat`` saw this round, read from its own views and actions (replayed from the record)."""
    s = state.ft_state
    g = s.game
    replay = g.new_state(s.seats, s.seed, s.options)
    own: list[str] = []  # this round's own discards
    last: list[str] | None = None  # the luggage when last seen (own look or a search), this round
    since = 0  # unseen discards since
    for action in s.history:
        actor, text = replay.to_act, str(action)
        rnd = replay.round
        before = replay.event_count
        replay.apply(action)
        if replay.round != rnd:
            own, last, since = [], None, 0
            continue
        new = replay.events_since(before)
        v = replay.view(seat, events=False)
        if any(" searches seat " in e for e in new):
            last, since = None, 0  # impounded: public, out of the hidden zones
        if text.startswith("discard "):
            if actor == seat:
                own.append(text[len("discard "):])
            else:
                since += 1
        if "your_luggage" in v:
            last, since = v["your_luggage"], 0
        if any("draws new luggage" in e for e in new) and replay.holder != seat:
            last, since = None, 0
    assert replay.to_json() == s.to_json()
    return {"own": own, "last": last, "since": since}


def _ids(cards: list[int]) -> list[str]:
    from freetrader.games.contraband.components import COMPONENTS as C

    return [C.articles[k].id for k in cards]


def test_contraband_resampled_worlds_keep_what_the_seat_saw() -> None:
    game = fos.load_game("contraband", players=3, seed=1, end="turns", turn_limit=12)
    checked = 0
    moved = 0
    for deal in range(6):
        state = game.new_initial_state()
        rng = random.Random(deal)
        while not state.is_terminal():
            for seat in range(3):
                facts = _facts(state, seat)
                if not facts["own"] and facts["last"] is None:
                    continue
                for _ in range(3):
                    sample = state.resample_from_infostate(seat, None).ft_state
                    hidden = Counter(_ids(sample.discard_hidden))
                    luggage = Counter(_ids(sample.luggage))
                    true = state.ft_state
                    assert Counter(_ids(sample.pack + sample.discard_hidden + sample.luggage)) == Counter(
                        _ids(true.pack + true.discard_hidden + true.luggage))
                    assert sample.view(seat) == true.view(seat)
                    assert not Counter(facts["own"]) - hidden, "its own discards are face down in the discard"
                    if facts["last"] is not None:
                        last = Counter(facts["last"])
                        # every card it last saw is still in the luggage or was discarded face down ...
                        assert not last - (luggage + hidden)
                        # ... and at most one left the luggage per unseen discard
                        assert sum((last - luggage).values()) <= facts["since"]
                    checked += 1
                    moved += sample.pack != true.pack
            state.apply_action(rng.choice(state.legal_actions()))
    assert checked > 300 and moved > checked // 2  # the unseen cards are dealt anew, not left as they were


def test_cornish_smuggler_resampled_worlds_keep_what_the_seat_saw() -> None:
    """The Character a seat returned under a stack stays in its place; a Secret taken from it stays with the taker."""
    import freetrader
    from freetrader.games.cornish_smuggler.components import COMPONENTS as C

    game = freetrader.game("cornish-smuggler")
    secret_id = {x.name: x.id for x in C.secrets}
    counts = Counter[str]()

    def check(s: Any, saw_return: dict[int, str], saw_taken: list[tuple[int, int, str]]) -> None:
        for seat in range(3):
            for k in range(3):
                sample = s.determinize(seat, random.Random(k))
                card = saw_return.get(seat)
                for d, stack in enumerate(s.stacks):
                    ids = [C.characters[c].id for c in stack]
                    if card in ids:
                        assert [C.characters[c].id for c in sample.stacks[d]].index(card) == ids.index(card)
                        counts["returned"] += 1
                for robbed, taker, sid in saw_taken:
                    if robbed == seat:
                        assert sid in [C.secrets[c].id for c in sample.secrets[taker]]
                        counts["taken"] += 1

    for deal in range(10, 20):  # deals 15-17 have Secrets taken from a hand
        s = game.new_state(3, deal)
        rng = random.Random(deal)
        saw_return: dict[int, str] = {}  # seat -> the Character id it returned, from its own views
        saw_taken: list[tuple[int, int, str]] = []  # (robbed seat, taker, Secret id), from the robbed seat's views
        while not s.is_over and s.action_count < 400:
            views = [s.view(p, events=False) for p in range(3)]
            before = s.event_count
            action = rng.choice(s.legal_actions())
            actor = s.to_act
            s.apply(action)
            if str(action).startswith("keep ") and actor is not None:
                saw_return[actor] = next(c for c in views[actor]["your_drawn"] if c != str(action)[5:])
            stolen = False
            for e in s.events_since(before):
                words = e.split()
                if " takes a Secrets card at random from seat " in e:
                    robbed, taker = int(e.split("from seat ")[1].split("'")[0]), int(words[1])
                    saw_taken = [x for x in saw_taken if x[1] != robbed]  # a random one of its cards: unknown now
                    lost = Counter(views[robbed]["your_secrets"]) - Counter(s.view(robbed)["your_secrets"])
                    saw_taken += [(robbed, taker, k) for k in lost if (robbed, taker, k) not in saw_taken]
                    stolen = True
                elif " plays the Secret " in e:
                    played = secret_id[e.split(" plays the Secret ")[1]]
                    saw_taken = [x for x in saw_taken if not (x[1] == int(words[1]) and x[2] == played)]
            if stolen:
                check(s, saw_return, saw_taken)
        check(s, saw_return, saw_taken)
    assert counts["returned"] > 20 and counts["taken"] > 0, counts
