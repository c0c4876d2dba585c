"""Every page names an icon the server has (issue 34, item 12: the favicon answered 404)."""

from __future__ import annotations

import re
from pathlib import Path

from fastapi.testclient import TestClient

from freetrader.server.app import create_app


def test_every_page_names_an_icon_that_the_server_serves(tmp_path: Path) -> None:
    with TestClient(create_app(f"sqlite:///{tmp_path / 'icons.db'}")) as client:
        for page in ("/", "/t/anytable", "/replay", "/rules/contraband"):
            html = client.get(page).text
            icons = re.findall(r'<link rel="icon" href="([^"]+)"', html)
            assert icons, f"{page} names no icon (the browser then asks for /favicon.ico, a 404)"
            for href in icons:
                answer = client.get(href)
                assert answer.status_code == 200, f"{page}: its icon {href} answers {answer.status_code}"
                assert answer.headers["content-type"].startswith("image/svg+xml")
