"""``freetrader serve``: the browser table on this machine (needs the ``web`` extra)."""

from __future__ import annotations

import argparse
from typing import Any

from freetrader.cli.commands import register_command

DEFAULT_DB = "sqlite:///freetrader-table.db"


def _configure(p: argparse.ArgumentParser) -> None:
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1: this machine only)")
    p.add_argument("--port", type=int, default=8000, help="port (default 8000)")
    p.add_argument("--db", default=DEFAULT_DB,
                   help=f"database URL: a SQLite file (default {DEFAULT_DB}, in the current directory) "
                        "or postgresql://user:password@host/dbname")
    p.add_argument("--bot-delay", type=float, default=0.5, metavar="SECONDS",
                   help="pause before each bot move, so people can follow (default 0.5)")


def _run(args: argparse.Namespace, console: Any) -> int:
    try:
        import uvicorn

        from freetrader.server.app import MAX_MESSAGE, create_app
    except ImportError as exc:
        console.print(f"freetrader serve needs the web extra ({exc.name} is missing): pip install 'freetrader[web]'")
        return 2
    if not 0 < args.port < 65536:
        console.print(f"--port must be 1..65535, got {args.port}")
        return 2
    app = create_app(args.db, bot_delay=max(0.0, args.bot_delay))
    console.print(f"Freetrader table on http://{args.host}:{args.port}/  (database: {args.db}; Ctrl-C stops)")
    uvicorn.run(app, host=args.host, port=args.port, ws_max_size=max(MAX_MESSAGE * 4, 65536), log_level="warning")
    return 0


register_command("serve", "play in the browser: the table server (lobby, seats, bots)", _configure, _run)
