"""The class store as an app sees it: this page's store and signed-in user, or, in plain words,
why progress is not kept. Every app asks ``page_session()``; nothing else opens the store.

A guest (no JupyterHub user, no sign-in cookie: Binder, a signed-out page) never opens the store,
nor imports it (SQLAlchemy and the store take a few tenths of a second to import): the apps work
as before and say that progress is not kept. A store that cannot be opened or
written (a read-only or locked file, a database that is down) gives ``problem``, a sentence the
app shows; the game still plays.
"""

from __future__ import annotations

import os
import threading
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Callable
from urllib.parse import parse_qs

from golflab.classroom.identity import session_token

from ..server import page_request

if TYPE_CHECKING:
    from golflab.classroom import Store

GUEST_NOTE = "You are not signed in, so your progress is not kept. Sign in to keep it."
SIGNED_OUT_NOTE = ("This page is signed out (you signed out, your sign-in ran out or your password was reset), so "
                   "nothing more is kept in your account and nothing was changed. Sign in again to keep your progress.")


@dataclass
class PageSession:
    """This page's store and user (both None for a guest) and the latest problem, if any."""
    store: "Store | None" = None
    user: "object | None" = None
    problem: "str | None" = None
    kept: list = field(default_factory=list, repr=False)
    #: Store calls held while the store was unavailable: (method, args, kwargs), made by ``retry``.
    held: list = field(default_factory=list, repr=False)

    @property
    def signed_in(self) -> bool:
        return self.user is not None

    @property
    def keeps_progress(self) -> bool:
        return self.store is not None and self.user is not None and self.problem is None

    @property
    def note(self) -> str:
        """One sentence on whether progress is kept (for the app's account line)."""
        if self.problem:
            return self.problem
        return f"Signed in as {self.user.name}: your progress is kept." if self.user else GUEST_NOTE

    def end(self) -> None:
        """The store refused this page's session (``SignedOut``): from now on the page is signed out."""
        self.user = None
        self.problem = SIGNED_OUT_NOTE

    def ended(self, exc: BaseException) -> bool:
        """True (and the page signed out) when ``exc`` is the store's refusal of an ended session."""
        from golflab.classroom.errors import SignedOut

        if isinstance(exc, SignedOut):
            self.end()
            return True
        return False

    def attempt(self, work: Callable[[], object], say: Callable[[str], object], refused: str = "Not done",
                unchanged: str = "Nothing was changed.") -> bool:
        """Run ``work()`` (a teacher's or learner's store calls); True when done. A refusal is said
        through ``say``: an ended session in its words (the page signs out), else
        ``"<refused>: <why>."``; an unreachable store, that it cannot be reached and ``unchanged``.
        Whatever was refused changed nothing in the store."""
        from golflab.classroom.errors import StoreUnavailable

        try:
            work()
        except (ValueError, PermissionError) as exc:
            say(self.problem if self.ended(exc) else f"{refused}: {exc}.")
            return False
        except StoreUnavailable as exc:
            say(f"The class store cannot be reached just now ({exc}). {unchanged}")
            return False
        return True

    def keep(self, method: str, *args, **kwargs):
        """Call ``store.<method>(user, ...)`` for the signed-in user; None (and ``problem`` set) if
        the store fails, the session has ended, or for a guest. The game goes on either way. A call
        the store could not take (``StoreUnavailable``: down, hung) is held on this page and made
        again, in order, before the next one (``retry``): what the learner did is never lost."""
        if self.store is None or self.user is None:
            return None
        from golflab.classroom import StoreUnavailable

        try:
            self.retry()
            result = getattr(self.store, method)(self.user, *args, **kwargs)
        except PermissionError as exc:
            if self.ended(exc):
                return None
            raise
        except StoreUnavailable as exc:
            self.hold(method, *args, **kwargs)
            self.problem = (f"Your progress could not be kept just now ({exc}). This page holds it and keeps "
                            "it as soon as the store answers again. The game goes on.")
            return None
        self.problem = None
        return result

    def hold(self, method: str, *args, **kwargs) -> None:
        """Hold ``store.<method>(user, ...)`` on this page, to be made by the next ``retry``."""
        self.held.append((method, args, kwargs))

    def retry(self) -> int:
        """Make the held calls in the order they were held; the number made. StoreUnavailable
        (the rest still held) while the store is down; a call the store refuses as bad input is
        dropped (logged): it can never be kept."""
        import logging

        made = 0
        while self.held and self.store is not None and self.user is not None:
            method, args, kwargs = self.held[0]
            try:
                getattr(self.store, method)(self.user, *args, **kwargs)
            except ValueError as exc:
                logging.getLogger(__name__).warning("held progress dropped: %s", exc)
            self.held.pop(0)
            made += 1
        return made


_SESSION: "PageSession | None" = None
_SESSION_LOCK = threading.RLock()
_REQUEST_LOCK = threading.Lock()

#: True once a kernel started ahead of its page holds the page's request (``request_environ`` sets it,
#: under ``_REQUEST_LOCK``; ``awaiting_request`` reads it).
request_seen = False


def awaiting_request() -> bool:
    """True in a kernel Voila started ahead of its page (``preheat_kernel``: ``VOILA_PREHEAT`` set)
    until the page's request has arrived: the request's values (cookie, query, ...) are not in
    ``os.environ`` yet."""
    return not request_seen and os.environ.get("VOILA_PREHEAT", "False") != "False"


def request_environ(environ=None):
    """The page request's environment: ``environ`` if given, else this kernel's ``os.environ`` once
    it holds the request (``HTTP_COOKIE``, ``QUERY_STRING``, ...).

    Voila puts the request there before it starts a kernel, except a kernel it started ahead
    (``preheat_kernel``, ``VOILA_PREHEAT`` set): there the first call waits for the page's request
    (``page_request.wait_for_page_request``), once per kernel, and every later call returns at once.
    Calls from several threads wait together, on one connection to the server."""
    global request_seen
    if environ is not None:
        return environ
    if awaiting_request():
        with _REQUEST_LOCK:
            if not request_seen:
                page_request.wait_for_page_request()
                request_seen = True  # before the lock is free: a thread let in next must not wait again
    return os.environ


def requested(name: str, environ=None) -> "str | None":
    """The last value of ``name`` on the app's address (``?name=...``; Voila hands the query string
    to the kernel as ``QUERY_STRING``: ``request_environ``), or None when it is not there (or blank)."""
    values = parse_qs(request_environ(environ).get("QUERY_STRING", "")).get(name)
    return values[-1] if values else None


def page_session(environ=None, *, refresh: bool = False) -> PageSession:
    """This kernel's ``PageSession`` (made once per kernel, once its page's request is there;
    ``refresh`` asks again)."""
    global _SESSION
    with _SESSION_LOCK:
        if _SESSION is None or refresh or environ is not None or awaiting_request():
            _SESSION = open_session(environ)
        return _SESSION


def open_session(environ=None) -> PageSession:
    environ = request_environ(environ)
    if not environ.get("JUPYTERHUB_USER") and session_token(environ) is None:
        return PageSession()
    from golflab.classroom import Store, StoreUnavailable, current_user

    try:
        store = Store(environ=environ)
        return PageSession(store, current_user(store, environ))
    except StoreUnavailable as exc:
        return PageSession(problem=f"Your progress cannot be kept here ({exc}). You can still play.")
    except ValueError as exc:  # a bad setting, e.g. GOLFLAB_SESSION_DAYS
        return PageSession(problem=f"Your progress cannot be kept here: {exc}. You can still play.")
