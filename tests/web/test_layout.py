"""The table as a player sees it, in headless Chromium at a laptop's and a phone's size (issue 34).

For every game, and Merchants Cove with its Secret Stash modules and solo, at two decisions of seat 0:
every drawn element lies inside its panel; every label is at least 11 px at the default zoom; the prompt
and every choice are in view without scrolling; the dock (the decision's box) keeps its place and size
from one decision to the next. And the board's "+" really enlarges the drawing.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from layout import (
    CHOICES_IN_VIEW_JS,
    DOCK_BOX_JS,
    OUTSIDE_JS,
    SIZES,
    SMALL_TEXT_JS,
    TABLES,
    click_first,
    open_table,
    wait_my_turn,
)
from liveserver import LiveServer

#: Decisions of seat 0 looked at per table and size (the first is often set-up; the second a turn's).
DECISIONS = 2


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    db = Path(tmp_path_factory.mktemp("layout")) / "layout.db"
    with LiveServer(f"sqlite:///{db}", bot_delay=0.0).start() as s:
        yield s


def decisions(browser: Any, server: LiveServer, table: tuple[str, str, dict[str, Any], int],
              size: tuple[int, int]) -> Iterator[tuple[Any, int]]:
    """The page at each of seat 0's first decisions (the first move clicked between them)."""
    _, game, options, seats = table
    page = open_table(browser, server.url, game, options, seats, size)
    try:
        for k in range(DECISIONS):
            if not wait_my_turn(page):
                break
            yield page, k
            click_first(page)
    finally:
        page.close()


@pytest.mark.e2e
@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("table", TABLES, ids=lambda t: t[0])
def test_a_player_sees_the_whole_table_and_the_decision(browser: Any, server: LiveServer,
                                                       table: tuple[str, str, dict[str, Any], int],
                                                       size: tuple[int, int]) -> None:
    docks = []
    for page, k in decisions(browser, server, table, size):
        where = f"{table[0]} at {size[0]}x{size[1]}, decision {k}: "
        faults = page.evaluate(OUTSIDE_JS)
        assert not faults, where + "; ".join(faults)
        small = page.evaluate(SMALL_TEXT_JS, 11)
        assert not small, where + "labels under 11 px: " + "; ".join(small)
        hidden = page.evaluate(CHOICES_IN_VIEW_JS)
        assert not hidden, where + "; ".join(hidden)
        docks.append(page.evaluate(DOCK_BOX_JS))
    assert len(docks) == DECISIONS, "seat 0 had too few decisions to look at"
    assert docks[0] is not None and all(d == docks[0] for d in docks), f"the dock moved between decisions: {docks}"


@pytest.mark.e2e
def test_plus_enlarges_the_map_on_a_phone(browser: Any, server: LiveServer) -> None:
    _, game, options, seats = TABLES[1]  # Cornish Smuggler: the map a phone must pan
    page = open_table(browser, server.url, game, options, seats, (390, 844))
    try:
        width = "() => document.querySelector('#board svg').getBoundingClientRect().width"
        before = page.evaluate(width)
        page.click("#zoom-in")
        page.click("#zoom-in")
        assert page.evaluate(width) > before * 1.5
        page.click("#zoom-fit")
        assert abs(page.evaluate(width) - before) < 1
    finally:
        page.close()
