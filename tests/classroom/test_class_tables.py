"""Class tables in the class store (issue 41, point 4): the whole class plays one seat against the
Expert, or two halves of the class play each other, each learner voting for their team's move and
the teacher's page closing the vote (the most votes; a tie: the coach's better; none: the coach's
best). Run against SQLite and PostgreSQL alike (the ``store`` fixture)."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import pytest
from sqlalchemy import insert

from golflab import IllegalActionError, Rules
from golflab.ai import CPUPlayer
from golflab.classroom import ClosedVote, Tally
from golflab.classroom import schema as T
from golflab.classroom.class_votes import decide

VOTE_TABLES = (T.rooms, T.room_seats, T.room_log, T.room_voters, T.room_votes, T.room_vote_results)


@pytest.fixture
def klass(store):
    """A teacher, their class 6B with learners ann, bob, cy and dan, and another class's eve."""
    teacher = store.create_user("mrs_lee", role="teacher")
    k = store.create_class("6B", teacher=teacher)
    invite = store.create_invite(k, by=teacher)
    learners = {n: store.register(n, "pass-123", invite) for n in ("ann", "bob", "cy", "dan")}
    other = store.create_user("mr_ray", role="teacher")
    eve = store.register("eve", "pass-123", store.create_invite(store.create_class("7A", teacher=other), by=other))
    return teacher, k, learners, eve


def snapshot(store) -> dict:
    """Every row of the rooms' and the votes' tables: a refused call leaves them unchanged."""
    with store.engine.connect() as conn:
        return {t.name: sorted(map(tuple, conn.execute(t.select()).all()), key=repr) for t in VOTE_TABLES}


def joined(store, room, users) -> dict:
    """Each learner's own page (a Room read for them), joined to a team: {name: (page, seat)}."""
    pages = {}
    for user in users:
        page = store.room(room.code)
        pages[user.name] = (page, page.join_team(by=user))
    return pages


def test_a_class_votes_through_a_hole_against_the_expert(store, klass):
    teacher, k, u, _ = klass
    room = store.create_class_table(k, by=teacher, seed=7)
    assert room.is_class_table and room.vote_seconds == 30 and room.team_seats == (0,)
    assert room.players == ("The class", "Expert") and room.state == "lobby" and room.rules == Rules(rounds=1).to_dict()
    voting = [u["ann"], u["bob"], u["cy"]]
    pages = joined(store, room, voting)
    assert {seat for _, seat in pages.values()} == {0} and room.voters() == {0: 3}
    assert pages["ann"][0].join_team(by=u["ann"]) == 0 and room.voters() == {0: 3}  # again: no change
    room.start(by=teacher)
    closed = []
    while room.state == "playing":
        turn, legal = len(room.log), room.table.legal()
        assert room.table.seat_to_move == 0 and room.tally() == Tally(turn, 0, {}, 0)
        first, last = legal[0], legal[-1]
        ballots = ((last, last, first), (first, last, None), (None, None, None))[len(closed) % 3]
        for user, action in zip(voting, ballots):
            if action is not None:
                page = pages[user.name][0]
                page.refresh()
                assert page.vote(action, by=user) == turn
        tally = room.tally()
        cv = room.close_vote(by=teacher)
        assert isinstance(cv, ClosedVote) and (cv.turn, cv.seat) == (turn, 0) and cv.votes == tally.votes
        assert set(cv.values) == set(legal)
        best = next(iter(cv.values))  # the coach's best first
        if not tally.votes:
            assert (cv.action, cv.decided_by) == (best, "coach")
        elif len(tally.votes) == 2 and len(set(tally.votes.values())) == 1:
            better = next(a for a in cv.values if a in tally.votes)
            assert (cv.action, cv.decided_by) == (better, "tie") and cv.values[better] <= cv.values[
                next(a for a in tally.votes if a != better)]
        else:
            assert (cv.action, cv.decided_by) == (max(tally.votes, key=tally.votes.get), "votes")
        assert room.log[turn] == (0, cv.action, False) and room.tally(turn) == tally
        closed.append(cv)
    assert room.state == "over" and room.table.over
    assert {d for c in closed for d in (c.decided_by,)} == {"votes", "tie", "coach"}
    assert [seat for seat, _, by_cpu in room.log if by_cpu] and all(  # the Expert's replies, in the log
        seat == 1 for seat, _, by_cpu in room.log if by_cpu)
    assert store.room(room.code).closed_votes() == closed
    assert store.class_tables(k, by=u["dan"]) == []  # over: no longer listed
    assert [c.turn for c in closed] == [i for i, (seat, _, _) in enumerate(room.log) if seat == 0]
    with pytest.raises(ValueError, match=f"room {room.code} is over: it can no longer be joined"):
        store.room(room.code).join_team(by=u["dan"])


def test_halves_take_turns_each_learner_voting_on_their_own_teams_moves(store, klass):
    teacher, k, u, _ = klass
    room = store.create_class_table(k, by=teacher, opponent="halves", vote_seconds=5, seed=3)
    assert room.players == ("Half A", "Half B") and room.team_seats == (0, 1)
    pages = joined(store, room, u.values())
    assert [seat for _, seat in pages.values()] == [0, 1, 0, 1] and room.voters() == {0: 2, 1: 2}
    room.start(by=teacher)
    movers = []
    while room.state == "playing":
        seat, turn = room.table.seat_to_move, len(room.log)
        choice = str(CPUPlayer("Sofia", seed=turn).choose(room.observation(seat)))  # the team agrees
        for name, (page, team) in pages.items():
            page.refresh()
            if team == seat:
                assert page.vote(choice, by=u[name]) == turn
            else:
                before = snapshot(store)
                with pytest.raises(ValueError, match="it is the other team's turn"):
                    page.vote(choice, by=u[name])
                assert snapshot(store) == before
        assert room.tally() == Tally(turn, seat, {choice: 2}, 2)
        cv = room.close_vote(by=teacher)
        assert (cv.seat, cv.action, cv.decided_by) == (seat, choice, "votes")
        movers.append(seat)
    assert room.state == "over" and not any(by_cpu for _, _, by_cpu in room.log)
    assert set(movers) == {0, 1} and len(room.closed_votes()) == len(room.log) == len(movers)


def test_joins_and_votes_keep_a_class_table_open(store, klass):
    teacher, k, u, _ = klass
    room = store.create_class_table(k, by=teacher, opponent="Marcus", seed=4)
    start = room.last_activity
    minutes = 0
    for name in ("ann", "bob"):  # a lobby where learners join, one every 50 minutes, stays open
        minutes += 50
        store.clock = lambda m=minutes: start + m * 60
        store.room(room.code).join_team(by=u[name])
    room.start(by=teacher)
    for _ in range(2):  # a vote open for 50 minutes, then another
        minutes += 50
        store.clock = lambda m=minutes: start + m * 60
        page = store.room(room.code)
        assert page.state == "playing"
        page.vote(page.table.legal()[0], by=u["ann"])
    minutes += 61
    store.clock = lambda m=minutes: start + m * 60
    assert store.room(room.code).state == "closed"  # an hour with neither closes it, as any room


def test_a_second_vote_replaces_the_first(store, klass):
    teacher, k, u, _ = klass
    room = store.create_class_table(k, by=teacher, opponent="Sofia", seed=1)
    (ann, _), = joined(store, room, [u["ann"]]).values()
    room.start(by=teacher)
    ann.refresh()
    first, second = ann.table.legal()[:2]
    assert ann.vote(first, by=u["ann"]) == ann.vote(f" {second.upper()} ", by=u["ann"]) == len(room.log)
    assert room.tally() == Tally(len(room.log), 0, {second: 1}, 1)
    assert room.close_vote(by=teacher).action == second


def test_every_refusal_changes_nothing(store, klass):
    teacher, k, u, eve = klass
    ann, bob = u["ann"], u["bob"]
    ordinary = store.create_room(ann, Rules(rounds=1), seats=2, seed=2)
    assert not ordinary.is_class_table and ordinary.team_seats == () and ordinary.vote_seconds is None
    room = store.create_class_table(k, by=teacher, opponent="Marcus", seed=4)
    page = store.room(room.code)
    assert [t.code for t in store.class_tables(k, by=bob)] == [room.code]  # not the ordinary room
    before = snapshot(store)
    refusals = [
        (PermissionError, "eve is not in the class 6B", lambda: store.class_tables(k, by=eve)),
        (PermissionError, "eve is not a learner of the class", lambda: page.join_team(by=eve)),
        (PermissionError, "mrs_lee is not a learner of the class", lambda: page.join_team(by=teacher)),
        (ValueError, "is not a class table", lambda: store.room(ordinary.code).join_team(by=bob)),
        (ValueError, "is a class table: its class votes", lambda: store.join_room(room.code, bob)),
        (ValueError, "bob has not joined a team", lambda: page.vote("flip 0", by=bob)),
        (PermissionError, "only the host \\(its teacher\\) starts room", lambda: page.start(by=ann)),
        (ValueError, "no vote is open at room .*: it has not started yet", lambda: page.close_vote(by=teacher)),
        (ValueError, "a class table plays a CPU player \\(Sofia, .*Expert, or Level 1 to Level 8\\) or 'halves'",
         lambda: store.create_class_table(k, by=teacher, opponent="Ann")),
        (ValueError, "vote_seconds must be a whole number of seconds from 5 to 600, got 4",
         lambda: store.create_class_table(k, by=teacher, vote_seconds=4)),
        (ValueError, "from 5 to 600, got True", lambda: store.create_class_table(k, by=teacher, vote_seconds=True)),
        (PermissionError, "ann does not teach the class 6B", lambda: store.create_class_table(k, by=ann)),
    ]
    for error, message, call in refusals:
        with pytest.raises(error, match=message):
            call()
        assert snapshot(store) == before, message
    assert page.join_team(by=ann) == 0
    with pytest.raises(ValueError, match="no vote is open at room .*: it has not started yet"):
        page.vote("flip 0", by=ann)
    room.start(by=teacher)
    page.refresh()
    legal = page.table.legal()
    page.vote(legal[0], by=ann)
    other_page = store.room(room.code)  # the teacher's second page, showing the same move
    before = snapshot(store)
    refusals = [
        (PermissionError, "eve is not a learner of the class", lambda: page.vote(legal[0], by=eve)),
        (ValueError, f"'swap 9' is not a move here; the moves are {', '.join(legal)}",
         lambda: page.vote("swap 9", by=ann)),
        (ValueError, "is not a move here", lambda: page.vote(None, by=ann)),
        (PermissionError, "only the host \\(its teacher\\) closes the votes of room", lambda: page.close_vote(by=ann)),
        (ValueError, "turn is a move of room .*'s log, 0 to", lambda: page.close_vote(by=teacher, turn=99)),
        (ValueError, "turn is a move of room .*'s log, 0 to", lambda: page.tally(-1)),
        (ValueError, "is not a class table", lambda: store.room(ordinary.code).close_vote(by=ann)),
        (IllegalActionError, "its class votes for it, and plays the closed vote's move",
         lambda: room.apply(0, legal[-1], by=teacher)),  # its teacher cannot play around the vote
    ]
    for error, message, call in refusals:
        with pytest.raises(error, match=message):
            call()
        assert snapshot(store) == before, message
    turn = len(room.log)
    assert room.close_vote(by=teacher).action == legal[0]
    before = snapshot(store)
    for call in (lambda: other_page.close_vote(by=teacher), lambda: room.close_vote(by=teacher, turn=turn),
                 lambda: page.vote(legal[0], by=ann)):  # ann's page still shows the move just closed
        with pytest.raises(ValueError, match=f"the vote on move {turn + 1} of room {room.code} was closed already"):
            call()
        assert snapshot(store) == before
    with pytest.raises(IllegalActionError, match=f"was meant for move {turn + 1}"):
        room.apply(0, room.table.legal()[0], by=teacher, at=turn)
    assert snapshot(store) == before


def test_two_pages_closing_one_vote_play_it_once(store, klass):
    teacher, k, u, _ = klass
    room = store.create_class_table(k, by=teacher, opponent="Maya", seed=5)
    room.start(by=teacher)
    turn = len(room.log)
    pages = [store.room(room.code) for _ in range(3)]

    def close(page):
        try:
            return page.close_vote(by=teacher)
        except ValueError as exc:
            return str(exc)

    with ThreadPoolExecutor(3) as pool:
        results = list(pool.map(close, pages))
    played = [r for r in results if isinstance(r, ClosedVote)]
    assert played and all(r == played[0] for r in played)  # a page that lost the append says so
    assert all("closed already" in r for r in results if isinstance(r, str))
    room.refresh()
    assert [seat for seat, _, _ in room.log[turn:]].count(0) == 1 and room.closed_votes() == [played[0]]


def test_a_close_cut_short_is_finished_by_the_next(store, klass):
    """A decision written but not played (its page gone between): the next close plays that one."""
    teacher, k, u, _ = klass
    room = store.create_class_table(k, by=teacher, opponent="Maya", seed=6)
    room.start(by=teacher)
    turn, legal = len(room.log), room.table.legal()
    store.transaction(lambda conn: conn.execute(insert(T.room_vote_results).values(
        room=room.code, turn=turn, seat=0, action=legal[-1], decided_by="coach", votes="{}",
        coach_values='{"%s": -1.0}' % legal[-1], at=0.0)))
    cv = room.close_vote(by=teacher)
    assert (cv.action, cv.values) == (legal[-1], {legal[-1]: -1.0}) and room.log[turn][1] == legal[-1]


def test_a_voter_sees_the_team_seat_only_never_another_seats_hidden_cards(store, klass):
    teacher, k, u, _ = klass
    room = store.create_class_table(k, by=teacher, opponent="Priya", seed=8)
    (page, seat), = joined(store, room, [u["ann"]]).values()
    room.start(by=teacher)
    for _ in range(3):
        room.close_vote(by=teacher)
    page.refresh()
    game = page.game()
    assert Rules(rounds=1).decks_for(2) == 1  # one deck: a card seen anywhere is that very card
    hidden = [c for c, up in zip(game.grid(1), game.face_up(1)) if not up]
    seen = page.observation(seat)
    shown = repr((seen, page.tally(), page.voters(), page.closed_votes()))
    assert seen.seat == seat == 0 and len(hidden) >= 3
    assert [c is None for c in seen.grids[1]] == [not up for up in game.face_up(1)]
    for card in hidden:
        assert f"Card('{card}')" not in shown and f"'{card}'" not in shown


def test_decide_most_votes_then_the_coach():
    ranked = ["swap 3", "discard", "swap 0"]
    assert decide({"discard": 2, "swap 0": 1}, ranked) == ("discard", "votes")
    assert decide({"swap 0": 2, "discard": 2, "swap 3": 1}, ranked) == ("discard", "tie")
    assert decide({}, ranked) == ("swap 3", "coach")
