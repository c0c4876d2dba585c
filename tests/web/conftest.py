"""Browser tests: Debian's Chromium driven by Playwright (no browser download)."""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).parent))

CHROMIUM = os.environ.get("FREETRADER_CHROMIUM", "/usr/bin/chromium")
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    pytest.importorskip("fastapi")
    sync_api = pytest.importorskip("playwright.sync_api")
    if not Path(CHROMIUM).exists():
        pytest.skip(f"no Chromium at {CHROMIUM} (apt-get install chromium)")
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        _patient(b)
        yield b
        b.close()


#: Playwright's wait for anything without its own timeout: an outer bound, met at once on an idle
#: machine and still met on a loaded one (Playwright's default, 30 s, is not)
PATIENCE_MS = 120_000


def _patient(b: Any) -> None:
    """Every context and page this browser opens waits up to PATIENCE_MS by default."""
    new_context, new_page = b.new_context, b.new_page

    def patient_context(*args: Any, **kwargs: Any) -> Any:
        ctx = new_context(*args, **kwargs)
        ctx.set_default_timeout(PATIENCE_MS)
        ctx.set_default_navigation_timeout(PATIENCE_MS)
        return ctx

    def patient_page(*args: Any, **kwargs: Any) -> Any:
        page = new_page(*args, **kwargs)
        page.set_default_timeout(PATIENCE_MS)
        page.set_default_navigation_timeout(PATIENCE_MS)
        return page

    b.new_context, b.new_page = patient_context, patient_page
