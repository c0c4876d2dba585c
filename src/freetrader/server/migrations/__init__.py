"""Schema migrations of the table's database (Alembic), run by the server at start-up.

``upgrade(engine)`` brings any database to the newest schema: an empty one is
created, one made before migrations existed (by ``create_all``: it has
``ft_tables`` but no version table) is stamped at the baseline ``0001`` and
upgraded from there. The version is kept in ``ft_schema_version``, not
Alembic's default table name, so the database can be shared with other
applications. On PostgreSQL an advisory lock makes several processes starting
at once migrate one after another.

A new migration is a file in ``versions/`` (copy ``0001_baseline.py``): give it
``revision`` and ``down_revision``, write ``upgrade()``, and change
``storage.metadata`` to match; ``tests/server/test_migrations.py`` checks that
the migrated schema equals the metadata.
"""

from __future__ import annotations

import logging
from pathlib import Path

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import Connection, Engine, inspect, text

__all__ = ["VERSION_TABLE", "BASELINE", "NewerSchema", "upgrade", "current", "head"]

VERSION_TABLE = "ft_schema_version"
BASELINE = "0001"
_LOCK = 0x46545343  # "FTSC": the advisory lock key migrations hold on PostgreSQL
log = logging.getLogger("freetrader.server")


class NewerSchema(ValueError):
    """The database was migrated by a newer release: this one cannot read it, nor migrate it down."""


def _config(conn: Connection) -> Config:
    cfg = Config()
    cfg.set_main_option("script_location", str(Path(__file__).parent))
    cfg.attributes["connection"] = conn
    return cfg


def head() -> str:
    """The newest revision this release knows."""
    cfg = Config()
    cfg.set_main_option("script_location", str(Path(__file__).parent))
    rev = ScriptDirectory.from_config(cfg).get_current_head()
    assert rev is not None
    return rev


def _revisions(cfg: Config) -> set[str]:
    return {rev.revision for rev in ScriptDirectory.from_config(cfg).walk_revisions()}


def current(engine: Engine) -> str | None:
    """The database's revision (None: never migrated)."""
    with engine.connect() as conn:
        return MigrationContext.configure(conn, opts={"version_table": VERSION_TABLE}).get_current_revision()


def upgrade(engine: Engine) -> None:
    """Bring the database at ``engine`` to the newest schema (idempotent)."""
    with engine.begin() as conn:
        if conn.dialect.name == "postgresql":
            conn.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": _LOCK})
        cfg = _config(conn)
        insp = inspect(conn)
        if not insp.has_table(VERSION_TABLE) and insp.has_table("ft_tables"):
            command.stamp(cfg, BASELINE)  # made by create_all before migrations: that schema is the baseline
        before = MigrationContext.configure(conn, opts={"version_table": VERSION_TABLE}).get_current_revision()
        if before is not None and before not in _revisions(cfg):
            raise NewerSchema(
                f"its schema is at revision {before}, newer than this release knows (up to {head()}): serve it "
                "with the release that migrated it, or restore the backup taken before that upgrade")
        command.upgrade(cfg, "head")
        after = MigrationContext.configure(conn, opts={"version_table": VERSION_TABLE}).get_current_revision()
    # an operator upgrading in place wants to see that the schema moved (and from where), once
    if before is None:
        log.info("database schema created at revision %s", after)
    elif before != after:
        log.info("database schema migrated from revision %s to %s", before, after)
