"""The class store: learners, classes, invite codes, sign-in sessions and progress (games,
lesson exercises, puzzles with Glicko-2 ratings, teachers' puzzle sets, assignments), rooms,
class tables' votes and studies, on SQLite or PostgreSQL.

No Jupyter imports: the apps, the command line and tests use it alike. See ``Store``; the docstring of
``store`` names the module of each of its areas.
"""

from ..lazy import lazy_exports

#: Each public name and its module, imported at first use: the identity helpers do not load
#: SQLAlchemy and the store (a few tenths of a second), which a guest's page never needs.
_EXPORTS = {
    "SchemaTooNew": ".errors", "SignedOut": ".errors", "StoreUnavailable": ".errors", "current_user": ".identity",
    "session_token": ".identity", "Store": ".store", "settling": ".glicko2", "Tally": ".class_votes",
    "ClosedVote": ".class_votes", "StudyPage": ".study_game",
    **dict.fromkeys(("ROLES", "Assignment", "GameRecord", "Klass", "LearnerStats", "LessonProgress",
                     "PuzzleProfile", "PuzzleResult", "PuzzleSet", "SetAnswer", "SetItem", "SetItemResult", "User",
                     "lesson_summary"),
                    ".records"),
}

__all__, __getattr__ = lazy_exports(__name__, _EXPORTS)


def __dir__() -> list:
    return sorted(set(globals()) | set(__all__))
