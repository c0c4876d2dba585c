"""The declared observation layouts: unchanged vectors, generated docs and headers, bounds that hold."""

from __future__ import annotations

import json
import random
from pathlib import Path

import numpy as np
import pytest

import freetrader
from freetrader.adapters.encoders import (
    Block,
    Layout,
    Piece,
    encoder_for,
    encoder_names,
    generated_docs,
    layout_headers,
    layouts,
    seat_view,
)

from ._digests import digests

ROOT = Path(__file__).resolve().parents[2]
GAMES = ("contraband", "cornish-smuggler", "merchants-cove", "precious-cargo")


@pytest.fixture(scope="module")
def recorded() -> dict[str, str]:
    return json.loads((Path(__file__).parent / "data" / "observation_digests.json").read_text())


def test_the_same_positions_encode_to_the_same_vectors_as_before(recorded: dict[str, str]) -> None:
    # recorded by tests/adapters/_digests.py from the encoders as they were before the layouts were declared
    assert digests() == recorded


def test_the_fast_encoders_give_the_recorded_vectors_too(recorded: dict[str, str]) -> None:
    assert digests(fast=True) == recorded


def test_every_game_encoder_lives_in_its_game_folder_and_is_found_by_registration() -> None:
    assert set(GAMES) <= set(encoder_names())
    for name in GAMES:
        enc = encoder_for(name, freetrader.game(name).spec.min_seats, encoder="game")
        module = type(enc).__module__
        assert module == f"freetrader.games.{name.replace('-', '_')}.encoder", module
    source = (ROOT / "src/freetrader/adapters/encoders/__init__.py").read_text()
    for name in GAMES:  # no central list of games in the encoders package
        assert name not in source and name.replace("-", "_") not in source


def test_the_old_module_names_still_import_the_moved_encoders() -> None:
    from freetrader.adapters.encoders.merchants_cove import _AT, SIZE
    from freetrader.games.merchants_cove import encoder as moved

    assert _AT is moved._AT and SIZE == moved.LAYOUT.size
    from freetrader.adapters.encoders.contraband import ContrabandEncoder
    from freetrader.games.contraband.encoder import ContrabandEncoder as Moved

    assert ContrabandEncoder is Moved


@pytest.mark.parametrize("name", GAMES)
def test_the_layout_size_is_what_the_encoder_makes(name: str) -> None:
    g = freetrader.game(name)
    for n in range(g.spec.min_seats, g.spec.max_seats + 1):
        enc = encoder_for(g, n, encoder="game")
        assert enc.layout is not None
        s = g.new_state(n, 7)
        assert len(enc.features(seat_view(s, 0))) == enc.layout.size == enc.observation_size


def test_the_committed_observation_docs_match_the_declarations() -> None:
    committed = (ROOT / "docs/reference/observations.md").read_text()
    assert committed == generated_docs(), "run: python -m freetrader.adapters.encoders --docs"
    for name, lay in layouts().items():
        assert f"### {name} (encoder version {lay.version})" in committed


def test_the_committed_c_headers_match_the_declarations() -> None:
    headers = layout_headers()
    assert {p.name for p in headers} == {"_contraband_layout.h", "_precious_cargo_layout.h",
                                         "_merchants_cove_layout.h", "_cornish_smuggler_layout.h"}
    for path, text in headers.items():
        assert path.read_text() == text, f"{path.name} is stale: run python -m freetrader.adapters.encoders --headers"


def test_the_c_sources_read_their_offsets_from_the_generated_headers() -> None:
    here = ROOT / "src/freetrader/adapters/encoders"
    for game, prefix in (("contraband", "CB"), ("precious_cargo", "PC"), ("merchants_cove", "MC"),
                         ("cornish_smuggler", "CS")):
        source = (here / f"_{game}_fast.c").read_text()
        assert f'#include "_{game}_layout.h"' in source
        assert f"{prefix}_SEAT" in source or f"{prefix}_SIZE" in source


def test_a_layout_gives_offsets_bounds_and_refuses_bad_pieces() -> None:
    lay = Layout("toy", 2, [Piece("a", 2, 0.0, 1.0, "two flags"),
                            Block("rows", 3, (Piece("x", 1, -1.0, 1.0, "x"), Piece("y", 2, 0.0, 5.0, "y")), "rows"),
                            Piece("z", 1, 0.0, 9.0, "z")])
    assert lay.size == 2 + 3 * 3 + 1
    assert (lay.at("rows"), lay.stride("rows"), lay.at("rows.y"), lay.at("z")) == (2, 3, 1, 11)
    low, high = lay.bounds()
    assert low.tolist() == [0, 0] + [-1, 0, 0] * 3 + [0]
    assert high.tolist() == [1, 1] + [1, 5, 5] * 3 + [9]
    assert lay.name_of(6) == "rows[1].y+0"
    assert "#define TOY_ROWS_Y 1" in lay.c_header("TOY") and "#define TOY_SIZE 12" in lay.c_header("TOY")
    with pytest.raises(ValueError, match="twice"):
        Layout("toy", 1, [Piece("a", 1, 0, 1, ""), Piece("a", 1, 0, 1, "")])
    with pytest.raises(ValueError, match="bounds"):
        Piece("b", 1, 2.0, 1.0, "")
    with pytest.raises(KeyError, match="no piece"):
        lay.at("nope")


SEATS = {"contraband": (3, 5, 8), "cornish-smuggler": (2, 3, 5), "merchants-cove": (1, 2, 4), "precious-cargo": (2,)}


def _play_within_bounds(name: str, n: int, key: str, options: dict[str, object] | None = None) -> int:
    """A random game, every seat's and the spectator's observation checked at every step; its length."""
    g = freetrader.game(name)
    enc = encoder_for(g, n, options, encoder="game")
    low, high = enc.observation_bounds()
    assert enc.layout is not None and low.shape == high.shape == (enc.observation_size,)
    rng = random.Random(key)
    s = g.new_state(n, rng.getrandbits(63), options)
    while True:
        for seat in (*range(n), None):
            v = enc.encode_state(s, seat)
            bad = np.flatnonzero((v < low) | (v > high))
            assert not bad.size, (f"{name} at {n} seats ({options}), action {s.action_count}, seat {seat}: "
                                  f"{enc.layout.name_of(int(bad[0]))} = {v[bad[0]]} is outside "
                                  f"{low[bad[0]]} .. {high[bad[0]]}")
        if s.is_over or s.action_count >= 1500:
            return s.action_count
        s.apply(rng.choice(s.legal_actions()))


@pytest.mark.parametrize("name", GAMES)
def test_every_observed_value_lies_within_its_declared_bounds(name: str) -> None:
    for n in SEATS[name]:
        for k in range(4):
            _play_within_bounds(name, n, f"bounds/{name}/{n}/{k}")


def _secret_stash(rng: random.Random, n: int) -> dict[str, object]:
    """Secret Stash options drawn at random (every module some of the time), the Rogue card any of the 14."""
    from freetrader.games.merchants_cove.components import COMPONENTS

    sets = [x for x in COMPONENTS.tf_sets if rng.random() < 0.5] or ["underworld"]
    return {
        "rogue": rng.choice([r.id for r in COMPONENTS.rogues]), "multiple_rogues": rng.random() < 0.5,
        "townsfolk": "+".join(sets), "corruption": rng.choice(("base", "mixed", "replace")),
        "halls_of_plenty": rng.random() < 0.5, "lair_of_villainy": rng.random() < 0.5,
        "boats": rng.choice(("base", "2-seater", "5-seaters", "both")), "five_seaters_two": rng.random() < 0.3,
        "boat_setup": rng.random() < 0.5, "faction_leaders": rng.random() < 0.6, "festival": rng.random() < 0.5,
        "challenges": n == 1 and rng.random() < 0.6,
    }


@pytest.mark.parametrize("seats", (1, 2, 3, 4))
def test_merchants_cove_values_lie_within_bounds_with_the_secret_stash(seats: int) -> None:
    # whole games (the default bound test plays the base game only): the modules bring Faction Leaders, the
    # new Boats, Dragon Island, the Kraken's bay, Grey Rogue Goods and the larger Corruption deck
    lengths = []
    for k in range(6):
        rng = random.Random(f"bounds/stash/{seats}/{k}")
        lengths.append(_play_within_bounds("merchants-cove", seats, f"bounds/stash/{seats}/{k}/play",
                                           _secret_stash(rng, seats)))
    assert max(lengths) < 1500, lengths  # the games ended: every phase and the final scoring were observed


def test_the_adapters_spaces_carry_the_per_feature_bounds() -> None:
    from freetrader.adapters.gymnasium import FreetraderGymEnv
    from freetrader.adapters.pettingzoo import env as pz_env

    enc = encoder_for("contraband", 4, encoder="game")
    low, high = enc.observation_bounds()
    gym_box = FreetraderGymEnv("contraband", ["random"], seats=4).observation_space["observation"]
    pz_box = pz_env("contraband", seats=4).observation_space("player_0")["observation"]
    for box in (gym_box, pz_box):
        assert np.array_equal(box.low, low) and np.array_equal(box.high, high)
    assert float(high.max()) < 1e3 and high[enc.layout.at("phase")] == 1.0  # no longer a loose 1000 everywhere
