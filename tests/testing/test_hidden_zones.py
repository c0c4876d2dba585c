"""The hidden-zone check: it fails a determinize() that forgets a deck, and passes the real ones."""

from __future__ import annotations

import pytest

import freetrader
from freetrader.core import Rng
from freetrader.games.contraband import view as contraband_view
from freetrader.games.merchants_cove import view as cove_view
from freetrader.testing import check_playout, hidden_zones

CONTRABAND = freetrader.game("contraband")
COVE = freetrader.game("merchants-cove")
BOATS = {"boat_setup": True}


def test_hidden_zones_finds_the_pack_and_other_seats_luggage_but_not_what_a_seat_sees():
    s = CONTRABAND.new_state(4, 5)
    holder = s.view(None)["luggage"]["holder"]
    other = next(p for p in range(4) if p != holder)
    names = {name for name, _ in hidden_zones(s, other)}
    assert {"pack", "luggage"} <= names
    assert "cash" not in names and "declared" not in names
    assert "luggage" not in {name for name, _ in hidden_zones(s, holder)}  # the holder has looked at it


def test_a_contraband_determinize_that_forgets_the_pack_fails(monkeypatch):
    def forgets_the_pack(s, seat, seed):
        pool = s.discard_hidden + ([] if seat == s.holder and s.examined else s.luggage)
        Rng(seed).shuffle(pool)
        n = len(s.discard_hidden)
        s.discard_hidden = pool[:n]
        if not (seat == s.holder and s.examined):
            s.luggage = pool[n:]

    monkeypatch.setattr(contraband_view, "determinize", forgets_the_pack)
    with pytest.raises(AssertionError, match=r"kept the true order of the hidden zone\(s\) \['pack'\]"):
        check_playout(CONTRABAND, 4, 5, every=3)


def test_the_old_merchants_cove_determinize_that_kept_the_boat_setup_deck_fails(monkeypatch):
    def old(s, seat, seed):  # issue 16: the face-down Boat Setup deck kept its true order
        rng = Rng(seed)
        rng.shuffle(s.tf_deck)
        rng.shuffle(s.pdeck)
        s.cdeck = rng.redeal(s.cdeck, s.corr, (p for p in range(s.np) if p != seat))

    monkeypatch.setattr(cove_view, "determinize", old)
    with pytest.raises(AssertionError, match=r"hidden zone\(s\) \['bdeck'\]"):
        check_playout(COVE, 3, 1, every=3, options=BOATS, public_lists=("pdiscard",))


def test_the_merchants_cove_determinize_now_reorders_both_secret_stash_decks():
    s = COVE.new_state(1, 4, {"boat_setup": True, "challenges": True})
    bdeck, chal = s.bdeck[:], s.chal_deck[:]
    assert len(bdeck) == 3 and len(chal) == 6
    samples = [s.determinize(0, Rng(k)) for k in range(20)]
    assert any(d.bdeck != bdeck for d in samples) and any(d.chal_deck[1:] != chal[1:] for d in samples)
    assert all(d.chal_deck[0] == chal[0] for d in samples)  # the active card is face up
    plain = {c.index for c in cove_view.C.challenges if not c.dumbbell}
    assert all(set(d.chal_deck[:4]) <= plain and not set(d.chal_deck[4:]) & plain for d in samples)
    assert all(d.view(0) == s.view(0) for d in samples)
