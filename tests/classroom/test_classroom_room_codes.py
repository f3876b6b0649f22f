"""Who may join a room, and wrong room codes (issue 37, a lower item): a room of no class is open to
those who share a class with its host (before, anyone with its code), and a learner who types codes
that open no room for them waits after ``throttle.FREE_FAILURES`` (before, codes could be tried at
180-900 a second), counted in the transaction that checks the wait, so parallel guesses cannot pass
the limit. On SQLite and PostgreSQL (``store``: both)."""

from __future__ import annotations

import pytest
from sqlalchemy import func, select

from golflab import Rules
from golflab.classroom import Store, throttle
from golflab.classroom import schema as T
from golflab.classroom.rooms import OtherGame
from tests.support.classroom_workers import guess_room_codes, run_at_once

ONE_HOLE = Rules(rounds=1)
#: Codes of no room: each test's store holds few rooms, none with these codes (checked).
NO_ROOM = ["ACDE", "FGHJ", "KMNP", "QRTU", "VWXY", "AACC", "DDEE", "FFGG", "HHJJ"]


@pytest.fixture
def school(store):
    """mrs_lee teaches 6B (ann, bob), mr_ray teaches 7A (ann, eve); zed is in no class; boss is an admin."""
    lee = store.create_user("mrs_lee", role="teacher")
    ray = store.create_user("mr_ray", role="teacher")
    six, seven = store.create_class("6B", lee), store.create_class("7A", ray)
    six_invite, seven_invite = store.create_invite(six, by=lee), store.create_invite(seven, by=ray)
    u = {n: store.register(n, "pass-123", six_invite) for n in ("ann", "bob")}
    u["eve"] = store.register("eve", "pass-123", seven_invite)
    store.join_class(u["ann"], seven_invite)  # ann is in two classes: her rooms belong to none
    u.update(zed=store.create_user("zed"), lee=lee, ray=ray, boss=store.create_user("boss", role="admin"))
    return u


def seated(store, code: str) -> list:
    return [s.user_id for s in store.room(code).seats]


def refused(store, code: str, user, match: str) -> None:
    """``user`` may not join ``code``: said so, and nobody was seated."""
    before = seated(store, code)
    with pytest.raises(ValueError, match=match):
        store.join_room(code, user)
    assert seated(store, code) == before


def wrong_codes(store, user) -> int:
    with store.engine.connect() as conn:
        return conn.execute(select(T.room_code_failures.c.failures).where(
            T.room_code_failures.c.user_id == user.id)).scalar() or 0


def test_a_room_of_no_class_is_open_only_to_those_who_share_a_class_with_its_host(store, school):
    u = school
    room = store.create_room(u["ann"], ONE_HOLE, seats=6)
    assert room.class_id is None
    refused(store, room.code, u["zed"], f"room {room.code} is open to its host's classes only, and you share "
                                        "no class with its host: join your class with its invite code first")
    assert [store.join_room(room.code, u[n]) for n in ("bob", "eve", "ray", "boss")] == [1, 2, 3, 4]
    taught = store.create_room(u["lee"], ONE_HOLE, seats=3)  # a teacher's room: their classes'
    assert store.join_room(taught.code, u["bob"]) == 1
    refused(store, taught.code, u["eve"], "share no class with its host")
    refused(store, taught.code, u["zed"], "share no class with its host")
    assert wrong_codes(store, u["eve"]) == 1 and wrong_codes(store, u["bob"]) == 0


def test_a_class_room_is_still_its_classes_alone(store, school):
    u = school
    room = store.create_room(u["bob"], ONE_HOLE, seats=4)  # bob is in 6B alone: a room of 6B
    refused(store, room.code, u["eve"], f"room {room.code} belongs to another class")
    refused(store, room.code, u["ray"], "belongs to another class")
    assert [store.join_room(room.code, u[n]) for n in ("ann", "lee")] == [1, 2]


def test_wrong_room_codes_make_the_learner_wait_and_the_refusal_says_how_long(store, school, clock):
    u = school
    room = store.create_room(u["bob"], ONE_HOLE, seats=4)
    assert room.code not in NO_ROOM
    for code in NO_ROOM[:throttle.FREE_FAILURES]:
        with pytest.raises(ValueError, match=f"no room has the code {code}: check the code with the host"):
            store.join_room(code, u["ann"])
    with pytest.raises(ValueError, match=r"^too many wrong room codes: try again in 30 seconds$"):
        store.join_room(room.code, u["ann"])  # the right code too, while she waits
    assert store.join_room(room.code, u["lee"]) == 1  # another user does not wait
    clock.now += throttle.LOCK_SECONDS + 1
    assert store.join_room(room.code, u["ann"]) == 2


def test_a_learner_waiting_goes_back_to_their_own_seat_and_a_right_code_clears_nothing(store, school, clock):
    u = school
    mine = store.create_room(u["ann"], ONE_HOLE, seats=2)
    for code in NO_ROOM[:throttle.FREE_FAILURES - 1]:
        with pytest.raises(ValueError, match="no room has the code"):
            store.join_room(code, u["ann"])
        assert store.join_room(mine.code, u["ann"]) == 0  # her own room: no guess, nothing cleared
    with pytest.raises(ValueError, match="no room has the code"):
        store.join_room(NO_ROOM[-1], u["ann"])
    with pytest.raises(ValueError, match="too many wrong room codes"):
        store.join_room(NO_ROOM[0], u["ann"])
    assert store.join_room(mine.code.lower(), u["ann"]) == 0  # a reload finds her seat while she waits
    clock.now += throttle.LOCK_SECONDS + 1
    with pytest.raises(ValueError, match="no room has the code"):
        store.join_room(NO_ROOM[0], u["ann"])
    with pytest.raises(ValueError, match="try again in 60 seconds"):  # the next wait is twice as long
        store.join_room(NO_ROOM[1], u["ann"])


def test_a_room_of_another_game_is_refused_as_such_and_is_no_wrong_code(store, school):
    u = school
    room = store.create_room(u["bob"], seats=4, game="codepiece")
    with pytest.raises(OtherGame, match=f"room {room.code} plays codepiece") as caught:
        store.join_room(room.code, u["ann"], game="golf")
    assert caught.value.game == "codepiece" and seated(store, room.code)[1] is None
    assert wrong_codes(store, u["ann"]) == 0
    assert store.join_room(room.code, u["ann"], game="codepiece") == 1


def test_a_code_that_is_no_code_is_refused_in_words_and_counts_for_nothing(store, school):
    with pytest.raises(ValueError, match="is not a room code: a room code is 4 letters from"):
        store.join_room("12", school["ann"])
    assert wrong_codes(store, school["ann"]) == 0


def test_old_wrong_room_codes_are_purged(store, school, clock):
    with pytest.raises(ValueError, match="no room has the code"):
        store.join_room(NO_ROOM[0], school["ann"])
    assert store.purge()["wrong room codes"] == 0  # it still counts
    clock.days(2)
    assert store.purge()["wrong room codes"] == 1
    with store.engine.connect() as conn:
        assert conn.execute(select(func.count()).select_from(T.room_code_failures)).scalar() == 0


def test_parallel_guesses_from_processes_cannot_pass_the_limit(database_url):
    store = Store(database_url)
    store.create_user("zed")
    assert store.rooms(by=store.create_user("boss", role="admin")) == []  # no room: every code is wrong
    runs = run_at_once(guess_room_codes, [(database_url, "zed", NO_ROOM[i:i + 3]) for i in range(6)])
    answers = [a for run in runs for a in run]
    assert answers.count("checked") == throttle.FREE_FAILURES
    assert answers.count("waits") == 18 - throttle.FREE_FAILURES
    store.close()
