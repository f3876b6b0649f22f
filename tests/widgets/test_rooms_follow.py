"""A room page follows moves made elsewhere: on PostgreSQL by LISTEN/NOTIFY (``golflab.classroom.notify``),
polling when nothing is heard (SQLite, or the listening connection lost). Real PostgreSQL (the
suite's ``postgres`` cluster); every wait is for an event, never for a time (the timeouts only
keep a broken test from hanging).
"""

from __future__ import annotations

import asyncio
import queue

import pytest
from golflab_widgets.rooms.follow import POLLED, RoomFollower

from golflab import Rules
from golflab.classroom import Store, notify
from tests.support.classroom_workers import classmates

HANG = 30.0  # seconds: only a broken test waits this long


@pytest.fixture
def two_stores(request):
    """Two stores on one database (two engines, so two sets of connections) and a started room of
    ann (seat 0) and bob (seat 1): the mover's store and the follower's."""
    url = request.getfixturevalue("postgres_url") if request.param == "postgresql" else \
        f"sqlite:///{request.getfixturevalue('tmp_path') / 'class.db'}"
    mover, follower = Store(url), Store(url)
    ann, bob = classmates(mover, "ann", "bob")
    room = mover.create_room(ann, Rules(rounds=1), seats=2, seed=1)
    mover.join_room(room.code, bob)
    room.start(by=ann)
    yield mover.room(room.code), follower.room(room.code), {0: ann, 1: bob}
    follower.close()
    mover.close()


def move(room, people) -> None:
    """The player to move plays their first legal move."""
    seat = room.table.seat_to_move
    room.apply(seat, room.table.legal()[0], by=people[seat])


async def follow(room, **options):
    """A follower of ``room`` for bob's page, running; and the event its redraws set."""
    redrawn = asyncio.Event()
    follower = RoomFollower(room, redrawn.set, seat=1, user=room.store.user("bob"), **options)
    follower.claim_now()
    task = asyncio.create_task(follower.run())
    return follower, redrawn, task


def heard_since_now(follower) -> bool:
    """The follower hears the room and has read it since it began to (nothing before is pending)."""
    return follower.heard and follower.woken_by == notify.LISTENING


async def seen(follower, redrawn, mover_room) -> str:
    """Wait for the follower's redraw of the mover's last move; why it read the room."""
    await asyncio.wait_for(redrawn.wait(), HANG)
    redrawn.clear()
    assert follower.room.log == mover_room.log
    return follower.woken_by


@pytest.mark.parametrize("two_stores", ["postgresql"], indirect=True)
def test_a_move_from_another_store_is_heard_at_once_and_a_lost_listener_falls_back_to_polling(two_stores):
    mover_room, room, people = two_stores

    async def scenario():
        # a safety poll of an hour: only a notification (or the 2 s heartbeat) wakes the follower
        follower, redrawn, task = await follow(room, safety_poll_seconds=3600)
        await asyncio.wait_for(follower.waiting(lambda: heard_since_now(follower)), HANG)
        move(mover_room, people)
        assert await seen(follower, redrawn, mover_room) == notify.NOTIFIED

        # the listening connection is dropped by the server: the follower polls, and still follows
        listener = notify.listener_of(room.store.engine)
        listener.retry_seconds = 3600  # no reconnection until a new subscription asks for one
        with room.store.engine.connect() as conn:
            conn.exec_driver_sql(f"SELECT pg_terminate_backend({listener.backend_pid})")
        await asyncio.wait_for(follower.waiting(lambda: follower.woken_by == notify.LOST), HANG)
        assert not follower.heard
        move(mover_room, people)
        assert await seen(follower, redrawn, mover_room) == POLLED

        # a new page's subscription reconnects at once: heard again
        other = room.subscribe(lambda reason: None)
        await asyncio.wait_for(follower.waiting(lambda: heard_since_now(follower)), HANG)
        move(mover_room, people)
        assert await seen(follower, redrawn, mover_room) == notify.NOTIFIED
        other.close()
        task.cancel()

    asyncio.run(scenario())


@pytest.mark.parametrize("two_stores", ["sqlite"], indirect=True)
def test_on_sqlite_nothing_is_heard_and_the_room_is_polled(two_stores):
    mover_room, room, people = two_stores

    async def scenario():
        follower, redrawn, task = await follow(room, safety_poll_seconds=3600)
        await asyncio.wait_for(follower.waiting(), HANG)
        assert not follower.heard
        move(mover_room, people)
        assert await seen(follower, redrawn, mover_room) == POLLED
        task.cancel()

    asyncio.run(scenario())


@pytest.mark.parametrize("two_stores", ["postgresql"], indirect=True)
def test_a_notification_is_sent_only_when_its_transaction_commits_and_after_the_row(two_stores):
    mover_room, room, people = two_stores
    heard: queue.Queue = queue.Queue()
    counts = []

    def wake(reason: str) -> None:  # on the listener's thread: the move must be readable already
        if reason == notify.NOTIFIED:
            counts.append(len(mover_room.store.room(room.code).log))
        heard.put(reason)

    subscription = room.subscribe(wake)
    assert heard.get(timeout=HANG) == notify.LISTENING and subscription.live

    def rolled_back(conn):
        notify.announce(conn, room.code)
        raise ValueError("changed my mind")

    with pytest.raises(ValueError):
        mover_room.store.transaction(rolled_back)
    move(mover_room, people)
    assert heard.get(timeout=HANG) == notify.NOTIFIED and counts == [1]  # the move's, not the rolled-back one
    subscription.close()
    assert not subscription.live
