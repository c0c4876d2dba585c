"""The deployment guide's samples: the nginx config logs no seat token, and the guide agrees with the README."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
GUIDE = (ROOT / "docs" / "deployment.md").read_text(encoding="utf-8")


def _nginx_blocks() -> list[str]:
    return re.findall(r"```nginx\n(.*?)```", GUIDE, flags=re.S)


def test_the_nginx_sample_logs_requests_without_their_query_string() -> None:
    config = "\n".join(_nginx_blocks())
    formats = dict(re.findall(r"log_format\s+(\w+)\s+((?:'[^']*'\s*)+);", config))
    logs = re.findall(r"^\s*access_log\s+(\S+)(?:\s+(\w+))?\s*;", config, flags=re.M)
    assert logs, "the sample sets no access_log: nginx's default format logs $request, tokens and all"
    for path, fmt in logs:
        assert path == "off" or fmt in formats, f"access_log {path} uses {fmt or 'combined'}, which logs ?token="
    for name, text in formats.items():
        # $request and $request_uri carry the query string, where websocket and view requests put the token
        assert not re.search(r"\$(request|request_uri|args|query_string|arg_token)\b", text), (name, text)
        assert "$uri" in text


def test_the_guide_and_the_readme_agree_on_several_processes() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "can share one PostgreSQL database" in readme
    section = GUIDE[GUIDE.index("## 4. Several processes"):GUIDE.index("## Checklist")]
    assert "share one **PostgreSQL** database" in section and "belongs to **one**" not in GUIDE
    assert "upstream" in section  # how to put them behind the proxy
