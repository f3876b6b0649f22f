"""The class store: learners, classes, invite codes, sign-in sessions and progress (games,
lesson exercises, puzzles with Glicko-2 ratings, assignments), on SQLite or PostgreSQL.

No Jupyter imports: the apps, the command line and tests use it alike. See ``Store``.
"""

from .database import SchemaTooNew, StoreUnavailable
from .identity import current_user, session_token
from .records import (
    ROLES,
    Assignment,
    GameRecord,
    Klass,
    LearnerStats,
    LessonProgress,
    PuzzleProfile,
    PuzzleResult,
    User,
)
from .store import Store

__all__ = [
    "ROLES", "Assignment", "GameRecord", "Klass", "LearnerStats", "LessonProgress", "PuzzleProfile",
    "PuzzleResult", "SchemaTooNew", "Store", "StoreUnavailable", "User", "current_user", "session_token",
]
