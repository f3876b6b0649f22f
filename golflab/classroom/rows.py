"""Row helpers shared by the store, its rooms and its puzzle sets: insert-if-new (racing writers
both succeed), a class's learners, ratings (Glicko-2 for puzzles, OpenSkill at the table) kept in
one table by subject, and the throttle's rows (wrong passwords, wrong room codes), locked while a
try is checked and counted."""

from __future__ import annotations

from sqlalchemy import and_, insert, select, update
from sqlalchemy.dialects.postgresql import insert as postgresql_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert

from . import schema as T
from . import throttle
from .glicko2 import Rating


def insert_if_new(conn, table, **values) -> None:
    """Insert the row unless one with its key exists (two writers racing both succeed)."""
    dialect = {"sqlite": sqlite_insert, "postgresql": postgresql_insert}.get(conn.dialect.name)
    if dialect is None:
        if conn.execute(select(table).where(and_(*(table.c[k] == v for k, v in values.items()
                                                   if table.c[k].primary_key)))).first() is None:
            conn.execute(insert(table).values(**values))
        return
    conn.execute(dialect(table).values(**values).on_conflict_do_nothing())


def learner_rows(conn, class_id: int) -> list:
    """The ``users`` rows of a class's learners, by name (a teacher or admin among its members is
    none of them)."""
    return conn.execute(select(T.users).join(T.members, T.members.c.user_id == T.users.c.id)
                        .where(and_(T.members.c.class_id == class_id, T.users.c.role == "learner"))
                        .order_by(T.users.c.name_key)).all()


def rating_of(conn, subject: str, *, for_update: bool = False, default: Rating = Rating()) -> Rating:
    """A rating (the default for a new subject); ``for_update`` locks its row to this transaction."""
    if for_update:
        insert_if_new(conn, T.ratings, subject=subject, rating=default.rating, rd=default.rd,
                       volatility=default.volatility, games=0, updated_at=0.0)
    q = select(T.ratings).where(T.ratings.c.subject == subject)
    row = conn.execute(q.with_for_update() if for_update else q).first()
    return Rating(row.rating, row.rd, row.volatility) if row else default


def save_rating(conn, subject: str, rating: Rating, now: float) -> None:
    conn.execute(update(T.ratings).where(T.ratings.c.subject == subject).values(
        games=T.ratings.c.games + 1, rating=rating.rating, rd=rating.rd, volatility=rating.volatility,
        updated_at=now))


def throttle_row(conn, table, **key):
    """The throttle's row of ``key`` in ``table`` (``failures``, ``locked_until``, ``failed_at``; made
    if new), locked to this transaction: parallel tries wait for it, so none passes the limit."""
    insert_if_new(conn, table, **key, failures=0, locked_until=0.0, failed_at=0.0)
    return conn.execute(select(table).where(_matching(table, key)).with_for_update()).one()


def count_failure(conn, table, row, now: float, **key) -> None:
    """Count a failed try on ``row`` (from ``throttle_row``, same ``key``): the source waits once it
    has failed too often (``throttle.wait_after``)."""
    failures = throttle.next_count(row.failures, row.failed_at, now)
    conn.execute(update(table).where(_matching(table, key)).values(
        failures=failures, locked_until=now + throttle.wait_after(failures), failed_at=now))


def forget_failures(conn, table, now: float) -> int:
    """Delete ``table``'s counts that would start again (``throttle.FORGET_SECONDS``) and wait no more."""
    c = table.c
    return conn.execute(table.delete().where(and_(c.failed_at < now - throttle.FORGET_SECONDS,
                                                  c.locked_until <= now))).rowcount


def _matching(table, key: dict):
    return and_(*(table.c[name] == value for name, value in key.items()))
