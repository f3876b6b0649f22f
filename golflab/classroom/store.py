"""The class store: learners, classes, invite codes, sessions and progress, on SQLite or
PostgreSQL (SQLAlchemy Core, every query parameterized).

Bad input is a ValueError that says what was wrong and what is allowed; an acting user who
may not do a thing gets a PermissionError; a failed sign-in says only that the name or
password is wrong. A refused call changes nothing. Users passed in are re-read from the
database for every permission check, so a deactivated account is refused at once.
"""

from __future__ import annotations

import json
import logging
import time
from dataclasses import replace
from typing import Callable

from sqlalchemy import and_, func, insert, select, update
from sqlalchemy.engine import Row
from sqlalchemy.exc import IntegrityError, SQLAlchemyError

from golflab.game import Phase

from . import database, export, notify, permissions, progress, roles, schedule, schema, security, settings, throttle
from .class_studies import StudiesMixin
from .class_tables import ClassTablesMixin
from .errors import StoreConflict
from .glicko2 import Rating, duel
from .puzzle_sets import PuzzleSetsMixin, done_sets, read_set
from .records import (
    ROLES,
    Assignment,
    GameRecord,
    Klass,
    LearnerStats,
    LessonProgress,
    PuzzleProfile,
    PuzzleResult,
    PuzzleSet,
    User,
)
from .rooms import RoomsMixin, kept_from_room, turn_timeout
from .rows import count_failure, forget_failures, insert_if_new, learner_rows, rating_of, save_rating, throttle_row

DAY = 86_400.0
PURGE_EVERY = 3_600.0  # seconds between a process's purges of ended sessions and old failures
REVIEW_DAYS = schedule.REVIEW_DAYS
FREE_FAILURES, LOCK_SECONDS, MAX_LOCK_SECONDS = throttle.FREE_FAILURES, throttle.LOCK_SECONDS, throttle.MAX_LOCK_SECONDS
MAX_INVITE_USES, MAX_INVITE_DAYS = 1000, 365
MAX_TEXT = 128  # lesson, item, puzzle and skill keys
STUCK_MISSES = progress.STUCK_MISSES
DIFFICULTIES = ("easy", "medium", "hard")

T = schema
log = logging.getLogger(__name__)


@permissions.guarded
class Store(RoomsMixin, PuzzleSetsMixin, ClassTablesMixin, StudiesMixin):
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

    # -- users --------------------------------------------------------------------------

    def create_user(self, name: str, password: "str | None" = None, role: str = "learner", *,
                    by: "User | None" = None, hub: bool = False) -> User:
        """A new user. ``by`` (when given) must be an admin, or a teacher creating a learner."""
        security.check_name(name, hub=hub)
        if role not in ROLES:
            raise ValueError(f"role must be one of {', '.join(ROLES)}, got {security.shown(role)}")
        pw_hash = security.hash_password(password) if password is not None else None
        return self._insert_user(name, pw_hash, role, hub=hub)

    def _insert_user(self, name: str, pw_hash: "str | None", role: str, *, hub: bool,
                     setting: "str | None" = None) -> User:
        def work(conn):
            try:
                uid = conn.execute(insert(T.users).values(
                    name=name, name_key=security.name_key(name), password_hash=pw_hash, role=role,
                    role_setting=setting, active=True, hub=hub, leaderboard=False,
                    created_at=self.clock())).inserted_primary_key[0]
            except IntegrityError:
                raise ValueError(f"the name {name!r} is taken: choose another") from None
            return User(uid, name, role, True, hub, role_setting=setting)

        return self.transaction(work)

    def ensure_user(self, name: str, role: str = "learner", *, hub: bool = False) -> User:
        """The user of that name, created (without a password) if new, with ``role`` given by hand: an
        existing role may rise but never falls here, and once given here (risen, or ``role`` is the
        role a setting gave) it is the store's, which no setting lowers (``roles``)."""
        existing = self._existing_or_new(name, role, hub=hub)
        if ROLES.index(role) > ROLES.index(existing.role) or (
                role == existing.role != "learner" and existing.role_setting is not None):
            self.transaction(lambda conn: conn.execute(
                update(T.users).where(T.users.c.id == existing.id).values(role=role, role_setting=None)))
            existing = self.user(name)
        return existing

    def _existing_or_new(self, name: str, role: str, *, hub: bool, setting: "str | None" = None) -> User:
        """The user of that name, or a new one (no password) with ``role`` given by ``setting``."""
        existing = self.user(name)
        if existing is None:
            security.check_name(name, hub=hub)
            if role not in ROLES:
                raise ValueError(f"role must be one of {', '.join(ROLES)}, got {security.shown(role)}")
            try:
                return self._insert_user(name, None, role, hub=hub, setting=setting)
            except ValueError:
                existing = self.user(name)  # created by another process meanwhile
                if existing is None:
                    raise
        return existing

    def _ensure_admins(self, names: list[str]) -> None:
        """Make the ``GOLFLAB_ADMINS`` names admins (a new one sets a password at first sign-in; one
        that it made before and no longer named is made its admin again at sign-in, ``roles``). A
        name already held by another learner or teacher is refused before anything is made: the
        first to register a name must never become an admin by it."""
        for name in names:
            _check_admin_name(security.check_name(name), self.user(name))
        for name in names:
            _check_admin_name(name, self._existing_or_new(name, "admin", hub=False, setting=roles.ADMINS))

    def hub_user(self, name: str, *, teacher: "bool | None" = False) -> User:
        """The JupyterHub user ``name``, created at first sight; a teacher while the Hub says so
        (``GOLFLAB_TEACHERS`` or the Hub's admin flag: ``teacher``; None when the Hub could not be
        asked), who is a learner again once it no longer does (``roles``)."""
        role = "teacher" if teacher else "learner"
        user = self._existing_or_new(name, role, hub=True, setting=roles.TEACHERS if teacher else None)
        return self._settle(user, teacher=teacher)

    def _settle(self, user: User, *, teacher: "bool | None") -> User:
        """``user`` with the role the settings give them now (``roles.settled``), written if it moved."""
        role, setting = roles.settled(user.role, user.role_setting, teacher=teacher,
                                      admin=security.lookup_key(user.name) in self.admin_keys)
        if (role, setting) == (user.role, user.role_setting):
            return user
        self.transaction(lambda conn: self._resettle(conn, user, role, setting))
        return replace(self.user_by_id(user.id) or user, session=user.session)

    def _resettle(self, conn, user: User, role: str, setting: "str | None") -> None:
        """Write ``user``'s settled role in ``conn``; a fall is logged for the operator, with the
        classes it leaves to the admins (they stay whole, taught by ``user`` again once named again)."""
        done = conn.execute(update(T.users).where(and_(T.users.c.id == user.id, T.users.c.role == user.role))
                            .values(role=role, role_setting=setting))
        if done.rowcount != 1 or not roles.falls(user.role, role):
            return
        left = ""
        if role == "learner":
            taught = conn.execute(select(func.count()).where(T.classes.c.teacher_id == user.id)).scalar_one()
            left = (f"; the {taught} classes they teach stay whole, reached by an admin, and are theirs again "
                    "once the name is back") if taught else ""
        log.warning("%s no longer names %s: a %s now, no longer a %s%s", setting, user.name, role, user.role, left)

    def user(self, name: str) -> "User | None":
        """The user of that name (any case), or None."""
        key = security.lookup_key(name)
        if key is None:
            return None
        with database.reading(self.engine) as conn:
            row = conn.execute(select(T.users).where(T.users.c.name_key == key)).first()
        return _user(row) if row else None

    def user_by_id(self, user_id: int) -> "User | None":
        with database.reading(self.engine) as conn:
            row = conn.execute(select(T.users).where(T.users.c.id == user_id)).first()
        return _user(row) if row else None

    def register(self, name: str, password: str, invite: str) -> User:
        """A new learner who joins the invite's class (the first sign-in with an invite code)."""
        security.check_name(name)
        security.check_password(password)
        code = self.check_invite(invite)  # before the costly hash: a bad code costs no argon2 work
        pw_hash = security.hash_password(password)

        def work(conn):
            class_id = self._use_invite(conn, code)
            try:
                uid = conn.execute(insert(T.users).values(
                    name=name, name_key=security.name_key(name), password_hash=pw_hash, role="learner",
                    active=True, hub=False, leaderboard=False, created_at=self.clock(),
                    last_seen=self.clock())).inserted_primary_key[0]
            except IntegrityError:
                raise ValueError(f"the name {name!r} is taken: choose another") from None
            conn.execute(insert(T.members).values(class_id=class_id, user_id=uid, joined_at=self.clock()))
            return User(uid, name, "learner", True, False, self.clock())

        return self.transaction(work)

    def join_class(self, user: User, invite: str) -> Klass:
        """Put an existing learner into the invite's class (a teacher or an admin never joins one:
        a class's teacher manages its members' accounts; nor does its teacher once no longer one)."""
        code = security.check_code(invite, security.INVITE_CODE_LENGTH, "invite code")
        actor = user
        if actor.role != "learner":
            raise ValueError(f"{actor.name} is a {actor.role}: only learners join a class "
                             "(a teacher creates their own classes)")

        def work(conn):
            class_id = self._use_invite(conn, code)
            klass = Klass.from_row(conn.execute(select(T.classes).where(T.classes.c.id == class_id)).one())
            if klass.teacher_id == actor.id:
                raise ValueError(f"{actor.name} is the teacher of the class {klass.name}: its teacher never "
                                 "joins it as a learner (an admin runs it while they are not a teacher)")
            insert_if_new(conn, T.members, class_id=klass.id, user_id=actor.id, joined_at=self.clock())
            return klass

        return self.transaction(work)

    def check_invite(self, invite: str) -> str:
        """The invite code ``invite`` (cleaned) if it can be used now, else a ValueError saying why;
        it is not used up by the check."""
        code = security.check_code(invite, security.INVITE_CODE_LENGTH, "invite code")
        with database.reading(self.engine) as conn:
            self._usable_invite(conn, code)
        return code

    def _usable_invite(self, conn, code: str) -> Row:
        """The invite row of ``code`` if it can be used now, else a ValueError saying why."""
        row = conn.execute(select(T.invites, T.classes.c.active.label("class_active")).join(
            T.classes, T.classes.c.id == T.invites.c.class_id).where(T.invites.c.code == code)).first()
        if row is None:
            raise ValueError(f"no class has the code {code}: check it with your teacher")
        if not row.active or not row.class_active:
            raise ValueError(f"the invite code {code} is no longer in use: ask your teacher for a new one")
        if row.expires_at <= self.clock():
            raise ValueError(f"the class code {code} has expired: ask your teacher for a new one")
        if row.uses >= row.max_uses:
            raise _used_up(code, row.max_uses)
        return row

    def _use_invite(self, conn, code: str) -> int:
        row = self._usable_invite(conn, code)
        done = conn.execute(update(T.invites).where(and_(T.invites.c.id == row.id,
                                                         T.invites.c.uses < T.invites.c.max_uses))
                            .values(uses=T.invites.c.uses + 1))
        if done.rowcount != 1:
            raise _used_up(code, row.max_uses)
        return row.class_id

    # -- sessions -----------------------------------------------------------------------

    def sign_in(self, name: str, password: str, *, source: "str | None" = None,
                device: "str | None" = None) -> str:
        """A session token for ``name``; an admin without a password sets it now (first sign-in).
        Whatever the name (unknown, deactivated, real), a refusal has the same words and the same
        work: one password check. ``source`` (the client's address) and ``device`` (the browser's
        device cookie, any text; a browser that signs in becomes a trusted device of that user)
        say where the try comes from: wrong passwords lock out that name from that source only. The
        role ``GOLFLAB_ADMINS`` gives is settled here (``roles``), as for ``user_for``."""
        wrong = ValueError("the name or the password is wrong")
        key = security.lookup_key(name)
        if key is None or not isinstance(password, str) or "\x00" in password:
            raise wrong
        if len(password) > security.PASSWORD_MAX:
            raise ValueError(f"the name or the password is wrong: a password is at most "
                             f"{security.PASSWORD_MAX} characters long")
        now = self.clock()
        device_hash = security.token_hash(device) if isinstance(device, str) and device else None
        with database.reading(self.engine) as conn:
            row = conn.execute(select(T.users).where(T.users.c.name_key == key)).first()
            trusted = device_hash is not None and row is not None and conn.execute(select(T.devices.c.user_id).where(
                and_(T.devices.c.token_hash == device_hash, T.devices.c.user_id == row.id))).first() is not None
        src = throttle.source_of(source, device_hash if trusted else None)
        where = and_(T.signin_failures.c.name_key == key, T.signin_failures.c.source == src)
        locked = self.transaction(lambda conn: self._count_try(conn, key, src, now))
        if locked is not None:
            raise ValueError(throttle.refusal(locked, now))
        user = None if row is None else _user(row)
        # the role ``GOLFLAB_ADMINS`` gives now (written with the session, below)
        role, setting = (None, None) if user is None else roles.settled(
            user.role, user.role_setting, teacher=None, admin=key in self.admin_keys)
        first_admin = role == "admin" and row.password_hash is None
        if first_admin:
            security.check_password(password)
        matches = first_admin or security.password_matches(None if row is None else row.password_hash, password)
        if not (row is not None and row.active and matches):
            raise wrong  # counted already, before the check
        token = security.new_token()
        new_hash = security.hash_password(password) if first_admin else None

        purging = now - self._purged_at >= PURGE_EVERY

        def work(conn):
            if purging:
                _purge_rows(conn, now)
            conn.execute(T.signin_failures.delete().where(where))
            if new_hash is not None:
                conn.execute(update(T.users).where(T.users.c.id == row.id).values(password_hash=new_hash))
            if (role, setting) != (user.role, user.role_setting):
                self._resettle(conn, user, role, setting)
            conn.execute(update(T.users).where(T.users.c.id == row.id).values(last_seen=now))
            conn.execute(insert(T.sessions).values(token_hash=security.token_hash(token), user_id=row.id,
                                                   created_at=now, expires_at=now + self.session_days * DAY))
            if device_hash is not None:
                insert_if_new(conn, T.devices, token_hash=device_hash, user_id=row.id, created_at=now)

        self.transaction(work)
        if purging:
            self._purged_at = now
        return token

    def _count_try(self, conn, key: str, source: str, now: float) -> "float | None":
        """In one transaction: the time the source waits until (None: free), else this try counted
        as a failure (undone by a right password), so parallel tries cannot pass the limit."""
        row = throttle_row(conn, T.signin_failures, name_key=key, source=source)
        if row.locked_until > now:
            return row.locked_until
        count_failure(conn, T.signin_failures, row, now, name_key=key, source=source)
        return None

    def user_for(self, token: "str | None") -> "User | None":
        """The signed-in user of a session token, or None (unknown, expired, signed out, deactivated),
        with the role ``GOLFLAB_ADMINS`` gives them now (``roles``: an admin it no longer names is a
        learner from their next page on)."""
        if not isinstance(token, str) or not 20 <= len(token) <= 100:
            return None
        now = self.clock()
        with database.reading(self.engine) as conn:
            row = conn.execute(select(T.users).join(T.sessions, T.sessions.c.user_id == T.users.c.id).where(
                and_(T.sessions.c.token_hash == security.token_hash(token), T.sessions.c.expires_at > now,
                     T.users.c.active.is_(True)))).first()
        if row is None:
            return None
        if row.last_seen is None or now - row.last_seen > 60:
            self.touch(_user(row))
        return self._settle(replace(_user(row), session=security.token_hash(token)), teacher=None)

    def touch(self, user: User) -> None:
        """Note that ``user`` was here now (the roster's *last seen*)."""
        self.transaction(lambda conn: conn.execute(update(T.users).where(T.users.c.id == user.id)
                                              .values(last_seen=self.clock())))

    def sign_out(self, token: str) -> None:
        """End that session (other sessions of the user stay)."""
        if isinstance(token, str):
            self.transaction(lambda conn: conn.execute(
                T.sessions.delete().where(T.sessions.c.token_hash == security.token_hash(token))))

    def sign_out_everywhere(self, user: User) -> None:
        self.transaction(lambda conn: conn.execute(T.sessions.delete().where(T.sessions.c.user_id == user.id)))

    def purge(self) -> dict[str, int]:
        """Forget what can no longer matter: sessions past their end, and failed sign-ins and wrong
        room codes whose count would start again (``throttle.next_count``) and that wait no more. Done by a
        successful sign-in (in its own transaction) at most once every PURGE_EVERY seconds per process, and by
        ``golflab class purge``. How many rows of each went."""
        now = self.clock()
        done = self.transaction(lambda conn: _purge_rows(conn, now))
        self._purged_at = now
        return done

    # -- administration -----------------------------------------------------------------

    def create_class(self, name: str, teacher: User, *, by: "User | None" = None) -> Klass:
        """A new class taught by ``teacher`` (a teacher or an admin); its code is made here. ``by``:
        who asks, when not ``teacher`` themself (an admin)."""
        if not isinstance(name, str) or not 1 <= len(name.strip()) <= 64:
            raise ValueError(f"a class name must be 1 to 64 characters, got {security.shown(name)}")
        actor = teacher

        def work(conn):
            for _ in range(20):
                code = security.new_code(security.CLASS_CODE_LENGTH)
                if not conn.execute(select(T.classes.c.id).where(T.classes.c.code == code)).first():
                    break
            cid = conn.execute(insert(T.classes).values(name=name.strip(), code=code, teacher_id=actor.id,
                                                        active=True, created_at=self.clock())).inserted_primary_key[0]
            return Klass(cid, name.strip(), code, actor.id)

        return self.transaction(work)

    def classes(self, by: User) -> list[Klass]:
        """The classes ``by`` teaches (an admin: every class; a learner: the classes they are in)."""
        actor = by
        q = select(T.classes).order_by(T.classes.c.id)
        if actor.role == "teacher":
            q = q.where(T.classes.c.teacher_id == actor.id)
        elif actor.role == "learner":
            q = q.join(T.members, T.members.c.class_id == T.classes.c.id).where(T.members.c.user_id == actor.id)
        with database.reading(self.engine) as conn:
            return [Klass.from_row(r) for r in conn.execute(q)]

    def klass(self, code: str) -> "Klass | None":
        """The class with that code (as typed: any case), or None."""
        try:
            code = security.check_code(code, security.CLASS_CODE_LENGTH, "class code")
        except ValueError:
            return None
        with database.reading(self.engine) as conn:
            row = conn.execute(select(T.classes).where(T.classes.c.code == code)).first()
        return Klass.from_row(row) if row else None

    def create_invite(self, klass: Klass, *, by: User, max_uses: int = 30, expires_days: float = 7) -> str:
        """An invite code for ``klass`` (used by at most ``max_uses`` learners, for ``expires_days``)."""
        if isinstance(max_uses, bool) or not isinstance(max_uses, int) or not 1 <= max_uses <= MAX_INVITE_USES:
            raise ValueError(f"max_uses must be a whole number from 1 to {MAX_INVITE_USES}, "
                             f"got {security.shown(max_uses)}")
        if (isinstance(expires_days, bool) or not isinstance(expires_days, (int, float))
                or not 0 < expires_days <= MAX_INVITE_DAYS):
            raise ValueError(f"expires_days must be a number of days above 0 and at most {MAX_INVITE_DAYS}, "
                             f"got {security.shown(expires_days)}")
        now = self.clock()

        def work(conn):
            code = security.new_code(security.INVITE_CODE_LENGTH)
            conn.execute(insert(T.invites).values(code=code, class_id=klass.id, created_by=by.id, max_uses=max_uses,
                                                  uses=0, expires_at=now + expires_days * DAY, active=True,
                                                  created_at=now))
            return code

        return self.transaction(work)

    def invites(self, klass: Klass, *, by: User) -> list[dict]:
        """The class's invite codes with their uses, limit, expiry and whether still in use."""
        with database.reading(self.engine) as conn:
            rows = conn.execute(select(T.invites).where(T.invites.c.class_id == klass.id).order_by(T.invites.c.id))
            return [{"code": r.code, "uses": r.uses, "max_uses": r.max_uses, "expires_at": r.expires_at,
                     "active": r.active and r.expires_at > self.clock()} for r in rows]

    def deactivate_invite(self, code: str, *, by: User) -> None:
        code = security.check_code(code, security.INVITE_CODE_LENGTH, "invite code")
        self.transaction(lambda conn: conn.execute(
            update(T.invites).where(T.invites.c.code == code).values(active=False)))

    def class_of_invite(self, code: str) -> Klass:
        """The class of invite ``code`` (any state), or a ValueError."""
        code = security.check_code(code, security.INVITE_CODE_LENGTH, "invite code")
        with database.reading(self.engine) as conn:
            row = conn.execute(select(T.classes).join(T.invites, T.invites.c.class_id == T.classes.c.id)
                               .where(T.invites.c.code == code)).first()
        if row is None:
            raise ValueError(f"no invite has the code {code}")
        return Klass.from_row(row)

    def learners(self, klass: Klass, *, by: User) -> list[User]:
        """The class's learners, by name (a teacher or admin among its members is none of them)."""
        with database.reading(self.engine) as conn:
            return self._class_learners(conn, klass)

    @staticmethod
    def _class_learners(conn, klass: Klass) -> list[User]:
        return [_user(r) for r in learner_rows(conn, klass.id)]

    def deactivate(self, user: User, *, by: User) -> None:
        """Deactivate ``user``: every session ends at once and sign-in is refused."""
        self.transaction(lambda conn: (
            conn.execute(update(T.users).where(T.users.c.id == user.id).values(active=False)),
            conn.execute(T.sessions.delete().where(T.sessions.c.user_id == user.id))))

    def reactivate(self, user: User, *, by: User) -> None:
        self.transaction(lambda conn: conn.execute(update(T.users).where(T.users.c.id == user.id).values(active=True)))

    def reset_password(self, user: User, password: str, *, by: User) -> None:
        """Give ``user`` a new password (their sessions end; they sign in with it)."""
        new_hash = security.hash_password(password)
        self.transaction(lambda conn: (
            conn.execute(update(T.users).where(T.users.c.id == user.id).values(password_hash=new_hash)),
            conn.execute(T.sessions.delete().where(T.sessions.c.user_id == user.id)),
            conn.execute(T.signin_failures.delete().where(T.signin_failures.c.name_key == security.name_key(
                user.name))),
            conn.execute(T.devices.delete().where(T.devices.c.user_id == user.id))))

    def rename(self, user: User, name: str, *, by: User) -> User:
        security.check_name(name, hub=user.hub)

        def work(conn):
            try:
                conn.execute(update(T.users).where(T.users.c.id == user.id)
                             .values(name=name, name_key=security.name_key(name)))
            except IntegrityError:
                raise ValueError(f"the name {name!r} is taken: choose another") from None

        self.transaction(work)
        return self.user_by_id(user.id)

    # -- progress: games ----------------------------------------------------------------

    def record_game(self, user: User, game, seat: int, *, accuracy: "float | None" = None,
                    blunders: "int | None" = None, room: "str | None" = None) -> GameRecord:
        """Keep a finished golf ``game`` in which ``user`` held ``seat`` (from ``room``: once per learner,
        a second call gives the same record)."""
        actor = user
        if getattr(game, "phase", None) != Phase.GAME_OVER:
            raise ValueError("only a finished game is kept: this one is not over yet")
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < len(game.players):
            raise ValueError(f"seat must be a seat of the game, 0 to {len(game.players) - 1}, "
                             f"got {security.shown(seat)}")
        if accuracy is not None and not (isinstance(accuracy, (int, float)) and 0 <= accuracy <= 100):
            raise ValueError(f"accuracy must be a number from 0 to 100, got {security.shown(accuracy)}")
        if blunders is not None and (isinstance(blunders, bool) or not isinstance(blunders, int) or blunders < 0):
            raise ValueError(f"blunders must be a whole number of 0 or more, got {security.shown(blunders)}")
        save = game.to_json()
        data = json.loads(save)
        scores = list(game.totals)
        values = dict(user_id=actor.id, seat=seat, seed=str(data["seed"]), players=json.dumps(list(game.players)),
                      rules=json.dumps(data["rules"], sort_keys=True), scores=json.dumps(scores),
                      holes=game.rules.rounds, points=scores[seat], accuracy=accuracy, blunders=blunders,
                      room=room, save=save, played_at=self.clock())

        def work(conn):
            kept = kept_from_room(conn, actor.id, room) if room is not None else None
            if kept is not None:
                return kept
            rid = conn.execute(insert(T.games).values(**values)).inserted_primary_key[0]
            conn.execute(update(T.users).where(T.users.c.id == actor.id).values(last_seen=values["played_at"]))
            return rid

        rid = self.transaction(work)
        return self.game_record(rid, by=actor)

    def games(self, user: User, *, by: User, limit: int = 200) -> list[GameRecord]:
        """``user``'s kept games, newest first (``by``: the user, their teacher, or an admin)."""
        with database.reading(self.engine) as conn:
            rows = conn.execute(select(T.games).where(T.games.c.user_id == user.id)
                                .order_by(T.games.c.played_at.desc(), T.games.c.id.desc()).limit(limit))
            return [GameRecord.from_row(r) for r in rows]

    def game_record(self, record_id: int, *, by: User) -> GameRecord:
        """One kept game by its id (refused unless ``by`` may see its player's games)."""
        with database.reading(self.engine) as conn:
            row = conn.execute(select(T.games).where(T.games.c.id == record_id)).first()
        return GameRecord.from_row(row)

    def owner_of_game(self, record_id: int) -> User:
        """The player of kept game ``record_id``, or a ValueError."""
        with database.reading(self.engine) as conn:
            row = conn.execute(select(T.users).join(T.games, T.games.c.user_id == T.users.c.id)
                               .where(T.games.c.id == record_id)).first()
        if row is None:
            raise ValueError(f"no kept game has the id {security.shown(record_id)}")
        return _user(row)

    def learner_stats(self, user: User, *, by: User) -> LearnerStats:
        """Games played, points per hole, the accuracy trend and blunders per game."""
        return progress.learner_stats(self.games(user, by=by, limit=10_000))

    # -- progress: lessons ----------------------------------------------------------------

    def record_exercise(self, user: User, lesson: str, item: str, correct: bool, *, lesson_items: int,
                        skill: "str | None" = None) -> bool:
        """Keep an attempt at a lesson's exercise; True when it was the item's first try."""
        actor = user
        _key(lesson, "lesson")
        _key(item, "item")
        if skill is not None:
            _key(skill, "skill")
        if not isinstance(correct, bool):
            raise ValueError(f"correct must be True or False, got {security.shown(correct)}")
        if isinstance(lesson_items, bool) or not isinstance(lesson_items, int) or not 1 <= lesson_items <= 100:
            raise ValueError(f"lesson_items must be a whole number from 1 to 100, got {security.shown(lesson_items)}")

        def work(conn):
            seen = conn.execute(select(T.exercise_attempts.c.id).where(and_(
                T.exercise_attempts.c.user_id == actor.id, T.exercise_attempts.c.lesson == lesson,
                T.exercise_attempts.c.item == item)).limit(1)).first()
            conn.execute(insert(T.exercise_attempts).values(
                user_id=actor.id, lesson=lesson, item=item, skill=skill, correct=correct, first_try=seen is None,
                lesson_items=lesson_items, at=self.clock()))
            conn.execute(update(T.users).where(T.users.c.id == actor.id).values(last_seen=self.clock()))
            return seen is None

        return self.transaction(work)

    def lesson_progress(self, user: User, *, by: User) -> dict[str, LessonProgress]:
        """Per lesson: items answered, right at the first try, stars and done."""
        with database.reading(self.engine) as conn:
            return progress.lesson_progress(_exercise_rows(conn, [user.id]))

    def exercise_results(self, user: User, lesson: str, *, by: User) -> dict[str, bool]:
        """Each answered item of ``lesson``: was its latest attempt right (for the ticks a lesson shows)."""
        _key(lesson, "lesson")
        a = T.exercise_attempts
        with database.reading(self.engine) as conn:
            rows = conn.execute(select(a.c.item, a.c.correct).where(and_(a.c.user_id == user.id, a.c.lesson == lesson))
                                .order_by(a.c.id)).all()
        return {r.item: bool(r.correct) for r in rows}

    # -- progress: puzzles --------------------------------------------------------------

    def record_puzzle(self, user: User, puzzle: str, correct: bool, *, skill: "str | None" = None) -> PuzzleResult:
        """Keep a puzzle attempt: both Glicko-2 ratings move, the streak, and a missed puzzle's review."""
        actor = user
        _key(puzzle, "puzzle")
        if skill is not None:
            _key(skill, "skill")
        if not isinstance(correct, bool):
            raise ValueError(f"correct must be True or False, got {security.shown(correct)}")
        now = self.clock()

        def work(conn):
            mine, theirs = f"user:{actor.id}", f"puzzle:{puzzle}"
            before, p_before = rating_of(conn, mine, for_update=True), rating_of(conn, theirs, for_update=True)
            after, p_after = duel(before, p_before, 1.0 if correct else 0.0)
            save_rating(conn, mine, after, now)
            save_rating(conn, theirs, p_after, now)
            conn.execute(insert(T.puzzle_attempts).values(
                user_id=actor.id, puzzle=puzzle, skill=skill, correct=correct, rating_before=before.rating,
                rating_after=after.rating, at=now))
            review_in = _schedule_review(conn, actor.id, puzzle, correct, now)
            conn.execute(update(T.users).where(T.users.c.id == actor.id).values(last_seen=now))
            streak, _ = _streaks(conn, actor.id)
            return PuzzleResult(after.rating, after.rating - before.rating, after.rd, streak, review_in)

        return self.transaction(work)

    def puzzle_profile(self, user: User, *, by: User) -> PuzzleProfile:
        """The learner's puzzle rating, attempts, streaks and the missed puzzles due again now."""
        p = T.puzzle_attempts
        with database.reading(self.engine) as conn:
            rating = rating_of(conn, f"user:{user.id}")
            attempts, solved = conn.execute(select(func.count(), func.coalesce(
                func.sum(func.cast(p.c.correct, schema.Integer)), 0)).where(p.c.user_id == user.id)).one()
            streak, best = _streaks(conn, user.id)
            due = tuple(r.puzzle for r in conn.execute(select(T.reviews.c.puzzle).where(and_(
                T.reviews.c.user_id == user.id, T.reviews.c.due_at <= self.clock())).order_by(T.reviews.c.due_at)))
        return PuzzleProfile(rating.rating, rating.rd, attempts, int(solved), streak, best, due)

    def puzzle_rating(self, puzzle: str) -> Rating:
        with database.reading(self.engine) as conn:
            return rating_of(conn, f"puzzle:{_key(puzzle, 'puzzle')}")

    # -- assignments --------------------------------------------------------------------

    def create_assignment(self, klass: Klass, *, by: User, lesson: "str | None" = None, puzzles: int = 0,
                          difficulty: "str | None" = None, due_days: float = 7,
                          puzzle_set: "PuzzleSet | None" = None) -> Assignment:
        """Set the class a lesson, ``puzzles`` puzzles (at ``difficulty``), one of its puzzle sets (with
        items), or any mix, due in ``due_days``."""
        if lesson is not None:
            _key(lesson, "lesson")
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
            lessons = progress.lesson_progress(_exercise_rows(conn, [actor.id]))
            solved_at = [r.at for r in _solved_rows(conn, [actor.id])]
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
            ids = [u.id for u in self._class_learners(conn, klass) if u.active]
            lessons = progress.group(_exercise_rows(conn, ids))
            solved = progress.group(_solved_rows(conn, ids))
            done = done_sets(conn, ids, (r.puzzle_set_id for r in rows))
        copies = {i: (progress.lesson_progress(lessons.get(i, ())), [r.at for r in solved.get(i, ())], done[i])
                  for i in ids}
        return [(a, sum(progress.finished(progress.learner_copy(a, *copies[i])) for i in ids), len(ids))
                for a in map(_assignment, rows)]

    # -- the teacher's view -------------------------------------------------------------

    def roster(self, klass: Klass, *, by: User) -> list[dict]:
        """One row per learner: name, active, last seen, games, points per hole, accuracy, blunders
        per game, puzzle rating, and stars per lesson (``stars:<lesson>``). The class is read in a
        fixed number of statements, whatever its size."""
        return self._roster(klass)

    def _roster(self, klass: Klass) -> list[dict]:
        """``roster``'s rows, read once (its permission already checked by the caller's rule)."""
        g, p = T.games, T.puzzle_attempts
        with database.reading(self.engine) as conn:
            learners = self._class_learners(conn, klass)
            ids = [u.id for u in learners]
            games = progress.group(conn.execute(
                select(g.c.user_id, g.c.holes, g.c.points, g.c.accuracy, g.c.blunders, g.c.played_at)
                .where(g.c.user_id.in_(ids)).order_by(g.c.played_at.desc(), g.c.id.desc())))
            ratings = dict(conn.execute(select(T.ratings.c.subject, T.ratings.c.rating).where(
                T.ratings.c.subject.in_([f"user:{i}" for i in ids]))).all())
            puzzles = progress.group(conn.execute(select(p.c.user_id, p.c.correct).where(p.c.user_id.in_(ids))
                                                  .order_by(p.c.id)))
            lessons = progress.group(_exercise_rows(conn, ids))
        rows = []
        for learner in learners:
            stats = progress.learner_stats(games.get(learner.id, ()))
            results = [bool(r.correct) for r in puzzles.get(learner.id, ())]
            row = {"name": learner.name, "active": learner.active, "last_seen": learner.last_seen,
                   "games": stats.games, "points_per_hole": stats.points_per_hole,
                   "accuracy": stats.accuracy_trend[-1][1] if stats.accuracy_trend else None,
                   "blunders_per_game": stats.blunders_per_game,
                   "puzzle_rating": round(ratings.get(f"user:{learner.id}", Rating().rating)),
                   "puzzles_solved": sum(results), "puzzle_streak": progress.streaks(results)[0]}
            for lesson, done in sorted(progress.lesson_progress(lessons.get(learner.id, ())).items()):
                row[f"stars:{lesson}"] = done.stars
            rows.append(row)
        return rows

    def stuck(self, klass: Klass, *, by: User, misses: int = STUCK_MISSES) -> list[dict]:
        """Learners whose last ``misses`` attempts at one skill (exercises and puzzles) all missed
        (the class read in a fixed number of statements)."""
        with database.reading(self.engine) as conn:
            learners = self._class_learners(conn, klass)
            ids = [u.id for u in learners]
            attempts = progress.group([r for t in (T.exercise_attempts, T.puzzle_attempts) for r in conn.execute(
                select(t.c.user_id, t.c.skill, t.c.correct, t.c.at).where(and_(t.c.user_id.in_(ids),
                                                                             t.c.skill.is_not(None))))])
        return [{"name": learner.name, "skill": skill, "misses": missed}
                for learner in learners
                for skill, missed in progress.stuck_skills(((r.skill, r.correct, r.at)
                                                            for r in attempts.get(learner.id, ())), misses)]

    def export_csv(self, klass: Klass, *, by: User) -> str:
        """The roster as CSV text (a header line, one line per learner), read in ``roster``'s
        statements: its rule has checked ``by`` already, so the guarded ``roster`` (which would
        check again) is not called."""
        return export.roster_csv(self._roster(klass))

    def set_leaderboard(self, user: User, opt_in: bool, *, by: User) -> None:
        """A learner opts in to (or out of) their class leaderboard."""
        if not isinstance(opt_in, bool):
            raise ValueError(f"opt_in must be True or False, got {security.shown(opt_in)}")
        self.transaction(lambda conn: conn.execute(update(T.users).where(T.users.c.id == user.id)
                                              .values(leaderboard=opt_in)))

    def leaderboard(self, klass: Klass, *, by: User) -> list[dict]:
        """The class's opted-in learners by puzzle rating (any member or its teacher may look)."""
        with database.reading(self.engine) as conn:
            opted = conn.execute(select(T.users).join(T.members, T.members.c.user_id == T.users.c.id).where(and_(
                T.members.c.class_id == klass.id, T.users.c.leaderboard.is_(True), T.users.c.active.is_(True))))
            board = [{"name": u.name, "puzzle_rating": round(rating_of(conn, f"user:{u.id}").rating)}
                     for u in opted]
        return sorted(board, key=lambda b: (-b["puzzle_rating"], b["name"]))

    # -- permissions --------------------------------------------------------------------

    def fresh_user(self, user: User) -> User:
        """``user`` as the database knows it now; refused if unknown or deactivated, or (a user from
        a session: ``user_for``) if that session has ended. Every action by a user comes here; the
        refusals are ``permissions.fresh``'s (permission is checked in that one module)."""
        return permissions.fresh(self, user)

    def session_open(self, user: User) -> bool:
        """True while ``user``'s session is in the store and not expired."""
        with database.reading(self.engine) as conn:
            return conn.execute(select(T.sessions.c.user_id).where(and_(
                T.sessions.c.token_hash == user.session, T.sessions.c.user_id == user.id,
                T.sessions.c.expires_at > self.clock()))).first() is not None

    def class_by_id(self, class_id: int) -> Klass:
        """The class of that id (one the store holds: a room's, a set's)."""
        with database.reading(self.engine) as conn:
            return Klass.from_row(conn.execute(select(T.classes).where(T.classes.c.id == class_id)).one())

    def teaches(self, actor: User, klass: Klass) -> bool:
        return actor.role == "admin" or (actor.role == "teacher" and self.class_by_id(klass.id).teacher_id == actor.id)

    def is_member(self, user: User, klass: Klass) -> bool:
        with database.reading(self.engine) as conn:
            return conn.execute(select(T.members).where(and_(T.members.c.class_id == klass.id,
                                                             T.members.c.user_id == user.id))).first() is not None

    def teaches_user(self, actor: User, user: User) -> bool:
        """True when ``actor`` is an admin, or a teacher of a class that the learner ``user`` is
        in (a teacher or admin in a class's members is nobody's to manage but an admin's)."""
        if actor.role == "admin":
            return True
        if actor.role != "teacher":
            return False
        with database.reading(self.engine) as conn:
            return conn.execute(select(T.members.c.user_id).join(T.classes, T.classes.c.id == T.members.c.class_id)
                                .join(T.users, T.users.c.id == T.members.c.user_id)
                                .where(and_(T.members.c.user_id == user.id, T.classes.c.teacher_id == actor.id,
                                            T.users.c.role == "learner"))
                                .limit(1)).first() is not None

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


# -- helpers ----------------------------------------------------------------------------

def _user(row) -> User:
    return User(row.id, row.name, row.role, bool(row.active), bool(row.hub), row.last_seen, row.role_setting)


def _used_up(code: str, max_uses: int) -> ValueError:
    return ValueError(f"the class code {code} has been used {max_uses} times, its limit: "
                      "ask your teacher for a new one")


def _check_admin_name(name: str, user: "User | None") -> None:
    """A ValueError when ``name`` (from ``GOLFLAB_ADMINS``) is held by ``user``, not an admin (nor an
    admin of ``GOLFLAB_ADMINS`` that it no longer named for a while)."""
    if user is not None and user.role != "admin" and user.role_setting != roles.ADMINS:
        raise ValueError(
            f"GOLFLAB_ADMINS names {name!r}, but {user.name!r} is already a {user.role} of this "
            f"store, with their own password: it is not made an admin. Put another name in GOLFLAB_ADMINS "
            f"(a new admin sets a password at first sign-in), or, if that account really is the admin's, "
            f"take the name out of GOLFLAB_ADMINS and promote it on purpose: "
            f"`python -m golflab class admin {user.name}`")


def _purge_rows(conn, now: float) -> dict[str, int]:
    """Delete the sessions ended by ``now`` and the failed sign-ins and wrong room codes that no
    longer count (see ``Store.purge``); how many of each."""
    sessions = conn.execute(T.sessions.delete().where(T.sessions.c.expires_at <= now)).rowcount
    return {"sessions": sessions, "failed sign-ins": forget_failures(conn, T.signin_failures, now),
            "wrong room codes": forget_failures(conn, T.room_code_failures, now)}


def _key(value: object, what: str) -> str:
    if not isinstance(value, str) or not 1 <= len(value) <= MAX_TEXT or not value.isprintable():
        raise ValueError(f"a {what} must be 1 to {MAX_TEXT} printable characters, got {security.shown(value)}")
    return value


def _schedule_review(conn, user_id: int, puzzle: str, correct: bool, now: float) -> "int | None":
    """Move the puzzle's review (``schedule``) and keep it; the days until it is due again, or None."""
    where = and_(T.reviews.c.user_id == user_id, T.reviews.c.puzzle == puzzle)
    row = conn.execute(select(T.reviews).where(where).with_for_update()).first()
    stage = schedule.next_stage(None if row is None else row.stage, correct)
    if stage is None:
        if row is not None:
            conn.execute(T.reviews.delete().where(where))
        return None
    days = schedule.days_until_due(stage)
    due = now + days * DAY
    if row is None:  # a racing page may insert it first: then this one updates it
        insert_if_new(conn, T.reviews, user_id=user_id, puzzle=puzzle, stage=stage, due_at=due)
    conn.execute(update(T.reviews).where(where).values(stage=stage, due_at=due))
    return days


def _streaks(conn, user_id: int) -> "tuple[int, int]":
    return progress.streaks(r.correct for r in conn.execute(select(T.puzzle_attempts.c.correct).where(
        T.puzzle_attempts.c.user_id == user_id).order_by(T.puzzle_attempts.c.id)))


def _exercise_rows(conn, user_ids: "list[int]") -> list:
    """The exercise attempts of ``user_ids`` in the order made, as ``progress.lesson_progress`` reads them."""
    a = T.exercise_attempts
    return conn.execute(select(a.c.user_id, a.c.lesson, a.c.item, a.c.correct, a.c.first_try, a.c.lesson_items)
                        .where(a.c.user_id.in_(user_ids)).order_by(a.c.id)).all()


def _solved_rows(conn, user_ids: "list[int]") -> list:
    """The solved puzzle attempts of ``user_ids``: (user_id, at)."""
    p = T.puzzle_attempts
    return conn.execute(select(p.c.user_id, p.c.at).where(and_(p.c.user_id.in_(user_ids),
                                                              p.c.correct.is_(True)))).all()


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
