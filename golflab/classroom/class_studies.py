"""Class studies, "follow me" (issue 41, point 4): a teacher opens a study of their class, a list
of positions with notes (``study_game``), and turns its pages with ``Room.apply(0, "page 2")``;
every learner's page follows the room's log and reads the page shown with ``Room.study_page``.
Who may call what: ``permissions.TABLE`` and ``ROOM_TABLE``.
"""

from __future__ import annotations

from typing import Iterable

from . import schema
from .records import Klass, User
from .rooms import Room, insert_room, open_class_rooms
from .study_game import StudyRoomGame, study_rules


class StudiesMixin:
    """The class store's studies (mixed into ``Store``)."""

    def create_study(self, klass: Klass, *, by: User, title: str, pages: "Iterable[tuple]") -> Room:
        """A study of ``klass`` by its teacher ``by``, open at its first page: ``title`` and ``pages``,
        each ``(position, note)`` (a ``Position`` or its text; kept as its player to move sees it)."""
        rules = study_rules(title, pages)
        now = self.clock()
        code = self.transaction(lambda conn: insert_room(
            conn, game=StudyRoomGame.kind, host_id=by.id, class_id=klass.id, rules=rules, seed=0, now=now,
            seats=[(by.id, None)]))
        return Room(self, code).start(by=by)

    def studies(self, klass: Klass, *, by: User) -> "list[Room]":
        """The class's studies still open, newest first (a learner's page finds them here, without a code)."""
        return open_class_rooms(self, klass, schema.rooms.c.game == StudyRoomGame.kind)
