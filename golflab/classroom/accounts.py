"""Accounts and sign-in: users made by hand, by JupyterHub and by ``GOLFLAB_ADMINS`` (their roles
settled by ``roles``), learners who register or join a class with an invite code, sign-in sessions
(wrong passwords waited out by ``throttle``), and an account managed by its teacher or an admin.
Who may call what: ``permissions.TABLE``.
"""

from __future__ import annotations

import logging
from dataclasses import replace

from sqlalchemy import and_, func, insert, select, update
from sqlalchemy.engine import Row
from sqlalchemy.exc import IntegrityError

from . import database, permissions, roles, schema, security, throttle
from .records import ROLES, Klass, User
from .rows import count_failure, forget_failures, insert_if_new, throttle_row
from .schedule import DAY

PURGE_EVERY = 3_600.0  # seconds between a process's purges of ended sessions and old failures

T = schema
#: The store's log (its name kept from when the store was one module: an operator's logging may name it).
log = logging.getLogger("golflab.classroom.store")


class AccountsMixin:
    """The class store's accounts and sign-in sessions (mixed into ``Store``)."""

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
            one = taught == 1
            left = (f"; {'the class' if one else f'the {taught} classes'} they teach stay{'s' if one else ''} whole, "
                    f"reached by an admin, who may hand {'it' if one else 'them'} to another teacher (golflab class "
                    "hand-over), and theirs again once the name is back") if taught else ""
        log.warning("%s no longer names %s: a %s now, no longer a %s%s", setting, user.name, role, user.role, left)

    def user(self, name: str) -> "User | None":
        """The user of that name (any case), or None."""
        key = security.lookup_key(name)
        if key is None:
            return None
        with database.reading(self.engine) as conn:
            row = conn.execute(select(T.users).where(T.users.c.name_key == key)).first()
        return User.from_row(row) if row else None

    def user_by_id(self, user_id: int) -> "User | None":
        with database.reading(self.engine) as conn:
            row = conn.execute(select(T.users).where(T.users.c.id == user_id)).first()
        return User.from_row(row) if row else None

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
        user = None if row is None else User.from_row(row)
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
            self.touch(User.from_row(row))
        return self._settle(replace(User.from_row(row), session=security.token_hash(token)), teacher=None)

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

    # -- an account managed by its teacher or an admin ----------------------------------

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
