"""The class store when its PostgreSQL is down or hangs (issue 37, Medium 7): every store call,
reads included, fails as ``StoreUnavailable`` in a plain sentence that names no user, host, port
or database; the sign-in pages answer with it; what the learner did is held and kept later.

The session's real PostgreSQL cluster is stopped (``PostgresServer.down``) and started again;
a hang is a transaction that holds every table locked, so each statement waits until the
store's statement timeout cancels it.
"""

from __future__ import annotations

import contextlib
import re

import pytest

from golflab import Game, Rules
from golflab.ai import CPUPlayer
from golflab.classroom import Store, StoreUnavailable
from golflab.classroom.rooms import count_moves

TIMEOUTS = {"GOLFLAB_DB_CONNECT_TIMEOUT": "2", "GOLFLAB_DB_STATEMENT_TIMEOUT": "1"}


def finished_game(players=("ann", "Sofia"), seed=3) -> Game:
    game = Game(players=list(players), rules=Rules(rounds=1), seed=seed)
    bots = [CPUPlayer("Marcus", seed=i) for i in range(len(players))]
    while game.phase != "game_over":
        game.apply(bots[game.current_player].choose(game.observation(game.current_player)))
    return game


@pytest.fixture
def school(postgres):
    url = postgres.new_database()
    store = Store(url, environ=TIMEOUTS)
    teacher = store.create_user("mrs_lee", password="teach-123", role="teacher")
    klass = store.create_class("6B", teacher=teacher)
    ann = store.register("ann", "pass-ann", store.create_invite(klass, by=teacher))
    token = store.sign_in("ann", "pass-ann")
    room = store.create_room(ann, Rules(rounds=1), seats=2, cpus=["Sofia"])
    room.start(by=ann)
    yield store, teacher, klass, ann, token, room, url
    store.close()


def every_call(store, teacher, klass, ann, token, room):
    """Each public store call a page or the sign-in server makes, by name (a puzzle set with an item
    made first, while the database answers)."""
    sets = store.create_puzzle_set(klass, "Sets", by=teacher)
    item = store.add_set_item(sets, "KH 5D ? ? ? 2C / 9S ? ? ? 7H ?; discard 4S; deck 38; seat 1 holds 8D",
                              "discard", by=teacher, title="Keep or not")
    return {
        "user": lambda: store.user("ann"), "user_by_id": lambda: store.user_by_id(ann.id),
        "user_for": lambda: store.user_for(token), "fresh_user": lambda: store.fresh_user(ann),
        "sign_in": lambda: store.sign_in("ann", "pass-ann"), "sign_out": lambda: store.sign_out(token),
        "check_invite": lambda: store.check_invite("ACDEFGHJ"), "classes": lambda: store.classes(teacher),
        "klass": lambda: store.klass(klass.code), "learners": lambda: store.learners(klass, by=teacher),
        "games": lambda: store.games(ann, by=ann), "lesson_progress": lambda: store.lesson_progress(ann, by=ann),
        "puzzle_profile": lambda: store.puzzle_profile(ann, by=ann), "assignments": lambda: store.assignments(ann),
        "roster": lambda: store.roster(klass, by=teacher), "stuck": lambda: store.stuck(klass, by=teacher),
        "export_csv": lambda: store.export_csv(klass, by=teacher),
        "leaderboard": lambda: store.leaderboard(klass, by=teacher),
        "record_puzzle": lambda: store.record_puzzle(ann, "p1", True),
        "record_game": lambda: store.record_game(ann, finished_game(), 0),
        "room": lambda: store.room(room.code), "room.refresh": room.refresh,
        "count_moves": lambda: count_moves(store, room.code), "rooms": lambda: store.rooms(klass, by=teacher),
        "open_room_of": lambda: store.open_room_of(ann), "table_rating": lambda: store.table_rating(ann),
        "create_room": lambda: store.create_room(ann, seats=2),
        "puzzle_sets": lambda: store.puzzle_sets(klass, by=ann), "set_items": lambda: store.set_items(sets, by=ann),
        "record_set_answer": lambda: store.record_set_answer(ann, item.id, "discard"),
        "set_progress": lambda: store.set_progress(ann, sets, by=ann),
        "set_results": lambda: store.set_results(sets, by=teacher),
        "add_set_item": lambda: store.add_set_item(sets, item.position, "discard", by=teacher, title="Again"),
    }


def plain(message: str, url: str) -> None:
    """A sentence a learner may read: no driver's class, no part of the database's address."""
    assert "sqlalchemy" not in message.lower() and "psycopg" not in message.lower()
    address = re.match(r".*//(?P<user>\w+)@(?P<host>[\d.]+):(?P<port>\d+)/(?P<db>\w+)", url)
    for secret in address.groups():
        assert secret not in message, (secret, message)


def test_with_postgresql_stopped_every_store_call_says_it_cannot_be_reached(postgres, school):
    store, teacher, klass, ann, token, room, url = school
    calls = every_call(store, teacher, klass, ann, token, room)
    with postgres.down():
        for call in calls.values():
            with pytest.raises(StoreUnavailable, match="cannot be reached just now") as caught:
                call()
            plain(str(caught.value), url)
    assert store.user_for(token).name == "ann"  # started again: the same store goes on
    assert store.puzzle_profile(ann, by=ann).attempts == 0  # nothing was half-kept


@contextlib.contextmanager
def hung(postgres, url):
    """Every table of ``url``'s database held locked by another transaction (the store's statements wait)."""
    import psycopg

    database = url.rsplit("/", 1)[1]
    with psycopg.connect(host=postgres.host, port=postgres.port, user=postgres.user, dbname=database) as conn:
        tables = [r[0] for r in conn.execute("SELECT tablename FROM pg_tables WHERE schemaname = 'public'")]
        conn.execute("LOCK TABLE " + ", ".join(f'"{t}"' for t in tables) + " IN ACCESS EXCLUSIVE MODE")
        yield
        conn.rollback()


def test_with_postgresql_hung_reads_and_writes_say_it_did_not_answer(postgres, school):
    store, teacher, klass, ann, token, room, url = school
    calls = every_call(store, teacher, klass, ann, token, room)
    with hung(postgres, url):
        for name in ("user_for", "fresh_user", "games", "room.refresh", "count_moves", "record_puzzle"):
            with pytest.raises(StoreUnavailable, match=r"did not answer in time \(a request ran past its [0-9.]+ s\)") \
                    as caught:
                calls[name]()
            plain(str(caught.value), url)
    assert store.user_for(token).name == "ann"


def test_a_puzzle_answer_and_a_kept_game_made_while_postgresql_is_down_are_held_and_kept_after(postgres, school):
    from golflab_widgets.account.session import PageSession

    store, teacher, klass, ann, token, room, url = school
    page = PageSession(store, store.user_for(token))
    with postgres.down():
        assert page.keep("record_puzzle", "p1", False) is None
        assert page.keep("record_game", finished_game(), 0) is None
        assert "holds it" in page.problem and "cannot be reached" in page.problem
        assert len(page.held) == 2
    result = page.keep("record_puzzle", "p2", True)  # the store is back: the held answers go first
    assert result is not None and page.problem is None and page.held == []
    profile = store.puzzle_profile(ann, by=ann)
    assert (profile.attempts, profile.solved) == (2, 1)
    assert len(store.games(ann, by=ann)) == 1


def test_a_room_game_that_could_not_be_kept_is_held_on_the_page(postgres, school):
    from golflab_widgets.account.session import PageSession
    from golflab_widgets.rooms.board import GolfRoomBoard

    store, teacher, klass, ann, token, room, url = school
    page = PageSession(store, store.user_for(token))
    while room.state != "over":
        seat = room.table.seat_to_move
        room.apply(seat, room.table.legal()[0], by=ann)
    with postgres.down():  # the page opens on the finished game and tries to keep it
        board = GolfRoomBoard(room, 0, page.user, follow=False, hold=page.hold)
    assert board.kept is None and "holds it" in board.note.value and len(page.held) == 1
    assert page.retry() == 1
    assert [g.room for g in store.games(ann, by=ann)] == [room.code]


class Ticks:
    """The follower's clock, moved by hand: no heartbeat falls due unless the test says so."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def test_a_room_page_says_its_room_cannot_be_read_while_postgresql_is_down_and_follows_it_after(postgres, school):
    """``RoomFollower.step`` (every room page's poll) when the database is stopped: its heartbeat
    (``Room.claim``) and its news (``count_moves``, ``Room.refresh``) fail as StoreUnavailable, which
    the page says in a plain sentence and redraws once; the page goes on when the store is back."""
    from golflab_widgets.rooms.follow import CLAIM_SECONDS, FULL_REFRESH_SECONDS, RoomFollower

    store, teacher, klass, ann, token, room, url = school
    ticks = Ticks()
    follower = RoomFollower(store.room(room.code), lambda: None, seat=0, user=ann, clock=ticks, listen=False)
    assert follower.claim_now() and follower.problem is None
    seen = len(follower.room.log)
    with postgres.down():
        assert follower.step(heartbeat=True)  # the heartbeat fails: the problem is news to redraw
        assert follower.problem.startswith("The room cannot be read just now (") and "cannot be reached" in \
            follower.problem and follower.problem.endswith("); trying again.")
        plain(follower.problem, url)
        assert not follower.step()  # the news alone (count_moves) fails the same: nothing new to redraw
        ticks.now += FULL_REFRESH_SECONDS  # a whole read of the room (Room.refresh) is due, and fails
        assert not follower.step() and "cannot be reached" in follower.problem
        assert follower.holds and len(follower.room.log) == seen  # what the page showed stays
    mover = store.room(room.code)
    mover.apply(mover.table.seat_to_move, mover.table.legal()[0], by=ann)  # a move made elsewhere, the store back
    ticks.now += CLAIM_SECONDS
    assert follower.step() and follower.problem is None
    assert follower.room.log == mover.log and len(mover.log) > seen


def test_a_room_page_says_so_while_postgresql_hangs(postgres, school):
    from golflab_widgets.rooms.follow import RoomFollower

    store, teacher, klass, ann, token, room, url = school
    follower = RoomFollower(store.room(room.code), lambda: None, seat=0, user=ann, clock=Ticks(), listen=False)
    follower.claim_now()
    with hung(postgres, url):
        assert follower.step(heartbeat=True)
        assert "did not answer in time" in follower.problem
        plain(follower.problem, url)
    assert follower.step(heartbeat=True) and follower.problem is None
