"""Alembic migrations of the class store (``golflab.classroom.database.migrate`` runs them)."""
