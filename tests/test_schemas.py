"""The JSON Schemas of the documentation (docs/schemas/) hold for what every game really writes."""

from __future__ import annotations

import json
import random
import time
from pathlib import Path

import pytest

import freetrader
from freetrader.sim import play_game, result_line

jsonschema = pytest.importorskip("jsonschema")
from referencing import Registry, Resource  # noqa: E402  (jsonschema's own dependency)

SCHEMAS = Path(__file__).resolve().parents[1] / "docs" / "schemas"


def _schemas() -> tuple[dict[str, dict], Registry]:
    loaded = {p.name: json.loads(p.read_text()) for p in SCHEMAS.glob("*.schema.json")}
    registry = Registry().with_resources(
        (name, Resource.from_contents(s)) for name, s in loaded.items()
    )
    # "$ref": "record.schema.json" is resolved against the referring schema's $id
    registry = registry.with_resources((s["$id"], Resource.from_contents(s)) for s in loaded.values())
    return loaded, registry


def validator(name: str) -> jsonschema.protocols.Validator:
    loaded, registry = _schemas()
    schema = loaded[name]
    jsonschema.Draft202012Validator.check_schema(schema)
    return jsonschema.Draft202012Validator(schema, registry=registry)


def _partway(slug: str, actions: int = 40) -> freetrader.State:
    game = freetrader.game(slug)
    state = game.new_state(game.spec.min_seats if game.spec.min_seats > 1 else 2, seed=3)
    rng = random.Random(7)
    for _ in range(actions):
        if state.is_over:
            break
        state.apply(rng.choice(state.legal_actions()))
    return state


@pytest.mark.parametrize("slug", freetrader.games(all_versions=True))
def test_records_and_saved_states_of_every_game_match_their_schemas(slug: str) -> None:
    state = _partway(slug)
    record = json.loads(json.dumps(state.record()))
    validator("record.schema.json").validate(record)
    assert record["data"].startswith("sha256:")
    validator("saved-state.schema.json").validate(json.loads(json.dumps(state.to_json())))


def test_a_simulate_line_matches_its_schema_and_a_broken_one_does_not() -> None:
    result = play_game("contraband", ["heuristic", "random", "random"], 11, {"end": "turns", "turn_limit": 8})
    line = json.loads(result_line(result))
    v = validator("simulate-line.schema.json")
    v.validate(line)
    broken = {**line, "record": {**line["record"], "actions": [1, 2]}}
    assert not v.is_valid(broken)  # the nested record schema is applied
    assert not v.is_valid({k: line[k] for k in line if k != "winners"})
    assert line["end"] == "declarations" and line["unit"] == "rounds"
    assert not v.is_valid({k: line[k] for k in line if k != "unit"})  # a length says its unit
    assert not v.is_valid({**line, "length": 2.5})


def test_truncated_cut_and_rotated_lines_match_the_schema() -> None:
    v = validator("simulate-line.schema.json")
    truncated = json.loads(result_line(play_game("contraband", ["random"] * 3, 1, max_actions=5)))
    assert truncated["truncated"] is True and truncated["end"] == "truncated"
    v.validate(truncated)
    assert not v.is_valid({**truncated, "truncated": False})  # present only when true
    cut = json.loads(result_line(play_game("precious-cargo", ["random"] * 2, 4, {"turn_limit": 2})))
    assert cut["cut"] is True and cut["end"] == "safety cap"
    v.validate(cut)
    v.validate({**cut, "deal": 3, "rotation": 1})
    assert not v.is_valid({**cut, "deal": 3})


def test_a_table_record_matches_the_schema(tmp_path) -> None:
    pytest.importorskip("fastapi")
    from fastapi.testclient import TestClient

    from freetrader.server.app import create_app

    with TestClient(create_app(f"sqlite:///{tmp_path}/t.db")) as c:
        r = c.post("/api/tables", json={"game": "contraband", "seats": ["random"] * 3, "seed": 2,
                                        "options": {"end": "turns", "turn_limit": 6}})
        assert r.status_code == 201, r.text
        tid = r.json()["table"]["id"] if "table" in r.json() else r.json()["id"]
        end = time.monotonic() + 300  # the bots finish the game: a bound for a stuck table only
        while (got := c.get(f"/api/tables/{tid}/record")).status_code != 200 and time.monotonic() < end:
            time.sleep(0.05)
        assert got.status_code == 200, got.text
    validator("record.schema.json").validate(got.json())
