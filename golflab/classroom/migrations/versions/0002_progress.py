"""Progress: finished games, lesson exercise attempts, puzzle attempts and ratings, reviews
of missed puzzles, and the teacher's assignments.

Revision ID: 0002
"""

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"


def upgrade() -> None:
    op.create_table(
        "games",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("user_id", sa.Integer, sa.ForeignKey("users.id"), nullable=False),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.Column("seed", sa.Text, nullable=False),
        sa.Column("players", sa.Text, nullable=False),
        sa.Column("rules", sa.Text, nullable=False),
        sa.Column("scores", sa.Text, nullable=False),
        sa.Column("holes", sa.Integer, nullable=False),
        sa.Column("points", sa.Integer, nullable=False),
        sa.Column("accuracy", sa.Float),
        sa.Column("blunders", sa.Integer),
        sa.Column("room", sa.String(16)),
        sa.Column("save", sa.Text, nullable=False),
        sa.Column("played_at", sa.Float, nullable=False),
    )
    op.create_index("ix_games_user_played", "games", ["user_id", "played_at"])
    op.create_table(
        "exercise_attempts",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("user_id", sa.Integer, sa.ForeignKey("users.id"), nullable=False),
        sa.Column("lesson", sa.String(64), nullable=False),
        sa.Column("item", sa.String(128), nullable=False),
        sa.Column("skill", sa.String(64)),
        sa.Column("correct", sa.Boolean, nullable=False),
        sa.Column("first_try", sa.Boolean, nullable=False),
        sa.Column("lesson_items", sa.Integer, nullable=False),
        sa.Column("at", sa.Float, nullable=False),
    )
    op.create_index("ix_exercise_user_lesson", "exercise_attempts", ["user_id", "lesson"])
    op.create_table(
        "ratings",
        sa.Column("subject", sa.String(160), primary_key=True),
        sa.Column("rating", sa.Float, nullable=False),
        sa.Column("rd", sa.Float, nullable=False),
        sa.Column("volatility", sa.Float, nullable=False),
        sa.Column("games", sa.Integer, nullable=False),
        sa.Column("updated_at", sa.Float, nullable=False),
    )
    op.create_table(
        "puzzle_attempts",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("user_id", sa.Integer, sa.ForeignKey("users.id"), nullable=False),
        sa.Column("puzzle", sa.String(128), nullable=False),
        sa.Column("skill", sa.String(64)),
        sa.Column("correct", sa.Boolean, nullable=False),
        sa.Column("rating_before", sa.Float, nullable=False),
        sa.Column("rating_after", sa.Float, nullable=False),
        sa.Column("at", sa.Float, nullable=False),
    )
    op.create_index("ix_puzzle_user_at", "puzzle_attempts", ["user_id", "at"])
    op.create_table(
        "reviews",
        sa.Column("user_id", sa.Integer, sa.ForeignKey("users.id"), primary_key=True),
        sa.Column("puzzle", sa.String(128), primary_key=True),
        sa.Column("stage", sa.Integer, nullable=False),
        sa.Column("due_at", sa.Float, nullable=False),
    )
    op.create_table(
        "assignments",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("class_id", sa.Integer, sa.ForeignKey("classes.id"), nullable=False),
        sa.Column("lesson", sa.String(64)),
        sa.Column("puzzles", sa.Integer, nullable=False),
        sa.Column("difficulty", sa.String(16)),
        sa.Column("due_at", sa.Float, nullable=False),
        sa.Column("created_by", sa.Integer, sa.ForeignKey("users.id"), nullable=False),
        sa.Column("created_at", sa.Float, nullable=False),
    )


def downgrade() -> None:
    for table in ("assignments", "reviews", "puzzle_attempts", "ratings", "exercise_attempts", "games"):
        op.drop_table(table)
