"""ft_tables.deadline_seq/deadline: the running turn timer's deadline, so it survives a restart."""

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # the position (log seq) the timer runs for, and when it fires (epoch seconds); empty: no timer.
    # A database made by create_all before migrations existed (stamped at 0001) may have them already.
    have = {c["name"] for c in sa.inspect(op.get_bind()).get_columns("ft_tables")}
    if "deadline_seq" not in have:
        op.add_column("ft_tables", sa.Column("deadline_seq", sa.Integer, nullable=True))
    if "deadline" not in have:
        op.add_column("ft_tables", sa.Column("deadline", sa.Float, nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("ft_tables") as batch:
        batch.drop_column("deadline")
        batch.drop_column("deadline_seq")
