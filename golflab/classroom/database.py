"""Opening the store's database: the engine, SQLite's settings for many writers, write
transactions that retry when another process holds the lock, and the schema migrations.

SQLite (the default) runs in WAL mode with a busy timeout, and every write transaction starts
with ``BEGIN IMMEDIATE``, so 30 kernels writing at once wait their turn instead of failing;
a write that still meets a lock is retried. PostgreSQL serializes the schema upgrade with an
advisory lock, so many servers starting at once upgrade it once.
"""

from __future__ import annotations

import contextlib
import math
import random
import re
import time
import weakref
from pathlib import Path
from typing import Iterator

from sqlalchemy import create_engine, event, text
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.exc import DBAPIError, OperationalError, SQLAlchemyError

from . import settings
from .errors import SchemaTooNew, StoreUnavailable

MIGRATIONS = Path(__file__).resolve().parent / "migrations"
BUSY_TIMEOUT_MS = 30_000
WRITE_ATTEMPTS = 8
_UPGRADE_LOCK = 0x601F_1AB  # PostgreSQL advisory lock key for the schema upgrade




def make_engine(url: str, *, connect_timeout: float = 10, statement_timeout: float = 30) -> Engine:
    """An engine for ``url``; SQLite gets WAL, a busy timeout and ``BEGIN IMMEDIATE`` writes;
    PostgreSQL a connect timeout and a statement timeout (seconds), so a hung server fails."""
    connect_args = {}
    url = settings.quoted_credentials(url)
    if url.startswith("postgresql://"):
        url = "postgresql+psycopg://" + url[len("postgresql://"):]  # psycopg 3, not psycopg2
    if url.startswith("postgresql"):
        connect_args = {"connect_timeout": max(1, math.ceil(connect_timeout)),
                        "options": f"-c statement_timeout={max(1, round(statement_timeout * 1000))}"}
    try:
        engine = create_engine(url, pool_pre_ping=True, connect_args=connect_args)
    except Exception as exc:  # an unknown scheme, a missing driver
        raise StoreUnavailable(f"cannot open the class store: {plain(exc)}") from None
    if engine.dialect.name == "sqlite":
        _sqlite_for_many_writers(engine)
    _TIMEOUTS[engine] = (connect_timeout, statement_timeout)
    return engine


#: Each engine's (connect, statement) timeouts, for the sentence said when it did not answer.
_TIMEOUTS: "weakref.WeakKeyDictionary[Engine, tuple]" = weakref.WeakKeyDictionary()


def connect_timeout(engine: Engine) -> float:
    """The seconds a new connection of ``engine`` may take (``make_engine``'s; 10 for another engine)."""
    return _TIMEOUTS.get(engine, (10, 30))[0]


def _sqlite_for_many_writers(engine: Engine) -> None:
    @event.listens_for(engine, "connect")
    def _connect(dbapi_connection, _record):
        dbapi_connection.isolation_level = None  # SQLAlchemy emits BEGIN itself (below)
        cursor = dbapi_connection.cursor()
        cursor.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
        cursor.execute("PRAGMA foreign_keys = ON")
        if cursor.execute("PRAGMA journal_mode").fetchone()[0] != "wal":
            with contextlib.suppress(Exception):  # a read-only file keeps its mode; reads still work
                cursor.execute("PRAGMA journal_mode = WAL")
        cursor.close()

    @event.listens_for(engine, "begin")
    def _begin(connection):
        immediate = connection.get_execution_options().get("golflab_write", False)
        connection.exec_driver_sql("BEGIN IMMEDIATE" if immediate else "BEGIN")


def url_shown(url: str) -> str:
    """A database URL without its password, for messages."""
    head, sep, tail = settings.quoted_credentials(url).partition("@")
    if sep and ":" in head.split("//", 1)[-1]:
        scheme, _, cred = head.partition("//")
        return f"{scheme}//{cred.split(':', 1)[0]}:***@{tail}"
    return url


def unreachable(exc: BaseException) -> bool:
    """The database server cannot be reached: refused, gone, shut down, or its connection lost."""
    orig = getattr(exc, "orig", exc)
    state = getattr(orig, "sqlstate", None) or ""
    message = str(orig).lower()
    return (state.startswith("08") or state in ("57P01", "57P02", "57P03")
            or getattr(exc, "connection_invalidated", False)
            or any(s in message for s in ("connection refused", "could not connect", "connection failed",
                                          "server closed the connection", "terminating connection",
                                          "the database system is", "connection is closed",
                                          "consuming input failed", "no route to host")))


def failure(exc: BaseException, engine: "Engine | None" = None, *,
            doing: str = "the class store could not be read") -> StoreUnavailable:
    """A database error (SQLAlchemy's or the OS's) as a StoreUnavailable in a plain sentence that
    names no file, user, host, port or database (learners read it)."""
    if timed_out(exc):
        connect, statement = _TIMEOUTS.get(engine, (None, None)) if engine is not None else (None, None)
        if getattr(getattr(exc, "orig", exc), "sqlstate", None) == "57014":  # the server cancelled a request
            which = f"a request ran past its {statement:g} s" if statement is not None else "a request ran too long"
        else:
            which = f"no connection within {connect:g} s" if connect is not None else "no connection in time"
        return StoreUnavailable(f"the class store's database did not answer in time ({which}): it may be down "
                                "or busy; nothing was changed, try again later")
    if unreachable(exc):
        return StoreUnavailable("the class store's database cannot be reached just now (it may be down or "
                                "restarting): nothing was changed, try again in a moment")
    return StoreUnavailable(f"{doing}: {plain(exc)}")


def plain(exc: BaseException) -> str:
    """The first line of a database error, without any path, address or name from the URL."""
    text = str(getattr(exc, "orig", None) or exc).splitlines()[0] if str(exc) else type(exc).__name__
    text = re.sub(r'(file|path|database|host|server at|user)\s+"[^"]*"', r"\1 (not shown)", text)
    text = re.sub(r"(/[^\s:'\"]+)+", "(a path)", text)
    text = re.sub(r"\b\d{1,3}(\.\d{1,3}){3}\b|\[[0-9a-f:]+\]", "(an address)", text)
    return text[:200]


def timed_out(exc: BaseException) -> bool:
    """The database did not answer in time: a connect timeout, or a statement cancelled by its timeout."""
    orig = getattr(exc, "orig", exc)
    return (getattr(orig, "sqlstate", None) == "57014" or isinstance(orig, TimeoutError)
            or "timeout expired" in str(orig).lower())


def retryable(exc: BaseException) -> bool:
    """A lock or serialization conflict that a retry can get past."""
    message = str(getattr(exc, "orig", exc)).lower()
    return any(s in message for s in ("database is locked", "database table is locked", "busy",
                                      "could not serialize", "deadlock detected"))


def unique_violation(exc: BaseException) -> bool:
    """A write refused because another wrote the same unique key (SQLite or PostgreSQL)."""
    orig = getattr(exc, "orig", exc)
    return getattr(orig, "sqlstate", None) == "23505" or "unique constraint" in str(orig).lower()


@contextlib.contextmanager
def reading(engine: Engine) -> Iterator[Connection]:
    """A read transaction; a database that fails (down, hung, refused) raises StoreUnavailable in
    plain words, never a raw driver error. Errors raised by the reader itself pass unchanged."""
    try:
        with engine.connect() as conn, conn.begin():
            yield conn
    except (SQLAlchemyError, OSError) as exc:
        raise failure(exc, engine) from None


def write(engine: Engine, work, *, attempts: int = WRITE_ATTEMPTS):
    """Run ``work(conn)`` in one write transaction, retried on a lock conflict; its result."""
    for attempt in range(attempts):
        try:
            with engine.connect().execution_options(golflab_write=True) as conn, conn.begin():
                return work(conn)
        except (OperationalError, DBAPIError) as exc:
            if not retryable(exc) or attempt == attempts - 1:
                raise
            time.sleep(min(2.0, 0.02 * 2 ** attempt) * (0.5 + random.random()))
    raise AssertionError("unreachable")


def _alembic_config(conn: Connection):
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    config.attributes["connection"] = conn
    return config


def head_revision() -> str:
    """The newest schema revision this golflab knows."""
    from alembic.script import ScriptDirectory

    return ScriptDirectory(str(MIGRATIONS)).get_current_head()


def current_revision(conn: Connection) -> "str | None":
    from alembic.runtime.migration import MigrationContext

    return MigrationContext.configure(conn).get_current_revision()


def migrate(engine: Engine, target: str = "head") -> None:
    """Create or upgrade the schema to ``target``; refuse a database newer than this code."""
    from alembic import command
    from alembic.script import ScriptDirectory

    known = {rev.revision for rev in ScriptDirectory(str(MIGRATIONS)).walk_revisions()}
    head = head_revision()
    with reading(engine) as conn:
        current = current_revision(conn)
    _refuse_unknown(current, known, head)
    if current == (head if target == "head" else target):
        return

    def upgrade(conn: Connection) -> None:
        if conn.dialect.name == "postgresql":
            conn.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": _UPGRADE_LOCK})
        now = current_revision(conn)  # another process may have upgraded meanwhile
        _refuse_unknown(now, known, head)
        command.upgrade(_alembic_config(conn), target)

    write(engine, upgrade)


def _refuse_unknown(current: "str | None", known: set, head: str) -> None:
    if current is not None and current not in known:
        raise SchemaTooNew(f"this class store was written by a newer golflab (schema revision {current!r}; "
                           f"this golflab knows revisions up to {head!r}): upgrade golflab to open it")
