"""ft_reviews: the stored review of a finished game (one row per table, written once)."""

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # a database made by create_all before migrations existed may hold it already (stamped at 0001)
    if sa.inspect(op.get_bind()).has_table("ft_reviews"):
        return
    op.create_table(
        "ft_reviews",
        sa.Column("table_id", sa.String(32), primary_key=True),
        sa.Column("data", sa.Text, nullable=False),
        sa.Column("at", sa.Float, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("ft_reviews")
