"""A refused move names the rule that refused it: the section of the game's players' rules page that
governs the decision the refused seat's own view shows, and nothing that seat may not see."""

from __future__ import annotations

import re
from typing import Any

import pytest
from fastapi.testclient import TestClient
from tablehelp import join, view, wait_for

import freetrader
from freetrader.core.registry import part_file
from freetrader.server.rules import governing_rule, refusal, rule_sections


def _page(game: str) -> str:
    path = part_file(game, "rules.html")
    assert path is not None, f"{game} has no rules.html in its folder"
    return path.read_text(encoding="utf-8")


def _heading_by_hand(game: str, phase: str) -> str:
    """The <h2> of the <section> holding id="phase-<phase>", read from the page with a plain search."""
    page = _page(game)
    at = page.index(f'id="phase-{phase}"')
    start = page.rindex("<section", 0, at)
    m = re.search(r"<h2>(.*?)</h2>", page[start:])
    assert m is not None
    return " ".join(re.sub(r"<[^>]+>", "", m.group(1)).split())


@pytest.mark.parametrize("game", freetrader.games())
def test_every_phase_of_every_game_has_a_governing_rule(game: str) -> None:
    import importlib

    from freetrader.core.registry import game_package
    phases = importlib.import_module(game_package(freetrader.game(game)) + ".phases").PHASES
    sections = rule_sections(game)
    for phase in phases:
        if f'id="phase-{phase}"' not in _page(game):
            continue  # a phase no decision is ever asked in (Merchants Cove's setup, production, market)
        assert governing_rule(game, phase) == _heading_by_hand(game, phase), (game, phase)
        assert phase in sections
    assert refusal(game, "no-such-phase", "nope") == "nope"
    assert refusal(game, None, "nope") == "nope"


def _table(c: TestClient, game: str, humans: int) -> tuple[str, dict[int, str]]:
    spec = freetrader.game(game).spec
    seats = ["human"] * humans + ["random"] * (max(spec.min_seats, humans) - humans)
    r = c.post("/api/tables", json={"game": game, "seats": seats})
    assert r.status_code == 201, r.text
    tid = r.json()["table"]["id"]
    return tid, {s: join(c, tid, s) for s in range(humans)}


def _post(c: TestClient, tid: str, token: str, action: str, seq: int) -> Any:
    return c.post(f"/api/tables/{tid}/actions", json={"token": token, "action": action, "seq": seq})


@pytest.mark.parametrize("game", freetrader.games())
def test_a_refused_move_names_the_rule_of_the_decision_it_answers(client: TestClient, game: str) -> None:
    tid, tokens = _table(client, game, 2)
    msg = wait_for(client, tid, lambda m: m["view"]["to_act"] in tokens)
    actor = msg["view"]["to_act"]
    other = 1 - actor
    mine = view(client, tid, tokens[actor])
    phase = mine["view"]["phase"]
    rule = _heading_by_hand(game, phase)
    # the acting seat: nonsense, and a well-formed move of the game that is not legal now
    legal = set(mine["view"]["legal"])
    for bad in ("xyzzy 42", "sell 9 nothing", "pass pass"):
        if bad in legal:
            continue
        r = _post(client, tid, tokens[actor], bad, mine["seq"])
        assert r.status_code == 400, r.text
        err = r.json()["error"]
        assert err.startswith(f"Refused by '{rule}': "), err
        assert "\n" not in err
        assert len(err) > len(f"Refused by '{rule}': ") + 5  # then the engine's own reason
    # the seat not to act is refused by the same rule, and learns nothing of the acting seat's options
    theirs = view(client, tid, tokens[other])
    assert theirs["view"]["phase"] == phase
    r = _post(client, tid, tokens[other], mine["view"]["legal"][0], theirs["seq"])
    assert r.status_code == 400, r.text
    err = r.json()["error"]
    assert err.startswith(f"Refused by '{rule}': "), err
    for a in mine["view"]["legal"][1:]:
        if " " in a and a != mine["view"]["legal"][0]:
            assert a not in err, (a, err)
    assert view(client, tid)["index"] == msg["index"]  # nothing changed
