"""The OpenAPI spec, fuzzed with schemathesis: no request makes the server fail (no 5xx, JSON errors)."""

from __future__ import annotations

import tempfile
from typing import Any

import pytest

schemathesis = pytest.importorskip("schemathesis")

from hypothesis import HealthCheck, settings  # noqa: E402
from schemathesis.python import asgi  # noqa: E402

from freetrader.server.app import create_app  # noqa: E402
from freetrader.server.limits import Limits  # noqa: E402

# the fuzzer creates many tables from one address: the per-minute cap would answer 429 to most
app = create_app(f"sqlite:///{tempfile.mkdtemp(prefix='ft-fuzz-')}/fuzz.db", limits=Limits(tables_per_minute=10**6))
schema = schemathesis.openapi.from_asgi("/openapi.json", app)
_real: dict[str, str] = {}


def _real_table() -> str:
    """A real table (so that fuzzing reaches past 'no table'); made once."""
    if not _real:
        with asgi.get_client(app) as client:
            r = client.post("http://testserver/api/tables", json={
                "game": "contraband", "seats": ["human", "human", "random"], "options": {"end": "turns"}})
            assert r.status_code == 201, r.text
            _real["id"] = r.json()["table"]["id"]
    return _real["id"]


@schema.parametrize()
@settings(max_examples=30, deadline=None, suppress_health_check=list(HealthCheck))
def test_no_request_makes_the_server_fail(case: Any) -> None:
    params = case.path_parameters or {}
    if "table_id" in params and hash(str(case.body)) % 2 == 0:
        params["table_id"] = _real_table()
    response = case.call()
    assert response.status_code < 500, response.text
    if response.status_code >= 400:
        body = response.json()
        assert isinstance(body.get("error"), str) and body["error"], body
