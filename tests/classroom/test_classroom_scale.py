"""The teacher's dashboard reads a class in a fixed number of SQL statements, whatever its size
(issue 37, school scale): the roster, the CSV export, the stuck list and the assignments' progress,
counted with SQLAlchemy's ``before_cursor_execute`` event for classes of 3 and 30 learners, on SQLite
and PostgreSQL (the whole dashboard widget: ``tests/widgets/test_dashboard.py``).
(``benchmarks/roster.py`` measures them, and the dashboard, for 30 and 300 learners on PostgreSQL.)"""

from __future__ import annotations

import pytest

from golflab.classroom import Store
from tests.support.class_fill import counted, fill_class

MOST = 10


@pytest.fixture(params=["sqlite", "postgresql"])
def new_url(request, tmp_path):
    """Makes a fresh, empty database of one kind at each call (its URL)."""
    made = iter(range(100))
    if request.param == "sqlite":
        return lambda: f"sqlite:///{tmp_path / f'class{next(made)}.db'}"
    return request.getfixturevalue("postgres").new_database


@pytest.mark.parametrize("call", ["roster", "export_csv", "stuck", "assignment_progress"])
def test_a_class_is_read_in_the_same_few_statements_for_3_and_30_learners(new_url, call):
    counts = {}
    for size in (3, 30):
        store = Store(new_url())
        teacher, klass = fill_class(store, size)
        with counted(store) as statements:
            result = getattr(store, call)(klass, by=teacher)
        assert len(result) >= (size if call == "roster" else 1)
        counts[size] = len(statements)
        store.close()
    assert counts[3] == counts[30] <= MOST, counts


def test_the_assignments_progress_counts_the_learners_whose_own_copy_is_finished(new_url):
    """The class read at once says what each learner's own ``assignments()`` says: lesson 1 done
    (every other learner answered its one item right) and the puzzle solved since it was set
    (every third learner); a deactivated learner is not counted."""
    from golflab.classroom.progress import finished

    store = Store(new_url())
    teacher, klass = fill_class(store, 12)
    learners = store.learners(klass, by=teacher)
    store.deactivate(learners[0], by=teacher)
    active = [u for u in learners[1:]]
    [(assignment, done, of)] = store.assignment_progress(klass, by=teacher)
    expected = sum(finished(mine) for u in active for mine in store.assignments(u) if mine.id == assignment.id)
    assert (done, of) == (expected, 11) and 0 < expected < 11
    store.close()
