"""The class store's settings: environment variables, then a ``.env`` file in the working
directory, then the defaults (the rules spec's precedence: explicit arguments win over all).

| variable | meaning | default |
|---|---|---|
| ``GOLFLAB_DATABASE_URL`` (or ``DATABASE_URL``) | where the store lives | ``sqlite:///golflab.db`` |
| ``GOLFLAB_SESSION_DAYS`` | days a sign-in lasts | 30 |
| ``GOLFLAB_DB_CONNECT_TIMEOUT`` | seconds to wait for PostgreSQL to accept a connection | 10 |
| ``GOLFLAB_DB_STATEMENT_TIMEOUT`` | seconds one PostgreSQL statement may run before it is cancelled | 30 |
| ``GOLFLAB_ADMINS`` | comma-separated names made admins (a learner's or teacher's name: refused), while named | none |
| ``GOLFLAB_TEACHERS`` | comma-separated JupyterHub names that are teachers, while named (``roles``) | none |
"""

from __future__ import annotations

import os
from pathlib import Path
from urllib.parse import quote, unquote

DEFAULT_DATABASE_URL = "sqlite:///golflab.db"
DEFAULT_SESSION_DAYS = 30
MAX_SESSION_DAYS = 365
DEFAULT_CONNECT_TIMEOUT = 10
DEFAULT_STATEMENT_TIMEOUT = 30
MAX_TIMEOUT = 3600


def read_dotenv(path: "str | Path" = ".env") -> dict[str, str]:
    """``NAME=value`` lines of a ``.env`` file (``#`` comments, optional quotes); {} if none."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return {}
    values = {}
    for line in text.splitlines():
        line = line.strip()
        if not line or line.startswith("#") or "=" not in line:
            continue
        name, value = line.split("=", 1)
        name = name.strip().removeprefix("export ").strip()
        value = value.strip()
        if len(value) >= 2 and value[0] == value[-1] and value[0] in "'\"":
            value = value[1:-1]
        values[name] = value
    return values


def setting(name: str, default: "str | None" = None, *, environ=None, dotenv: "str | Path" = ".env") -> "str | None":
    """A setting's value: the environment, then ``.env``, then ``default`` (an empty value is unset)."""
    environ = os.environ if environ is None else environ
    value = environ.get(name)
    if value is None or not value.strip():
        value = read_dotenv(dotenv).get(name)
    return value.strip() if value is not None and value.strip() else default


def database_url(environ=None) -> str:
    """``GOLFLAB_DATABASE_URL``, else ``DATABASE_URL``, else a SQLite file in the working directory
    (its user name and password quoted: ``quoted_credentials``)."""
    given = setting("GOLFLAB_DATABASE_URL", environ=environ) or setting("DATABASE_URL", environ=environ)
    return quoted_credentials(given or DEFAULT_DATABASE_URL)


def quoted_credentials(url: str) -> str:
    """``url`` with its user name and password percent-encoded, as a URL must hold them: a password
    written as it is (``postgresql://golflab:p@ss/w:rd@db/golflab``) is read up to the last ``@``
    before the host. Already-encoded credentials stay as they are; a SQLite URL is a file's path."""
    scheme, sep, rest = url.partition("://")
    at = rest.rfind("@")
    if not sep or at < 0 or scheme.startswith("sqlite"):  # a file's path has no credentials
        return url
    user, colon, password = rest[:at].partition(":")
    cred = quote(unquote(user), safe="") + (colon and ":" + quote(unquote(password), safe=""))
    return f"{scheme}://{cred}@{rest[at + 1:]}"


def session_days(environ=None) -> int:
    """``GOLFLAB_SESSION_DAYS``: a whole number of days from 1 to 365 (a clear error otherwise)."""
    raw = setting("GOLFLAB_SESSION_DAYS", environ=environ)
    if raw is None:
        return DEFAULT_SESSION_DAYS
    if not raw.isdigit() or not 1 <= int(raw) <= MAX_SESSION_DAYS:
        raise ValueError(f"GOLFLAB_SESSION_DAYS must be a whole number of days from 1 to {MAX_SESSION_DAYS}, "
                         f"got {raw[:40]!r}")
    return int(raw)


def seconds(variable: str, default: float, environ=None) -> float:
    """A timeout setting: a number of seconds above 0 and at most ``MAX_TIMEOUT`` (a clear error otherwise)."""
    raw = setting(variable, environ=environ)
    if raw is None:
        return float(default)
    try:
        value = float(raw)
    except ValueError:
        value = -1.0
    if not 0 < value <= MAX_TIMEOUT:
        raise ValueError(f"{variable} must be a number of seconds above 0 and at most {MAX_TIMEOUT}, "
                         f"got {raw[:40]!r}")
    return value


def connect_timeout(environ=None) -> float:
    """``GOLFLAB_DB_CONNECT_TIMEOUT``: how long opening a PostgreSQL connection may wait."""
    return seconds("GOLFLAB_DB_CONNECT_TIMEOUT", DEFAULT_CONNECT_TIMEOUT, environ)


def statement_timeout(environ=None) -> float:
    """``GOLFLAB_DB_STATEMENT_TIMEOUT``: how long one PostgreSQL statement may run."""
    return seconds("GOLFLAB_DB_STATEMENT_TIMEOUT", DEFAULT_STATEMENT_TIMEOUT, environ)


def names(variable: str, environ=None) -> list[str]:
    """A comma-separated list of names (``GOLFLAB_ADMINS``, ``GOLFLAB_TEACHERS``)."""
    raw = setting(variable, environ=environ) or ""
    return [n.strip() for n in raw.split(",") if n.strip()]
