"""The table as a player sees it, in headless Chromium at a laptop's and a phone's size (issue 34).

For every game, and Merchants Cove with its Secret Stash modules and solo: at two decisions of seat 0,
every drawn element lies inside its panel.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from layout import OUTSIDE_JS, SIZES, TABLES, click_first, open_table, wait_my_turn
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
def test_every_drawn_element_lies_inside_its_panel(browser: Any, server: LiveServer,
                                                   table: tuple[str, str, dict[str, Any], int],
                                                   size: tuple[int, int]) -> None:
    seen = 0
    for page, k in decisions(browser, server, table, size):
        faults = page.evaluate(OUTSIDE_JS)
        assert not faults, f"{table[0]} at {size}, decision {k}: " + "; ".join(faults)
        seen += 1
    assert seen, "seat 0 had no decision to look at"
