"""Markers shared by the whole suite.

``e2e``: a long end-to-end run (a whole game played by clicks in a browser, say). ``./dev test``
runs these in a second phase after the rest, so the first phase stays within its time budget and
a failure there is reported early; CI runs both phases.

``slow``: an extra of minutes or hours (a 2^32 seed scan, 10,000 random actions per game) that
runs only with ``FREETRADER_SLOW=1``.
"""

from __future__ import annotations

import os

import pytest


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "e2e: a long end-to-end run; `./dev test` runs these in a second phase")
    config.addinivalue_line("markers", "slow: an extra of minutes or more; skipped unless FREETRADER_SLOW=1")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if os.environ.get("FREETRADER_SLOW"):
        return
    skip = pytest.mark.skip(reason="slow: set FREETRADER_SLOW=1 to run it")
    for item in items:
        if item.get_closest_marker("slow") is not None:
            item.add_marker(skip)
