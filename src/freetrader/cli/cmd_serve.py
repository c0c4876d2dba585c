"""``freetrader serve``: the browser table on this machine (needs the ``web`` extra)."""

from __future__ import annotations

import argparse
import sys
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
    _configure_capacity(p)


def _configure_capacity(p: argparse.ArgumentParser) -> None:
    """Worker processes and the per-client limits (issue 20); defaults in ``server.limits.Limits``."""
    try:
        from freetrader.server.limits import Limits
    except ImportError:  # without the web extra: serve says what is missing when run
        return
    d = Limits()
    g = p.add_argument_group("capacity and limits (a client over a limit gets 429 and one line saying which)")
    g.add_argument("--bot-workers", type=int, default=None, metavar="N",
                   help="processes that decide for bots (default: the number of cores)")
    g.add_argument("--heavy-workers", type=int, default=1, metavar="N",
                   help="processes that replay records for /api/replay (default 1)")
    g.add_argument("--bot-deadline", type=float, default=10.0, metavar="SECONDS",
                   help="longest a bot may think about one move; then it is retried (default 10)")
    g.add_argument("--max-tables-per-minute", type=int, default=d.tables_per_minute, metavar="N",
                   help=f"tables one address may create per minute (default {d.tables_per_minute})")
    g.add_argument("--max-open-tables", type=int, default=d.open_tables, metavar="N",
                   help=f"tables still playing, in all (default {d.open_tables})")
    g.add_argument("--max-sockets-per-table", type=int, default=d.sockets_per_table, metavar="N",
                   help=f"connections to one table (default {d.sockets_per_table})")
    g.add_argument("--max-sockets-per-address", type=int, default=d.sockets_per_address, metavar="N",
                   help=f"connections from one address (default {d.sockets_per_address})")
    g.add_argument("--max-replays", type=int, default=d.heavy_requests, metavar="N",
                   help=f"replays running or waiting at once (default {d.heavy_requests})")
    g.add_argument("--ws-compression", action="store_true",
                   help="compress websocket messages (off by default: messages are small deltas, and "
                        "compressing costs the server more than it saves)")


def _capacity(args: argparse.Namespace) -> tuple[dict[str, Any], str | None]:
    """``create_app`` keyword arguments from the capacity options, or a one-line error."""
    from freetrader.server.limits import Limits

    if not hasattr(args, "bot_workers"):
        return {}, None
    counts = {"--bot-workers": args.bot_workers or 1, "--heavy-workers": args.heavy_workers,
              "--max-tables-per-minute": args.max_tables_per_minute, "--max-open-tables": args.max_open_tables,
              "--max-sockets-per-table": args.max_sockets_per_table,
              "--max-sockets-per-address": args.max_sockets_per_address, "--max-replays": args.max_replays}
    for flag, value in counts.items():
        if value < 1:
            return {}, f"{flag} must be at least 1, got {value}"
    if not 0 < args.bot_deadline <= 3600:
        return {}, f"--bot-deadline must be more than 0 and at most 3600 seconds, got {args.bot_deadline:g}"
    limits = Limits(tables_per_minute=args.max_tables_per_minute, open_tables=args.max_open_tables,
                    sockets_per_table=args.max_sockets_per_table,
                    sockets_per_address=args.max_sockets_per_address, heavy_requests=args.max_replays)
    return {"bot_workers": args.bot_workers, "heavy_workers": args.heavy_workers,
            "bot_deadline": args.bot_deadline, "limits": limits}, None


def _fail(message: str) -> int:
    print(f"freetrader: error: {message}", file=sys.stderr, flush=True)  # one line, however wide
    return 2


def _run(args: argparse.Namespace, console: Any) -> int:
    try:
        import uvicorn

        from freetrader.server.app import MAX_MESSAGE, create_app
        from freetrader.server.storage import InUse, claim_sqlite
    except ImportError as exc:
        console.print(f"freetrader serve needs the web extra ({exc.name} is missing): pip install 'freetrader[web]'")
        return 2
    if not 0 < args.port < 65536:
        console.print(f"--port must be 1..65535, got {args.port}")
        return 2
    capacity, problem = _capacity(args)
    if problem:
        return _fail(problem)
    try:
        claim_sqlite(args.db)  # held until this process ends
    except InUse as exc:
        return _fail(str(exc))
    app = create_app(args.db, bot_delay=max(0.0, args.bot_delay), **capacity)
    console.print(f"Freetrader table on http://{args.host}:{args.port}/  (database: {args.db}; Ctrl-C stops)")
    uvicorn.run(app, host=args.host, port=args.port, ws_max_size=max(MAX_MESSAGE * 4, 65536), log_level="warning",
                ws_per_message_deflate=bool(args.ws_compression))
    return 0


register_command("serve", "play in the browser: the table server (lobby, seats, bots)", _configure, _run)
