"""Wrong room codes are throttled per learner (issue 37, a lower item): the same count and wait as
wrong passwords (``throttle``), kept per user and counted in the transaction that checks the wait.

Revision ID: 0006
"""

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"


def upgrade() -> None:
    op.create_table(
        "room_code_failures",
        sa.Column("user_id", sa.Integer, sa.ForeignKey("users.id"), primary_key=True),
        sa.Column("failures", sa.Integer, nullable=False),
        sa.Column("locked_until", sa.Float, nullable=False),
        sa.Column("failed_at", sa.Float, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("room_code_failures")
