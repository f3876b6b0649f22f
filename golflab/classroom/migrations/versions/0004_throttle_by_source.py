"""Sign-in throttling by name and source together, and trusted devices (issue 37, Medium 6).

A name's failed sign-ins are counted per source (a trusted device, else the client's address),
so one source's wrong guesses never lock the name out from another; a browser that signed in
once as a user is a trusted device of that user. The old per-name counts are dropped (they
hold only waits of at most 15 minutes).

Revision ID: 0004
"""

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"


def upgrade() -> None:
    op.drop_table("signin_failures")
    op.create_table(
        "signin_failures",
        sa.Column("name_key", sa.String(64), primary_key=True),
        sa.Column("source", sa.String(80), primary_key=True),
        sa.Column("failures", sa.Integer, nullable=False),
        sa.Column("locked_until", sa.Float, nullable=False),
        sa.Column("failed_at", sa.Float, nullable=False),
    )
    op.create_table(
        "devices",
        sa.Column("token_hash", sa.String(64), primary_key=True),
        sa.Column("user_id", sa.Integer, sa.ForeignKey("users.id"), primary_key=True),
        sa.Column("created_at", sa.Float, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("devices")
    op.drop_table("signin_failures")
    op.create_table(
        "signin_failures",
        sa.Column("name_key", sa.String(64), primary_key=True),
        sa.Column("failures", sa.Integer, nullable=False),
        sa.Column("locked_until", sa.Float, nullable=False),
    )
