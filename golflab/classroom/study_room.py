"""A room's study side (mixed into ``Room``): the page shown now, and who follows it. A learner's
page says it follows (``follow_study``, once) so that the teacher's page can count the class in
(``followers``); following is otherwise reading the room's log, as any room's page does. Who may
call what: ``permissions.ROOM_TABLE``.
"""

from __future__ import annotations

from sqlalchemy import and_, func, insert, select, update

from . import database, notify, schema
from .errors import StoreConflict
from .study_game import StudyPage, StudyRoomGame

T = schema
#: The seat a study's followers are listed under (``room_voters``): its teacher's one seat.
FOLLOWERS_SEAT = 0


class StudyRoom:
    """A room's study side (see the module)."""

    @property
    def is_study(self) -> bool:
        return self.kind == StudyRoomGame.kind

    def study_page(self, *, by) -> StudyPage:
        """The page of this study shown now, for ``by``: its teacher, or a learner of its class."""
        self._check_study()
        if self.table is None:
            raise ValueError(f"room {self.code} has not started yet")
        return self.table.view(0)

    def follow_study(self, *, by) -> StudyPage:
        """``by``, a learner of the study's class (or its teacher), follows it from their page:
        counted once among its followers, however many pages they open. The page shown now."""
        page = self.study_page(by=by)
        if self.state != "playing":
            raise ValueError(f"the study {self.code} has ended: ask your teacher for the new one")
        now = self.store.clock()
        c = T.room_voters.c

        def work(conn):
            if conn.execute(select(c.user_id).where(and_(c.room == self.code, c.user_id == by.id))).first() is None:
                conn.execute(insert(T.room_voters).values(room=self.code, user_id=by.id, seat=FOLLOWERS_SEAT,
                                                          joined_at=now))
                conn.execute(update(T.rooms).where(T.rooms.c.code == self.code).values(last_activity=now))
                notify.announce(conn, self.code)

        try:
            self.store.transaction(work)
        except StoreConflict:  # their other page said it at the same moment: counted once all the same
            pass
        return page

    def followers(self) -> int:
        """How many people follow this study (its teacher's pages are not counted)."""
        self._check_study()
        c = T.room_voters.c
        with database.reading(self.store.engine) as conn:
            return conn.execute(select(func.count()).where(and_(c.room == self.code,
                                                                c.user_id != self.host_id))).scalar_one()

    def _check_study(self) -> None:
        if not self.is_study:
            raise ValueError(f"room {self.code} is not a study: it plays {self.kind}")


__all__ = ["FOLLOWERS_SEAT", "StudyRoom"]
