"""A class of any size in a store, and the SQL statements a call runs (SQLAlchemy's
``before_cursor_execute``): what the school-scale tests count; ``falcons``, the small class the
pages' tests share."""

from __future__ import annotations

import contextlib

from sqlalchemy import event

from golflab.classroom import Store


def fill_class(store: Store, learners: int):
    """A class of ``learners`` learners, each with a lesson exercise, puzzle attempts and an
    assignment of lesson 1 and a puzzle (every third learner solves theirs): (teacher, class)."""
    teacher = store.create_user("mrs_lee", role="teacher")
    klass = store.create_class("6B", teacher=teacher)
    invite = store.create_invite(klass, by=teacher, max_uses=learners)
    store.create_assignment(klass, by=teacher, lesson="lesson1", puzzles=1)
    for i in range(learners):
        kid = store.create_user(f"kid{i:03d}")
        store.join_class(kid, invite)
        store.record_exercise(kid, "lesson1", "a", i % 2 == 0, lesson_items=1, skill="pairs")
        for _ in range(3):
            store.record_puzzle(kid, f"p{i % 4}", i % 3 == 0, skill="knocking")
    return teacher, klass


def falcons(store: Store, learners: "tuple[str, ...]", password: str) -> dict:
    """Mrs Lee's class Falcons with ``learners``, and zed, a learner of Mr Ng's class Owls: the
    store, ``lee``, ``falcons`` and each user by name."""
    lee = store.create_user("mrs_lee", password, role="teacher")
    klass = store.create_class("Falcons", lee)
    invite = store.create_invite(klass, by=lee)
    users = {n: store.register(n, password, invite) for n in learners}
    ng = store.create_user("mr_ng", password, role="teacher")
    users["zed"] = store.register("zed", password, store.create_invite(store.create_class("Owls", ng), by=ng))
    return dict(store=store, lee=lee, falcons=klass, **users)


@contextlib.contextmanager
def counted(store: Store):
    """The statements ``store`` runs inside the block (a list, filled as they run)."""
    statements: list[str] = []

    def count(conn, cursor, statement, *args):
        statements.append(statement)

    event.listen(store.engine, "before_cursor_execute", count)
    try:
        yield statements
    finally:
        event.remove(store.engine, "before_cursor_execute", count)
