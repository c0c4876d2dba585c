"""The API page ``/docs`` renders in Chromium: its Swagger UI reads the schema it is given and shows the operations."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from liveserver import LiveServer

from freetrader.server.apidocs import openapi_30
from freetrader.server.app import create_app


def _nodes(node: Any) -> Any:
    if isinstance(node, dict):
        yield node
        for v in node.values():
            yield from _nodes(v)
    elif isinstance(node, list):
        for v in node:
            yield from _nodes(v)


def test_the_schema_the_page_reads_is_openapi_30_with_every_operation(tmp_path: Path) -> None:
    spec = create_app(f"sqlite:///{tmp_path}/t.db").openapi()
    old = openapi_30(spec)
    assert spec["openapi"].startswith("3.1") and old["openapi"] == "3.0.3"
    assert old["paths"].keys() == spec["paths"].keys()
    assert [sorted(op) for op in old["paths"].values()] == [sorted(op) for op in spec["paths"].values()]
    for node in _nodes(old):  # no 3.1-only construct is left for Swagger UI 4 to trip on
        assert node.get("type") != "null" and not isinstance(node.get("type"), list), node
        assert not isinstance(node.get("exclusiveMinimum"), (int, float)) or isinstance(node["exclusiveMinimum"], bool)
        assert "const" not in node and not isinstance(node.get("examples"), list), node
    # an optional field stays optional: nullable, with its own type and bounds
    token = next(p for p in old["paths"]["/api/tables/{table_id}/view"]["get"]["parameters"] if p["name"] == "token")
    assert token["schema"]["nullable"] is True and token["schema"]["type"] == "string"
    assert token["schema"]["maxLength"] == 128


def test_the_api_page_shows_the_operations_in_a_browser(browser: Any, tmp_path: Path) -> None:
    server = LiveServer(f"sqlite:///{tmp_path}/docs.db").start()
    try:
        page = browser.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(server.url + "/docs")
        page.wait_for_selector(".opblock-summary-path", state="visible")
        paths = {p.strip().replace("\u200b", "") for p in page.locator(".opblock-summary-path").all_inner_texts()}
        assert "/api/games" in paths and "/api/tables/{table_id}/view" in paths, paths
        assert "Unable to render" not in page.inner_text("body")
        page.locator(".opblock-summary-path", has_text="/api/tables/{table_id}/view").first.click()
        page.wait_for_selector(".parameters-container", state="visible")  # an operation opens: its schema reads
        assert "token" in page.inner_text(".parameters-container") and not errors, errors
    finally:
        server.stop()

