"""Class tables (issue 41, point 4): a room the whole class plays from one team seat (or two halves
from two), each learner voting for the move; its voters, their votes and each closed vote.

Revision ID: 0008
"""

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"


def upgrade() -> None:
    with op.batch_alter_table("rooms") as batch:
        batch.add_column(sa.Column("vote_seconds", sa.Integer))
    op.create_table(
        "room_voters",
        sa.Column("room", sa.String(8), sa.ForeignKey("rooms.code"), primary_key=True),
        sa.Column("user_id", sa.Integer, sa.ForeignKey("users.id"), primary_key=True),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.Column("joined_at", sa.Float, nullable=False),
    )
    op.create_table(
        "room_votes",
        sa.Column("room", sa.String(8), sa.ForeignKey("rooms.code"), primary_key=True),
        sa.Column("turn", sa.Integer, primary_key=True),
        sa.Column("user_id", sa.Integer, sa.ForeignKey("users.id"), primary_key=True),
        sa.Column("action", sa.String(32), nullable=False),
        sa.Column("at", sa.Float, nullable=False),
    )
    op.create_table(
        "room_vote_results",
        sa.Column("room", sa.String(8), sa.ForeignKey("rooms.code"), primary_key=True),
        sa.Column("turn", sa.Integer, primary_key=True),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.Column("action", sa.String(32), nullable=False),
        sa.Column("decided_by", sa.String(8), nullable=False),
        sa.Column("votes", sa.Text, nullable=False),
        sa.Column("coach_values", sa.Text, nullable=False),
        sa.Column("at", sa.Float, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("room_vote_results")
    op.drop_table("room_votes")
    op.drop_table("room_voters")
    with op.batch_alter_table("rooms") as batch:
        batch.drop_column("vote_seconds")
