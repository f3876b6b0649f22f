"""The class store: learners, classes, invite codes, sessions and progress, on SQLite or
PostgreSQL (SQLAlchemy Core, every query parameterized).

Bad input is a ValueError that says what was wrong and what is allowed; an acting user who
may not do a thing gets a PermissionError; a failed sign-in says only that the name or
password is wrong. A refused call changes nothing. Users passed in are re-read from the
database for every permission check, so a deactivated account is refused at once.

``Store`` is opened here (the engine, its migrations, the clock and the settings) and holds its
transactions; each area of the store is a mixin in its own module:

- ``accounts``: users, roles settled by the settings, registering and joining with an invite code,
  sign-in sessions, an account managed by its teacher or an admin (``AccountsMixin``);
- ``classes``: classes, their invite codes and members, and the teacher's view: roster, CSV, stuck
  learners, leaderboard (``ClassesMixin``);
- ``progress_store``: games, lesson exercises and puzzles kept, with ratings and reviews
  (``ProgressMixin``; the rules over them are ``progress``'s plain values);
- ``assignments``: what a teacher sets their class, and who finished it (``AssignmentsMixin``);
- ``puzzle_sets``: teachers' puzzle sets (``PuzzleSetsMixin``);
- ``rooms``: rooms joined with a code (``RoomsMixin``; a room itself is a ``Room``);
- ``class_tables`` and ``class_studies``: a class table or a study opened (``ClassTablesMixin``,
  ``StudiesMixin``).

Who may call which method: ``permissions.TABLE``, applied to ``Store`` by ``permissions.guarded``.
"""

from __future__ import annotations

import time
from typing import Callable

from sqlalchemy.exc import SQLAlchemyError

from . import database, notify, permissions, roles, security, settings
from .accounts import AccountsMixin
from .assignments import AssignmentsMixin
from .class_studies import StudiesMixin
from .class_tables import ClassTablesMixin
from .classes import ClassesMixin
from .errors import StoreConflict
from .progress_store import ProgressMixin
from .puzzle_sets import PuzzleSetsMixin
from .rooms import RoomsMixin, turn_timeout


@permissions.guarded
class Store(AccountsMixin, ClassesMixin, ProgressMixin, AssignmentsMixin, RoomsMixin, PuzzleSetsMixin,
            ClassTablesMixin, StudiesMixin):
    """The class store at ``url`` (default: ``GOLFLAB_DATABASE_URL``, ``DATABASE_URL``, then
    ``sqlite:///golflab.db``); the schema is created or upgraded on open.

    ``clock`` gives the time in seconds (tests move it); ``environ`` the settings' environment.
    """

    def __init__(self, url: "str | None" = None, *, clock: Callable[[], float] = time.time, environ=None):
        self.url = url or settings.database_url(environ)
        self.clock = clock
        self.session_days = settings.session_days(environ)
        self._purged_at = float("-inf")  # this process's last purge (see purge)
        self._turn_timeout = turn_timeout(environ)
        self.timeouts = (settings.connect_timeout(environ), settings.statement_timeout(environ))
        admins = settings.names(roles.ADMINS, environ)
        #: The name keys ``GOLFLAB_ADMINS`` names: its admins' roles are settled by it (``roles``).
        self.admin_keys = frozenset(security.lookup_key(n) for n in admins)
        self.engine = database.make_engine(self.url, connect_timeout=self.timeouts[0],
                                           statement_timeout=self.timeouts[1])
        try:
            database.migrate(self.engine)
            self._ensure_admins(admins)
        except (database.SchemaTooNew, ValueError):
            self.engine.dispose()
            raise
        except database.StoreUnavailable as exc:  # a read while opening
            self.engine.dispose()
            raise database.StoreUnavailable(f"the class store cannot be opened: {exc}") from None
        except (SQLAlchemyError, OSError) as exc:
            self.engine.dispose()
            raise database.failure(exc, self.engine, doing="the class store cannot be opened") from None

    def close(self) -> None:
        notify.close(self.engine)
        self.engine.dispose()

    def __repr__(self) -> str:
        return f"Store({database.url_shown(self.url)!r})"

    def transaction(self, work):
        """Run ``work(conn)`` in one write transaction (retried on a lock); StoreUnavailable if it fails."""
        try:
            return database.write(self.engine, work)
        except (ValueError, PermissionError):
            raise
        except (SQLAlchemyError, OSError) as exc:
            if database.unique_violation(exc):  # a racing page wrote the same key first: the caller reads again
                raise StoreConflict(f"another page wrote this first: {database.plain(exc)}") from None
            raise database.failure(exc, self.engine, doing="progress could not be kept") from None
