"""The class store as an app sees it: this page's store and signed-in user, or, in plain words,
why progress is not kept. Every app asks ``page_session()``; nothing else opens the store.

A guest (no JupyterHub user, no sign-in cookie: Binder, a signed-out page) never opens the store:
the apps work as before and say that progress is not kept. A store that cannot be opened or
written (a read-only or locked file, a database that is down) gives ``problem``, a sentence the
app shows; the game still plays.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field

from golflab.classroom import Store, StoreUnavailable, current_user, session_token

GUEST_NOTE = "You are not signed in, so your progress is not kept. Sign in to keep it."


@dataclass
class PageSession:
    """This page's store and user (both None for a guest) and the latest problem, if any."""
    store: "Store | None" = None
    user: "object | None" = None
    problem: "str | None" = None
    kept: list = field(default_factory=list, repr=False)

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

    def keep(self, method: str, *args, **kwargs):
        """Call ``store.<method>(user, ...)`` for the signed-in user; None (and ``problem`` set) if
        the store fails, or for a guest. The game goes on either way."""
        if self.store is None or self.user is None:
            return None
        try:
            result = getattr(self.store, method)(self.user, *args, **kwargs)
        except StoreUnavailable as exc:
            self.problem = f"Your progress could not be kept just now ({exc}). The game goes on."
            return None
        self.problem = None
        return result


_SESSION: "PageSession | None" = None


#: True once this kernel holds its page's request (``request_environ``).
request_seen = False


def request_environ(environ=None):
    """The page request's environment: ``environ`` if given, else this kernel's ``os.environ`` once
    it holds the request (``HTTP_COOKIE``, ``QUERY_STRING``, ...).

    Voila puts the request there before it starts a kernel, except a kernel it started ahead
    (``preheat_kernel``, ``VOILA_PREHEAT`` set): there the first call waits for the page's request
    (``voila.utils.wait_for_request``), once per kernel, and every later call returns at once."""
    global request_seen
    if environ is not None:
        return environ
    if not request_seen and os.environ.get("VOILA_PREHEAT", "False") != "False":
        from voila.utils import wait_for_request

        wait_for_request()
    request_seen = True
    return os.environ


def page_session(environ=None, *, refresh: bool = False) -> PageSession:
    """This kernel's ``PageSession`` (made once per kernel; ``refresh`` asks again)."""
    global _SESSION
    if _SESSION is None or refresh or environ is not None:
        _SESSION = open_session(environ)
    return _SESSION


def open_session(environ=None) -> PageSession:
    environ = request_environ(environ)
    if not environ.get("JUPYTERHUB_USER") and session_token(environ) is None:
        return PageSession()
    try:
        store = Store(environ=environ)
        return PageSession(store, current_user(store, environ))
    except StoreUnavailable as exc:
        return PageSession(problem=f"Your progress cannot be kept here ({exc}). You can still play.")
    except ValueError as exc:  # a bad setting, e.g. GOLFLAB_SESSION_DAYS
        return PageSession(problem=f"Your progress cannot be kept here: {exc}. You can still play.")
