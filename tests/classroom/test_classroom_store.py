"""The class store (golflab.classroom.Store), run against SQLite and PostgreSQL alike
(the ``database_url`` fixture: a fresh database of each kind per test)."""

from __future__ import annotations

import json
import socket
import time

import pytest
from sqlalchemy import inspect, text

from golflab import Game, Rules
from golflab.ai import CPUPlayer
from golflab.classroom import SchemaTooNew, SignedOut, Store, StoreUnavailable, User
from golflab.classroom import database as db
from golflab.classroom.schema import metadata
from golflab.classroom.security import token_hash


@pytest.fixture
def klass(store):
    teacher = store.create_user("mrs_lee", password="teach-123", role="teacher")
    k = store.create_class("6B", teacher=teacher)
    return teacher, k, store.create_invite(k, by=teacher, max_uses=3, expires_days=7)


def finished_game(players=("ann", "Sofia"), seed=3, rounds=1) -> Game:
    game = Game(players=list(players), rules=Rules(rounds=rounds), seed=seed)
    bots = [CPUPlayer("Marcus", seed=i) for i in range(len(players))]
    while game.phase != "game_over":
        if game.phase == "round_over":
            game.next_round()
        else:
            game.apply(bots[game.current_player].choose(game.observation(game.current_player)))
    return game


def snapshot(store: Store) -> dict:
    """Every row of every table: a refused call must leave this unchanged."""
    with store.engine.connect() as conn:
        return {t.name: sorted(map(tuple, conn.execute(t.select()).all()), key=repr)
                for t in metadata.sorted_tables}


# -- schema and migrations ----------------------------------------------------------------

def test_migrated_schema_is_the_declared_schema(store):
    """The migrations build exactly the tables and columns that schema.py declares."""
    from alembic.autogenerate import compare_metadata
    from alembic.runtime.migration import MigrationContext

    with store.engine.connect() as conn:
        diff = compare_metadata(MigrationContext.configure(conn), metadata)
    assert diff == []


def test_an_older_database_is_upgraded_on_open_and_keeps_its_data(database_url, clock):
    engine = db.make_engine(database_url)
    db.migrate(engine, target="0001")
    with engine.connect() as conn:
        assert db.current_revision(conn) == "0001"
        assert "games" not in inspect(conn).get_table_names()
    engine.dispose()
    engine = db.make_engine(database_url)  # an account written by version 0001, before progress existed
    with engine.begin() as conn:
        conn.execute(text("INSERT INTO users (name, name_key, role, active, hub, leaderboard, created_at) "
                          "VALUES ('ann', 'ann', 'learner', :t, :f, :f, 1.0)"), {"t": True, "f": False})
    engine.dispose()
    store = Store(database_url, clock=clock)
    with store.engine.connect() as conn:
        assert db.current_revision(conn) == db.head_revision()
    ann = store.user("ann")
    assert ann is not None and ann.role == "learner"
    assert store.games(ann, by=ann) == []
    store.close()


def test_a_newer_database_is_refused_with_a_clear_message(database_url):
    Store(database_url).close()
    engine = db.make_engine(database_url)
    with engine.begin() as conn:
        conn.execute(text("UPDATE alembic_version SET version_num = '9999'"))
    engine.dispose()
    with pytest.raises(SchemaTooNew, match="newer golflab.*'9999'.*upgrade golflab"):
        Store(database_url)


# -- accounts -----------------------------------------------------------------------------

def test_register_sign_in_and_sign_out(store, klass):
    teacher, k, invite = klass
    ann = store.register("ann", "pass-ann", invite)
    assert ann.role == "learner" and store.learners(k, by=teacher) == [store.user("ann")]
    token = store.sign_in("ANN", "pass-ann")  # names are one name in any case
    assert len(token) >= 43 and store.user_for(token).name == "ann"
    with store.engine.connect() as conn:  # the token is kept only as a hash
        kept = [r[0] for r in conn.execute(text("SELECT token_hash FROM sessions"))]
    assert token not in kept and token_hash(token) in kept
    other = store.sign_in("ann", "pass-ann")
    store.sign_out(token)
    assert store.user_for(token) is None and store.user_for(other) is not None


def test_passwords_are_argon2id_hashes(store):
    store.create_user("bob", password="pass-bob")
    with store.engine.connect() as conn:
        stored = conn.execute(text("SELECT password_hash FROM users WHERE name_key = 'bob'")).scalar_one()
    assert stored.startswith("$argon2id$") and "pass-bob" not in stored


def test_a_failed_sign_in_says_only_that_name_or_password_is_wrong(store):
    store.create_user("bob", password="pass-bob")
    for name, password in (("bob", "wrong-pass"), ("nobody", "pass-bob"), ("bob", ""), (None, "x")):
        with pytest.raises(ValueError, match=r"\Athe name or the password is wrong\Z"):
            store.sign_in(name, password)


def test_sign_in_is_throttled_after_repeated_failures(store, clock):
    store.create_user("bob", password="pass-bob")
    for _ in range(5):
        with pytest.raises(ValueError, match="wrong"):
            store.sign_in("bob", "guess-123")
    with pytest.raises(ValueError, match="too many wrong passwords.*try again in 3\\d seconds"):
        store.sign_in("bob", "pass-bob")  # even the right password waits
    clock.now += 31
    assert store.user_for(store.sign_in("bob", "pass-bob")).name == "bob"
    for _ in range(6):  # a success resets the count: five more are free again
        with pytest.raises(ValueError, match="wrong"):
            store.sign_in("bob", "guess-123")


def test_sessions_expire(store, clock):
    store.create_user("bob", password="pass-bob")
    token = store.sign_in("bob", "pass-bob")
    clock.days(29.9)
    assert store.user_for(token) is not None
    clock.days(0.2)
    assert store.user_for(token) is None


def _rows(store, table: str) -> int:
    with store.engine.connect() as conn:
        return conn.execute(text(f"SELECT COUNT(*) FROM {table}")).scalar_one()


def test_purge_forgets_ended_sessions_and_old_failures_and_keeps_the_rest(store, clock):
    """Expired sessions and failed sign-ins were never removed (issue 37): a school's store grew a row
    per sign-in for ever. A purge removes what can no longer matter, nothing that still does."""
    store.create_user("bob", password="pass-bob")
    store.create_user("eve", password="pass-eve")
    old = store.sign_in("bob", "pass-bob")
    clock.days(0.5)
    recent = store.sign_in("eve", "pass-eve")  # (this sign-in's own purge finds nothing old yet)
    for _ in range(6):  # eve's name from this source: locked for a minute
        with pytest.raises(ValueError):
            store.sign_in("eve", "guess-123")
    with pytest.raises(ValueError):
        store.sign_in("bob", "guess-123", source="10.0.0.9")
    clock.days(29.51)  # bob's first session has ended, eve's has not; those failures are a month old
    with pytest.raises(ValueError):
        store.sign_in("bob", "guess-123", source="10.0.0.8")
    assert (_rows(store, "sessions"), _rows(store, "signin_failures")) == (2, 3)
    assert store.purge() == {"sessions": 1, "failed sign-ins": 2, "wrong room codes": 0}
    assert store.user_for(recent) is not None and store.user_for(old) is None
    with store.engine.connect() as conn:  # the failure of this last hour still counts
        assert conn.execute(text("SELECT source FROM signin_failures")).scalars().all() == ["address:10.0.0.8"]
    assert store.purge() == {"sessions": 0, "failed sign-ins": 0, "wrong room codes": 0}


def test_a_sign_in_purges_at_most_once_an_hour(store, clock):
    from golflab.classroom.accounts import PURGE_EVERY

    store.create_user("bob", password="pass-bob")
    store.sign_in("bob", "pass-bob")  # session A (this process's first sign-in purges: nothing yet)
    clock.days(30)
    clock.now -= 600
    store.sign_in("bob", "pass-bob")  # B: purges, but A has 10 minutes left
    clock.now += 1200  # A has ended; the last purge was 20 minutes ago
    store.sign_in("bob", "pass-bob")  # C: no purge yet
    assert _rows(store, "sessions") == 3
    clock.now += PURGE_EVERY
    store.sign_in("bob", "pass-bob")  # D: purges, A goes
    assert _rows(store, "sessions") == 3


def test_deactivating_a_learner_ends_every_session_at_once(store, klass):
    teacher, k, invite = klass
    ann = store.register("ann", "pass-ann", invite)
    tokens = [store.sign_in("ann", "pass-ann") for _ in range(3)]
    store.deactivate(ann, by=teacher)
    assert [store.user_for(t) for t in tokens] == [None] * 3
    with pytest.raises(ValueError, match="name or the password is wrong"):
        store.sign_in("ann", "pass-ann")
    with pytest.raises(PermissionError, match="deactivated"):
        store.record_exercise(ann, "lesson1", "a", True, lesson_items=3)
    store.reactivate(ann, by=teacher)
    assert store.user_for(store.sign_in("ann", "pass-ann")).name == "ann"


def test_first_admin_sets_a_password_at_first_sign_in(database_url):
    store = Store(database_url, environ={"GOLFLAB_ADMINS": "root_admin"})
    admin = store.user("root_admin")
    assert admin.role == "admin"
    token = store.sign_in("root_admin", "chosen-pw")
    assert store.user_for(token).name == "root_admin"
    with pytest.raises(ValueError, match="wrong"):
        store.sign_in("root_admin", "another-pw")  # the first one set it
    store.close()


@pytest.mark.parametrize("role", ["learner", "teacher"])
def test_an_admin_name_already_held_by_a_learner_or_teacher_is_refused_at_start(database_url, store, klass, role):
    """GOLFLAB_ADMINS never promotes someone who registered that name first: the store refuses
    to open, naming the account and what to do, and nothing changes."""
    if role == "learner":
        store.register("Admin", "mine-123", klass[2])
    else:
        store.create_user("Admin", password="mine-123", role="teacher")
    before = snapshot(store)
    with pytest.raises(ValueError, match=f"GOLFLAB_ADMINS names 'admin', but 'Admin' is already a {role}.*"
                                         "not made an admin.*another name"):
        Store(database_url, environ={"GOLFLAB_ADMINS": "new_boss, admin"})
    assert snapshot(store) == before
    assert store.user("admin").role == role and store.user("new_boss") is None


@pytest.mark.parametrize("name", ["a", "x" * 33, "ann smith", "-ann", "ann;drop", "", "ánn\n", 7])
def test_bad_names_are_refused_saying_what_is_allowed(store, klass, name):
    before = snapshot(store)
    with pytest.raises(ValueError, match="2-32 characters: letters, digits"):
        store.register(name, "pass-123", klass[2])
    assert snapshot(store) == before


def test_invites_expire_run_out_and_can_be_deactivated(store, klass, clock):
    teacher, k, invite = klass
    for name in ("ann", "bob", "cat"):
        store.register(name, "pass-123", invite.lower())  # codes are read in any case
    before = snapshot(store)
    with pytest.raises(ValueError, match="used 3 times, its limit"):
        store.register("dan", "pass-123", invite)
    with pytest.raises(ValueError, match="no class has the code"):
        store.register("dan", "pass-123", "ACDEFGHJ")
    with pytest.raises(ValueError, match="is not an invite code: an invite code is 8 letters"):
        store.register("dan", "pass-123", "abc")
    assert snapshot(store) == before
    second = store.create_invite(k, by=teacher, expires_days=1)
    clock.days(1.01)
    with pytest.raises(ValueError, match="has expired"):
        store.register("dan", "pass-123", second)
    third = store.create_invite(k, by=teacher)
    store.deactivate_invite(third, by=teacher)
    with pytest.raises(ValueError, match="no longer in use"):
        store.register("dan", "pass-123", third)
    assert store.user("dan") is None


def test_taken_names_are_refused(store, klass):
    store.register("ann", "pass-123", klass[2])
    with pytest.raises(ValueError, match="taken"):
        store.register("Ann", "pass-456", klass[2])
    with pytest.raises(ValueError, match="taken"):
        store.create_user("ANN", password="pass-456")


def test_only_teachers_create_classes_and_only_their_own_invites(store, klass):
    teacher, k, invite = klass
    ann = store.register("ann", "pass-123", invite)
    other = store.create_user("mr_ray", password="teach-456", role="teacher")
    with pytest.raises(PermissionError):
        store.create_class("7A", teacher=ann)
    with pytest.raises(PermissionError):
        store.create_invite(k, by=other)
    with pytest.raises(PermissionError):
        store.learners(k, by=ann)
    with pytest.raises(PermissionError):
        store.deactivate(ann, by=other)
    with pytest.raises(PermissionError):
        store.reset_password(teacher, "new-pass", by=ann)


def test_reset_password(store, klass):
    teacher, k, invite = klass
    ann = store.register("ann", "pass-123", invite)
    old = store.sign_in("ann", "pass-123")
    store.reset_password(ann, "fresh-456", by=teacher)
    assert store.user_for(old) is None
    assert store.user_for(store.sign_in("ann", "fresh-456")).name == "ann"


def test_a_teacher_or_admin_never_joins_a_class_as_a_member(store, klass):
    teacher, k, invite = klass
    other = store.create_user("mr_ray", password="teach-456", role="teacher")
    boss = store.create_user("head", password="admin-456", role="admin")
    before = snapshot(store)
    for user, role in [(other, "teacher"), (boss, "admin")]:
        with pytest.raises(ValueError, match=f"{user.name} is a {role}: only learners join a class"):
            store.join_class(user, invite)
    assert snapshot(store) == before
    with pytest.raises(PermissionError):
        store.reset_password(other, "taken-over", by=teacher)


def test_a_teacher_never_manages_another_teacher_or_an_admin_even_as_a_member(store, klass):
    """Membership rows made directly (an older store, a hand-made row) give no power over a
    teacher's or an admin's account."""
    from golflab.classroom import schema

    teacher, k, invite = klass
    other = store.create_user("mr_ray", password="teach-456", role="teacher")
    boss = store.create_user("head", password="admin-456", role="admin")
    with store.engine.begin() as conn:
        for user in (other, boss):
            conn.execute(schema.members.insert().values(class_id=k.id, user_id=user.id, joined_at=0.0))
    before = snapshot(store)
    for user in (other, boss):
        with pytest.raises(PermissionError, match=f"may not manage {user.name}'s account"):
            store.reset_password(user, "taken-over", by=teacher)
        with pytest.raises(PermissionError):
            store.games(user, by=teacher)
    assert snapshot(store) == before
    assert store.user_for(store.sign_in("mr_ray", "teach-456")).name == "mr_ray"
    ann = store.register("ann", "pass-123", invite)
    assert store.learners(k, by=teacher) == [store.user_by_id(ann.id)]  # the class's learners only
    assert [row["name"] for row in store.roster(k, by=teacher)] == ["ann"]


@pytest.fixture
def argon2_calls(monkeypatch):
    """The passwords argon2 hashes and checks, by kind (the work a request costs)."""
    from argon2 import PasswordHasher

    calls: dict[str, list[int]] = {"hash": [], "verify": []}
    for kind in calls:
        real = getattr(PasswordHasher, kind)
        monkeypatch.setattr(PasswordHasher, kind, lambda self, *args, _real=real, _kind=kind, **kw: (
            calls[_kind].append(len(args[-1])), _real(self, *args, **kw))[1])
    return calls


def test_a_refused_sign_in_has_the_same_words_and_work_whatever_the_name(store, klass, argon2_calls):
    teacher, k, invite = klass
    store.register("ann", "pass-123", invite)
    store.deactivate(store.register("bob", "pass-456", invite), by=teacher)
    argon2_calls["verify"].clear()
    for name, password in (("ann", "wrong-pw"), ("nobody", "wrong-pw"), ("bob", "pass-456"), ("bob", "wrong-pw")):
        with pytest.raises(ValueError, match=r"\Athe name or the password is wrong\Z"):
            store.sign_in(name, password)
    assert argon2_calls["verify"] == [8, 8, 8, 8]  # one argon2 check each, the unknown name's too


def test_a_too_long_password_is_refused_before_any_hashing(store, klass, argon2_calls):
    store.register("ann", "pass-123", klass[2])
    before, argon2_calls["hash"][:] = snapshot(store), []
    with pytest.raises(ValueError, match="a password is at most 128 characters long"):
        store.sign_in("ann", "x" * 10_000_000)
    with pytest.raises(ValueError, match="a password must be 6 to 128 characters long"):
        store.register("cat", "x" * 10_000_000, klass[2])
    assert snapshot(store) == before and argon2_calls == {"hash": [], "verify": []}


def test_register_checks_the_invite_before_hashing_the_password(store, klass, argon2_calls):
    invite = klass[2]
    for name in ("ann", "bob", "cat"):  # its max_uses
        store.register(name, "pass-123", invite)
    before, argon2_calls["hash"][:] = snapshot(store), []
    for code, words in (("AAAAAAAA", "no class has the code"), (invite, "used 3 times, its limit")):
        with pytest.raises(ValueError, match=words):
            store.register("dan", "pass-789", code)
    assert snapshot(store) == before and argon2_calls["hash"] == []


# -- progress -----------------------------------------------------------------------------

def test_games_are_kept_and_given_back(store, klass, clock):
    ann = store.register("ann", "pass-123", klass[2])
    first = finished_game(seed=3)
    store.record_game(ann, first, 0, accuracy=81.5, blunders=1)
    clock.days(1)
    second = finished_game(seed=4, rounds=2)
    store.record_game(ann, second, 0)
    records = store.games(ann, by=ann)
    assert [r.seed for r in records] == ["4", "3"]  # newest first
    assert records[1].game().to_json() == first.to_json()
    assert records[1].points == first.totals[0] and records[1].accuracy == 81.5
    stats = store.learner_stats(ann, by=ann)
    assert stats.games == 2 and stats.blunders_per_game == 1
    assert stats.points_per_hole == pytest.approx((first.totals[0] + second.totals[0]) / 3)


def test_an_unfinished_game_or_a_bad_seat_is_refused(store, klass):
    ann = store.register("ann", "pass-123", klass[2])
    before = snapshot(store)
    with pytest.raises(ValueError, match="not over yet"):
        store.record_game(ann, Game(players=2, seed=1), 0)
    with pytest.raises(ValueError, match="seat must be a seat of the game, 0 to 1"):
        store.record_game(ann, finished_game(), 2)
    with pytest.raises(ValueError, match="accuracy must be a number from 0 to 100"):
        store.record_game(ann, finished_game(), 0, accuracy=101)
    assert snapshot(store) == before


def test_a_learner_reads_only_their_own_records(store, klass):
    teacher, k, invite = klass
    ann = store.register("ann", "pass-123", invite)
    bob = store.register("bob", "pass-123", invite)
    record = store.record_game(ann, finished_game(), 0)
    for call in (lambda: store.games(ann, by=bob), lambda: store.game_record(record.id, by=bob),
                 lambda: store.lesson_progress(ann, by=bob), lambda: store.puzzle_profile(ann, by=bob),
                 lambda: store.learner_stats(ann, by=bob), lambda: store.roster(k, by=bob),
                 lambda: store.export_csv(k, by=bob), lambda: store.stuck(k, by=bob)):
        with pytest.raises(PermissionError):
            call()
    assert store.games(ann, by=teacher)[0].id == record.id  # the teacher of ann's class may
    outsider = store.create_user("mr_ray", password="teach-456", role="teacher")
    with pytest.raises(PermissionError):
        store.games(ann, by=outsider)
    forged = User(ann.id, "bob", "admin")  # a made-up user object gains nothing
    with pytest.raises(PermissionError):
        store.games(ann, by=forged)


def test_queries_are_parameterized(store, klass):
    """A name or key built to break out of a string literal is stored as text, nothing more."""
    ann = store.register("ann", "pass-123", klass[2])
    evil = "x'); DROP TABLE users; --"
    store.record_exercise(ann, evil, evil, True, lesson_items=1, skill=evil)
    store.record_puzzle(ann, evil, False)
    assert evil in store.lesson_progress(ann, by=ann)
    assert store.user("ann") is not None
    with pytest.raises(ValueError, match="the name or the password is wrong"):
        store.sign_in("ann' OR '1'='1", "x' OR '1'='1")


def test_lesson_stars_count_first_tries(store, klass):
    ann = store.register("ann", "pass-123", klass[2])
    assert store.record_exercise(ann, "lesson1", "a", False, lesson_items=5) is True
    assert store.record_exercise(ann, "lesson1", "a", True, lesson_items=5) is False  # a retry is no first try
    for item in "bcde":
        store.record_exercise(ann, "lesson1", item, True, lesson_items=5)
    progress = store.lesson_progress(ann, by=ann)["lesson1"]
    assert (progress.answered, progress.first_try_right, progress.stars, progress.done) == (5, 4, 2, True)
    for item in "abcd":
        store.record_exercise(ann, "lesson2", item, True, lesson_items=5)
    assert store.lesson_progress(ann, by=ann)["lesson2"].stars == 0  # not all answered yet


def test_puzzles_rate_both_sides_keep_the_streak_and_bring_misses_back(store, klass, clock):
    ann = store.register("ann", "pass-123", klass[2])
    first = store.record_puzzle(ann, "p1", True)
    assert first.rating > 1500 and first.streak == 1
    assert store.puzzle_rating("p1").rating < 1500  # the puzzle lost
    store.record_puzzle(ann, "p2", True)
    missed = store.record_puzzle(ann, "p3", False, skill="pairs")
    assert missed.streak == 0 and missed.review_in_days == 1
    assert store.puzzle_profile(ann, by=ann).best_streak == 2
    assert store.puzzle_profile(ann, by=ann).due == ()
    clock.days(1)
    assert store.puzzle_profile(ann, by=ann).due == ("p3",)
    assert store.record_puzzle(ann, "p3", True).review_in_days == 3
    clock.days(3)
    assert store.record_puzzle(ann, "p3", True).review_in_days == 7
    clock.days(7)
    assert store.puzzle_profile(ann, by=ann).due == ("p3",)
    assert store.record_puzzle(ann, "p3", True).review_in_days is None  # retired
    clock.days(30)
    assert store.puzzle_profile(ann, by=ann).due == ()


def test_assignments_reach_the_learners_with_their_progress(store, klass, clock):
    teacher, k, invite = klass
    ann = store.register("ann", "pass-123", invite)
    store.create_assignment(k, by=teacher, lesson="lesson1", puzzles=2, difficulty="easy", due_days=3)
    with pytest.raises(ValueError, match="needs a lesson, some puzzles"):
        store.create_assignment(k, by=teacher)
    with pytest.raises(PermissionError):
        store.create_assignment(k, by=ann, puzzles=1)
    store.record_puzzle(ann, "p1", True)
    store.record_exercise(ann, "lesson1", "a", True, lesson_items=1)
    [a] = store.assignments(ann)
    assert (a.lesson, a.puzzles, a.lesson_done, a.puzzles_solved) == ("lesson1", 2, True, 1)
    assert a.due_at == pytest.approx(clock.now + 3 * 86_400)


def test_roster_stuck_csv_and_leaderboard(store, klass):
    teacher, k, invite = klass
    ann = store.register("ann", "pass-123", invite)
    bob = store.register("bob", "pass-123", invite)
    for item in "abc":
        store.record_exercise(bob, "lesson2", item, False, lesson_items=3, skill="scoring")
    store.record_exercise(ann, "lesson2", "a", False, lesson_items=3, skill="scoring")
    store.record_exercise(ann, "lesson2", "b", True, lesson_items=3, skill="scoring")
    store.record_puzzle(ann, "p1", True)
    rows = store.roster(k, by=teacher)
    assert [r["name"] for r in rows] == ["ann", "bob"]
    assert store.stuck(k, by=teacher) == [{"name": "bob", "skill": "scoring", "misses": 3}]
    lines = store.export_csv(k, by=teacher).splitlines()
    assert lines[0].startswith("name,active,last_seen,games") and len(lines) == 3
    assert store.leaderboard(k, by=ann) == []
    store.set_leaderboard(ann, True, by=ann)
    assert [r["name"] for r in store.leaderboard(k, by=bob)] == ["ann"]
    with pytest.raises(PermissionError):
        store.set_leaderboard(bob, True, by=ann)


def test_jupyterhub_users_need_no_sign_in(store):
    from golflab.classroom import current_user

    env = {"JUPYTERHUB_USER": "alice@school.org", "GOLFLAB_TEACHERS": "mrs_lee"}
    alice = current_user(store, env)
    assert (alice.name, alice.role, alice.hub) == ("alice@school.org", "learner", True)
    assert current_user(store, env).id == alice.id
    assert current_user(store, {**env, "JUPYTERHUB_USER": "mrs_lee"}).role == "teacher"


def test_the_session_cookie_names_the_user(store):
    from golflab.classroom import current_user

    store.create_user("bob", password="pass-bob")
    token = store.sign_in("bob", "pass-bob")
    assert current_user(store, {"HTTP_COOKIE": f"_xsrf=abc; golflab_session={token}"}).name == "bob"
    assert current_user(store, {"HTTP_COOKIE": "golflab_session=forged-token-forged-token"}) is None
    assert current_user(store, {}) is None


# -- faults -------------------------------------------------------------------------------

def test_a_database_that_cannot_be_written_is_reported_plainly(tmp_path):
    path = tmp_path / "golflab.db"
    Store(f"sqlite:///{path}").close()
    store = Store(f"sqlite:///file:{path}?mode=ro&uri=true")
    with pytest.raises(StoreUnavailable, match="progress could not be kept.*readonly"):
        store.create_user("bob", password="pass-bob")
    store.close()


def test_a_missing_directory_is_reported_plainly(tmp_path):
    with pytest.raises(StoreUnavailable, match="cannot be opened"):
        Store(f"sqlite:///{tmp_path}/no/such/dir/golflab.db")


def test_settings_come_from_the_environment_then_dotenv_then_defaults(tmp_path, monkeypatch):
    from golflab.classroom import settings

    monkeypatch.chdir(tmp_path)
    assert settings.database_url({}) == "sqlite:///golflab.db"
    (tmp_path / ".env").write_text("# local\nDATABASE_URL='sqlite:///from-dotenv.db'\nGOLFLAB_SESSION_DAYS=3\n")
    assert settings.database_url({}) == "sqlite:///from-dotenv.db"
    assert settings.database_url({"DATABASE_URL": "sqlite:///env.db"}) == "sqlite:///env.db"
    assert settings.database_url({"GOLFLAB_DATABASE_URL": "sqlite:///g.db", "DATABASE_URL": "x"}) == "sqlite:///g.db"
    assert settings.session_days({}) == 3
    with pytest.raises(ValueError, match="GOLFLAB_SESSION_DAYS must be a whole number of days from 1 to 365"):
        settings.session_days({"GOLFLAB_SESSION_DAYS": "0"})


def test_record_game_keeps_the_players_and_rules(store, klass):
    ann = store.register("ann", "pass-123", klass[2])
    game = finished_game(players=("ann", "Maya", "Sofia"))
    record = store.record_game(ann, game, 0)
    assert record.players == ("ann", "Maya", "Sofia") and record.rules == json.loads(game.to_json())["rules"]


def test_a_page_signed_out_or_expired_is_refused_its_next_action_and_nothing_is_written(store, klass, clock):
    teacher, k, invite = klass
    store.register("ann", "pass-ann", invite)
    ann_token, lee_token = store.sign_in("ann", "pass-ann"), store.sign_in("mrs_lee", "teach-123")
    signed_out, lee = store.user_for(ann_token), store.user_for(lee_token)
    expiring = store.user_for(store.sign_in("ann", "pass-ann"))  # another open page, its own session
    store.record_puzzle(signed_out, "p1", True)  # while signed in, the page's actions go through
    store.sign_out(store.sign_in("ann", "pass-ann"))  # another session's end changes nothing here
    store.record_puzzle(signed_out, "p2", True)
    store.sign_out(ann_token)
    store.sign_out(lee_token)
    before = snapshot(store)
    clock.days(31)
    refused = [lambda: store.record_puzzle(signed_out, "p3", True),
               lambda: store.record_puzzle(expiring, "p3", True),
               lambda: store.create_room(expiring, Rules(rounds=1), seats=2),
               lambda: store.reset_password(store.user("ann"), "other-789", by=lee),
               lambda: store.create_class("7C", lee)]
    for action in refused:
        with pytest.raises(SignedOut, match=r"signed out .*sign in again.*nothing was changed"):
            action()
    assert snapshot(store) == before
    assert store.user_for(store.sign_in("ann", "pass-ann")).name == "ann"  # the password is unchanged


def test_a_session_checked_while_its_password_is_reset_does_not_live_on(store, klass):
    teacher, k, invite = klass
    ann = store.register("ann", "pass-123", invite)
    other = store.sign_in("ann", "pass-123")
    racing = store.user_for(store.sign_in("ann", "pass-123"))  # checked just before the reset ends it
    store.reset_password(ann, "fresh-456", by=teacher)
    assert store.user_for(other) is None
    with pytest.raises(SignedOut):
        store.record_puzzle(racing, "p1", True)
    assert store.puzzle_profile(ann, by=teacher).attempts == 0


# -- timeouts ------------------------------------------------------------------------------

def test_a_database_that_accepts_and_never_answers_fails_within_the_connect_timeout():
    with socket.socket() as server:  # accepts connections (the kernel's backlog) and never answers
        server.bind(("127.0.0.1", 0))
        server.listen()
        port = server.getsockname()[1]
        started = time.monotonic()
        with pytest.raises(StoreUnavailable, match=r"did not answer in time \(no connection within 2 s\)") as caught:
            Store(f"postgresql://secret_user:secret_pw@127.0.0.1:{port}/secret_db",
                  environ={"GOLFLAB_DB_CONNECT_TIMEOUT": "2"})
        assert time.monotonic() - started < 9
    for secret in ("secret_user", "secret_pw", "127.0.0.1", str(port), "secret_db"):
        assert secret not in str(caught.value)


def test_a_statement_that_runs_too_long_is_cancelled_and_changes_nothing(postgres_url):
    store = Store(postgres_url, environ={"GOLFLAB_DB_STATEMENT_TIMEOUT": "1"})
    try:
        store.create_user("bob", password="pass-bob")
        before = snapshot(store)
        started = time.monotonic()
        with pytest.raises(StoreUnavailable, match=r"did not answer in time \(a request ran past its 1 s\)") as caught:
            store.transaction(lambda conn: (conn.execute(text("DELETE FROM users")),
                                            conn.execute(text("SELECT pg_sleep(10)"))))
        assert time.monotonic() - started < 6 and "postgres" not in str(caught.value)
        assert snapshot(store) == before
    finally:
        store.close()


@pytest.mark.parametrize("value", ["0", "-1", "ten", "100000"])
def test_a_bad_timeout_setting_is_refused_saying_what_is_allowed(value):
    with pytest.raises(ValueError, match="GOLFLAB_DB_CONNECT_TIMEOUT must be a number of seconds"):
        Store("sqlite://", environ={"GOLFLAB_DB_CONNECT_TIMEOUT": value})


def test_a_password_written_with_at_signs_and_slashes_reaches_the_right_server(postgres):
    """Issue 37: a raw ``@`` in the URL's password split it wrongly (the host read as ``ss@db``)."""
    scheme, rest = postgres.new_database().split("://", 1)
    user, where = rest.split("@", 1)
    url = f"{scheme}://{user}:p@ss/w:rd@{where}"  # the test cluster trusts its user: any password connects
    store = Store(url)
    try:
        assert store.user("nobody") is None  # the store answered: it reached the test cluster
        assert "p@ss" not in repr(store) and ":***@" in repr(store)
    finally:
        store.close()
    assert db.url_shown(url).endswith(f":***@{where}")


def test_a_sqlite_path_with_an_at_sign_is_a_path(tmp_path):
    folder = tmp_path / "a@b"
    folder.mkdir()
    url = f"sqlite:///{folder / 'golflab.db'}"
    Store(url).close()
    assert (folder / "golflab.db").exists()
