"""Room news on PostgreSQL: LISTEN/NOTIFY, so that pages follow a room without polling it fast.

A write that changes a room calls ``announce(conn, code)`` inside its own transaction: PostgreSQL
sends the notification when that transaction commits, so no page hears of a move before it can
read it (and a transaction rolled back sends nothing). On SQLite ``announce`` does nothing.

A process follows rooms through one ``Listener`` per database (``subscribe(engine, code, wake)``):
one connection of its own, outside the engine's pool, in a daemon thread, that LISTENs on the
channel of every room subscribed to (and is closed while no room is). ``wake(reason)`` is called
on that thread with one of

* ``NOTIFIED``: something in the room changed;
* ``LISTENING``: the channel is listened to now (after subscribing, or after a reconnection):
  read the room once, since what happened before was not heard;
* ``LOST``: the connection was lost; until ``LISTENING`` comes again nothing is heard, so the
  follower polls (the listener tries again after ``retry_seconds``, or at once for a new subscription).

Whether a subscription is heard now is its ``live``. A follower keeps a slower safety poll
even while live: a lost notification only delays a move, never freezes a room.
"""

from __future__ import annotations

import logging
import math
import select
import socket
import threading
import weakref
from typing import Callable

from sqlalchemy import text
from sqlalchemy.engine import Connection, Engine

from . import database

log = logging.getLogger(__name__)

NOTIFIED, LISTENING, LOST = "notified", "listening", "lost"
RETRY_SECONDS = 1.0
#: How the listening connection names itself in ``pg_stat_activity``.
APPLICATION_NAME = "golflab-rooms-listener"
_PREFIX = "golflab_room_"


def supported(engine: Engine) -> bool:
    """Whether rooms on ``engine`` can be followed by notifications (PostgreSQL)."""
    return engine.dialect.name == "postgresql"


def channel(code: str) -> str:
    """The notification channel of room ``code`` (a room code is letters only: a plain identifier)."""
    if not code.isalpha() or not code.isascii():
        raise ValueError(f"a room code is letters only, got {code[:20]!r}")
    return _PREFIX + code.lower()


def announce(conn: Connection, code: str) -> None:
    """Tell the followers of room ``code`` that it changed, when ``conn``'s transaction commits
    (PostgreSQL; nothing on SQLite)."""
    if conn.dialect.name == "postgresql":
        conn.execute(text("SELECT pg_notify(:channel, '')"), {"channel": channel(code)})


class Subscription:
    """One follower's interest in one room (``Listener.subscribe``); ``close()`` ends it."""

    def __init__(self, listener: "Listener", code: str, wake: Callable[[str], None]) -> None:
        self.listener, self.code, self.channel, self.wake = listener, code, channel(code), wake

    @property
    def live(self) -> bool:
        """Whether a change of the room is heard now (its channel is listened to)."""
        return self.listener.listening(self.channel)

    def close(self) -> None:
        self.listener.unsubscribe(self)


class Listener:
    """One connection LISTENing for a process's rooms on one PostgreSQL database, in a daemon thread.

    ``connect()`` gives a new autocommit psycopg connection; it is called again after a loss."""

    def __init__(self, connect: Callable[[], object], *, retry_seconds: float = RETRY_SECONDS) -> None:
        self._connect, self.retry_seconds = connect, retry_seconds
        self._retry = threading.Event()  # connect again now (a new subscription, or closing)
        self._lock = threading.Lock()
        self._subs: dict[str, set[Subscription]] = {}
        self._heard: set[str] = set()  # the channels LISTENed to on the current connection
        self._closed = threading.Event()
        self._poke_r, self._poke_w = socket.socketpair()
        self._poke_r.setblocking(False)
        self._thread: "threading.Thread | None" = None
        self.backend_pid: "int | None" = None  # the listening connection's server process, while connected

    def subscribe(self, code: str, wake: Callable[[str], None]) -> Subscription:
        """Call ``wake(reason)`` (on the listener's thread) when room ``code`` changes; see the module."""
        if self._closed.is_set():
            raise RuntimeError("this room listener is closed")
        sub = Subscription(self, code, wake)
        with self._lock:
            self._subs.setdefault(sub.channel, set()).add(sub)
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name="golflab-room-listener", daemon=True)
                self._thread.start()
        self._poke()
        return sub

    def unsubscribe(self, sub: Subscription) -> None:
        with self._lock:
            subs = self._subs.get(sub.channel)
            if subs is not None:
                subs.discard(sub)
                if not subs:
                    del self._subs[sub.channel]
        self._poke()

    def listening(self, channel_name: str) -> bool:
        with self._lock:
            return channel_name in self._heard and channel_name in self._subs

    def close(self) -> None:
        """Stop listening and close the connection (the thread ends soon after)."""
        self._closed.set()
        self._poke()

    def _poke(self) -> None:
        """Wake the thread (a subscription changed, or closing); a lost connection is tried again now."""
        self._retry.set()
        try:
            self._poke_w.send(b"x")
        except OSError:  # the buffer is full: the thread has been poked already
            pass

    def _wake(self, channel_name: str, reason: str) -> None:
        with self._lock:
            subs = list(self._subs.get(channel_name, ()))
        for sub in subs:
            try:
                sub.wake(reason)
            except Exception:  # one follower's failure must not stop the others hearing
                log.exception("waking the follower of room %s failed", sub.code)

    def _run(self) -> None:
        while not self._closed.is_set():
            self._retry.clear()
            with self._lock:
                idle = not self._subs
            if idle:  # no connection while no room is followed: wait for a subscription (or closing)
                self._retry.wait()
                continue
            try:
                conn = self._connect()
            except Exception as exc:
                log.warning("room notifications: cannot connect (%s); rooms are polled meanwhile",
                            database.plain(exc))
                self._retry.wait(self.retry_seconds)
                continue
            try:
                with conn:
                    self.backend_pid = conn.info.backend_pid
                    self._serve(conn)
            except Exception as exc:
                if not self._closed.is_set():
                    log.warning("room notifications: connection lost (%s); rooms are polled meanwhile",
                                database.plain(exc))
            finally:
                self._retry.clear()  # pokes while connected asked for no new connection
                with self._lock:
                    lost, self._heard = sorted(self._heard), set()
                self.backend_pid = None
                for name in lost:
                    self._wake(name, LOST)
            if not self._closed.is_set():
                self._retry.wait(self.retry_seconds)
        self._poke_r.close()
        self._poke_w.close()

    def _serve(self, conn) -> None:
        """LISTEN to the subscribed channels and pass notifications on, until closed or the connection fails."""
        while not self._closed.is_set():
            with self._lock:
                wanted = set(self._subs)
                heard = set(self._heard)
            for name in sorted(heard - wanted):
                conn.execute(f"UNLISTEN {name}")  # a name from channel(): letters and '_' only
                with self._lock:
                    self._heard.discard(name)
            for name in sorted(wanted - heard):
                conn.execute(f"LISTEN {name}")
                with self._lock:
                    self._heard.add(name)
                self._wake(name, LISTENING)
            if not wanted:
                return  # the last follower left: close the connection until the next one
            # what has arrived, also during a LISTEN above (psycopg keeps those aside, unread by select)
            for note in conn.notifies(timeout=0):
                self._wake(note.channel, NOTIFIED)
            if conn.closed:
                raise ConnectionError("the server closed the connection")
            ready, _, _ = select.select([conn.fileno(), self._poke_r], [], [])
            if self._poke_r in ready:
                try:
                    while self._poke_r.recv(4096):
                        pass
                except BlockingIOError:
                    pass


_LISTENERS: "weakref.WeakKeyDictionary[Engine, Listener]" = weakref.WeakKeyDictionary()
_REGISTRY_LOCK = threading.Lock()


def subscribe(engine: Engine, code: str, wake: Callable[[str], None]) -> "Subscription | None":
    """Follow room ``code`` on ``engine``'s database through this process's listener for it
    (started at first use); None when the database has no notifications (SQLite): poll then."""
    if not supported(engine):
        return None
    with _REGISTRY_LOCK:
        listener = _LISTENERS.get(engine)
        if listener is None:
            listener = _LISTENERS[engine] = Listener(_connector(engine))
            weakref.finalize(engine, listener.close)
    return listener.subscribe(code, wake)


def listener_of(engine: Engine) -> "Listener | None":
    """This process's listener for ``engine`` (None before anything subscribed)."""
    return _LISTENERS.get(engine)


def close(engine: Engine) -> None:
    """Stop this process's listener for ``engine``, if any (the store closes)."""
    with _REGISTRY_LOCK:
        listener = _LISTENERS.pop(engine, None)
    if listener is not None:
        listener.close()


def _connector(engine: Engine) -> Callable[[], object]:
    """A function that opens a new autocommit psycopg connection to ``engine``'s database."""
    url = engine.url.set(drivername="postgresql").render_as_string(hide_password=False)
    timeout = max(1, math.ceil(database.connect_timeout(engine)))

    def connect():
        import psycopg

        return psycopg.connect(url, autocommit=True, connect_timeout=timeout, application_name=APPLICATION_NAME)

    return connect
