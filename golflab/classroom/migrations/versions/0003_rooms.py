"""Rooms: golf and Codepiece tables that learners join with a code, each an append-only log.

Revision ID: 0003
"""

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"


def upgrade() -> None:
    op.create_table(
        "rooms",
        sa.Column("code", sa.String(8), primary_key=True),
        sa.Column("game", sa.String(16), nullable=False),
        sa.Column("host_id", sa.Integer, sa.ForeignKey("users.id"), nullable=False),
        sa.Column("class_id", sa.Integer, sa.ForeignKey("classes.id")),
        sa.Column("rules", sa.Text, nullable=False),
        sa.Column("seats", sa.Integer, nullable=False),
        sa.Column("seed", sa.Text, nullable=False),
        sa.Column("state", sa.String(16), nullable=False),
        sa.Column("rated", sa.Boolean, nullable=False),
        sa.Column("created_at", sa.Float, nullable=False),
        sa.Column("last_activity", sa.Float, nullable=False),
    )
    op.create_table(
        "room_seats",
        sa.Column("room", sa.String(8), sa.ForeignKey("rooms.code"), primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column("user_id", sa.Integer, sa.ForeignKey("users.id")),
        sa.Column("cpu", sa.String(32)),
        sa.Column("tab", sa.String(64)),
        sa.Column("seen_at", sa.Float),
        sa.UniqueConstraint("room", "user_id", name="uq_room_seats_user"),
    )
    op.create_table(
        "room_log",
        sa.Column("room", sa.String(8), sa.ForeignKey("rooms.code"), primary_key=True),
        sa.Column("seq", sa.Integer, primary_key=True),
        sa.Column("seat", sa.Integer),
        sa.Column("action", sa.String(32), nullable=False),
        sa.Column("by_cpu", sa.Boolean, nullable=False),
        sa.Column("at", sa.Float, nullable=False),
    )


def downgrade() -> None:
    for table in ("room_log", "room_seats", "rooms"):
        op.drop_table(table)
