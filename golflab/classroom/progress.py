"""Learners' progress from their rows, as plain values (no database): game statistics, lesson
stars, puzzle streaks, the skills a learner is stuck on and the assignments they finished. The
store reads the rows (one learner's, or a whole class's at once) and hands them here."""

from __future__ import annotations

from dataclasses import replace
from typing import Collection, Iterable

from .records import Assignment, LearnerStats, LessonProgress, lesson_summary

#: A learner is stuck on a skill when this many last attempts at it all missed.
STUCK_MISSES = 3


def learner_stats(games: Iterable) -> LearnerStats:
    """Statistics of kept games (rows with ``holes``, ``points``, ``accuracy``, ``blunders`` and
    ``played_at``, newest first)."""
    games = list(games)
    holes = sum(g.holes for g in games)
    graded = [g for g in reversed(games) if g.accuracy is not None]
    counted = [g.blunders for g in games if g.blunders is not None]
    return LearnerStats(games=len(games),
                        points_per_hole=sum(g.points for g in games) / holes if holes else None,
                        accuracy_trend=tuple((g.played_at, g.accuracy) for g in graded),
                        blunders_per_game=sum(counted) / len(counted) if counted else None)


def lesson_progress(attempts: Iterable) -> dict[str, LessonProgress]:
    """Per lesson, from exercise attempts in the order made (rows with ``lesson``, ``item``,
    ``correct``, ``first_try`` and ``lesson_items``)."""
    lessons: dict[str, dict] = {}
    for r in attempts:
        entry = lessons.setdefault(r.lesson, {"items": r.lesson_items, "answered": set(), "right": set()})
        entry["items"] = r.lesson_items
        entry["answered"].add(r.item)
        if r.first_try and r.correct:
            entry["right"].add(r.item)
    return {name: lesson_summary(name, e["items"], len(e["answered"]), len(e["right"]))
            for name, e in lessons.items()}


def streaks(results: Iterable[bool]) -> "tuple[int, int]":
    """The current and the best run of right answers, from results in the order made."""
    best = run = 0
    for ok in results:
        run = run + 1 if ok else 0
        best = max(best, run)
    return run, best


def stuck_skills(attempts: Iterable, misses: int = STUCK_MISSES) -> "list[tuple[str, int]]":
    """(skill, misses in a row) for each skill whose last ``misses`` attempts all missed, by skill;
    ``attempts`` are (skill, correct, at) in any order."""
    by_skill: dict[str, list] = {}
    for skill, correct, _at in sorted(attempts, key=lambda a: a[2]):
        by_skill.setdefault(skill, []).append(correct)
    found = []
    for skill, results in sorted(by_skill.items()):
        if len(results) >= misses and not any(results[-misses:]):
            last_right = max((i for i, r in enumerate(results) if r), default=-1)
            found.append((skill, len(results) - last_right - 1))
    return found


def learner_copy(assignment: Assignment, lessons: "dict[str, LessonProgress]",
                 solved_at: Iterable[float], done_sets: Collection[int] = frozenset()) -> Assignment:
    """One learner's copy of ``assignment``: its lesson done (None when it sets none), the puzzles
    solved since it was set, and its puzzle set done (None when it sets none); ``lessons`` is the
    learner's ``lesson_progress``, ``solved_at`` the times of the learner's solved puzzles,
    ``done_sets`` the ids of the sets whose every item the learner answered (``sets_done``)."""
    done = None if assignment.lesson is None else (
        assignment.lesson in lessons and lessons[assignment.lesson].done)
    return replace(assignment, lesson_done=done,
                   puzzles_solved=sum(at >= assignment.created_at for at in solved_at),
                   set_done=None if assignment.puzzle_set is None else assignment.puzzle_set in done_sets)


def finished(assignment: Assignment) -> bool:
    """A learner's copy of an assignment (``learner_copy``) is finished: its lesson done (if it has
    one), its puzzles solved since it was set and every item of its puzzle set answered (if it has one)."""
    lesson_ok = assignment.lesson is None or bool(assignment.lesson_done)
    set_ok = assignment.puzzle_set is None or bool(assignment.set_done)
    return lesson_ok and set_ok and (assignment.puzzles_solved or 0) >= assignment.puzzles


def sets_done(items: Iterable, answered: Iterable[int]) -> frozenset:
    """The sets whose every item was answered: ``items`` are the sets' items served, as (set_id,
    item_id), ``answered`` the ids of the items one learner answered (a set with no item is not done:
    there was nothing to answer)."""
    answered = set(answered)
    left: dict = {}
    for set_id, item_id in items:
        left.setdefault(set_id, set()).add(item_id)
    return frozenset(s for s, ids in left.items() if ids <= answered)


def group(rows: Iterable, key: str = "user_id") -> dict:
    """Rows by their ``key`` column, each group in the rows' order."""
    grouped: dict = {}
    for r in rows:
        grouped.setdefault(getattr(r, key), []).append(r)
    return grouped
