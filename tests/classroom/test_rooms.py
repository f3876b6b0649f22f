"""Rooms on the class store (golflab.classroom.rooms), on SQLite and PostgreSQL: joining and
its refusals, the append-only log under racing pages (threads and processes), CPU seats and
away players, seat claims, keeping the game and the table ratings, Codepiece rooms."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import pytest
from sqlalchemy import delete, insert, update

from golflab import Game, IllegalActionError, Rules
from golflab.ai import CPUPlayer
from golflab.classroom import Store
from golflab.classroom import rooms as rooms_module
from golflab.classroom import schema as T
from golflab.classroom.rooms import ROOM_TIMEOUT_MINUTES, TAB_STALE_SECONDS, count_moves
from golflab.classroom.security import CODE_LETTERS

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
    room.refresh()
    assert room.host == "ann" and [room.hosts(s) for s in (0, 1, 2, 3, None, 9)] == [True] + [False] * 5
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


def test_the_newest_page_takes_the_seat_and_an_older_tab_watches_until_it_closes(store, people, clock):
    _, _, u = people
    room = store.create_room(u["ann"], ONE_HOLE, seats=2, seed=3)
    assert room.claim(0, "first-tab", by=u["ann"], take=True)
    assert not store.room(room.code).claim(0, "second-tab", by=u["ann"])  # a heartbeat: the first tab is alive
    # A reload (or a second tab) opens: it takes the seat at once, though the first page's kernel lives on.
    assert store.room(room.code).claim(0, "second-tab", by=u["ann"], take=True)
    clock.now += 1
    assert not room.claim(0, "first-tab", by=u["ann"])  # the older page now watches
    assert store.room(room.code).claim(0, "second-tab", by=u["ann"])
    clock.now += TAB_STALE_SECONDS + 0.5  # the newer tab closed: the older one plays again
    assert room.claim(0, "first-tab", by=u["ann"])
    for take in (False, True):
        with pytest.raises(PermissionError):
            store.room(room.code).claim(0, "bobs-tab", by=u["bob"], take=take)


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


def test_the_table_ratings_are_plain_values_in_and_out():
    from golflab.classroom import ratings

    first = ratings.new_table_rating()
    winner, tied, last = ratings.rate_table([first, first, first], [1, 2, 3])
    assert winner.rating > tied.rating > first.rating > last.rating and winner.rd < first.rd
    assert ratings.rate_table([winner, last], [1, 1])[0].rating < winner.rating  # a tie with a weaker player
    assert ratings.table_subject(7) == "table:user:7" and ratings.table_subject(None, "Maya") == "table:cpu:Maya"
    with pytest.raises(ValueError, match="one rank per seat is needed: 2 ratings, 1 ranks"):
        ratings.rate_table([first, first], [1])


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
    from tests.support.classroom_workers import follow_room, run_at_once

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


# -- rooms that cannot be broken (issue 37) ---------------------------------------------------

def test_a_learner_named_like_a_cpu_plays_beside_that_cpu(store, people):
    teacher, klass, u = people
    invite = store.create_invite(klass, by=teacher)
    sofia, maya = store.register("Sofia", "pass-123", invite), store.register("maya", "pass-123", invite)
    room = store.create_room(sofia, ONE_HOLE, seats=3, cpus=["Sofia"], seed=2)
    store.join_room(room.code, maya)
    room.start(by=sofia)  # maya's seat is a person's; the empty seat is filled around every name
    page = store.room(room.code)
    assert page.state == "playing" and page.players[:2] == ("Sofia", "maya")
    assert page.players[2] == "Sofia (CPU)" and page.seats[2].cpu == "Sofia"  # the personality stays
    assert len({n.casefold() for n in page.players}) == 3
    assert [r.code for r in store.rooms(klass, by=teacher)] == [room.code]
    play_out({"Sofia": page, "maya": store.room(room.code)}, {"Sofia": sofia, "maya": maya})
    assert store.room(room.code).state == "over"


def test_a_learner_named_like_a_fill_cpu_starts_a_full_room_alone(store, people):
    teacher, klass, _ = people
    kenji = store.register("Kenji", "pass-123", store.create_invite(klass, by=teacher))
    room = store.create_room(kenji, ONE_HOLE, seats=6, seed=3)
    room.start(by=kenji)
    assert room.state == "playing" and room.players[0] == "Kenji"
    assert len(set(room.players)) == 6 and all(s.cpu not in (None, "Kenji") for s in room.seats[1:])


def test_two_cpus_of_one_personality_sit_at_one_table(store, people):
    _, _, u = people
    room = store.create_room(u["ann"], ONE_HOLE, seats=3, cpus=["Maya", "Maya"], seed=3)
    room.start(by=u["ann"])
    assert room.state == "playing" and room.players == ("ann", "Maya", "Maya 2")
    assert [s.cpu for s in room.seats[1:]] == ["Maya", "Maya"]


def _corrupt(store, code: str, how: str) -> None:
    """Damage room ``code`` in the database the way a bad write or a hand edit could."""
    moves = count_moves(store, code)
    row = dict(room=code, seat=0, by_cpu=False, at=0.0)
    change = {"illegal move": insert(T.room_log).values(seq=moves, action="swap 9", **row),
              "seq gap": insert(T.room_log).values(seq=moves + 1, action="flip 0", **row),
              "rules": update(T.rooms).where(T.rooms.c.code == code).values(rules="{not json"),
              "seed": update(T.rooms).where(T.rooms.c.code == code).values(seed="lucky"),
              "seat row": delete(T.room_seats).where((T.room_seats.c.room == code) & (T.room_seats.c.seat == 1)),
              }[how]
    with store.engine.begin() as conn:
        conn.execute(change)


CORRUPTIONS = ("illegal move", "seq gap", "rules", "seed", "seat row")


@pytest.mark.parametrize("how", CORRUPTIONS)
def test_a_corrupted_room_is_shown_broken_and_closed_and_the_others_listed(store, people, how):
    teacher, klass, u = people
    good = store.create_room(u["ann"], ONE_HOLE, seats=3, cpus=["Maya"], seed=1)
    bad = store.create_room(u["bob"], ONE_HOLE, seats=3, cpus=["Maya"], seed=2)
    for room, host in ((good, u["ann"]), (bad, u["bob"])):
        room.start(by=host)
    _corrupt(store, bad.code, how)
    listed = {r.code: r for r in store.rooms(klass, by=teacher)}
    assert set(listed) == {good.code, bad.code}
    assert listed[good.code].problem is None and listed[good.code].state == "playing"
    broken = listed[bad.code]
    assert broken.state == "broken" and broken.problem and "closed" in broken.problem
    assert [r.code for r in store.rooms(klass, by=teacher)] == [good.code]  # closed now: no longer listed
    with pytest.raises(ValueError, match=f"room {bad.code} is broken"):
        store.room(bad.code)
    assert store.open_room_of(u["bob"]) is None and store.open_room_of(u["ann"]).code == good.code
    with pytest.raises(ValueError, match="has closed"):
        store.join_room(bad.code, u["cat"])


def test_a_room_broken_by_a_clash_from_before_reads_again(store, people):
    """A room that an older golflab left ``playing`` with a CPU named like a learner is readable."""
    teacher, klass, _ = people
    sofia = store.register("Sofia", "pass-123", store.create_invite(klass, by=teacher))
    room = store.create_room(sofia, ONE_HOLE, seats=2, cpus=["Maya"], seed=2)
    room.start(by=sofia)
    with store.engine.begin() as conn:  # as the old start left it: the CPU seat named like the host
        conn.execute(update(T.room_seats).where((T.room_seats.c.room == room.code) & (T.room_seats.c.seat == 1))
                     .values(cpu="Sofia"))
    assert store.room(room.code).players == ("Sofia", "Sofia (CPU)")


def test_room_game_is_a_copy(store, people):
    _, _, u = people
    room = store.create_room(u["ann"], ONE_HOLE, seats=2, cpus=["Maya"], seed=6)
    room.start(by=u["ann"])
    history, legal = list(room.game().history), room.table.legal()
    mine = room.game()
    mine.apply(mine.legal_actions()[0])  # a caller's move changes its copy only
    assert room.game().history == history and room.table.legal() == legal
    assert store.room(room.code).game().to_json() == room.game().to_json()


@pytest.mark.parametrize("seat", [-1, 3, 7, "0", None])
def test_claim_names_the_seats_that_exist(store, people, seat):
    _, _, u = people
    room = store.create_room(u["ann"], ONE_HOLE, seats=3, seed=6)
    with pytest.raises(ValueError, match=r"seat must be 0 to 2, got"):
        room.claim(seat, "tab", by=u["ann"])
    assert store.room(room.code).seats[0].tab is None


def test_joining_from_two_tabs_at_once_gives_the_one_seat(store, people, monkeypatch):
    _, _, u = people
    room = store.create_room(u["ann"], ONE_HOLE, seats=3, seed=6)
    stale = store.room(room.code)  # the second tab read the room before the first tab's join landed
    assert store.join_room(room.code, u["bob"]) == 1
    reads = iter([stale])
    real = store.room
    monkeypatch.setattr(store, "room", lambda code: next(reads, None) or real(code))
    assert store.join_room(room.code, u["bob"]) == 1
    assert store.room(room.code).players == ("ann", "bob", None)


def test_a_room_game_is_kept_once_whatever_the_tabs(store, people):
    _, _, u = people
    room = store.create_room(u["ann"], ONE_HOLE, seats=2, cpus=["Maya"], seed=4)
    room.start(by=u["ann"])
    play_out({"ann": room}, u)
    tabs = [store.room(room.code) for _ in range(4)]
    with ThreadPoolExecutor(4) as pool:
        kept = list(pool.map(lambda page: page.keep(by=u["ann"]).id, tabs))
    again = store.record_game(u["ann"], room.game(), 0, room=room.code)
    assert len(set(kept)) == 1 and again.id == kept[0]
    assert [g.room for g in store.games(u["ann"], by=u["ann"])] == [room.code]


def test_codes_of_rooms_gone_quiet_are_used_again(store, people, clock, monkeypatch):
    _, _, u = people
    monkeypatch.setattr(rooms_module, "ROOM_CODE_LENGTH", 2)  # 400 codes
    old = store.create_room(u["ann"], ONE_HOLE, seats=2, cpus=["Maya"], seed=4)
    old.start(by=u["ann"])
    play_out({"ann": old}, u)
    old.keep(by=u["ann"])
    clock.now += ROOM_TIMEOUT_MINUTES * 60 + 1  # the old room went quiet long ago; every other code is busy
    codes = [a + b for a in CODE_LETTERS for b in CODE_LETTERS if a + b != old.code]
    with store.engine.begin() as conn:
        conn.execute(insert(T.rooms), [dict(code=c, game="golf", host_id=u["ann"].id, rules="{}", seats=2, seed="1",
                                            state=state, rated=False, created_at=clock.now, last_activity=clock.now)
                                       for c, state in zip(codes, ["closed", "over", "lobby"] * len(codes))])
    fresh = store.create_room(u["ann"], ONE_HOLE, seats=2, cpus=["Maya"], seed=5)
    assert fresh.code == old.code and fresh.state == "lobby" and fresh.players == ("ann", "Maya") and fresh.log == []
    fresh.start(by=u["ann"])
    play_out({"ann": fresh}, u)
    kept = fresh.keep(by=u["ann"])  # a new record, not the old game kept under the same code
    assert kept.seed == "5"
    assert sorted(g.seed for g in store.games(u["ann"], by=u["ann"])) == ["4", "5"]


def test_no_free_code_is_said_when_every_code_is_in_use(store, people, monkeypatch):
    _, _, u = people
    monkeypatch.setattr(rooms_module, "ROOM_CODE_LENGTH", 1)
    with store.engine.begin() as conn:
        conn.execute(insert(T.rooms), [dict(code=c, game="golf", host_id=u["ann"].id, rules="{}", seats=2, seed="1",
                                            state="lobby", rated=False, created_at=store.clock(),
                                            last_activity=store.clock()) for c in CODE_LETTERS])
    with pytest.raises(ValueError, match="no free room code"):
        store.create_room(u["ann"], ONE_HOLE, seats=2)
