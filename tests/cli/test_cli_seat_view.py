"""``state`` and ``replay`` with ``--seat N`` show only what seat N may see."""

from __future__ import annotations

import json
import re

import freetrader
from freetrader.cli import main

PLAY = "declare; wave; accept"  # seat 0 declares, seat 2 (the officer) waves, seat 1 accepts and must discard


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def _state() -> freetrader.State:
    s = freetrader.game("contraband").new_state(3, 1)
    for a in PLAY.split(";"):
        s.apply(a.strip())
    return s


def _card_names(ids: list[str]) -> set[str]:
    articles = {a["id"]: a["name"] for a in _state().view(None)["articles"]}
    return {articles[i] for i in ids} | set(ids)


def test_state_for_seat_2_lists_no_card_of_seat_1s_luggage(capsys):
    s = _state()
    assert s.to_act == 1 and s.prompt.startswith("discard")
    luggage = s.view(1)["your_luggage"]
    hidden = {c for c in luggage if c != "personal-effects"}
    assert hidden, "the position should hold something worth hiding"
    code, out, _ = run(capsys, "state", "contraband", "--seats", "3", "--seed", "1", "--apply", PLAY, "--seat", "2")
    assert code == 0
    for name in _card_names(sorted(hidden)):
        assert name.lower() not in out.lower(), f"seat 2 is shown {name!r} from seat 1's luggage"
    assert not re.search(r"\d+\. ", out)  # no numbered legal actions: seat 2 is not the one to act
    # the same command for seat 1 shows its luggage and its actions: the test above can fail
    code, out1, _ = run(capsys, "state", "contraband", "--seats", "3", "--seed", "1", "--apply", PLAY, "--seat", "1")
    assert code == 0 and all(f"discard {c}" in out1 for c in set(luggage))


def test_state_json_with_a_seat_prints_that_seats_view(capsys):
    code, out, _ = run(capsys, "state", "contraband", "--seats", "3", "--seed", "1", "--apply", PLAY,
                       "--seat", "2", "--json")
    assert code == 0
    data = json.loads(out)
    assert data == _state().view(2) and "legal" not in data and "your_luggage" not in data


def test_replay_for_a_seat_shows_legal_actions_only_when_it_acts(capsys, tmp_path):
    rec = _state().record()
    path = tmp_path / "r.json"
    path.write_text(json.dumps(rec))
    code, out, _ = run(capsys, "replay", str(path), "--seat", "0")
    assert code == 0 and not re.search(r"\d+\. discard", out)
    code, out, _ = run(capsys, "replay", str(path), "--seat", "1")
    assert code == 0 and "1. discard" in out


def test_a_seat_the_game_lacks_is_one_line(capsys):
    code, out, err = run(capsys, "state", "contraband", "--seats", "3", "--seat", "5")
    assert code == 2 and "Traceback" not in out + err and len(err.strip().splitlines()) == 1
    assert "--seat 5" in err and "0 to 2" in err
