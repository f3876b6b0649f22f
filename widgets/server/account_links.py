"""Where a standalone server's sign-in pages are, for the server (``signin``) and the apps (``account``).

``GolflabVoila`` exports ``GOLFLAB_ACCOUNT_URL`` (``<base_url>golflab``) to its kernels; without it
(Binder, JupyterHub, a plain ``voila``) there is no sign-in page and apps offer none.
"""

from __future__ import annotations

import os
from urllib.parse import urlencode

#: The environment variable holding the sign-in pages' prefix.
ACCOUNT_ENV = "GOLFLAB_ACCOUNT_URL"


def account_base(environ=None) -> "str | None":
    """The sign-in pages' prefix (``/golflab``), or None when this server has none."""
    environ = os.environ if environ is None else environ
    return environ.get(ACCOUNT_ENV, "").strip().rstrip("/") or None


def signin_url(base: str, next_path: "str | None" = None) -> str:
    """The sign-in page, coming back to ``next_path`` afterwards."""
    return f"{base}/signin" + (f"?{urlencode({'next': next_path})}" if next_path else "")


def signout_url(base: str) -> str:
    return f"{base}/signout"


def signin_link(environ=None) -> str:
    """A ``golf-signin`` link to the sign-in page, back to this app afterwards; "" without one."""
    from html import escape

    environ = os.environ if environ is None else environ
    base = account_base(environ)
    if base is None:
        return ""
    return f'<a class="golf-signin" href="{escape(signin_url(base, this_page(environ)))}">Sign in</a>'


def this_page(environ=None) -> "str | None":
    """This app's path and query on the server (Voila's ``SCRIPT_NAME`` and ``QUERY_STRING``)."""
    environ = os.environ if environ is None else environ
    path = environ.get("SCRIPT_NAME", "")
    if not path.startswith("/") or path.startswith("//"):
        return None
    query = environ.get("QUERY_STRING", "")
    return path + (f"?{query}" if query else "")
