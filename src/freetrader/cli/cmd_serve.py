"""``freetrader serve``: the browser table on this machine (needs the ``web`` extra).

Every setting is a flag and also an environment variable (the flag wins), so a
service manager or a container can configure the table without a command line:

=====================  ========================  =========================================
flag                   variable                  default
=====================  ========================  =========================================
``--host``             ``FREETRADER_HOST``       ``127.0.0.1``
``--port``             ``FREETRADER_PORT``       ``8000``
``--db``               ``FREETRADER_DB``         ``sqlite:///freetrader-table.db``
``--bot-delay``        ``FREETRADER_BOT_DELAY``  ``0.5``
``--log-level``        ``FREETRADER_LOG_LEVEL``  ``info``
``--no-access-log``    ``FREETRADER_ACCESS_LOG`` ``on`` (``off`` turns it off)
``--log-format``       ``FREETRADER_LOG_FORMAT`` ``text`` (``json``: one JSON object a line)
``--data``             ``FREETRADER_DATA``       the shipped components
``--trusted-proxies``  ``FREETRADER_TRUSTED_PROXIES``  none: ``X-Forwarded-For`` is ignored
``--worker-cpu``       ``FREETRADER_WORKER_CPU`` ``idle`` (``nice``: on a machine busy with other work)
=====================  ========================  =========================================

Nothing secret is printed: a database password is shown as ``***``, and seat
tokens in request lines of the access log are replaced by ``***``.
"""

from __future__ import annotations

import argparse
import errno
import json
import logging
import os
import re
import socket
import sys
import time
from typing import Any

from freetrader.cli.commands import register_command

__all__ = ["DEFAULT_DB", "SETTINGS", "mask_url", "redact", "settings_from"]

DEFAULT_DB = "sqlite:///freetrader-table.db"
LOG_LEVELS = ("critical", "error", "warning", "info", "debug")
LOG_FORMATS = ("text", "json")
#: how the bot, review and hint workers yield the CPU (``workers.prefer_idle_workers``)
WORKER_CPU = ("idle", "nice")

#: (flag destination, environment variable, default) of every serve setting
SETTINGS: tuple[tuple[str, str, Any], ...] = (
    ("host", "FREETRADER_HOST", "127.0.0.1"),
    ("port", "FREETRADER_PORT", 8000),
    ("db", "FREETRADER_DB", DEFAULT_DB),
    ("bot_delay", "FREETRADER_BOT_DELAY", 0.5),
    ("log_level", "FREETRADER_LOG_LEVEL", "info"),
    ("access_log", "FREETRADER_ACCESS_LOG", True),
    ("log_format", "FREETRADER_LOG_FORMAT", "text"),
    ("trusted_proxies", "FREETRADER_TRUSTED_PROXIES", ""),
    ("worker_cpu", "FREETRADER_WORKER_CPU", "idle"),
)

_PASSWORD = re.compile(r"(?P<head>://[^/@:]*:)(?P<secret>[^@/]*)@")
# libpq also takes the password as a query parameter: postgresql://host/db?user=ft&password=...
_QUERY_PASSWORD = re.compile(r"(?P<head>[?&](?:password|passwd|pwd)=)(?P<secret>[^&#\s\"']*)", re.IGNORECASE)
_TOKEN = re.compile(r"(?P<head>\btoken=)[^&\s\"']+")


class SettingError(ValueError):
    """A setting (flag or environment variable) with a value it cannot take."""


def mask_url(url: str) -> str:
    """``url`` with its password, if any, shown as ``***``."""
    return _QUERY_PASSWORD.sub(lambda m: f"{m['head']}***", _PASSWORD.sub(lambda m: f"{m['head']}***@", url))


def redact(text: str, url: str | None = None) -> str:
    """``text`` with seat tokens and the database password (as given in ``url``) replaced by ``***``."""
    text = _TOKEN.sub(lambda m: f"{m['head']}***", mask_url(text))
    for m in [*_PASSWORD.finditer(url or ""), *_QUERY_PASSWORD.finditer(url or "")]:
        if m["secret"]:  # wherever a message repeats it (a driver's error may quote it alone)
            text = text.replace(m["secret"], "***")
    return text


class JsonLines(logging.Formatter):
    """A record as one JSON object on one line: a log collector reads fields, not a layout.

    The message is rendered (and redacted by ``_Redact`` on its logger) before it is formatted here; an
    exception becomes one ``error`` string, so a record never spans lines.
    """

    def format(self, record: logging.LogRecord) -> str:
        entry: dict[str, Any] = {
            "time": self.formatTime(record, "%Y-%m-%dT%H:%M:%S") + f".{int(record.msecs):03d}Z",
            "level": record.levelname.lower(), "logger": record.name, "message": record.getMessage()}
        if record.exc_info and record.exc_info[1] is not None:
            entry["error"] = f"{type(record.exc_info[1]).__name__}: {record.exc_info[1]}"
        return json.dumps(entry, ensure_ascii=False)


JsonLines.converter = time.gmtime  # the "Z" above: times in UTC


def _log_as_json_lines(names: tuple[str, ...]) -> None:
    """Send every record of ``names`` to one handler writing ``JsonLines`` to standard error."""
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(JsonLines())
    for name in names:
        logger = logging.getLogger(name)
        if name == "uvicorn.error":
            continue  # it propagates to "uvicorn": one handler, one line a record
        logger.handlers = [handler]
        logger.propagate = False


class _Redact(logging.Filter):
    """Rewrites uvicorn's log records (request lines carry ``?token=``) before any handler sees them."""

    def __init__(self, url: str) -> None:
        super().__init__()
        self.url = url

    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.args, tuple):
            record.args = tuple(redact(a, self.url) if isinstance(a, str) else a for a in record.args)
        if isinstance(record.msg, str):
            record.msg = redact(record.msg, self.url)
        return True


def _convert(name: str, value: Any, default: Any, where: str) -> Any:
    if isinstance(default, bool):
        if isinstance(value, bool):
            return value
        text = str(value).strip().lower()
        if text in ("1", "on", "true", "yes"):
            return True
        if text in ("0", "off", "false", "no"):
            return False
        raise SettingError(f"{where} must be on or off, got {value!r}")
    if isinstance(default, int):
        try:
            number = int(value)
        except (TypeError, ValueError):
            raise SettingError(f"{where} must be a whole number, got {value!r}") from None
        if name == "port" and not 0 < number < 65536:
            raise SettingError(f"{where} must be 1..65535, got {number}")
        return number
    if isinstance(default, float):
        try:
            seconds = float(value)
        except (TypeError, ValueError):
            raise SettingError(f"{where} must be a number of seconds, got {value!r}") from None
        if not seconds >= 0 or seconds == float("inf"):
            raise SettingError(f"{where} must be 0 or more seconds, got {value!r}")
        return seconds
    text = str(value).strip()
    words = {"log_level": LOG_LEVELS, "log_format": LOG_FORMATS, "worker_cpu": WORKER_CPU}.get(name)
    if words is not None and text.lower() not in words:
        raise SettingError(f"{where} must be one of {', '.join(words)}, got {value!r}")
    if not text:
        raise SettingError(f"{where} must not be empty")
    return text.lower() if words is not None else text


def settings_from(args: argparse.Namespace, environ: dict[str, str] | os._Environ[str]) -> dict[str, Any]:
    """Every serve setting: the flag if given, else the environment variable, else the default."""
    out: dict[str, Any] = {}
    for name, var, default in SETTINGS:
        flag = getattr(args, name, None)
        if flag is not None:
            out[name] = _convert(name, flag, default, "--" + name.replace("_", "-"))
        elif environ.get(var, "") != "":
            out[name] = _convert(name, environ[var], default, var)
        else:
            out[name] = default
    return out


def _configure(p: argparse.ArgumentParser) -> None:
    p.add_argument("--host", help="address to listen on [$FREETRADER_HOST] (default 127.0.0.1: this machine only)")
    p.add_argument("--port", help="port [$FREETRADER_PORT] (default 8000)")
    p.add_argument("--db",
                   help=f"database URL [$FREETRADER_DB]: a SQLite file (default {DEFAULT_DB}, in the current "
                        "directory) or postgresql://user:password@host/dbname (needs the postgres extra)")
    p.add_argument("--bot-delay", metavar="SECONDS",
                   help="pause before each bot move, so people can follow [$FREETRADER_BOT_DELAY] (default 0.5)")
    p.add_argument("--log-level", choices=LOG_LEVELS, help="server log level [$FREETRADER_LOG_LEVEL] (default info)")
    p.add_argument("--log-format", choices=LOG_FORMATS,
                   help="text, or json: one JSON object a line (time, level, logger, message) for a log "
                        "collector [$FREETRADER_LOG_FORMAT] (default text)")
    p.add_argument("--no-access-log", dest="access_log", action="store_const", const=False,
                   help="no line per request [$FREETRADER_ACCESS_LOG=off] (default: on, seat tokens masked)")
    p.add_argument("--trusted-proxies", metavar="ADDRESSES",
                   help="reverse proxies whose X-Forwarded-For is believed, as addresses or networks, "
                        "comma-separated [$FREETRADER_TRUSTED_PROXIES] (default: none, the header is ignored)")
    p.add_argument("--worker-cpu", choices=WORKER_CPU,
                   help="how the bot, review and hint workers yield the CPU [$FREETRADER_WORKER_CPU]: idle "
                        "(default) gives them only what every other process leaves, so the table answers at "
                        "once; nice lowers them by 5, for a machine busy with other work, where idle "
                        "workers could wait without end")
    _configure_capacity(p)


#: the lobby and connection limits of issue 35: (flag, ``Limits`` field, what it bounds)
_GUARDS = (
    ("--max-open-tables-per-address", "open_tables_per_address", "tables in the lobby created from one address"),
    ("--lobby-idle-timeout", "lobby_idle_seconds",
     "a table no human seat used for this long leaves the lobby's list; its seat links still work"),
    ("--max-connections", "connections", "open connections in all; lowered to what the descriptor limit allows"),
    ("--max-connections-per-address", "connections_per_address", "open connections from one address"),
    ("--header-timeout", "header_seconds", "a request's line and headers must arrive within this; else 408"),
    ("--body-timeout", "body_seconds", "a request's body must arrive within this; else 408"),
    ("--ws-idle-timeout", "ws_idle_seconds", "a websocket that sends nothing for this long is closed"),
)


def _configure_capacity(p: argparse.ArgumentParser) -> None:
    """Worker processes and the per-client limits (issue 20); defaults in ``server.limits.Limits``."""
    try:
        from freetrader.server.limits import Limits
    except ImportError:  # without the web extra: serve says what is missing when run
        return
    d = Limits()
    g = p.add_argument_group("capacity and limits (a client over a limit gets 429 and one line saying which)")
    g.add_argument("--bot-workers", type=int, default=None, metavar="N",
                   help="processes that decide for bots (default: one fewer than the cores, at least 1)")
    g.add_argument("--heavy-workers", type=int, default=1, metavar="N",
                   help="processes that replay records for /api/replay (default 1)")
    g.add_argument("--bot-deadline", type=float, default=10.0, metavar="SECONDS",
                   help="longest a bot may think about one move; then it is retried (default 10)")
    g.add_argument("--max-tables-per-minute", type=int, default=d.tables_per_minute, metavar="N",
                   help=f"tables one address may create per minute (default {d.tables_per_minute})")
    g.add_argument("--max-open-tables", type=int, default=d.open_tables, metavar="N",
                   help=f"tables in the lobby, in all (default {d.open_tables})")
    g.add_argument("--max-sockets-per-table", type=int, default=d.sockets_per_table, metavar="N",
                   help=f"connections to one table (default {d.sockets_per_table})")
    g.add_argument("--max-sockets-per-address", type=int, default=d.sockets_per_address, metavar="N",
                   help=f"connections from one address (default {d.sockets_per_address})")
    g.add_argument("--max-replays", type=int, default=d.heavy_requests, metavar="N",
                   help=f"replays running or waiting at once (default {d.heavy_requests})")
    g.add_argument("--max-whole-views-per-second", type=float, default=d.whole_views_per_second, metavar="N",
                   help="whole state messages (a connection's first, or one asked for) one address gets a "
                        f"second; more wait their turn (default {d.whole_views_per_second:g})")
    g.add_argument("--max-messages-per-second", type=float, default=d.messages_per_second, metavar="N",
                   help="messages one connection may send a second, twice that at once; more are refused "
                        f"(default {d.messages_per_second:g})")
    for flag, field, text in _GUARDS:
        default = getattr(d, field)
        g.add_argument(flag, type=type(default), default=default, dest=field,
                       metavar="SECONDS" if isinstance(default, float) else "N", help=f"{text} (default {default:g})")
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
    for flag, rate in (("--max-whole-views-per-second", args.max_whole_views_per_second),
                       ("--max-messages-per-second", args.max_messages_per_second)):
        if not 0 < rate <= 1e6:
            return {}, f"{flag} must be more than 0 and at most 1000000, got {rate:g}"
    guards = {field: getattr(args, field) for _flag, field, _text in _GUARDS}
    for flag, field, _text in _GUARDS:
        value = guards[field]
        if isinstance(value, int) and value < 1:
            return {}, f"{flag} must be at least 1, got {value}"
        if isinstance(value, float) and not 0 < value <= 86400:
            return {}, f"{flag} must be more than 0 and at most 86400 seconds, got {value:g}"
    if not 0 < args.bot_deadline <= 3600:
        return {}, f"--bot-deadline must be more than 0 and at most 3600 seconds, got {args.bot_deadline:g}"
    limits = Limits(tables_per_minute=args.max_tables_per_minute, open_tables=args.max_open_tables,
                    sockets_per_table=args.max_sockets_per_table,
                    sockets_per_address=args.max_sockets_per_address, heavy_requests=args.max_replays,
                    whole_views_per_second=args.max_whole_views_per_second,
                    messages_per_second=args.max_messages_per_second, **guards)
    return {"bot_workers": args.bot_workers, "heavy_workers": args.heavy_workers,
            "bot_deadline": args.bot_deadline, "limits": limits}, None


def _connections(capacity: dict[str, Any], proxies: str) -> tuple[dict[str, Any], str | None]:
    """``uvicorn.Config`` options of the connection guard (server/guard.py), or a one-line error.

    A descriptor limit too low for ``--max-connections`` lowers the cap and prints one warning line.
    """
    from freetrader.server.guard import descriptor_room, parse_proxies, uvicorn_options
    from freetrader.server.limits import Limits

    try:
        trusted = parse_proxies(proxies)
    except ValueError as exc:
        return {}, f"--trusted-proxies: {exc}"
    limits = capacity.get("limits") or Limits()
    limits.connections, warning = descriptor_room(limits)
    if warning:
        print(f"freetrader: warning: {warning}", file=sys.stderr, flush=True)
    return uvicorn_options(limits, trusted), None


def _error(message: str) -> int:
    print(f"freetrader: error: {' '.join(message.split())}", file=sys.stderr, flush=True)
    return 2


def _newer_schema(exc: BaseException) -> bool:
    try:
        from freetrader.server.migrations import NewerSchema
    except ImportError:  # no web extra: no schema either
        return False
    return isinstance(exc, NewerSchema)


def _database_problem(exc: BaseException, url: str) -> str:
    """One line for a database that cannot be opened: what failed and what would fix it."""
    what = str(getattr(exc, "orig", None) or exc).strip().splitlines()
    first = what[0] if what else type(exc).__name__
    if isinstance(exc, ModuleNotFoundError) and exc.name and exc.name.startswith("psycopg"):
        return f"{mask_url(url)} needs the PostgreSQL driver: pip install 'freetrader[postgres]'"
    hint = ("check the URL, that the server runs and accepts this user "
            "(postgresql://user:password@host:5432/dbname, or a SQLite file path)")
    if _newer_schema(exc):  # its message says what to do (docs/deployment.md, "Upgrading and downgrading")
        return redact(f"cannot open the database {mask_url(url)}: {first}", url)
    return f"{redact(f'cannot open the database {mask_url(url)}: {first}', url)}; {hint}"


def open_database(url: str) -> str | None:
    """Open ``url`` and bring its schema up to date; the problem as one line, or None."""
    from sqlalchemy.exc import SQLAlchemyError

    from freetrader.server.storage import Store

    store = None
    try:
        store = Store(url)
        store.create_schema()
    except (SQLAlchemyError, ModuleNotFoundError, OSError, ValueError) as exc:
        return _database_problem(exc, url)
    finally:
        if store is not None:
            store.close()
    return None


def listen_problem(host: str, port: int) -> str | None:
    """Why the server could not listen on ``host``:``port`` (one line), or None.

    Tried with a socket bound and closed at once, as uvicorn binds it (SO_REUSEADDR), so a port in use
    or an address this machine does not have is one line and exit 2, not uvicorn's lines and exit 3.
    """
    where = f"[{host}]:{port}" if ":" in host else f"{host}:{port}"
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except (socket.gaierror, UnicodeError) as exc:
        return f"--host {host!r} is not an address or a name this machine can resolve ({exc}); " \
               "use an address of this machine, 127.0.0.1 (this machine only) or 0.0.0.0 (every interface)"
    family, kind, proto, _, address = infos[0]
    try:
        with socket.socket(family, kind, proto) as sock:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            sock.bind(address)
    except OSError as exc:
        if exc.errno == errno.EADDRINUSE:
            return f"{where} is in use (another server?): stop it, or choose another --port [$FREETRADER_PORT]"
        if exc.errno == errno.EADDRNOTAVAIL:
            return f"--host {host} is not an address of this machine; use one of its addresses, " \
                   "127.0.0.1 (this machine only) or 0.0.0.0 (every interface)"
        if exc.errno == errno.EACCES:
            return f"{where}: permission denied (ports below 1024 need privileges); choose a --port of 1024 or more"
        return f"cannot listen on {where}: {exc.strerror or exc}"
    return None


def _run(args: argparse.Namespace, console: Any) -> int:
    try:
        import uvicorn

        from freetrader.server.app import MAX_MESSAGE, create_app
        from freetrader.server.context import settle_server_process
        from freetrader.server.storage import InUse, claim_sqlite
    except ImportError as exc:
        # plain print, not rich: rich reads [web] as markup and would print pip install 'freetrader'
        return _error(f"freetrader serve needs the web extra ({exc.name} is missing): pip install 'freetrader[web]'")
    try:
        s = settings_from(args, os.environ)
    except SettingError as exc:
        return _error(str(exc))
    capacity, problem = _capacity(args)
    if problem:
        return _error(problem)
    problem = listen_problem(s["host"], s["port"])
    if problem:
        return _error(problem)
    problem = open_database(s["db"])  # first: a database that cannot be opened is the one line to show
    if problem is not None:
        return _error(problem)
    try:
        claim_sqlite(s["db"])  # held until this process ends
    except InUse as exc:
        return _error(str(exc))
    connections, problem = _connections(capacity, s["trusted_proxies"])
    if problem:
        return _error(problem)
    app = create_app(s["db"], bot_delay=s["bot_delay"], **capacity)
    config = uvicorn.Config(app, host=s["host"], port=s["port"], ws_max_size=max(MAX_MESSAGE * 4, 65536),
                            log_level=s["log_level"], access_log=s["access_log"],
                            ws_per_message_deflate=bool(getattr(args, "ws_compression", False)), **connections)
    redacting = _Redact(s["db"])
    loggers = ("uvicorn", "uvicorn.error", "uvicorn.access", "freetrader.server")
    for name in loggers:
        logging.getLogger(name).addFilter(redacting)
    if s["log_format"] == "json":
        _log_as_json_lines(loggers)
    logging.getLogger("freetrader.server").setLevel(s["log_level"].upper())
    host = f"[{s['host']}]" if ":" in s["host"] else s["host"]
    banner = (f"Freetrader table on http://{host}:{s['port']}/  (database: {mask_url(s['db'])}; "
              f"log level {s['log_level']}; access log {'on' if s['access_log'] else 'off'}; Ctrl-C stops)")
    if s["log_format"] == "json":
        logging.getLogger("freetrader.server").info(banner)
    else:
        print(banner, file=sys.stderr, flush=True)
    settle_server_process(idle_workers=s["worker_cpu"] == "idle")
    uvicorn.Server(config).run()
    return 0


register_command("serve", "play in the browser: the table server (lobby, seats, bots)", _configure, _run)
