"""Alembic's entry point: migrations run on the connection ``upgrade()`` passes in (no alembic.ini)."""

from alembic import context

from freetrader.server.migrations import VERSION_TABLE
from freetrader.server.storage import metadata

connection = context.config.attributes["connection"]
context.configure(connection=connection, target_metadata=metadata, version_table=VERSION_TABLE,
                  render_as_batch=connection.dialect.name == "sqlite")  # SQLite alters tables by copying them
with context.begin_transaction():
    context.run_migrations()
