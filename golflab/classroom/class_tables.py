"""Class tables (issue 41, point 4): a teacher opens, for the projector, a golf room whose team seat
the whole class votes for, against a CPU player, or two team seats for two halves of the class.
Joining a team, the votes and closing them: ``class_votes``. Who may call what: ``permissions.TABLE``.
"""

from __future__ import annotations

from golflab.ai import CPU_NAMES, CPU_NAMES_TEXT
from golflab.rules import Rules

from . import schema, security
from .records import Klass, User
from .rooms import Room, insert_room, open_class_rooms, room_rules, room_seed

T = schema
#: The opponent that makes a class table two halves of the class, each voting for its seat.
HALVES = "halves"
#: The seconds a class table's vote may stay open, the fewest and the most.
VOTE_SECONDS = (5, 600)


class ClassTablesMixin:
    """The class store's class tables (mixed into ``Store``)."""

    def create_class_table(self, klass: Klass, *, by: User, opponent: str = "Expert",
                           rules: "Rules | dict | None" = None, vote_seconds: int = 30,
                           seed: "int | None" = None) -> Room:
        """A class table of ``klass`` hosted by ``by``, in the lobby until ``Room.start``: the class's
        team seat (0) against ``opponent``, a CPU player (``golflab.ai.CPU_NAMES``), or two team seats
        for the class's halves (``opponent="halves"``); one hole unless ``rules`` say otherwise. Each
        vote stays open ``vote_seconds`` (5 to 600) on the teacher's page."""
        if opponent != HALVES and opponent not in CPU_NAMES:
            raise ValueError(f"a class table plays a CPU player ({CPU_NAMES_TEXT}) or {HALVES!r} (two halves of "
                             f"the class), got {security.shown(opponent)}")
        low, high = VOTE_SECONDS
        if isinstance(vote_seconds, bool) or not isinstance(vote_seconds, int) or not low <= vote_seconds <= high:
            raise ValueError(f"vote_seconds must be a whole number of seconds from {low} to {high}, "
                             f"got {security.shown(vote_seconds)}")
        rules_dict = room_rules("golf", Rules(rounds=1) if rules is None else rules)
        seed = room_seed(seed)
        seats = [(None, None)] * 2 if opponent == HALVES else [(None, None), (None, opponent)]
        now = self.clock()
        code = self.transaction(lambda conn: insert_room(
            conn, game="golf", host_id=by.id, class_id=klass.id, rules=rules_dict, seed=seed, now=now, seats=seats,
            vote_seconds=vote_seconds))
        return Room(self, code)

    def class_tables(self, klass: Klass, *, by: User) -> "list[Room]":
        """The class's class tables still to play or playing, newest first (a learner's page finds
        its class's table here, without its code)."""
        return open_class_rooms(self, klass, T.rooms.c.vote_seconds.is_not(None))
