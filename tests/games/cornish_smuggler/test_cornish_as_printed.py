"""Issue 17: places where the engine was narrower than the printed rules, each named after its rulebook section.

Every test plays through the public API from a real set-up (``cornish_scenario``), with the rulebook's words
in its docstring.
"""

from __future__ import annotations

from cornish_scenario import (
    GAME,
    act,
    after_setup,
    counters,
    fitting_ship,
    give_char,
    give_hold,
    legal,
    loc,
    officers_at,
    piece,
    put_on_land,
    set_gold,
    strip,
    touch,
)

from freetrader.games.cornish_smuggler import rules as R
from freetrader.games.cornish_smuggler.components import COMPONENTS as C
from freetrader.games.cornish_smuggler.packing import fits, hold_of_store

GID = R.GOODS_IDS
TURKS_HEAD = "behind-the-turks-head"  # a START storehouse in Penzance


def _own_store(s, p: int, sid: str) -> int:
    """Seat p holds this storehouse (and only it); nobody else does."""
    st = next(x.index for x in C.storehouses if x.id == sid)
    for q in range(s.seats):
        if st in s.stores[q]:
            s.stores[q].remove(st)
    s.stores[p] = [st]
    touch(s)
    return st


def _fitting(s, st: int, exclude=()) -> int:
    return next(g for g in range(len(C.goods)) if g not in exclude and s.g_where[g] == R.MERCHANT
                and fits(hold_of_store(st), [C.goods[g]]))


# -- Storehouse Locations ---------------------------------------------------------------------------------------
def test_storehouse_locations_goods_carried_into_the_storehouse_town_are_hidden_before_play_passes_on():
    """Storehouse Locations: "Movement of Goods Shapes into or out of a Storehouse is free, does not use an
    Action, and can be done at any time during a player's turn." The Action that carried the goods into
    Penzance is over, but the player's turn is not: they hide the goods before a rival's officer walks in."""
    s = after_setup(3)
    p = s.actor
    rival = (p + 1) % 3
    st = _own_store(s, p, TURKS_HEAD)
    counters(s, p, "madron", "penzance")
    g = _fitting(s, st)
    put_on_land(s, p, g, "madron")
    officers_at(s, "newlyn")
    act(s, f"carry {GID[g]} to penzance with influence")
    assert s.actor == p and s.phase == R.MAIN and s.g_at[g] == loc("penzance")
    assert legal(s) == ["done", f"store {GID[g]} to {TURKS_HEAD}"]
    careless = s.clone()
    act(s, f"store {GID[g]} to {TURKS_HEAD}")
    assert s.g_where[g] == R.STORE
    assert s.actor == rival  # nothing else was free to do: play passed on
    act(s, "officer 0 to penzance with influence")
    assert s.off_at[0] == loc("penzance") and s.g_where[g] == R.STORE  # hidden goods are safe
    # Going on without hiding them: the rival's officer seizes them.
    act(careless, "done")
    assert careless.actor == rival
    act(careless, "officer 0 to penzance with influence")
    assert careless.g_where[g] == R.WAREHOUSE


def test_storehouse_locations_goods_are_hidden_before_the_customs_officer_passes():
    """Storehouse Locations: "... can be done at any time during a player's turn"; Seizing Goods: officers
    "seize ALL Goods Shapes whenever they share the same space (no matter how briefly)". Landing at Marazion
    sends the officer from Newlyn through Penzance, where the player's goods stand by their storehouse: at the
    player's next decision inside the landing they may still hide them."""
    s = after_setup(3)
    p = s.actor
    assert C.discovery[s.track] == 8
    st = _own_store(s, p, TURKS_HEAD)
    counters(s, p, "penzance", "marazion")
    g = _fitting(s, st)
    put_on_land(s, p, g, "penzance")
    pieces = [piece(s, 2, exclude=[g]), piece(s, 4, exclude=[g])]
    s.ship_card[p] = fitting_ship([2, 4], {z: C.goods[x] for z, x in zip([2, 4], pieces, strict=True)})
    give_hold(s, p, pieces)
    s.ship_at[p] = C.locations[loc("marazion")].sea_node
    officers_at(s, "newlyn")
    s.apply("land")
    assert s.phase == R.MAIN and s.actor == p  # the free moves come first, as a decision of their own
    assert legal(s) == ["done", f"store {GID[g]} to {TURKS_HEAD}"]
    s.apply("done")  # not yet: the landing's own choice is as it was
    assert s.phase == R.LAND_SELECT and legal(s) == [f"unload {GID[x]}" for x in sorted(pieces)]
    for x in sorted(pieces):
        s.apply(f"unload {GID[x]}")
        s.apply("done")  # the free moves, offered again at this decision
    s.apply("done")  # the landing: Risk 4 + 6 = 10 against 8, two Customs moves
    assert s.phase == R.MAIN and legal(s) == ["done", f"store {GID[g]} to {TURKS_HEAD}"]
    careless = s.clone()
    s.apply(f"store {GID[g]} to {TURKS_HEAD}")
    assert s.phase == R.LAND_HIDE and legal(s) == ["hide 0", "hide 1", "hide 2"]
    act(s, "hide 0")
    assert s.off_at[0] == loc("marazion")
    assert s.g_where[g] == R.STORE  # hidden before the officer passed through Penzance
    assert all(s.g_where[x] == R.WAREHOUSE for x in pieces)
    act(careless, "done", "hide 0")
    assert careless.g_where[g] == R.WAREHOUSE  # seized on the officer's way through


def test_storehouse_locations_not_the_shape_being_sold_nor_under_an_officers_eyes():
    """Storing Landed Goods: "as long as a Customs Officer, not bribed by that player, is not already in that
    location" -- and a free move never takes away the Goods Shape a sale under way is selling."""
    s = after_setup(3)
    p = s.actor
    st = _own_store(s, p, TURKS_HEAD)
    counters(s, p, "penzance")
    g = _fitting(s, st)
    put_on_land(s, p, g, "penzance")
    officers_at(s, "st-just")
    assert f"store {GID[g]} to {TURKS_HEAD}" in legal(s)
    act(s, f"sell {GID[g]}")
    assert s.phase == R.PRICE  # no free move offered: the only storable shape is the one being sold
    # An officer (not bribed by the owner) already in the town: the goods cannot be slipped away under his nose.
    s2 = after_setup(3)
    q = s2.actor
    _own_store(s2, q, TURKS_HEAD)
    counters(s2, q, "penzance")
    officers_at(s2, "penzance")
    s2.off_bribe[0] = q
    put_on_land(s2, q, g, "penzance")
    assert f"store {GID[g]} to {TURKS_HEAD}" in legal(s2)  # their own man looks away
    s2.off_bribe[0] = -1
    assert f"store {GID[g]} to {TURKS_HEAD}" not in legal(s2)


# -- Ties -----------------------------------------------------------------------------------------------------------
def test_ties_if_there_is_still_a_tie_the_first_player_chooses_even_when_not_among_the_tied():
    """Ties: "If multiple players have the same Gold, then the player with the lowest Reputation chooses. If that
    is also tied then the player with the fewest Characters chooses and if there is still a tie, the First
    Player chooses." Eve, the First Player, sells at Penzance with three officers one space away; the two
    poorest players are tied on Gold, Reputation and Characters, so Eve chooses which officer moves."""
    s = after_setup(3)
    eve = s.actor
    assert s.first == eve
    officers_at(s, "madron", "newlyn", "marazion")
    g = piece(s, 2)
    counters(s, eve, "penzance")
    put_on_land(s, eve, g, "penzance")
    for q in ((eve + 1) % 3, (eve + 2) % 3):
        set_gold(s, q, 1)
        s.rep[q] = 1
        s.chars[q] = s.chars[q][:1]
    assert len(s.chars[(eve + 1) % 3]) == len(s.chars[(eve + 2) % 3]) == 1
    act(s, f"sell {GID[g]}", "price bottom with influence")
    assert s.gold[eve] > 1  # Eve is not among the tied players
    assert s.phase == R.CUSTOMS_OFFICER and s.actor == eve and R.chooser(s) == eve
    n = len(s.events)
    act(s, "move 2")
    assert s.off_at[2] == loc("penzance") and f"Seat {eve}" in s.events[n]
    # One step less tied: the poorer in Reputation chooses, First Player or not.
    s.rep[(eve + 2) % 3] = 0
    assert R.chooser(s) == (eve + 2) % 3


# -- Mob cards ----------------------------------------------------------------------------------------------------------
def _keep_at_setup(options, cid: str):
    """The First Player draws and keeps this Mob card at set-up; the others keep their first card."""
    s = GAME.new_state(3, 1, options)
    while s.phase != R.SETUP_DRAW:
        s.apply(s.legal_actions()[0])
    card = next(c for c in C.characters if c.id == cid)
    s.apply(f"draw {('religious', 'trade', 'unskilled', 'official')[card.deck]}")
    stack = s.stacks[card.deck]
    if s.drawn[0] != card.index:  # the card drawn is swapped for it, within its own stack
        i = stack.index(card.index)
        stack[i], s.drawn[0] = s.drawn[0], card.index
    touch(s)
    s.apply(next(a for a in s.legal_actions() if a.verb == "draw"))
    s.apply(f"keep {cid}")
    while s.phase != R.SETUP_COUNTER:
        s.apply(s.legal_actions()[0])
    assert s.actor == s.first and s.chars[s.first] == [card.index]
    return s


def test_mob_cards_the_starting_character_places_the_first_network_counter_at_home():
    """Mob cards: The Hayle Underworld, "If you have no Network Counter in Hayle, you must place this Network
    Counter in Hayle." At set-up the player has no Network Counter at all, so the first one goes to Hayle."""
    s = _keep_at_setup({}, "the-hayle-underworld")
    assert legal(s) == ["place hayle"]
    assert "Hayle" in s.prompt
    s.apply("place hayle")
    assert s.counters[0] == [loc("hayle")]
    assert len(legal(s)) == len(C.locations)  # the next player, with no Mob card, places anywhere
    # The older reading survives only as an option, for games saved before the fix (format 1).
    old = _keep_at_setup({"mob_start": "anywhere"}, "the-hayle-underworld")
    assert len(legal(old)) == len(C.locations)


# -- Niall Horabain ---------------------------------------------------------------------------------------------------
def test_niall_horabain_a_player_of_your_choice_yourself_included_none_loses_nothing():
    """Niall Horabain, The Minister: "Motivate as an Action: Permanently remove 1 Reputation from a player of
    your choice." Any player, yourself included; a player with no Reputation has none to lose."""
    s = after_setup(3)
    strip(s)
    p = s.actor
    give_char(s, p, "niall-horabain")
    rep = s.rep[p]
    act(s, "motivate niall-horabain")
    assert legal(s) == [f"choose seat-{k}" for k in range(3)]  # with 0 Reputation too
    s.apply(f"choose seat-{p}")
    assert s.rep[p] == rep - 1
    zero = (p + 1) % 3
    s2 = after_setup(3)
    strip(s2)
    give_char(s2, p, "niall-horabain")
    assert s2.rep[zero] == 0
    act(s2, "motivate niall-horabain", f"choose seat-{zero}")
    assert s2.rep[zero] == 0 and s2.actor == zero  # it was the Action; nothing was lost
