"""Assignments: a teacher sets their class a lesson, puzzles, one of its puzzle sets, or any mix, due
in so many days; each learner sees their own progress on it, and the teacher how many finished.
Who may call what: ``permissions.TABLE``.
"""

from __future__ import annotations

from sqlalchemy import insert, select
from sqlalchemy.engine import Row

from . import database, progress, schema, security
from .classes import class_learners
from .progress_store import check_key, exercise_rows, solved_rows
from .puzzle_sets import done_sets, read_set
from .records import Assignment, Klass, PuzzleSet, User
from .schedule import DAY

DIFFICULTIES = ("easy", "medium", "hard")

T = schema


class AssignmentsMixin:
    """The class store's assignments (mixed into ``Store``)."""

    def create_assignment(self, klass: Klass, *, by: User, lesson: "str | None" = None, puzzles: int = 0,
                          difficulty: "str | None" = None, due_days: float = 7,
                          puzzle_set: "PuzzleSet | None" = None) -> Assignment:
        """Set the class a lesson, ``puzzles`` puzzles (at ``difficulty``), one of its puzzle sets (with
        items), or any mix, due in ``due_days``."""
        if lesson is not None:
            check_key(lesson, "lesson")
        if isinstance(puzzles, bool) or not isinstance(puzzles, int) or not 0 <= puzzles <= 100:
            raise ValueError(f"puzzles must be a whole number from 0 to 100, got {security.shown(puzzles)}")
        if puzzle_set is not None and not isinstance(puzzle_set, PuzzleSet):
            raise ValueError(f"puzzle_set must be a puzzle set (from the store), got {type(puzzle_set).__name__}")
        if lesson is None and puzzles == 0 and puzzle_set is None:
            raise ValueError("an assignment needs a lesson, some puzzles, a puzzle set, or any mix of them")
        if difficulty is not None and difficulty not in DIFFICULTIES:
            raise ValueError(f"difficulty must be one of {', '.join(DIFFICULTIES)}, got {security.shown(difficulty)}")
        if isinstance(due_days, bool) or not isinstance(due_days, (int, float)) or not 0 < due_days <= 365:
            raise ValueError(f"due_days must be a number of days above 0 and at most 365, got "
                             f"{security.shown(due_days)}")
        now = self.clock()
        set_id = None if puzzle_set is None else puzzle_set.id
        values = dict(class_id=klass.id, lesson=lesson, puzzles=puzzles, difficulty=difficulty,
                      due_at=now + due_days * DAY, created_by=by.id, created_at=now, puzzle_set_id=set_id)

        def work(conn):
            if set_id is not None:
                _check_assigned_set(read_set(conn, set_id), puzzle_set, klass)
            return conn.execute(insert(T.assignments).values(**values)).inserted_primary_key[0]

        aid = self.transaction(work)
        return Assignment(aid, klass.id, lesson, puzzles, difficulty, values["due_at"], now, puzzle_set=set_id)

    def assignments(self, user: User) -> list[Assignment]:
        """The assignments of ``user``'s classes, soonest due first, with their own progress."""
        actor = user
        s = T.assignments
        with database.reading(self.engine) as conn:
            rows = conn.execute(select(s).join(T.members, T.members.c.class_id == s.c.class_id)
                                .where(T.members.c.user_id == actor.id).order_by(s.c.due_at, s.c.id)).all()
            lessons = progress.lesson_progress(exercise_rows(conn, [actor.id]))
            solved_at = [r.at for r in solved_rows(conn, [actor.id])]
            done = done_sets(conn, [actor.id], (r.puzzle_set_id for r in rows))[actor.id]
        return [progress.learner_copy(_assignment(r), lessons, solved_at, done) for r in rows]

    def class_assignments(self, klass: Klass, *, by: User) -> list[Assignment]:
        """The assignments set to ``klass``, soonest due first (its teacher or an admin may look)."""
        with database.reading(self.engine) as conn:
            return [_assignment(r) for r in _class_assignment_rows(conn, klass)]

    def assignment_progress(self, klass: Klass, *, by: User) -> "list[tuple[Assignment, int, int]]":
        """The class's assignments, soonest due first, each with (its active learners who finished it,
        its active learners): what its teacher's dashboard shows. The class is read in a fixed number
        of statements, whatever its size."""
        with database.reading(self.engine) as conn:
            rows = _class_assignment_rows(conn, klass)
            ids = [u.id for u in class_learners(conn, klass) if u.active]
            lessons = progress.group(exercise_rows(conn, ids))
            solved = progress.group(solved_rows(conn, ids))
            done = done_sets(conn, ids, (r.puzzle_set_id for r in rows))
        copies = {i: (progress.lesson_progress(lessons.get(i, ())), [r.at for r in solved.get(i, ())], done[i])
                  for i in ids}
        return [(a, sum(progress.finished(progress.learner_copy(a, *copies[i])) for i in ids), len(ids))
                for a in map(_assignment, rows)]


def _class_assignment_rows(conn, klass: Klass) -> list:
    s = T.assignments
    return conn.execute(select(s).where(s.c.class_id == klass.id).order_by(s.c.due_at, s.c.id)).all()


def _assignment(r: Row) -> Assignment:
    return Assignment(r.id, r.class_id, r.lesson, r.puzzles, r.difficulty, r.due_at, r.created_at,
                      puzzle_set=r.puzzle_set_id)


def _check_assigned_set(found: "PuzzleSet | None", given: PuzzleSet, klass: Klass) -> None:
    """A ValueError unless the set to assign (``found``: as the store has it) is of ``klass`` and serves items."""
    if found is None or found.class_id != klass.id:
        raise ValueError(f"the puzzle set {given.name!r} is not one of the class {klass.name}'s: set one of its own")
    if found.items == 0:
        raise ValueError(f"the puzzle set {found.name!r} has no items yet: add positions to it before setting it")
