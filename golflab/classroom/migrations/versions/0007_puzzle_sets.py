"""Teachers' puzzle sets (issue 41, point 3): a class's named sets of positions, each item with the
move its teacher wants, the learners' answers, and an assignment that sets one.

Revision ID: 0007
"""

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"


def upgrade() -> None:
    op.create_table(
        "puzzle_sets",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("class_id", sa.Integer, sa.ForeignKey("classes.id"), nullable=False),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("name_key", sa.String(64), nullable=False),
        sa.Column("created_by", sa.Integer, sa.ForeignKey("users.id"), nullable=False),
        sa.Column("created_at", sa.Float, nullable=False),
        sa.UniqueConstraint("class_id", "name_key", name="uq_puzzle_sets_name"),
    )
    op.create_table(
        "set_items",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("set_id", sa.Integer, sa.ForeignKey("puzzle_sets.id"), nullable=False),
        sa.Column("seq", sa.Integer, nullable=False),
        sa.Column("position", sa.Text, nullable=False),
        sa.Column("answer", sa.String(32), nullable=False),
        sa.Column("title", sa.String(120), nullable=False),
        sa.Column("note", sa.Text, nullable=False),
        sa.Column("loss", sa.Float, nullable=False),
        sa.Column("created_by", sa.Integer, sa.ForeignKey("users.id"), nullable=False),
        sa.Column("created_at", sa.Float, nullable=False),
        sa.Column("removed", sa.Boolean, nullable=False),
        sa.UniqueConstraint("set_id", "seq", name="uq_set_items_seq"),
    )
    op.create_table(
        "set_answers",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("item_id", sa.Integer, sa.ForeignKey("set_items.id"), nullable=False),
        sa.Column("user_id", sa.Integer, sa.ForeignKey("users.id"), nullable=False),
        sa.Column("answer", sa.String(32), nullable=False),
        sa.Column("correct", sa.Boolean, nullable=False),
        sa.Column("first_try", sa.Boolean, nullable=False),
        sa.Column("at", sa.Float, nullable=False),
    )
    op.create_index("ix_set_answers_item_user", "set_answers", ["item_id", "user_id"])
    with op.batch_alter_table("assignments") as batch:
        batch.add_column(sa.Column("puzzle_set_id", sa.Integer))
        batch.create_foreign_key("fk_assignments_puzzle_set", "puzzle_sets", ["puzzle_set_id"], ["id"])


def downgrade() -> None:
    with op.batch_alter_table("assignments") as batch:
        batch.drop_constraint("fk_assignments_puzzle_set", type_="foreignkey")
        batch.drop_column("puzzle_set_id")
    op.drop_table("set_answers")
    op.drop_table("set_items")
    op.drop_table("puzzle_sets")
