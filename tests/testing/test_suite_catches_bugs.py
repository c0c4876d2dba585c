"""The conformance suite must fail on broken games: a check that cannot fail proves nothing."""

from __future__ import annotations

import pytest

import freetrader
from freetrader.games.contraband import view as contraband_view
from freetrader.games.contraband.state import ContrabandState
from freetrader.testing import check_playout

GAME = freetrader.game("contraband")


def test_suite_passes_on_the_real_game():
    check_playout(GAME, 4, 5, every=5)


def test_suite_catches_a_view_that_shows_everyone_the_luggage(monkeypatch):
    real = contraband_view.view

    def leaky(s, seat):
        v = real(s, seat)
        v["peek"] = sorted(s.luggage)
        return v

    monkeypatch.setattr(contraband_view, "view", leaky)
    with pytest.raises(AssertionError, match="leak"):
        check_playout(GAME, 4, 5, every=5)


def test_suite_catches_a_determinize_that_resamples_nothing(monkeypatch):
    monkeypatch.setattr(contraband_view, "determinize", lambda s, seat, seed: None)
    with pytest.raises(AssertionError, match="never resampled"):
        check_playout(GAME, 4, 5, every=5)


def test_suite_catches_a_clone_that_shares_a_list(monkeypatch):
    real = ContrabandState._copy_into

    def shallow(self, other):
        real(self, other)
        other.cash = self.cash

    monkeypatch.setattr(ContrabandState, "_copy_into", shallow)
    with pytest.raises(AssertionError):
        check_playout(GAME, 4, 5, every=1)


def test_suite_catches_a_view_exposing_the_seed(monkeypatch):
    real = contraband_view.view
    monkeypatch.setattr(contraband_view, "view", lambda s, seat: {**real(s, seat), "rng": s.rng.state})
    with pytest.raises(AssertionError, match="exposes"):
        check_playout(GAME, 4, 5, every=5)
