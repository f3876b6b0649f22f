"""Who is at the keyboard: the JupyterHub user, or the signed-in learner of a standalone server.

On JupyterHub the Hub's user (``JUPYTERHUB_USER``) is the learner, with no second sign-in;
teachers are the Hub's admins and the names in ``GOLFLAB_TEACHERS``, while they are (a name taken
out is a learner again at its next page: ``roles``). On a standalone server
the sign-in page sets the ``golflab_session`` cookie (HttpOnly, SameSite) and Voila passes the
page's ``Cookie`` header to the app's kernel as ``HTTP_COOKIE``; the store turns its token into
the user. Signed out (Binder, guests): None.
"""

from __future__ import annotations

import json
import os
import urllib.request
from http.cookies import CookieError, SimpleCookie

from . import settings

COOKIE_NAME = "golflab_session"


def session_token(environ=None) -> "str | None":
    """The session token in the page's cookies (``HTTP_COOKIE``), if any."""
    environ = os.environ if environ is None else environ
    raw = environ.get("HTTP_COOKIE", "")
    if COOKIE_NAME not in raw:
        return None
    cookies = SimpleCookie()
    try:
        cookies.load(raw)
    except CookieError:
        return None
    morsel = cookies.get(COOKIE_NAME)
    return morsel.value if morsel is not None and morsel.value else None


def hub_admin(environ=None) -> bool:
    """Whether the Hub says its user is an admin (asked with the server's own API token)."""
    return hub_says_admin(environ) is True


def hub_says_admin(environ=None) -> "bool | None":
    """The Hub's answer to whether its user is an admin: False without a Hub API to ask, None when
    the Hub could not answer (a user's role is then left as it is, never lowered by an outage)."""
    environ = os.environ if environ is None else environ
    url, token = environ.get("JUPYTERHUB_API_URL"), environ.get("JUPYTERHUB_API_TOKEN")
    if not url or not token:
        return False
    request = urllib.request.Request(url.rstrip("/") + "/user", headers={"Authorization": f"token {token}"})
    try:
        with urllib.request.urlopen(request, timeout=3) as response:
            return bool(json.loads(response.read()).get("admin"))
    except (OSError, ValueError):
        return None


def current_user(store, environ=None):
    """The user of this kernel's page, or None when nobody is signed in."""
    environ = os.environ if environ is None else environ
    hub_name = environ.get("JUPYTERHUB_USER")
    if hub_name:
        teachers = {name.casefold() for name in settings.names("GOLFLAB_TEACHERS", environ)}
        # names are one in any case; the Hub is asked only about a name the setting does not give
        teacher = True if hub_name.casefold() in teachers else hub_says_admin(environ)
        return store.hub_user(hub_name, teacher=teacher)
    return store.user_for(session_token(environ))
