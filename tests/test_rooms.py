"""Rooms on the class store (golflab.classroom.rooms), on SQLite and PostgreSQL: joining and
its refusals, the append-only log under racing pages (threads and processes), CPU seats and
away players, seat claims, keeping the game and the table ratings, Codepiece rooms."""

from __future__ import annotations

import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from golflab import Game, IllegalActionError, Rules
from golflab.ai import CPUPlayer
from golflab.classroom import Store
from golflab.classroom.rooms import ROOM_TIMEOUT_MINUTES, TAB_STALE_SECONDS, count_moves

sys.path.insert(0, str(Path(__file__).resolve().parent))

ONE_HOLE = Rules(rounds=1)


@pytest.fixture
def people(store):
    teacher = store.create_user("mrs_lee", password="teach-123", role="teacher")
    klass = store.create_class("6B", teacher=teacher)
    invite = store.create_invite(klass, by=teacher)
    learners = {n: store.register(n, "pass-123", invite) for n in ("ann", "bob", "cat", "dan")}
    return teacher, klass, learners


def play_out(rooms: dict, users: dict, seed: int = 0) -> None:
    """Each learner plays their own seat from their own Room object (their page) to the end."""
    any_room = next(iter(rooms.values()))
    turn = 0
    while any_room.refresh() is not None and any_room.state == "playing":
        seat = any_room.table.seat_to_move
        if seat is None:
            name = next(iter(rooms))
            rooms[name].refresh()
            rooms[name].apply(rooms[name].seat_of(users[name]), "next", by=users[name])
            continue
        name = any_room.players[seat]
        page = rooms[name]
        page.refresh()
        page.apply(seat, str(CPUPlayer("Sofia", seed=seed + turn).choose(page.observation(seat))), by=users[name])
        turn += 1


def test_create_join_start_and_play_a_hole(store, people):
    _, _, u = people
    room = store.create_room(u["ann"], ONE_HOLE, seats=4, cpus=["Maya"], seed=5)
    assert len(room.code) == 4 and room.players == ("ann", None, None, "Maya") and room.state == "lobby"
    assert store.join_room(room.code.lower(), u["bob"]) == 1
    assert store.join_room(room.code, u["cat"]) == 2
    assert store.join_room(room.code, u["bob"]) == 1  # a reload: the same seat
    room.start(by=u["ann"])
    pages = {n: store.room(room.code) for n in ("ann", "bob", "cat")}
    play_out(pages, u)
    assert all(p.refresh() is not None for p in pages.values())
    logs = {tuple(p.log) for p in pages.values()}
    assert len(logs) == 1 and pages["bob"].state == "over"
    game = pages["ann"].game()
    replay = Game(players=["ann", "bob", "cat", "Maya"], rules=ONE_HOLE, seed=5)
    for _, action, _ in pages["ann"].log:
        replay.apply(action)
    assert replay.to_json() == game.to_json()
    assert count_moves(store, room.code) == len(pages["ann"].log)


def test_refusals_change_nothing(store, people, clock):
    teacher, klass, u = people
    room = store.create_room(u["ann"], ONE_HOLE, seats=2, seed=1)
    with pytest.raises(ValueError, match="no room has the code"):
        store.join_room("ACDE" if room.code != "ACDE" else "ACDF", u["bob"])
    with pytest.raises(ValueError, match="is not a room code: a room code is 4 letters"):
        store.join_room("12", u["bob"])
    store.join_room(room.code, u["bob"])
    with pytest.raises(ValueError, match="is full \\(2 seats\\)"):
        store.join_room(room.code, u["cat"])
    with pytest.raises(PermissionError, match="only the host"):
        store.room(room.code).start(by=u["bob"])
    with pytest.raises(IllegalActionError, match="waiting for its host"):
        store.room(room.code).apply(1, "flip 0", by=u["bob"])
    other_teacher = store.create_user("mr_ray", password="teach-456", role="teacher")
    other_class = store.create_class("7A", teacher=other_teacher)
    eve = store.register("eve", "pass-123", store.create_invite(other_class, by=other_teacher))
    third = store.create_room(u["cat"], ONE_HOLE, seats=3, seed=2)
    with pytest.raises(ValueError, match="belongs to another class"):
        store.join_room(third.code, eve)
    room.start(by=u["ann"])
    page = store.room(room.code)
    before = list(page.log)
    with pytest.raises(PermissionError, match="is not ann's"):
        page.apply(1, "flip 0", by=u["ann"])
    with pytest.raises(IllegalActionError, match="not legal now"):
        page.apply(page.table.seat_to_move, "swap 9", by=u["ann" if page.table.seat_to_move == 0 else "bob"])
    with pytest.raises(ValueError, match="has already started"):
        store.join_room(room.code, u["cat"])
    assert store.room(room.code).log == before
    clock.now += ROOM_TIMEOUT_MINUTES * 60 + 1
    with pytest.raises(ValueError, match="has closed"):
        store.join_room(third.code, u["dan"])
    assert store.rooms(klass, by=teacher) == []


def test_cpu_seats_are_played_exactly_once_by_racing_pages(store, people):
    _, _, u = people
    room = store.create_room(u["ann"], Rules(rounds=2), seats=4, cpus=["Maya", "Sofia", "Kenji"], seed=9)
    room.start(by=u["ann"])
    pages = [store.room(room.code) for _ in range(4)]
    turn = 0
    while pages[0].state == "playing":
        with ThreadPoolExecutor(4) as pool:  # four pages refresh at once: each CPU move is appended once
            list(pool.map(lambda p: p.refresh(), pages))
        me = pages[turn % 4]
        me.refresh()
        if me.state != "playing":
            break
        seat = me.table.seat_to_move
        action = "next" if seat is None else str(CPUPlayer("Marcus", seed=turn).choose(me.observation(0)))
        me.apply(0, action, by=u["ann"])
        turn += 1
    final = store.room(room.code)
    assert all(p.log == final.log for p in pages if p.refresh() is not None)
    assert final.state == "over" and len(final.log) == count_moves(store, room.code)
    solo = Game(players=["ann", "Maya", "Sofia", "Kenji"], rules=Rules(rounds=2), seed=9)
    for _, action, _ in final.log:
        solo.apply(action) if action != "next" else solo.next_round()
    assert solo.totals == final.game().totals


def test_an_away_player_is_played_by_a_cpu_until_they_return(store, people, clock):
    _, _, u = people
    room = store.create_room(u["ann"], ONE_HOLE, seats=2, seed=3)
    store.join_room(room.code, u["bob"])
    room.start(by=u["ann"])
    ann_page, bob_page = store.room(room.code), store.room(room.code)
    assert ann_page.claim(0, "tab-a", by=u["ann"]) and bob_page.claim(1, "tab-b", by=u["bob"])
    clock.now += 61  # bob goes quiet; ann keeps her page alive
    ann_page.claim(0, "tab-a", by=u["ann"])
    ann_page.refresh()
    assert ann_page.away(1) and not ann_page.away(0)
    if ann_page.table.seat_to_move == 1:
        assert ann_page.log and ann_page.log[-1][2] is False
    moved_for_bob = [entry for entry in ann_page.log if entry[0] == 1]
    assert all(by_cpu for _, _, by_cpu in moved_for_bob)
    bob_page.claim(1, "tab-b", by=u["bob"])  # bob returns: his turns are his again
    bob_page.refresh()
    assert not bob_page.away(1)


def test_a_second_tab_watches_and_a_reload_takes_the_seat_over(store, people, clock):
    _, _, u = people
    room = store.create_room(u["ann"], ONE_HOLE, seats=2, seed=3)
    assert room.claim(0, "first-tab", by=u["ann"])
    assert not store.room(room.code).claim(0, "second-tab", by=u["ann"])  # the first tab is alive
    clock.now += TAB_STALE_SECONDS + 0.5  # the first tab went away (a reload)
    assert store.room(room.code).claim(0, "second-tab", by=u["ann"])
    with pytest.raises(PermissionError):
        store.room(room.code).claim(0, "bobs-tab", by=u["bob"])


def test_the_game_is_kept_once_per_player_and_ratings_move_once(store, people):
    _, _, u = people
    room = store.create_room(u["ann"], ONE_HOLE, seats=3, cpus=["Maya"], seed=4)
    store.join_room(room.code, u["bob"])
    room.start(by=u["ann"])
    pages = {"ann": store.room(room.code), "bob": store.room(room.code)}
    play_out(pages, u)
    first = pages["bob"].keep(by=u["bob"])
    assert pages["bob"].keep(by=u["bob"]).id == first.id
    assert [g.room for g in store.games(u["bob"], by=u["bob"])] == [room.code]
    assert store.games(u["cat"], by=u["cat"]) == []
    ann_rating = store.table_rating(u["ann"])
    assert ann_rating.rating != 25.0
    late = store.room(room.code)  # a page that sees the end only now changes no rating
    late.refresh()
    pages["ann"].refresh()
    assert late.state == "over" and store.table_rating(u["ann"]) == ann_rating


def test_a_codepiece_room_plays_through(store, people):
    from golflab.codepiece import CodepieceCPU

    _, _, u = people
    with pytest.raises(ValueError, match="Codepiece is for 4 seats"):
        store.create_room(u["ann"], None, seats=3, game="codepiece")
    room = store.create_room(u["ann"], {"deals": 1}, seats=4, cpus=["CPU", "CPU"], game="codepiece", seed=8)
    store.join_room(room.code, u["bob"])
    room.start(by=u["ann"])
    pages = {"ann": store.room(room.code), "bob": store.room(room.code)}
    turn = 0
    while pages["ann"].refresh() is not None and pages["ann"].state == "playing":
        seat = pages["ann"].table.seat_to_move
        name = pages["ann"].players[seat]
        page = pages[name]
        page.refresh()
        state = page.observation(seat)
        assert set(state["hand"]) and "hands" not in state  # a seat sees its own hand only
        page.apply(seat, CodepieceCPU(seed=turn).choose(state), by=u[name])
        turn += 1
    assert pages["bob"].refresh() >= 0 and pages["bob"].state == "over"
    assert pages["bob"].game().over and pages["ann"].log == pages["bob"].log


def test_processes_following_one_room_append_each_move_once(database_url):
    from classroom_workers import follow_room, run_at_once

    store = Store(database_url)
    host = store.create_user("host")
    room = store.create_room(host, Rules(rounds=3), seats=4, cpus=["Maya", "Sofia", "Kenji"], seed=11)
    room.start(by=host)
    # four processes refresh the same room at once; the host's turns are played by one of them
    logs = run_at_once(follow_room, [(database_url, room.code, i) for i in range(4)])
    final = store.room(room.code)
    assert final.state == "over" and all(log == [a for _, a, _ in final.log] for log in logs)
    assert count_moves(store, room.code) == len(final.log)
    store.close()
