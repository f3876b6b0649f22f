"""Classes, their invite codes and members: a teacher's classes, who teaches or is in which, and the
teacher's view of a class (the roster and its CSV, stuck learners, the opted-in leaderboard).
Who may call what: ``permissions.TABLE``.
"""

from __future__ import annotations

from sqlalchemy import and_, insert, select, update

from . import database, export, progress, schema, security
from .glicko2 import Rating
from .progress_store import exercise_rows
from .records import Klass, User
from .rows import learner_rows, rating_of
from .schedule import DAY

MAX_INVITE_USES, MAX_INVITE_DAYS = 1000, 365
STUCK_MISSES = progress.STUCK_MISSES

T = schema


class ClassesMixin:
    """The class store's classes, invites and members, and the teacher's view (mixed into ``Store``)."""

    # -- classes and invites ------------------------------------------------------------

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

    def hand_over_class(self, klass: Klass, teacher: User, *, by: User) -> Klass:
        """``klass`` taught by ``teacher`` (a teacher or an admin) from now on: its learners, invites,
        assignments, sets and rooms stay; the former teacher no longer sees it. An admin does this
        (a teacher who left, or whose name was taken out of ``GOLFLAB_TEACHERS``)."""
        now = self.class_by_id(klass.id)
        if now.teacher_id == teacher.id:
            raise ValueError(f"{teacher.name} already teaches the class {now.name}")
        if self.is_member(teacher, now):
            raise ValueError(f"{teacher.name} is a member of the class {now.name}, so cannot teach it")
        self.transaction(lambda conn: conn.execute(
            update(T.classes).where(T.classes.c.id == now.id).values(teacher_id=teacher.id)))
        return self.class_by_id(now.id)

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
            return class_learners(conn, klass)

    # -- who teaches or is in a class (the permission rules ask) ------------------------

    def class_by_id(self, class_id: int) -> Klass:
        """The class of that id as the store holds it now (a room's, a set's); a ValueError when
        it holds none (a class object made up, or from another store)."""
        with database.reading(self.engine) as conn:
            row = conn.execute(select(T.classes).where(T.classes.c.id == class_id)).first()
        if row is None:
            raise ValueError(f"this store has no class of id {security.shown(class_id)}: "
                             "use a class the store gave (a code, a class list)")
        return Klass.from_row(row)

    def teaches(self, actor: User, klass: Klass) -> bool:
        """Whether ``actor`` teaches ``klass`` (an admin teaches every class); a ValueError when
        the store holds no such class (``class_by_id``)."""
        now = self.class_by_id(klass.id)
        return actor.role == "admin" or (actor.role == "teacher" and now.teacher_id == actor.id)

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
            learners = class_learners(conn, klass)
            ids = [u.id for u in learners]
            games = progress.group(conn.execute(
                select(g.c.user_id, g.c.holes, g.c.points, g.c.accuracy, g.c.blunders, g.c.played_at)
                .where(g.c.user_id.in_(ids)).order_by(g.c.played_at.desc(), g.c.id.desc())))
            ratings = dict(conn.execute(select(T.ratings.c.subject, T.ratings.c.rating).where(
                T.ratings.c.subject.in_([f"user:{i}" for i in ids]))).all())
            puzzles = progress.group(conn.execute(select(p.c.user_id, p.c.correct).where(p.c.user_id.in_(ids))
                                                  .order_by(p.c.id)))
            lessons = progress.group(exercise_rows(conn, ids))
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
            learners = class_learners(conn, klass)
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


def class_learners(conn, klass: Klass) -> list[User]:
    """The class's learners, by name (a teacher or admin among its members is none of them)."""
    return [User.from_row(r) for r in learner_rows(conn, klass.id)]
