"""Following a room's log from one page: ``RoomFollower`` reads the room when it hears of a change
(at once: the notification is the news) or polls it (counting its moves; ``room.refresh()`` when
they changed, at least every ``FULL_REFRESH_SECONDS``), says ``room.claim`` (the heartbeat) every
``CLAIM_SECONDS`` (a page that opens takes its seat: ``claim_now``), and calls
``on_change()`` when something a page shows changed (a move, a seat, the room's state, who is
away, whether this page holds its seat's controls).

On PostgreSQL it hears of changes (``room.subscribe``: LISTEN/NOTIFY, ``golflab.classroom.notify``)
and polls only every ``SAFETY_POLL_SECONDS``, in case a notification is lost; while nothing is
heard (SQLite, or the listening connection lost and not yet back) it polls every ``POLL_SECONDS``.
Why it last read the room is ``woken_by``: ``POLLED``, or the reason it was woken (``notify.NOTIFIED``,
``LISTENING``, ``LOST``).

No widgets here: the room boards (``golflab_widgets.rooms.board``) and the benchmark
(``benchmarks/rooms.py``) run the same code.
"""

from __future__ import annotations

import asyncio
import logging
import time
import uuid
from typing import Callable

from golflab.classroom import StoreUnavailable
from golflab.classroom.notify import NOTIFIED
from golflab.classroom.rooms import RoomBroken, count_moves
from golflab.words import as_sentence

log = logging.getLogger(__name__)

POLL_SECONDS = 0.15
#: While changes are heard (PostgreSQL), a poll this often all the same: a lost notification delays a move, no more.
SAFETY_POLL_SECONDS = 2.0
POLLED = "polled"
CLAIM_SECONDS = 2.0
#: While a room plays, a poll only counts its moves (one small query) and reads it all (seats,
#: state, new moves; playing an away player's turn) when the count changed or this often.
FULL_REFRESH_SECONDS = 1.0


def new_tab_id() -> str:
    """An id for this page (a reload is a new page, so a new id)."""
    return uuid.uuid4().hex[:16]


class RoomFollower:
    """Follows ``room`` for the page of ``user`` at ``seat`` (no seat: a teacher watching)."""

    def __init__(self, room, on_change: Callable[[], None], *, seat: "int | None" = None, user=None,
                 tab: "str | None" = None, clock: Callable[[], float] = time.monotonic, listen: bool = True,
                 safety_poll_seconds: float = SAFETY_POLL_SECONDS) -> None:
        self.room, self.on_change, self.seat, self.user = room, on_change, seat, user
        self.listen = listen  # hear of changes where the store can tell (False: poll only)
        self.safety_poll_seconds = safety_poll_seconds
        self.woken_by: "str | None" = None  # why ``run`` last read the room (see the module)
        self._subscription = None
        self._waiting = False  # ``run`` waits for news
        self._state = asyncio.Condition()
        self.tab = tab or new_tab_id()
        self.clock = clock
        self.holds: bool = seat is not None  # this page holds its seat's controls
        self.problem: "str | None" = None  # a store problem, in words (cleared when it goes away)
        self._claimed_at = self._refreshed_at = float("-inf")
        self._take = False  # the next heartbeat takes the seat from any other page (``claim_now``)
        self._task: "asyncio.Task | None" = None
        self._seen = self.signature()

    def signature(self) -> tuple:
        """What a page shows of the room besides the cards: redraw when it changes."""
        r = self.room
        seats = tuple((s.name, s.user_id, s.cpu) for s in r.seats)
        away = tuple(r.away(s.seat) for s in r.seats) if r.state == "playing" else ()
        return len(r.log), r.state, seats, away, self.holds, self.problem

    def step(self, *, heartbeat: bool = False, told: bool = False) -> bool:
        """One poll: the heartbeat when due (or ``heartbeat``: now, as before a move), then the room's
        news (``told``: the room said it changed, so it is read without counting its moves first);
        True when ``on_change`` is due."""
        try:
            now = self.clock()
            if self.seat is not None and (heartbeat or now - self._claimed_at >= CLAIM_SECONDS):
                self._claimed_at = now
                self.holds = self.room.claim(self.seat, self.tab, by=self.user, take=self._take)
                self._take = False
            if told or self._news(now):
                self._refreshed_at = now
                self.room.refresh()
            self.problem = None
        except StoreUnavailable as exc:
            self.problem = f"The room cannot be read just now ({exc}); trying again."
        except RoomBroken as exc:  # the room has closed: say so, and stop following
            self.problem = as_sentence(str(exc))
        now = self.signature()
        changed, self._seen = now != self._seen, now
        return changed

    def _news(self, now: float) -> bool:
        """Whether to read the whole room now (cheaper on every poll than reading it)."""
        if self.room.state != "playing" or now - self._refreshed_at >= FULL_REFRESH_SECONDS:
            return True
        return count_moves(self.room.store, self.room.code) != len(self.room.log)

    def claim_now(self) -> bool:
        """Take the seat and read the whole room at once (a page that just opened: the newest page of
        a learner holds their seat's controls, ``Room.claim``); whether this page holds the seat."""
        self._refreshed_at = float("-inf")
        self._take = True
        self.step(heartbeat=True)
        return self.holds

    @property
    def done(self) -> bool:
        """Nothing more will happen in the room (it is over or closed)."""
        return self.room.state in ("over", "closed")

    @property
    def running(self) -> bool:
        return self._task is not None and not self._task.done()

    def start(self) -> bool:
        """Follow on the running event loop (a kernel's); False when there is none (call ``step``)."""
        if self.running:
            return True
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return False
        self._task = loop.create_task(self.run())
        return True

    def stop(self) -> None:
        if self._task is not None and not self._task.done():
            self._task.cancel()
        self._task = None

    async def run(self) -> None:
        """Follow until the room is over or closed (then one last redraw)."""
        loop, news, reasons = asyncio.get_running_loop(), asyncio.Event(), []

        def heard(reason: str) -> None:  # on the listener's thread
            loop.call_soon_threadsafe(lambda: (reasons.append(reason), news.set()))

        if self.listen:
            try:
                self._subscription = self.room.subscribe(heard)
            except Exception:  # no notifications: polling follows the room all the same
                log.exception("room %s: changes cannot be heard, polling", self.room.code)
        try:
            while True:
                try:
                    if self.step(told=self.woken_by == NOTIFIED):
                        self.on_change()
                except Exception:  # a redraw failing must not stop the page from following
                    log.exception("following room %s failed", self.room.code)
                if self.done:
                    return
                await self._said(waiting=True)
                try:
                    await asyncio.wait_for(news.wait(), self._wait_seconds(self.heard))
                    news.clear()
                    self.woken_by = reasons[-1]
                    reasons.clear()
                except asyncio.TimeoutError:
                    self.woken_by = POLLED
                await self._said(waiting=False)
        finally:
            if self._subscription is not None:
                self._subscription.close()
                self._subscription = None

    @property
    def heard(self) -> bool:
        """Whether changes of the room are heard now (False: it is polled every ``POLL_SECONDS``)."""
        return self._subscription is not None and self._subscription.live

    async def waiting(self, until: Callable[[], bool] = lambda: True) -> None:
        """Return once ``run`` waits for news with ``until()`` true (e.g. ``lambda: follower.heard``):
        tests and benchmarks await this rather than a time."""
        async with self._state:
            await self._state.wait_for(lambda: self._waiting and until())

    async def _said(self, *, waiting: bool) -> None:
        async with self._state:
            self._waiting = waiting
            self._state.notify_all()

    def _wait_seconds(self, live: bool) -> float:
        """How long to wait for news before polling: longer while changes are heard, not past the
        heartbeat, and never less than ``POLL_SECONDS`` (a page slowed down by a busy machine whose
        heartbeat is always due must not read the room back to back)."""
        if not live:
            return POLL_SECONDS
        if self.seat is None:
            return self.safety_poll_seconds
        return min(self.safety_poll_seconds, max(POLL_SECONDS, self._claimed_at + CLAIM_SECONDS - self.clock()))
