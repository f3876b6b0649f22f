"""Progress kept in the class store: a learner's finished games, lesson exercises and puzzle attempts
(their Glicko-2 ratings and the reviews of missed puzzles), and what is read back from them. The
rules that turn these rows into stats, stars and streaks are plain values in ``progress``. Who may
call what: ``permissions.TABLE``.
"""

from __future__ import annotations

import json

from sqlalchemy import and_, func, insert, select, update

from golflab.game import Phase

from . import database, progress, schedule, schema, security
from .glicko2 import Rating, duel
from .records import GameRecord, LearnerStats, LessonProgress, PuzzleProfile, PuzzleResult, User
from .rooms import kept_from_room
from .rows import insert_if_new, rating_of, save_rating
from .schedule import DAY

MAX_TEXT = 128  # lesson, item, puzzle and skill keys

T = schema


class ProgressMixin:
    """The class store's games, exercises and puzzles (mixed into ``Store``)."""

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
        return User.from_row(row)

    def learner_stats(self, user: User, *, by: User) -> LearnerStats:
        """Games played, points per hole, the accuracy trend and blunders per game."""
        return progress.learner_stats(self.games(user, by=by, limit=10_000))

    # -- progress: lessons --------------------------------------------------------------

    def record_exercise(self, user: User, lesson: str, item: str, correct: bool, *, lesson_items: int,
                        skill: "str | None" = None) -> bool:
        """Keep an attempt at a lesson's exercise; True when it was the item's first try."""
        actor = user
        check_key(lesson, "lesson")
        check_key(item, "item")
        if skill is not None:
            check_key(skill, "skill")
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
            return progress.lesson_progress(exercise_rows(conn, [user.id]))

    def exercise_results(self, user: User, lesson: str, *, by: User) -> dict[str, bool]:
        """Each answered item of ``lesson``: was its latest attempt right (for the ticks a lesson shows)."""
        check_key(lesson, "lesson")
        a = T.exercise_attempts
        with database.reading(self.engine) as conn:
            rows = conn.execute(select(a.c.item, a.c.correct).where(and_(a.c.user_id == user.id, a.c.lesson == lesson))
                                .order_by(a.c.id)).all()
        return {r.item: bool(r.correct) for r in rows}

    # -- progress: puzzles --------------------------------------------------------------

    def record_puzzle(self, user: User, puzzle: str, correct: bool, *, skill: "str | None" = None) -> PuzzleResult:
        """Keep a puzzle attempt: both Glicko-2 ratings move, the streak, and a missed puzzle's review."""
        actor = user
        check_key(puzzle, "puzzle")
        if skill is not None:
            check_key(skill, "skill")
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
            return rating_of(conn, f"puzzle:{check_key(puzzle, 'puzzle')}")


def check_key(value: object, what: str) -> str:
    """``value``, a lesson, item, puzzle or skill key (``what``), if it is 1 to MAX_TEXT printable
    characters; else a ValueError that says so."""
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


def exercise_rows(conn, user_ids: "list[int]") -> list:
    """The exercise attempts of ``user_ids`` in the order made, as ``progress.lesson_progress`` reads them."""
    a = T.exercise_attempts
    return conn.execute(select(a.c.user_id, a.c.lesson, a.c.item, a.c.correct, a.c.first_try, a.c.lesson_items)
                        .where(a.c.user_id.in_(user_ids)).order_by(a.c.id)).all()


def solved_rows(conn, user_ids: "list[int]") -> list:
    """The solved puzzle attempts of ``user_ids``: (user_id, at)."""
    p = T.puzzle_attempts
    return conn.execute(select(p.c.user_id, p.c.at).where(and_(p.c.user_id.in_(user_ids),
                                                              p.c.correct.is_(True)))).all()
