"""The teacher's dashboard reads a class in a fixed number of SQL statements, whatever its size
(issue 37, school scale): the roster, the CSV export and the stuck list, counted with SQLAlchemy's
``before_cursor_execute`` event for classes of 3 and 30 learners, on SQLite and PostgreSQL.
(``benchmarks/roster.py`` measures the roster for 30 and 300 learners on PostgreSQL.)"""

from __future__ import annotations

import contextlib

import pytest
from sqlalchemy import event

from golflab.classroom import Store

MOST = 10


def fill_class(store: Store, learners: int):
    """A class of ``learners`` learners, each with a lesson exercise, a puzzle miss and a game row."""
    teacher = store.create_user("mrs_lee", role="teacher")
    klass = store.create_class("6B", teacher=teacher)
    invite = store.create_invite(klass, by=teacher, max_uses=learners)
    for i in range(learners):
        kid = store.create_user(f"kid{i:03d}")
        store.join_class(kid, invite)
        store.record_exercise(kid, "lesson1", "a", i % 2 == 0, lesson_items=2, skill="pairs")
        for _ in range(3):
            store.record_puzzle(kid, f"p{i % 4}", i % 3 == 0, skill="knocking")
    return teacher, klass


@contextlib.contextmanager
def counted(store: Store):
    statements = []

    def count(conn, cursor, statement, *args):
        statements.append(statement)

    event.listen(store.engine, "before_cursor_execute", count)
    try:
        yield statements
    finally:
        event.remove(store.engine, "before_cursor_execute", count)


@pytest.fixture(params=["sqlite", "postgresql"])
def new_url(request, tmp_path):
    """Makes a fresh, empty database of one kind at each call (its URL)."""
    made = iter(range(100))
    if request.param == "sqlite":
        return lambda: f"sqlite:///{tmp_path / f'class{next(made)}.db'}"
    return request.getfixturevalue("postgres").new_database


@pytest.mark.parametrize("call", ["roster", "export_csv", "stuck"])
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
