"""The readable log (server/log.py) and the results of each game (view.results), at the table and alone."""

from __future__ import annotations

import random
from typing import Any

import pytest
from fastapi.testclient import TestClient
from tablehelp import SHORT, create, join, play_out, view, wait_for

import freetrader
from freetrader.core.registry import load_part
from freetrader.server.log import display_names, private_lines, render_event, results_of, seat_names

#: Short options so a random playout ends quickly (Cornish passes its turn cap explicitly).
QUICK: dict[str, dict[str, Any]] = {"contraband": SHORT, "cornish-smuggler": {"turn_limit": 4},
                                    "precious-cargo": {"target": 8, "turn_limit": 20}}


def _played(game: str, seats: int, seed: int) -> freetrader.State:
    s = freetrader.game(game).new_state(seats, seed, QUICK.get(game, {}))
    rng = random.Random(seed)
    while not s.is_over:
        s.apply(rng.choice(s.legal_actions()))
    return s


def _seats(game: str) -> int:
    spec = freetrader.game(game).spec
    return max(spec.min_seats, min(3, spec.max_seats))


def test_events_read_with_names_and_display_names() -> None:
    part = load_part(freetrader.game("cornish-smuggler"), "web")
    assert part is not None
    ids = display_names(part.components())
    names = seat_names([{"seat": 0, "kind": "human", "name": "Ann"}, {"seat": 1, "kind": "human", "name": "Bob"},
                        {"seat": 2, "kind": "random"}])
    assert render_event("Seat 1 puts to sea at scilly-sound", names, ids) == "Bob puts to sea at Scilly Sound"
    assert render_event("Seat 2 takes the ship the-good-intent", names, ids) == \
        "Seat 2 · random bot takes the ship The Good Intent"
    # one-word ids are ordinary words in events ("red", "black"): they are not renamed
    mc = load_part(freetrader.game("merchants-cove"), "web")
    assert mc is not None and "red" not in display_names(mc.components())


@pytest.mark.parametrize("game", freetrader.games())
def test_results_rank_every_seat_and_their_parts_add_up_to_the_score(game: str) -> None:
    s = _played(game, _seats(game), 5)
    r = results_of(s)
    assert r is not None and [x["seat"] for x in r["seats"]] == list(range(s.seats))
    assert [x["score"] for x in r["seats"]] == s.scores()
    assert r["cut"] == s.cut
    if s.cut:  # stopped by the explicit safety cap: no winner, the ranks are the standing then
        assert s.winners() == [] and min(x["rank"] for x in r["seats"]) == 1
    else:
        assert {x["seat"] for x in r["seats"] if x["rank"] == 1} == set(s.winners())
    for x in r["seats"]:
        assert x["parts"], x
        assert sum(p["value"] for p in x["parts"]) == pytest.approx(x["score"])
        assert x["rank"] == 1 + sum(1 for y in s.scores() if y > x["score"]) or x["seat"] in s.winners()
    assert r["length"] and r["tie_break"] and r["score"]


def test_results_are_none_while_the_game_goes_on() -> None:
    assert results_of(freetrader.game("contraband").new_state(3, 1, SHORT)) is None


def test_merchants_cove_results_count_sales_and_sponsorship_from_the_game() -> None:
    s = _played("merchants-cove", 3, 2)
    r = results_of(s)
    assert r is not None
    labels = [p["label"] for p in r["seats"][0]["parts"]]
    assert labels[:4] == ["Sales", "Sponsorship", "Faction icons", "Corruption"]
    sold = sum(int(e.rsplit(" for ", 1)[1].split()[0]) for e in s.events
               if e.startswith("Seat 0 sells ") and e.endswith(" gold"))
    assert r["seats"][0]["parts"][0]["value"] == sold


def test_private_lines_name_only_what_a_seat_gained() -> None:
    ids = {"sea-fret": "Sea Fret", "backhander": "Backhander"}
    assert private_lines({"your_secrets": ["backhander"]}, {"your_secrets": ["backhander", "sea-fret"]}, ids) == \
        ["You draw Sea Fret"]
    assert private_lines({"your_secrets": ["sea-fret"]}, {"your_secrets": []}, ids) == []


def _log_text(msg: dict[str, Any]) -> list[str]:
    return [line["text"] for line in msg["log"]]


def test_the_table_log_has_names_numbers_and_private_lines_only_for_their_seat(client: TestClient) -> None:
    """Contraband: the luggage a traveller looks into is in its own log only, never a spectator's or a rival's."""
    tid = create(client, ["human", "human", "random"], {**SHORT, "first_officer": "agreement"})
    tokens = {s: client.post(f"/api/tables/{tid}/join", json={"seat": s, "name": n}).json()["token"]
              for s, n in ((0, "Ann"), (1, "Bob"))}
    msg = play_out(client, tid, tokens)
    assert msg["view"]["is_over"]
    mine = {s: view(client, tid, tokens[s]) for s in (0, 1)}
    spectator = view(client, tid)
    numbers = [line["n"] for line in spectator["log"]]
    assert numbers == list(range(1, len(numbers) + 1))
    text = " ".join(_log_text(spectator))
    assert "Seat 0" not in text and "Seat 1" not in text and "Ann" in text and "Bob" in text
    assert "Seat 2 · random bot" in text
    assert all(line["kind"] != "you" for line in spectator["log"])
    for s in (0, 1):
        private = [line["text"] for line in mine[s]["log"] if line["kind"] == "you"]
        assert all(t.startswith("You ") for t in private)
        # the cards by their names, not their ids
        assert not any(raw in t for t in private for raw in ("brandy", "whisky", "perfume", "personal-effects"))
        public = [line for line in mine[s]["log"] if line["kind"] != "you"]
        assert [line["text"] for line in public] == _log_text(spectator)
    assert any(line["kind"] == "you" for s in (0, 1) for line in mine[s]["log"])
    res = spectator["results"]
    assert res is not None and len(res["seats"]) == 3 and res["score"].startswith("Money")


def test_a_timeout_move_is_marked_in_the_log(client: TestClient) -> None:
    tid = create(client, ["human", "random", "random"], {**SHORT, "first_officer": "agreement"},
                 turn_seconds=1, timeout_bot="random")
    join(client, tid, 0)
    msg = wait_for(client, tid, lambda m: any(line["kind"] == "timeout" for line in m["log"]))
    line = next(x for x in msg["log"] if x["kind"] == "timeout")
    assert "Time ran out for" in line["text"]
