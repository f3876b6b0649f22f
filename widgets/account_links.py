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
