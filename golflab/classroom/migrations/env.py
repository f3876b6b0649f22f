"""Alembic's environment: migrate the connection that ``golflab.classroom.database`` hands over."""

from alembic import context

from golflab.classroom.schema import metadata

connection = context.config.attributes["connection"]
context.configure(connection=connection, target_metadata=metadata, render_as_batch=True)
with context.begin_transaction():
    context.run_migrations()
