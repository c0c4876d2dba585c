"""Markers shared by the whole suite.

``e2e``: a long end-to-end run (a whole game played by clicks in a browser, say). ``./dev test``
runs these in a second phase after the rest, so the first phase stays within its time budget and
a failure there is reported early; CI runs both phases.

``slow``: an extra of minutes or hours (a 2^32 seed scan, 10,000 random actions per game) that
runs only with ``FREETRADER_SLOW=1``.

Parallel runs (pytest-xdist, ``./dev test`` with no arguments): tests are spread over worker processes,
except those that share one resource: every test on the PostgreSQL database of ``FREETRADER_TEST_PG``
(one database, dropped and made afresh by each test) is marked ``postgresql``, and ``./dev test`` runs
those afterwards in one process, one after another. Everything else uses its own temporary folder,
SQLite file and free port.
"""

from __future__ import annotations

import os

import pytest


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "e2e: a long end-to-end run; `./dev test` runs these in a second phase")
    config.addinivalue_line("markers", "slow: an extra of minutes or more; skipped unless FREETRADER_SLOW=1")
    config.addinivalue_line("markers", "postgresql: uses the FREETRADER_TEST_PG database itself (not through "
                                       "db_url): run on one xdist worker with the other tests that do")


def _uses_postgresql(item: pytest.Item) -> bool:
    callspec = getattr(item, "callspec", None)
    if callspec is not None and callspec.params.get("db_url") == "postgresql":
        return True
    return item.get_closest_marker("postgresql") is not None


def pytest_itemcollected(item: pytest.Item) -> None:
    # marked as each test is collected, before -m selects: `./dev test` runs these in a serial invocation
    if _uses_postgresql(item):
        item.add_marker(pytest.mark.postgresql)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if os.environ.get("FREETRADER_SLOW"):
        return
    skip = pytest.mark.skip(reason="slow: set FREETRADER_SLOW=1 to run it")
    for item in items:
        if item.get_closest_marker("slow") is not None:
            item.add_marker(skip)
