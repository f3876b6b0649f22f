"""A class table's votes (issue 41, point 4): a golf room that a whole class plays from one team
seat against a CPU player, or two halves of the class from two (``Store.create_class_table``).
Each learner joins a team and votes, on their own page, for the team's move; the teacher's page
closes the vote and plays the move with the most votes (a tie: the coach's better; no votes: the
coach's best).

A class table is a room (``vote_seconds`` set): its team seats are its host's, and their moves are
appended by the same checked ``Room.apply``. Votes are a table of their own, one per voter and
turn (a second replaces the first). A closed vote is written first (``room_vote_results``: its one
row claims the turn), then played at its turn only (``Room.apply(..., at=turn)``): two pages
closing one vote append its move once, and a close cut short is finished by the next. Voters see
the team seat's observation only. Who may call what: ``permissions.ROOM_TABLE``.
"""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass

from sqlalchemy import and_, func, insert, select, update

from golflab.actions import IllegalActionError, one_of

from . import database, notify, schema, security
from .errors import StoreConflict
from .records import User

T = schema
#: A class table's team seats' names, by how many teams it has.
TEAM_NAMES = {1: ("The class",), 2: ("Half A", "Half B")}
#: Why a closed vote played its move: the most votes, the coach among tied moves, no votes.
DECIDED_BY = ("votes", "tie", "coach")


def team_names(count: int) -> tuple:
    """The names of a class table's ``count`` team seats (none for an ordinary room)."""
    return TEAM_NAMES.get(count, ())


@dataclass(frozen=True)
class Tally:
    """The votes for the move at ``turn`` (its seq in the room's log) of ``seat`` (None when no seat
    moves there): ``votes``, each move's count, most first; ``voters``, how many voted."""
    turn: int
    seat: "int | None"
    votes: dict
    voters: int


@dataclass(frozen=True)
class ClosedVote:
    """A vote closed and played: ``action`` at ``turn`` for team ``seat``, with the ``votes`` then,
    the coach's ``values`` of every legal move (lower is better, best first) and ``decided_by`` (one
    of ``DECIDED_BY``)."""
    turn: int
    seat: int
    action: str
    votes: dict
    values: dict
    decided_by: str


def decide(votes: dict, ranked: "list[str]") -> "tuple[str, str]":
    """The move a closed vote plays and why: the one with the most ``votes`` ("votes"); among several
    tied, the coach's better ("tie"); with no votes, the coach's best ("coach"). ``ranked``: the legal
    moves, the coach's best first."""
    if not votes:
        return ranked[0], "coach"
    most = max(votes.values())
    tied = [a for a in ranked if votes.get(a) == most]
    return tied[0], "votes" if len(tied) == 1 else "tie"


class ClassTableRoom:
    """A room's class-table side (mixed into ``Room``, and read through its public face only)."""

    vote_seconds: "int | None" = None

    @property
    def is_class_table(self) -> bool:
        return self.vote_seconds is not None

    @property
    def team_seats(self) -> tuple:
        """The seats the class votes for (none in an ordinary room)."""
        return tuple(s.seat for s in self.seats if s.team)

    def join_team(self, *, by: User) -> int:
        """``by``, a learner of the table's class, votes from now on for a team seat, given here: the
        class's (against a CPU player), or the half with fewer voters (ties: seat 0). Joining again
        gives the same seat."""
        self.refresh()
        self._check_open("joined")
        teams = self.team_seats
        now = self.store.clock()

        def work(conn):
            # the room's row first: joiners wait their turn here, so the halves stay even
            conn.execute(select(T.rooms.c.code).where(T.rooms.c.code == self.code).with_for_update())
            held = _team_of(conn, self.code, by.id)
            if held is not None:
                return held
            counts = _voter_counts(conn, self.code)
            seat = min(teams, key=lambda s: (counts.get(s, 0), s))
            conn.execute(insert(T.room_voters).values(room=self.code, user_id=by.id, seat=seat, joined_at=now))
            _active(conn, self.code, now)
            notify.announce(conn, self.code)
            return seat

        try:
            return self.store.transaction(work)
        except StoreConflict:  # the same learner joining from two pages at once: the seat the other gave
            with database.reading(self.store.engine) as conn:
                return _team_of(conn, self.code, by.id)

    def voters(self) -> "dict[int, int]":
        """How many voters each team seat has."""
        with database.reading(self.store.engine) as conn:
            counts = _voter_counts(conn, self.code)
        return {seat: counts.get(seat, 0) for seat in self.team_seats}

    def vote(self, action: str, *, by: User) -> int:
        """``by``'s vote for ``action`` (legal now) as their team's move: the move this page shows,
        their team's to decide. A second vote for the turn replaces the first. The turn."""
        turn = len(self.log)
        self.refresh()
        self._check_open("voted at")
        with database.reading(self.store.engine) as conn:
            team = _team_of(conn, self.code, by.id)
        if team is None:
            raise ValueError(f"{by.name} has not joined a team at room {self.code}: join it to vote")
        self._check_turn(turn)
        seat = self._team_to_move()
        if seat != team:
            raise ValueError(f"it is the other team's turn ({self.players[seat]}'s) at room {self.code}: "
                             f"wait for yours ({self.players[team]}'s)")
        move = one_of(action, self.table.legal())
        now = self.store.clock()
        v = T.room_votes.c
        mine = and_(v.room == self.code, v.turn == turn, v.user_id == by.id)

        def work(conn):
            if _result_row(conn, self.code, turn) is not None:
                raise ValueError(f"the vote on move {turn + 1} of room {self.code} has closed")
            if conn.execute(update(T.room_votes).where(mine).values(action=move, at=now)).rowcount == 0:
                conn.execute(insert(T.room_votes).values(room=self.code, turn=turn, user_id=by.id, action=move,
                                                         at=now))
            _active(conn, self.code, now)
            notify.announce(conn, self.code)
            return turn

        try:
            return self.store.transaction(work)
        except StoreConflict:  # the learner's other page voted this turn at the same moment: replace it
            return self.store.transaction(work)

    def tally(self, turn: "int | None" = None) -> Tally:
        """The votes for the move being decided now (``turn`` None: the one this page shows) or at an
        earlier ``turn`` (a seq of the log)."""
        now = len(self.log)
        if turn is None:
            turn = now
        elif isinstance(turn, bool) or not isinstance(turn, int) or not 0 <= turn <= now:
            raise ValueError(f"turn is a move of room {self.code}'s log, 0 to {now}, got {security.shown(turn)}")
        seat = self.log[turn][0] if turn < now else (None if self.table is None else self.table.seat_to_move)
        with database.reading(self.store.engine) as conn:
            votes = _votes(conn, self.code, turn)
        return Tally(turn, seat, votes, sum(votes.values()))

    def close_vote(self, *, by: User, turn: "int | None" = None) -> ClosedVote:
        """The host closes the vote on the move ``turn`` (a seq of the log; None: the move this page
        shows) and plays the winner (``decide``) for the team seat to move; CPU replies follow. A
        ValueError when it was closed already (by another page: nothing changes) or no team is to move."""
        shown = len(self.log)
        if turn is None:
            turn = shown
        elif isinstance(turn, bool) or not isinstance(turn, int) or not 0 <= turn <= shown:
            raise ValueError(f"turn is a move of room {self.code}'s log, 0 to {shown}, got {security.shown(turn)}")
        self.refresh()
        self._check_class_table()
        self._check_turn(turn)
        seat = self._team_to_move()
        closed = self._closing(turn, seat)
        try:
            self.apply(seat, closed.action, by=by, at=turn)
        except IllegalActionError:
            self._check_turn(turn)  # another page played it first
            raise
        return closed

    def closed_votes(self) -> "list[ClosedVote]":
        """Every vote closed and played so far, in order."""
        r = T.room_vote_results.c
        with database.reading(self.store.engine) as conn:
            rows = conn.execute(select(T.room_vote_results).where(and_(r.room == self.code, r.turn < len(self.log)))
                                .order_by(r.turn)).all()
        return [_closed(row) for row in rows if self.log[row.turn][:2] == (row.seat, row.action)]

    # -- helpers ------------------------------------------------------------------------

    def _voted_for(self, seat: int, action: str) -> bool:
        """Whether ``action`` for team ``seat`` is the closed vote's decision at the move now: a team's
        moves are its class's, never played around the vote (``Room.apply`` checks)."""
        with database.reading(self.store.engine) as conn:
            row = _result_row(conn, self.code, len(self.log))
        return row is not None and (row.seat, row.action) == (seat, action)

    def _check_class_table(self) -> None:
        if not self.is_class_table:
            raise ValueError(f"room {self.code} is not a class table: its players take seats (join the room)")

    def _check_open(self, doing: str) -> None:
        """A ValueError unless this is a class table still to play or playing."""
        self._check_class_table()
        if self.state not in ("lobby", "playing"):
            raise ValueError(f"room {self.code} is {self.state}: it can no longer be {doing}")

    def _check_turn(self, turn: int) -> None:
        """A ValueError when the log has moved on from ``turn``, the move the page meant."""
        if len(self.log) != turn:
            raise ValueError(f"the vote on move {turn + 1} of room {self.code} was closed already: the room "
                             f"is at move {len(self.log) + 1} now")

    def _team_to_move(self) -> int:
        """The team seat to move now, or a ValueError saying why no vote is open."""
        seat = self.table.seat_to_move if self.state == "playing" else None
        if seat in self.team_seats:
            return seat
        if self.state != "playing":
            why = "it has not started yet" if self.state == "lobby" else f"it is {self.state}"
        elif seat is None:
            why = "the hole is over (its teacher deals the next)"
        else:
            why = f"the CPU is playing ({self.players[seat]})"
        raise ValueError(f"no vote is open at room {self.code}: {why}")

    def _closing(self, turn: int, seat: int) -> ClosedVote:
        """The vote at ``turn`` closed: as written already by another page, else decided and written."""
        with database.reading(self.store.engine) as conn:
            row = _result_row(conn, self.code, turn)
        if row is not None:
            return _closed(row)
        from golflab.coach import hint  # the coach loads on a class table's first close, not with the store

        values = {o.action: o.value for o in hint(self.observation(seat))}
        now = self.store.clock()

        def work(conn):
            found = _result_row(conn, self.code, turn)
            if found is not None:
                return _closed(found)
            votes = _votes(conn, self.code, turn)
            action, why = decide(votes, list(values))
            conn.execute(insert(T.room_vote_results).values(
                room=self.code, turn=turn, seat=seat, action=action, decided_by=why, votes=json.dumps(votes),
                coach_values=json.dumps(values), at=now))
            return ClosedVote(turn, seat, action, votes, values, why)

        try:
            return self.store.transaction(work)
        except StoreConflict:  # another page closed it at the same moment: its decision
            with database.reading(self.store.engine) as conn:
                return _closed(_result_row(conn, self.code, turn))


def _active(conn, code: str, now: float) -> None:
    """A class table's joins and votes are its activity: a room with neither for long closes."""
    conn.execute(update(T.rooms).where(T.rooms.c.code == code).values(last_activity=now))


def _team_of(conn, code: str, user_id: int) -> "int | None":
    c = T.room_voters.c
    return conn.execute(select(c.seat).where(and_(c.room == code, c.user_id == user_id))).scalar()


def _voter_counts(conn, code: str) -> "dict[int, int]":
    c = T.room_voters.c
    return dict(conn.execute(select(c.seat, func.count()).where(c.room == code).group_by(c.seat)).all())


def _votes(conn, code: str, turn: int) -> "dict[str, int]":
    """Each move voted for at ``turn`` and its votes, most first (ties by move)."""
    c = T.room_votes.c
    counts = Counter(dict(conn.execute(select(c.action, func.count()).where(and_(c.room == code, c.turn == turn))
                                       .group_by(c.action)).all()))
    return dict(sorted(counts.items(), key=lambda kv: (-kv[1], kv[0])))


def _result_row(conn, code: str, turn: int):
    r = T.room_vote_results.c
    return conn.execute(select(T.room_vote_results).where(and_(r.room == code, r.turn == turn))).first()


def _closed(row) -> ClosedVote:
    return ClosedVote(row.turn, row.seat, row.action, json.loads(row.votes), json.loads(row.coach_values),
                      row.decided_by)
