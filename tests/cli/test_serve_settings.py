"""Operating ``freetrader serve``: settings from flags or the environment, secrets never printed, one-line failures."""

from __future__ import annotations

import argparse
import json
import logging
import os
import re
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from freetrader.cli import main
from freetrader.cli.cmd_serve import SettingError, mask_url, redact, settings_from


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def one_error_line(code: int, out: str, err: str) -> str:
    assert code == 2, (out, err)
    assert "Traceback" not in out + err
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith("freetrader: error: ")
    return lines[0]


def ns(**kw: object) -> argparse.Namespace:
    base = {"host": None, "port": None, "db": None, "bot_delay": None, "log_level": None, "access_log": None}
    return argparse.Namespace(**{**base, **kw})


def test_settings_come_from_the_flag_then_the_environment_then_the_default() -> None:
    env = {"FREETRADER_PORT": "9001", "FREETRADER_DB": "postgresql://a:b@h/d", "FREETRADER_LOG_LEVEL": "DEBUG",
           "FREETRADER_ACCESS_LOG": "off", "FREETRADER_BOT_DELAY": "0"}
    s = settings_from(ns(port="9002"), env)
    assert s == {"host": "127.0.0.1", "port": 9002, "db": "postgresql://a:b@h/d", "bot_delay": 0.0,
                 "log_level": "debug", "access_log": False, "trusted_proxies": "", "log_format": "text",
                 "worker_cpu": "idle"}
    assert settings_from(ns(), {})["port"] == 8000 and settings_from(ns(), {})["access_log"] is True
    assert settings_from(ns(access_log=False), {"FREETRADER_ACCESS_LOG": "on"})["access_log"] is False


@pytest.mark.parametrize(("env", "needle"), [
    ({"FREETRADER_PORT": "eighty"}, "FREETRADER_PORT must be a whole number, got 'eighty'"),
    ({"FREETRADER_PORT": "70000"}, "FREETRADER_PORT must be 1..65535, got 70000"),
    ({"FREETRADER_BOT_DELAY": "-1"}, "FREETRADER_BOT_DELAY must be 0 or more seconds"),
    ({"FREETRADER_LOG_LEVEL": "loud"}, "FREETRADER_LOG_LEVEL must be one of critical, error, warning, info, debug"),
    ({"FREETRADER_ACCESS_LOG": "maybe"}, "FREETRADER_ACCESS_LOG must be on or off"),
    ({"FREETRADER_LOG_FORMAT": "xml"}, "FREETRADER_LOG_FORMAT must be one of text, json, got 'xml'"),
    ({"FREETRADER_WORKER_CPU": "fast"}, "FREETRADER_WORKER_CPU must be one of idle, nice, got 'fast'"),
])
def test_a_bad_environment_value_names_the_variable_and_what_it_takes(env, needle) -> None:
    with pytest.raises(SettingError, match="^" + needle.replace("(", r"\(").replace(".", r"\.")):
        settings_from(ns(), env)


def test_a_bad_setting_is_one_line_and_exit_2(capsys, monkeypatch) -> None:
    pytest.importorskip("uvicorn")
    monkeypatch.setenv("FREETRADER_PORT", "0")
    line = one_error_line(*run(capsys, "serve"))
    assert "FREETRADER_PORT must be 1..65535, got 0" in line
    line = one_error_line(*run(capsys, "serve", "--port", "x"))
    assert "--port must be a whole number, got 'x'" in line


def test_passwords_and_seat_tokens_are_masked() -> None:
    assert mask_url("postgresql://ft:s3cret@db.example:5432/table") == "postgresql://ft:***@db.example:5432/table"
    assert mask_url("postgresql://ft@db/table") == "postgresql://ft@db/table"
    assert mask_url("sqlite:///x.db") == "sqlite:///x.db"
    line = 'GET /api/tables/ab/view?token=Zq9-x_1&x=1 HTTP/1.1'
    assert redact(line) == 'GET /api/tables/ab/view?token=***&x=1 HTTP/1.1'
    assert redact("password authentication failed (s3cret)", "postgresql://ft:s3cret@h/d") == (
        "password authentication failed (***)")


def test_serve_without_the_web_extra_names_it_on_stderr_with_its_brackets(capsys, monkeypatch) -> None:
    monkeypatch.setitem(sys.modules, "uvicorn", None)  # import uvicorn now raises ImportError
    line = one_error_line(*run(capsys, "serve"))
    assert "pip install 'freetrader[web]'" in line


PG_URL = os.environ.get("FREETRADER_TEST_PG")
_WRONG_PASSWORD = [  # a real server that refuses the password: its message must not echo it
    lambda tmp: re.sub(r"://([^:/@]+):[^@]*@", r"://\1:TopSecret99@", PG_URL or "")
] if PG_URL else []


@pytest.mark.parametrize("url_of", [
    lambda tmp: "postgresql://ft:TopSecret99@127.0.0.1:1/nowhere",  # nothing listens on port 1
    lambda tmp: "postgresql://127.0.0.1:1/nowhere?user=ft&password=TopSecret99",  # libpq's query form
    lambda tmp: f"sqlite:///{tmp}/no/such/folder/table.db",
    lambda tmp: "mysql+nodriver://ft:TopSecret99@127.0.0.1/x",
    *_WRONG_PASSWORD,
])
def test_an_unreachable_or_wrong_database_is_one_line_exit_2_and_no_password(capsys, tmp_path, url_of) -> None:
    pytest.importorskip("uvicorn")
    pytest.importorskip("psycopg")
    line = one_error_line(*run(capsys, "serve", "--db", url_of(tmp_path)))
    assert "cannot open the database" in line
    assert "TopSecret99" not in line


def test_a_postgresql_url_without_the_driver_names_the_postgres_extra(capsys, monkeypatch) -> None:
    pytest.importorskip("uvicorn")
    monkeypatch.setitem(sys.modules, "psycopg", None)
    line = one_error_line(*run(capsys, "serve", "--db", "postgresql://ft:pw@127.0.0.1:1/x"))
    assert "pip install 'freetrader[postgres]'" in line and ":pw@" not in line


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _get(url: str) -> tuple[int, str]:
    try:
        with urllib.request.urlopen(url, timeout=60) as r:
            return r.status, r.read().decode()
    except urllib.error.HTTPError as exc:
        return exc.code, exc.read().decode()


def _start_serve(tmp_path: Path, **env_extra: str) -> tuple[subprocess.Popen[bytes], int, Path, Path]:
    """A real ``serve`` in a subprocess, once it answers (300 s at most); its stderr and stdout files."""
    port = _free_port()
    env = {**os.environ, "FREETRADER_PORT": str(port), "FREETRADER_DB": f"sqlite:///{tmp_path}/t.db",
           "FREETRADER_LOG_LEVEL": "info", **env_extra}
    err_path, out_path = tmp_path / "err.log", tmp_path / "out.log"
    with open(err_path, "w") as err, open(out_path, "w") as out:
        proc = subprocess.Popen([sys.executable, "-m", "freetrader", "serve", "--bot-delay", "0"], env=env,
                                stdout=out, stderr=err, cwd=tmp_path)
    deadline = time.monotonic() + 300
    while True:
        try:
            status, _ = _get(f"http://127.0.0.1:{port}/api/games")
            break
        except OSError:
            if proc.poll() is not None or time.monotonic() >= deadline:
                proc.kill()
                pytest.fail(f"server did not start in 300 s: {err_path.read_text()}")
            time.sleep(0.1)
    assert status == 200
    return proc, port, err_path, out_path


def test_the_running_server_logs_requests_without_tokens_and_serves_its_own_api_docs(tmp_path: Path) -> None:
    pytest.importorskip("uvicorn")
    pytest.importorskip("swagger_ui_bundle")
    proc, port, err_path, out_path = _start_serve(tmp_path)
    try:
        status, body = _get(f"http://127.0.0.1:{port}/api/tables/none/view?token=SeatSecret42")
        assert status == 404
        status, docs = _get(f"http://127.0.0.1:{port}/docs")
        assert status == 200 and "/docs/assets/swagger-ui-bundle.js" in docs
        assert "http://" not in docs and "https://" not in docs  # nothing from a CDN
        status, js = _get(f"http://127.0.0.1:{port}/docs/assets/swagger-ui-bundle.js")
        assert status == 200 and len(js) > 100_000
    finally:
        proc.terminate()
        proc.wait(timeout=120)
    log, access = err_path.read_text(), out_path.read_text()  # uvicorn: access log on stdout, the rest on stderr
    assert "SeatSecret42" not in log + access
    assert "/api/tables/none/view?token=***" in access and " 404" in access  # the access log, masked
    assert f"Freetrader table on http://127.0.0.1:{port}/" in log


def test_json_logs_are_one_object_a_line_with_tokens_masked(tmp_path: Path) -> None:
    pytest.importorskip("uvicorn")
    proc, port, err_path, out_path = _start_serve(tmp_path, FREETRADER_LOG_FORMAT="json")
    try:
        status, _ = _get(f"http://127.0.0.1:{port}/api/tables/none/view?token=SeatSecret42")
        assert status == 404
    finally:
        proc.terminate()
        proc.wait(timeout=120)
    lines = [line for line in (err_path.read_text() + out_path.read_text()).splitlines() if line.strip()]
    records = [json.loads(line) for line in lines]  # every line is one JSON object: a collector reads fields
    assert all({"time", "level", "logger", "message"} <= r.keys() for r in records)
    assert any(r["message"].startswith(f"Freetrader table on http://127.0.0.1:{port}/") for r in records)
    access = [r for r in records if r["logger"] == "uvicorn.access"]
    assert any("/api/tables/none/view?token=***" in r["message"] and "404" in r["message"] for r in access)
    assert "SeatSecret42" not in "\n".join(lines)


def test_the_redacting_filter_rewrites_record_arguments() -> None:
    from freetrader.cli.cmd_serve import _Redact

    rec = logging.LogRecord("uvicorn.access", logging.INFO, __file__, 1, '%s - "%s %s"', ("1.2.3.4", "GET",
                            "/ws/tables/a?token=abc"), None)
    assert _Redact("sqlite:///x").filter(rec) and rec.getMessage() == '1.2.3.4 - "GET /ws/tables/a?token=***"'


def test_a_port_in_use_is_one_line_and_exit_2(capsys, tmp_path) -> None:
    pytest.importorskip("uvicorn")
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        line = one_error_line(*run(capsys, "serve", "--port", str(port), "--db", f"sqlite:///{tmp_path}/t.db"))
    assert f"127.0.0.1:{port} is in use" in line and "--port" in line


@pytest.mark.parametrize(("host", "words"), [
    ("192.0.2.1", "is not an address of this machine"),  # TEST-NET-1: no machine has it
    ("no-such-host.invalid", "is not an address or a name this machine can resolve"),
])
def test_an_unusable_host_is_one_line_and_exit_2(capsys, tmp_path, host, words) -> None:
    pytest.importorskip("uvicorn")
    line = one_error_line(*run(capsys, "serve", "--host", host, "--port", str(_free_port()),
                               "--db", f"sqlite:///{tmp_path}/t.db"))
    assert words in line and "127.0.0.1" in line
