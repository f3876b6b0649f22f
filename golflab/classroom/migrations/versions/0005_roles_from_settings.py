"""Roles given by a setting fall when it no longer names the account (issue 37, a lower item).

``users.role_setting`` names the setting that gave an account its role (``GOLFLAB_TEACHERS``,
``GOLFLAB_ADMINS``); None: the role was given in the store (by hand) or nobody raised it. A Hub
user who is a teacher was made one by ``GOLFLAB_TEACHERS`` (or the Hub's admin flag, which the
example configuration writes into it): the store never makes a Hub user a teacher otherwise.
Admins made before this revision cannot be told apart (``GOLFLAB_ADMINS`` or ``golflab class
admin``): they stay admins made by hand.

Revision ID: 0005
"""

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"


def upgrade() -> None:
    with op.batch_alter_table("users") as batch:
        batch.add_column(sa.Column("role_setting", sa.String(32)))
    users = sa.table("users", sa.column("role", sa.String), sa.column("hub", sa.Boolean),
                     sa.column("role_setting", sa.String))
    op.execute(users.update().where(sa.and_(users.c.hub.is_(True), users.c.role == "teacher"))
               .values(role_setting="GOLFLAB_TEACHERS"))


def downgrade() -> None:
    with op.batch_alter_table("users") as batch:
        batch.drop_column("role_setting")
