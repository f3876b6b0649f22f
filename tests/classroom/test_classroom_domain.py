"""The store's domain modules take and return plain values (issue 36, point 4): no database."""

from __future__ import annotations

from types import SimpleNamespace as Row

from golflab.classroom import Assignment, export, progress, schedule


def test_a_missed_puzzle_comes_back_after_1_3_and_7_days_then_is_retired():
    stage, days = None, []
    stage = schedule.next_stage(stage, False)
    days.append(schedule.days_until_due(stage))
    for _ in range(3):
        stage = schedule.next_stage(stage, True)
        days.append(schedule.days_until_due(stage))
    assert days == [1, 3, 7, None]
    assert schedule.next_stage(None, True) is None  # a puzzle solved at once is never reviewed


def test_progress_from_rows():
    games = [Row(holes=9, points=18, accuracy=None, blunders=2, played_at=2.0),
             Row(holes=9, points=9, accuracy=80.0, blunders=0, played_at=1.0)]
    stats = progress.learner_stats(games)
    assert (stats.games, stats.points_per_hole, stats.accuracy_trend) == (2, 1.5, ((1.0, 80.0),))
    assert stats.blunders_per_game == 1
    assert progress.streaks([True, True, False, True]) == (1, 2)
    attempts = [("pairs", False, 1), ("pairs", True, 0), ("pairs", False, 3), ("pairs", False, 2), ("knock", False, 5)]
    assert progress.stuck_skills(attempts, misses=3) == [("pairs", 3)]


def test_the_roster_csv_has_every_column_any_row_has():
    text = export.roster_csv([{"name": "ann", "games": 2}, {"name": "bob", "stars:lesson1": 3, "games": None}])
    assert text == "name,games,stars:lesson1\nann,2,\nbob,,3\n"


def test_a_set_is_done_once_every_item_it_serves_is_answered():
    items = [(1, 10), (1, 11), (2, 20)]
    assert progress.sets_done(items, [10, 20]) == {2}
    assert progress.sets_done(items, [10, 11, 20, 99]) == {1, 2}
    assert progress.sets_done([], [10]) == frozenset()  # a set serving nothing is not done
    plain = Assignment(1, 1, None, 0, None, 9.0, 1.0)
    with_set = Assignment(2, 1, None, 0, None, 9.0, 1.0, puzzle_set=1)
    assert progress.learner_copy(plain, {}, [], {1}).set_done is None
    assert progress.finished(progress.learner_copy(plain, {}, []))
    assert not progress.finished(progress.learner_copy(with_set, {}, [], {2}))
    assert progress.finished(progress.learner_copy(with_set, {}, [], {1, 2}))
